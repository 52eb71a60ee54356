/*
 * Making work visible to other cores, and telling an idle core about it: the
 * one place in sched/ that calls hive_idle_notify.
 *
 * hive_publish_ring, _pulled, _forkjoin, _private, _oldest_private and
 * _global are the only functions that make a task takeable by other cores -
 * this core's ring, its fork-join deque (a push, or private entries made
 * stealable: sched/group.c, "Private group tasks"), the global queue - and
 * each then notifies (rule 1 of sched/idle.c): a load of the idle state,
 * then a wake if nobody is searching and someone is parked. Callers that
 * queue a task for others go through them, so none can forget the notify.
 * The one exception, the heartbeat's publish from an interrupt
 * (hive_sched_poked, below), is followed by its caller's fenced notify.
 *
 * A push to the global queue - from a worker, another thread or an
 * interrupt handler - has a seq_cst fence between the push and that load.
 * Without it the load could be ordered before the push, every worker could
 * park having scanned before the push, and the task would wait with every
 * core asleep.
 *
 * A worker's push to its own ring or fork-join deque has no fence: it is the
 * dearest instruction of a spawn, and the task cannot be left with every
 * core asleep anyway - its core is awake and runs its own queues before it
 * parks, and the parks after it rescan (idle.c, "Own pushes"). What the
 * fence buys there is parallelism: a core that parks just as the push is
 * made may miss it and sleep while the pushing core runs something long.
 * That is bounded by the backstop: a push that woke nobody arms the port's
 * backstop (hive_port_backstop) unless one is pending, and HIVE_BACKSTOP_NS
 * later the check runs as an interrupt of the pushing core: while no core is
 * parked it only looks (and looks again a period later); once one is, a
 * fence, then if work is still queued there, the fenced notify. So a core
 * sleeps beside a busy core's queued work for at most two periods (plus the
 * interrupt's latency), at the cost of a check per period while some core
 * has pushed and none has parked since, instead of a fence per push.
 * (Rayon's push has no fence either, and no backstop.)
 *
 * hive_notify_idle is for work that is already where others can take it
 * when someone must be told: the hand-offs of the idle protocol (rule 2: the
 * last searcher found work, so another must go on searching; rule 3: a
 * worker that parked leaving nobody searching found work in its rescan) and
 * a batch that a steal moved into the ring of a core that is not a searcher
 * (wait.c). Those keep the fence: they are rare, and their argument is the
 * fenced one.
 *
 * A spawn into the empty LIFO slot publishes nothing: the slot is never
 * stolen. Only the task it evicts, pushed into the ring, is published.
 */
#include "sched/sched_internal.h"
#include "sched/sched.h"

/* A notify's wake, traced and counted (w NULL: from outside the workers). */
static void count_wake(struct hive_worker *w, int woken)
{
    (void)woken; /* untraced builds */
    HIVE_TRACE_EVENT(HIVE_TRACE_WAKE, woken, w ? HIVE_TRACE_WAKE_NOTIFY : HIVE_TRACE_WAKE_OUTSIDE);
    if (w)
        w->stats.wakes++;
}

void hive_notify_idle(struct hive_worker *w)
{
    int woken = hive_idle_notify(&hive_scheduler.idle);
    if (woken >= 0)
        count_wake(w, woken);
}

/*
 * The backstop's check (hive_port_backstop) of `core`'s pushes.
 *
 * While no core is parked nobody can have missed a push yet: look again a
 * period later, keeping the flag (so the core's pushes meanwhile cost no
 * call of the port). That look is one load of S (and one of the core's
 * work_asked, below), where the full check costs a membarrier on the host,
 * an interrupt of every core thread; while every core is busy and nobody
 * asks the check is only those loads, once a period.
 *
 * Once a core is parked - or a waiter has asked this core for what it holds
 * (work_asked: a waiter's steal round for private tasks, victims.c; a deep
 * waiter, which polls and never parks, for private tasks - it may take
 * those of the core that took its frame - or for the end of a keep,
 * wait.c; "The heartbeat" below) - the full check: the flag is cleared, then
 * hive_port_backstop_fence, a fence as if on `core` itself (it is, on the
 * boards). A push of that core's before the fence is seen by the loads
 * below; one after it sees the flag clear and arms the backstop again -
 * either way none is left unchecked. If work is still queued where the core
 * put it - its ring, its deque, or the global queue its full ring spilled
 * to - the fenced notify (rule 1's fence, late). What it wakes is counted
 * in the core's backstop_wakes, a field nothing else writes (the core's own
 * counts may be mid-update below an interrupt).
 *
 * A core that parks after a look that found none parked is found by the
 * next period's look: so a core sleeps beside such work for at most two
 * periods.
 */

