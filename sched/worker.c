/*
 * The worker loop: one per core for the length of a run. It finds work
 * (find_work.c), runs it (run_task.c), parks when there is none (park.c), and
 * keeps the ticks that bound how long the LIFO slot and the global queue can
 * be kept waiting.
 *
 * Ticks and the budget: a tick is HIVE_BUDGET (128) tasks. At the end of a
 * tick the LIFO slot is flushed to the ring and the next poll goes to the
 * global queue first, so neither the ring nor the global queue waits more than
 * a tick behind a task that keeps spawning into the LIFO slot; and the tick's
 * mean task time sets the global interval (hive_tick_end, find_work.c).
 */
#include "sched/latent_gate.h"
#include "sched/sched_internal.h"

/* End of a tick: the LIFO slot yields to the ring, and the next poll looks
 * at the global queue first. */
static void end_tick(struct hive_worker *w)
{
    hive_tick_end(w, hive_port_now_ns());
    if (w->lifo) {
        struct hive_task *t = w->lifo;
        w->lifo = NULL;
        hive_publish_ring(w, t);
    }
    w->lifo_polls = 0;
    w->polls = w->interval;
    /* Between tasks no floor is recorded on this stack: a moved entry
     * (group.c, own_task_under_floor) is under none of them now. */
    w->moved_from = w->moved_to;
}

/*
 * A group task taken here, between tasks, while this core holds credits
 * (run.c, "Credits"): those credits may be the run's last counts. A group
 * that is waited for has its waiter, a counted task, still running, so the
 * count is above zero while its tasks are queued; but a group nobody waits
 * for leaves its tasks queued after the run's last counted task, and running
 * one would tell a group that may be gone - its spawner's frame has returned
 * - that it finished. So settle first: give the credits back, and if that
 * ended the run, drop the task as the run's end drops those still queued.
 * The run ends here as it would have when its last task finished (the credits
 * only delay the count), and a task of a waited group is run as before.
 */
static bool ended_before(struct hive_worker *w, struct hive_task *t)
{
    hive_credits_return(w);
    if (!hive_run_done())
        return false;
    hive_run_drop_unwaited(t);
    return true;
}

void hive_worker_main(void *unused)
{
    (void)unused;
    unsigned id = hive_port_core_id();
    struct hive_worker *w = &hive_workers[id];
    hive_tls_worker = w;
    /* relaxed (both): this core's own (sched.h). */
    atomic_store_explicit(&hive_tls_task_worker, w, memory_order_relaxed);
    /* Half the stack below here: what waits may spend on unrelated work
     * (hive_wait_for). No room known: every wait keeps to its own work. */
    char here;
    w->deep_below = (uintptr_t)&here - hive_port_stack_room() / 2;
    /* The last run's holds were of its groups (a run that ended with private
     * tasks dropped them: run.c), and so were its hint (publish.c), a
     * waiter's ask (victims.c), its keep and a wake owed for one. relaxed
     * (all): the backstop's checks of this run begin after these stores
     * (the port starts none before a push of this core's arms one); an ask
     * is a hint whose loss waits for the asker's park (victims.c). */
    atomic_store_explicit(&w->holds_used, 0, memory_order_relaxed);
    atomic_store_explicit(&w->hold_keeping, 0, memory_order_relaxed);
    atomic_store_explicit(&w->kept_group, NULL, memory_order_relaxed);
    atomic_store_explicit(&w->keep_wake, 0, memory_order_relaxed);
    /* As if a core wanted work as the run began (the idle word says none
     * does until the other workers start): no spawn runs at once while
     * every core is busy before a quiet stretch (group.c). */
    w->group_spawns = w->wanted_seen_at = 0;
    w->deque_stocked = false; /* the deque starts empty (group.c) */
    w->poke_ready = false;
    atomic_store_explicit(&w->private_held, false, memory_order_relaxed);
    atomic_store_explicit(&w->work_asked, false, memory_order_relaxed);
    hive_latent_gate_begin(&w->latent);
    HIVE_TRACE_CORE_BEGIN();
#ifdef HIVE_DEBUG_CHECKS
    w->spin_held_at_start = hive_spin_held_here();
#endif
    /* Core 0 is hive_run's caller, which read the clock just before (its
     * t0); another core may start later than that. */
    if (id != 0)
        w->tick_start_ns = hive_port_now_ns();
    while (!hive_run_done()) {
        struct hive_task *t = hive_find_work(w);
        if (!t) {
            hive_park(w);
            continue;
        }
        if (hive_task_is_group(t->kind) && w->credits && ended_before(w, t))
            continue;
        hive_run_task(w, t);
        if (++w->tick_tasks >= HIVE_BUDGET)
            end_tick(w);
    }
    if (w->searching) {
        w->searching = false;
        hive_idle_stop_search(&hive_scheduler.idle);
    }
    /* A task taken between the decrement that ended the run and the store
     * of done (spawned from outside for the next run, and run in this one)
     * left its count here: give it back, as the next run counts from it. */
    hive_credits_return(w);
    HIVE_TRACE_CORE_END();
    hive_latent_gate_end(&w->latent);
    atomic_store_explicit(&hive_tls_task_worker, NULL, memory_order_relaxed);
    hive_tls_worker = NULL;
}
