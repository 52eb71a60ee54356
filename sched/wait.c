/*
 * What a core that waits - in hive_join for a stolen frame, in
 * hive_group_wait for a group's tasks - may run meanwhile, so that it helps
 * instead of spinning while work exists. Which work is allowed depends on how
 * deeply waits are nested on this core's stack; join.c ("Waiting") has the
 * rules and the argument that they bound the stack.
 */
#include "sched/sched_internal.h"

struct hive_task *hive_wait_find_work(struct hive_worker *w, int frame_thief)
{
    struct hive_task *t;
    bool deep = w->wait_depth > HIVE_JOIN_NEST_FREE;
    /* Deep: first this core's own entries above the running task's floor -
     * pushed by that task or by work nested in its waits, e.g. group tasks
     * a leapfrogged task spawned and left behind; nobody else may be able to
     * run them (join.c, "Waiting", has the argument). The owner's bottom is
     * exact, so the pop below takes index bottom-1 >= forkjoin_floor or, if
     * thieves emptied the deque meanwhile, nothing: never an entry under the
     * floor. */
    if (deep && (int32_t)(hive_deque_bottom(&w->queues.forkjoin) - w->forkjoin_floor) > 0 &&
        (t = hive_deque_pop(&w->queues.forkjoin)))
        return t;
    if (frame_thief >= 0 && (unsigned)frame_thief != w->id &&
        (unsigned)frame_thief < hive_scheduler.workers) {
        /* Leapfrogging: what the core that took our frame left in its deque
         * is part of the frame's work, so running it cannot deepen our stack
         * beyond the frame's own. */
        if ((t = hive_steal_forkjoin(&hive_workers[frame_thief].queues, &w->stats))) {
            w->stats.steal_attempts++; /* counted when it took work only: it polls */
            return t;
        }
    }
    if (deep)
        return NULL;
    if ((t = hive_find_local(w)))
        return t;
    if ((t = hive_steal_round(w))) {
        /* A waiter steals without being a searcher, so no "last searcher"
         * hand-off covers the batch the steal moved into its ring: notify as
         * after a push (idle.c, rule 1). */
        if (hive_ring_len(&w->queues.ring))
            hive_notify_idle(w);
        return t;
    }
    return hive_pull_global(w);
}