/* A wake the poke owed for a keep it ended (hive_sched_poked), done here.
 * acquire: pairs with the poke's release store: what the keep's tasks wrote
 * is the woken waiter's to see (the decrement's release, read by its
 * acquire load, says so too; this only carries the word). */
static void keep_wake_owed(struct hive_worker *w)
{
    /* relaxed: a look first, so that a check with none owed writes nothing. */
    if (atomic_load_explicit(&w->keep_wake, memory_order_relaxed))
        hive_await_wake(atomic_exchange_explicit(&w->keep_wake, 0, memory_order_acquire));
}

static bool backstop_check(unsigned core)
{
    struct hive_idle *idle = &hive_scheduler.idle;
    struct hive_worker *w = &hive_workers[core];
    /* A poke whose handler ran after its poker gave up (the host's signal,
     * held back) left its wake for this check. */
    keep_wake_owed(w);
    /* seq_cst, and what parks is an RMW of S: a core parked before this
     * load is seen parked. Or a waiter asked this core for what it holds
     * (see above). relaxed: a hint, which the asker sets again while it
     * still finds nothing (each steal round, or each HIVE_WAIT_SPIN_NS). */
    if (hive_idle_unparked(atomic_load(&idle->state)) >= hive_idle_workers(idle) &&
        !atomic_load_explicit(&w->work_asked, memory_order_relaxed))
        return true;
    /* relaxed: ordered by the fence below, for both sides (see above). */
    atomic_store_explicit(&w->backstop_armed, false, memory_order_relaxed);
    hive_port_backstop_fence();
    /* The heartbeat: the core's private tasks become stealable, by the core
     * itself, before the look below (see "The heartbeat"). The hint is read
     * after the fence, as the queues are: a private push before it is seen,
     * one after it sees the flag clear and arms the check again. A poke not
     * taken in time (the host's signal held back) is tried again a period
     * later; the look goes on all the same. */
    bool again = false;
    /* relaxed: a hint, ordered by the fence above (see "The heartbeat"). */
    bool held = atomic_load_explicit(&w->private_held, memory_order_relaxed) ||
                atomic_load_explicit(&w->hold_keeping, memory_order_relaxed);
    if (held && !hive_port_poke(core, hive_sched_poked)) {
        atomic_store_explicit(&w->backstop_armed, true, memory_order_relaxed);
        again = true;
    }
    /* An ask for what is no longer here (the core popped its last private
     * task, or its keep ended, since): answered, or every check would take
     * this full path for it. An asker that still wants asks again. */
    if (!held)
        hive_work_asked_answered(w);
    /* A poke not yet run (given up above or at an earlier check, or one
     * whose handler is under way) may still end the keep and leave its
     * wake in keep_wake: looked at again a period later until none may
     * (the host's signal; model/keep.pml found that wake lost when the
     * next check found the keep ended, by that handler, but its wake not
     * yet stored, and asked for no check after). Before the look at
     * keep_wake below: a poke that has run stored its wake before it was
     * answered, so that look sees it. */
    if (hive_port_poke_pending(core))
        again = true;
    keep_wake_owed(w);
    if (!hive_ring_len(&w->queues.ring) && !hive_deque_len(&w->queues.forkjoin) &&
        hive_global_is_empty(&hive_scheduler.global))
        return again;
    if (hive_idle_notify(idle) >= 0)
        w->stats.backstop_wakes++;
    return again;
}

void hive_backstop_arm_now(struct hive_worker *w)
{
    /* relaxed: as the load in hive_backstop_arm (sched_internal.h). */
    atomic_store_explicit(&w->backstop_armed, true, memory_order_relaxed);
    hive_port_backstop(HIVE_BACKSTOP_NS, backstop_check);
}

