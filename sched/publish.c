/*
 * Making work visible to other cores, and telling an idle core about it.
 *
 * Every push that lets another core take a task - into this core's ring,
 * into the global queue - is followed by hive_idle_notify (rule 1 of
 * sched/idle.c: a seq_cst fence, then a look at the idle state, and a wake if
 * nobody is searching and someone is parked). A spawn into the empty LIFO
 * slot makes nothing stealable (the slot is never stolen), so it notifies
 * nobody.
 */
#include "sched/sched_internal.h"

void hive_worker_notify(struct hive_worker *w)
{
    if (hive_idle_notify(&hive_scheduler.idle) >= 0 && w)
        w->stats.wakes++;
}

void hive_publish_ring(struct hive_worker *w, struct hive_task *t)
{
    /* A full ring spills half of itself and t to the global queue: either
     * way t is where other cores can take it. */
    if (hive_ring_push(&w->queues.ring, t, &hive_scheduler.global))
        w->stats.overflows++;
    hive_worker_notify(w);
}

void hive_publish_spawn(struct hive_worker *w, struct hive_task *t)
{
    struct hive_task *prev = w->lifo;
    w->lifo = t;
    w->stats.spawned++;
    if (prev)
        hive_publish_ring(w, prev); /* the evicted task becomes stealable */
}

void hive_publish_global(struct hive_task *t)
{
    hive_global_push(&hive_scheduler.global, t);
    /* seq_cst: after our push's seq_cst store of the queue's length in the
     * single total order. A run that is not RUNNING yet has no idle protocol
     * to notify: its RUNNING store comes later in that order, and its workers
     * look at the global queue after it, so they see the task. */
    if (atomic_load(&hive_scheduler.phase) == HIVE_PHASE_RUNNING) {
        /* relaxed: a statistic, read after the run. */
        atomic_fetch_add_explicit(&hive_scheduler.injected, 1, memory_order_relaxed);
        hive_worker_notify(NULL);
    }
}
