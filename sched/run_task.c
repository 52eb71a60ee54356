/*
 * Running one task taken from a queue: its kind (enum hive_task_kind in
 * sched_internal.h) decides what happens around its fn - a join frame is
 * run for its joiner, a counted, group or entry task is handed back to its
 * owner (state IDLE) before fn runs and its end is counted after. Also the task's
 * fork-join floor, which bounds how far a deep wait inside it may pop this
 * core's deque (join.c, "Waiting").
 */
#include "sched/sched_internal.h"

/* The function the caller gave for t, not the scheduler's wrapper around it:
 * what a watchdog report names. */
static uintptr_t callers_fn(const struct hive_task *t)
{
    uintptr_t fn;
    if (t->kind == HIVE_TASK_JOIN_FRAME)
        return hive_join_frame_fn(t);
    if ((fn = hive_pool_task_fn(t)) || (fn = hive_run_entry_fn(t)))
        return fn;
    return (uintptr_t)t->fn;
}

/* The task itself, with its floor: the part of hive_run_task that runs with
 * or without a watchdog. Apart from the watchdog's part so that a run
 * without one keeps none of that live across fn (fewer registers saved per
 * task). */
static inline void run_body(struct hive_worker *w, struct hive_task *t)
{
    /* The task's floor: what it (and work nested in its waits) pushes lies at
     * or above today's bottom, what is below belongs to the frames under it
     * on this stack. A deep wait inside it pops no lower (join.c, "Waiting"). */
    uint32_t floor = w->forkjoin_floor;
    w->forkjoin_floor = hive_deque_bottom(&w->queues.forkjoin);
    enum hive_task_kind kind = (enum hive_task_kind)t->kind;
    if (kind == HIVE_TASK_JOIN_FRAME) {
        /* Not counted and no state: its joiner waits for its done flag. */
        hive_join_frame_run(t);
        hive_group_keep_drop(w);
    } else {
        if (kind > HIVE_TASK_GROUP_HELD)
            hive_port_panic("a queued task of no known kind");
        /* Read the header before giving it back: from the store (or
         * exchange) of IDLE on it is the caller's, and fn may free or
         * respawn it. */
        void (*fn)(struct hive_task *) = t->fn;
        struct hive_group *g = t->group;
        unsigned hold = t->chunk_len; /* a private task's (group.c) */
        /* Give the header back: IDLE. release: pairs with the acquire CAS
         * in hive_spawn_claim; whoever spawns t again sees our reads of its
         * header done. A counted task's is an exchange, acquire too: the
         * worker's half of the EBUSY promise (spawn.c, the top) - a
         * hive_spawn refused while t was queued marked the state with a
         * release read-modify-write, and reading that mark (or a later one)
         * here makes what the refused caller wrote visible to fn. Not for a
         * group's task, whose refusal promises nothing (hive.h), nor the
         * run's entry: skynet runs a group task per node, and when they
         * paid the fence that preceded the exchange it cost skynet 23% at 1
         * worker. The exchange replaced a store and a seq_cst fence
         * (spawn.c has the figures): it waits for the header's line, which
         * the queues prefetch for writing (ring.c, global_queue.c). */
        unsigned was = HIVE_TASK_QUEUED;
        if (kind == HIVE_TASK_COUNTED)
            was = atomic_exchange_explicit(&t->state, HIVE_TASK_IDLE, memory_order_acq_rel);
        else
#ifdef HIVE_DEBUG_CHECKS
            was = atomic_exchange_explicit(&t->state, HIVE_TASK_IDLE, memory_order_release);
#else
            atomic_store_explicit(&t->state, HIVE_TASK_IDLE, memory_order_release);
#endif
        /* A task taken twice for one spawn finds IDLE here the second time
         * (or, if it was spawned again in between, leaves the later take to
         * find it). A debug build reads every kind's state for it (the
         * others' exchange is a store in a build without the checks); a
         * counted task's exchange is the same in both. */
        HIVE_CHECK(was & HIVE_TASK_QUEUED, HIVE_RULE_RUN_ONCE);
        (void)was;
        fn(t);
        hive_group_keep_drop(w);
        if (kind == HIVE_TASK_COUNTED)
            hive_outstanding_done(w);
        else if (kind == HIVE_TASK_GROUP)
            hive_group_task_done(g); /* uncounted: its waiter is (group.c) */
        else if (kind == HIVE_TASK_GROUP_HELD) {
            /* Counted in its core's hold. */
            hive_private_enter(w);
            hive_group_hold_done(w, hold);
            hive_private_leave(w);
        }
        else
            hive_outstanding_sub(1); /* the entry: see enum hive_task_kind */
    }
    w->forkjoin_floor = floor;
}

/* Out of line, or the compiler merges it back into hive_run_task and its
 * registers with it (GCC and clang; another compiler decides for itself). */
#if defined(__GNUC__) || defined(__clang__)
#define OUT_OF_LINE __attribute__((__noinline__))
#else
#define OUT_OF_LINE
#endif

/* With a watchdog: this core is in t from now on (watchdog.c). */
static OUT_OF_LINE void run_watched(struct hive_worker *w, struct hive_task *t)
{
    struct hive_watch_mark prior = hive_watch_enter(w->id, callers_fn(t));
    run_body(w, t);
    hive_watch_leave(w->id, prior);
}

/* A task run at once by its spawner (spawn.c, hive_spawn_or_run), with a
 * watchdog: this core is in fn until it returns. */
void hive_run_watched_fn(struct hive_worker *w, struct hive_task *t, void (*fn)(struct hive_task *))
{
    struct hive_watch_mark prior = hive_watch_enter(w->id, (uintptr_t)fn);
    fn(t);
    hive_watch_leave(w->id, prior);
}

void hive_run_task(struct hive_worker *w, struct hive_task *t)
{
    w->stats.tasks_run++;
    HIVE_TRACE_EVENT(HIVE_TRACE_TASK_START, t, callers_fn(t));
    if (w->watch)
        run_watched(w, t);
    else
        run_body(w, t);
    /* t itself may be gone or queued again: only its address is recorded. */
    HIVE_TRACE_EVENT(HIVE_TRACE_TASK_END, t, 0);
}