/* A worker's push to its own queues: the notify without the fence, and the
 * backstop if it woke nobody (see the top). In a run of one worker that
 * worker is this one, running: there is nobody to wake. */
static inline void notify_own(struct hive_worker *w)
{
    if (hive_scheduler.workers == 1)
        return;
    int woken = hive_idle_notify_unfenced(&hive_scheduler.idle);
    if (woken >= 0) {
        /* The claim's RMW follows the push: the woken core sees the task. */
        count_wake(w, woken);
        return;
    }
    /* The push before the arming's look at backstop_armed, in the code the
     * compiler emits: the check runs as an interrupt of this core (the
     * host's membarrier acts as one), so it sees the core's instructions in
     * the order they were emitted. C11 lets a compiler hoist the seq_cst
     * load of the idle word above the push's release store, and the flag's
     * relaxed load (which may not pass that load) with it: the check could
     * then clear the flag and find no work between the flag's load and the
     * push, and this core, having read the flag set, would arm nothing -
     * the push left to the own-push argument alone, without the two
     * periods' bound. No instruction: a compiler barrier. */
    atomic_signal_fence(memory_order_seq_cst);
    hive_backstop_arm(w);
}

/* A push that spilled to the global queue (t, or the first of several):
 * counted and traced in one place, as tools/hive-trace check holds every
 * counted overflow to an event. */
static void count_overflow(struct hive_worker *w, struct hive_task *t)
{
    (void)t; /* untraced builds */
    HIVE_TRACE_EVENT(HIVE_TRACE_OVERFLOW, t, 0);
    w->stats.overflows++;
}

/* Inline into hive_publish_spawn, the path of every spawn that evicts. */
static inline void publish_ring(struct hive_worker *w, struct hive_task *t)
{
    /* Traced before the push: once pushed, another core may steal t, and
     * its trace must not show the steal before the push. */
    HIVE_TRACE_EVENT(HIVE_TRACE_SPAWN, t, HIVE_TRACE_AT_RING);
    /* A full ring spills half of itself and t to the global queue: either
     * way t is where other cores can take it. */
    if (hive_ring_push(&w->queues.ring, t, &hive_scheduler.global))
        count_overflow(w, t);
    notify_own(w);
}

void hive_publish_ring(struct hive_worker *w, struct hive_task *t)
{
    publish_ring(w, t);
}

void hive_publish_pulled(struct hive_worker *w, struct hive_task *list)
{
    /* In one store of tail: the ring was empty when the pull was sized, so
     * it has room unless a thief still copies out a batch of it. Such a
     * thief, held up (a preempted QEMU vCPU, say), keeps its claimed slots
     * while this core pops and pushes on, until the ring counts full with
     * none of its tasks queued: then the pushes below spill, each task back
     * to the global queue, as one overflow. */
    if (!hive_ring_push_list(&w->queues.ring, list, HIVE_GLOBAL_PULL_MOST)) {
        struct hive_task *spilled = NULL;
        while (list) {
            struct hive_task *t = list;
            list = t->next; /* read before the push: a thief may take t at once */
            if (hive_ring_push(&w->queues.ring, t, &hive_scheduler.global) && !spilled)
                spilled = t;
        }
        if (spilled)
            count_overflow(w, spilled);
    }
    notify_own(w);
}

/* Make the n oldest of the `have` private entries stealable: each counted in
 * its group (group.c), then one release store of bottom; no notify (the
 * caller's). The core's hints follow: none left held, any waiter's ask
 * answered. From task code inside the private mark, or from the core's
 * interrupt outside one (hive_sched_poked). */
static void make_stealable(struct hive_worker *w, uint32_t have, uint32_t n)
{
    struct hive_deque *d = &w->queues.forkjoin;
    /* relaxed: this core's own mark (hive_private_enter). */
    HIVE_CHECK(hive_port_in_interrupt() ==
                   !atomic_load_explicit(&w->private_busy, memory_order_relaxed),
               HIVE_RULE_PRIVATE_MARK);
    HIVE_CHECK(n <= have && have == hive_deque_private_len(d), HIVE_RULE_PRIVATE_MARK);
    uint32_t first = hive_deque_bottom(d) - have;
    for (uint32_t i = first; i != first + n; i++) {
        struct hive_task *t = hive_deque_at(d, i);
        if (t->kind == HIVE_TASK_GROUP_HELD)
            hive_group_task_count(w, t);
    }
    hive_deque_publish_oldest(d, n);
    /* relaxed: a hint ("The heartbeat"). */
    if (n == have)
        atomic_store_explicit(&w->private_held, false, memory_order_relaxed);
    hive_work_asked_answered(w);
}

/*
 * The heartbeat. A core that holds private tasks (group.c) offers them at its
 * own next spawn, pop or wait once some core wants work - which a task that
 * spawns and then runs long, or spins, never reaches. So a private push arms
 * the backstop (if it is not armed), and the backstop's check, once some core
 * is parked, pokes the core first (hive_port_poke: on the boards the check
 * runs on the core itself, in its timer interrupt; on the host the port
 * signals the core's thread and waits for its handler), and the poke
 * publishes every private task of the core's (hive_sched_poked) - unless the
 * core is inside a private operation of its own, which the interrupt must
 * not cut in two: then the operation publishes as it ends
 * (hive_private_leave). The check's look that follows sees the tasks and
 * notifies with the fence. So a group task waits for a core that wants work
 * at most about two backstop periods (HIVE_BACKSTOP_NS) after that core
 * parked, whatever its spawner runs. The check pokes only a core whose
 * private_held hint is set: it reads the hint after its fence, against the
 * private push's store of it before that push's look at backstop_armed -
 * the pairing that covers every own push (above): either the check sees the
 * hint, or the push sees the flag clear and arms the check again.
 * model/heartbeat.pml checks this - the hint, the arm, the mark's serve and
 * the check's look - against a core that parks, asks or polls.
 *
 * The poke also ends a keep (group.c, "Kept holds"), whose count may
 * be all that keeps a waiter of its group on another core waiting while
 * the spawner runs on: the keep sets hold_keeping and arms the check as a
 * private push does, with the same pairing. Such a waiter either parks
 * (the check then sees a core parked) or, deep in its stack, polls and
 * asks the keeping core (work_asked: wait.c) - so the check acts on an
 * ask too, not only on a parked core. The keep's end may be its group's
 * last count with a waiter asleep: that wake, which the host's handler
 * cannot make, the poke leaves in keep_wake for the check to make after it
 * (or for the next check, where the host's poke gave up waiting for its
 * handler).
 */
static void poked(struct hive_worker *w)
{
    /* relaxed (both): this core's own marks, read in an interrupt of it
     * (sched_internal.h, hive_private_enter). */
    if (atomic_load_explicit(&w->private_busy, memory_order_relaxed)) {
        atomic_store_explicit(&w->private_asked, 1, memory_order_relaxed);
        return;
    }
    uint32_t have = hive_deque_private_len(&w->queues.forkjoin);
    /* No notify here: the caller (backstop_check) looks and notifies with
     * the fence, which the host's signal handler could not (the wake takes
     * locks). Nor any other wake for the publish: a group's count reaches
     * zero only at a task's end (or a keep's, below), and every count this
     * takes off (a hold's, in hive_group_task_count) comes after the task's
     * own count was added. */
    if (have)
        make_stealable(w, have, have);
    /* A keep ends (group.c, "Kept holds"): its count may be its
     * group's last, with a waiter asleep - the check wakes it. A wake
     * still owed from an earlier poke (whose check gave up waiting) is not
     * lost: two words or'ed name the wrong core, so OTHERS joins them -
     * every core is woken. release: pairs with keep_wake_owed (relaxed on
     * failure: the loop only retries). Then an ask is answered. */
    unsigned long owed = hive_group_keep_poked(w);
    if (owed) {
        unsigned long was = atomic_load_explicit(&w->keep_wake, memory_order_relaxed);
        while (!atomic_compare_exchange_weak_explicit(&w->keep_wake, &was,
                                                      was ? was | owed | HIVE_AWAIT_OTHERS : owed,
                                                      memory_order_release, memory_order_relaxed))
            ;
    }
    if (!hive_deque_private_len(&w->queues.forkjoin))
        hive_work_asked_answered(w);
}

void hive_sched_poked(void)
{
    struct hive_worker *w = hive_tls_worker;
    if (!w)
        return;
    /* An interrupt of this core: out of task context (sched.h). On the
     * boards the timer's interrupt, inside which the check pokes, has
     * passed the hooks already, and this changes nothing; on the host the
     * poke's signal handler is the port's one interrupt, and passes them
     * here (the host port, which the queue tests link without the
     * scheduler proper, calls none of the scheduler's code itself). */
    struct hive_sched_interrupted saved = hive_sched_interrupt_enter();
    poked(w);
    hive_sched_interrupt_exit(saved);
}

void hive_private_serve(struct hive_worker *w)
{
    /* relaxed: this core's own mark (hive_sched_poked). */
    atomic_store_explicit(&w->private_asked, 0, memory_order_relaxed);
    hive_publish_private(w);
    hive_group_keep_drop(w);
    if (!hive_deque_private_len(&w->queues.forkjoin))
        hive_work_asked_answered(w);
}

/* All private entries (half: the older half, as Lace moves its split), then
 * the notify. */
static void publish_private(struct hive_worker *w, bool half)
{
    /* None (a deep wait asks at every look that found nothing): done. */
    if (!hive_deque_private_len(&w->queues.forkjoin))
        return;
    hive_private_enter(w);
    /* Again under the mark: the heartbeat may have published them since. */
    uint32_t have = hive_deque_private_len(&w->queues.forkjoin);
    if (have)
        make_stealable(w, have, half ? (have + 1) / 2 : have);
    hive_private_leave(w);
    notify_own(w);
}

void hive_publish_private(struct hive_worker *w) { publish_private(w, false); }
void hive_publish_oldest_private(struct hive_worker *w) { publish_private(w, true); }

struct hive_task *hive_publish_forkjoin(struct hive_worker *w, struct hive_task *t)
{
    HIVE_TRACE_EVENT(HIVE_TRACE_SPAWN, t, HIVE_TRACE_AT_FORKJOIN);
    /* Under it, stealable first: a push publishes everything below it. */
    hive_private_enter(w);
    uint32_t have = hive_deque_private_len(&w->queues.forkjoin);
    if (have)
        make_stealable(w, have, have);
    /* A private task popped and pushed back (group.c) goes public counted. */
    if (t->kind == HIVE_TASK_GROUP_HELD)
        hive_group_task_count(w, t);
    struct hive_task *refused = hive_deque_push(&w->queues.forkjoin, t);
    hive_private_leave(w);
    notify_own(w);
    return refused; /* full: not queued, the caller runs it */
}

void hive_publish_global(struct hive_task *t)
{
    HIVE_TRACE_EVENT(HIVE_TRACE_SPAWN, t, HIVE_TRACE_AT_GLOBAL);
    hive_global_push(&hive_scheduler.global, t);
    /* A store (the queue's length) then a load (the phase), against
     * hive_run's store of the phase then its workers' load of the
     * queue: the store-buffering shape, so a seq_cst fence on each side
     * (the other is in run.c). Then if we see a phase before RUNNING,
     * the run's fence comes after ours and its workers see the task
     * when they start; nobody needs a notify. The fence is explicit
     * because QEMU lets a seq_cst load pass an earlier seq_cst store
     * (docs/ordering.md). */
    atomic_thread_fence(memory_order_seq_cst);
    if (atomic_load(&hive_scheduler.phase) != HIVE_PHASE_RUNNING)
        return;
    /* relaxed: a statistic, read after the run. */
    atomic_fetch_add_explicit(&hive_scheduler.injected, 1, memory_order_relaxed);
    /* From outside the run's workers: even the one worker of a run of one
     * may be parked. */
    hive_notify_idle(NULL);
}

void hive_publish_spawn(struct hive_worker *w, struct hive_task *t)
{
    struct hive_task *prev = w->lifo;
    HIVE_TRACE_EVENT(HIVE_TRACE_SPAWN, t, HIVE_TRACE_AT_LIFO);
    w->lifo = t;
    w->stats.spawned++;
    if (prev)
        publish_ring(w, prev); /* the evicted task becomes stealable */
}
