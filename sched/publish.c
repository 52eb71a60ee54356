/*
 * Making work visible to other cores, and telling an idle core about it: the
 * one place in sched/ that calls hive_idle_notify.
 *
 * hive_publish is the one function that pushes a task where other cores can
 * take it - this core's ring, its fork-join deque, the global queue - and
 * then notifies: rule 1 of sched/idle.c, a seq_cst fence between the push and
 * the load of the idle state (in hive_idle_notify), then a wake if nobody is
 * searching and someone is parked. Without that fence the load could be
 * ordered before the push, every worker could park having scanned before the
 * push, and the task would wait with every core asleep. Callers that queue a
 * task for others go through it, so none can forget the notify.
 *
 * hive_notify_idle is for work that is already where others can take it
 * when someone must be told: the hand-offs of the idle protocol (rule 2: the
 * last searcher found work, so another must go on searching; rule 3: a
 * worker that parked leaving nobody searching found work in its rescan) and a batch that a steal moved
 * into the ring of a core that is not a searcher (wait.c).
 *
 * A spawn into the empty LIFO slot publishes nothing: the slot is never
 * stolen. Only the task it evicts, pushed into the ring, is published.
 */
#include "sched/sched_internal.h"

void hive_notify_idle(struct hive_worker *w)
{
    int woken = hive_idle_notify(&hive_scheduler.idle);
    if (woken < 0)
        return;
    HIVE_TRACE_EVENT(HIVE_TRACE_WAKE, woken, w ? HIVE_TRACE_WAKE_NOTIFY : HIVE_TRACE_WAKE_OUTSIDE);
    if (w)
        w->stats.wakes++;
}

struct hive_task *hive_publish(struct hive_worker *w, enum hive_publish_to to, struct hive_task *t)
{
    switch (to) {
    case HIVE_PUBLISH_RING:
        /* Traced before the push: once pushed, another core may steal t, and
         * its trace must not show the steal before the push. */
        HIVE_TRACE_EVENT(HIVE_TRACE_SPAWN, t, HIVE_TRACE_AT_RING);
        /* A full ring spills half of itself and t to the global queue: either
         * way t is where other cores can take it. */
        if (hive_ring_push(&w->queues.ring, t, &hive_scheduler.global)) {
            HIVE_TRACE_EVENT(HIVE_TRACE_OVERFLOW, t, 0);
            w->stats.overflows++;
        }
        break;
    case HIVE_PUBLISH_FORKJOIN:
        HIVE_TRACE_EVENT(HIVE_TRACE_SPAWN, t, HIVE_TRACE_AT_FORKJOIN);
        if (hive_deque_push(&w->queues.forkjoin, t))
            return t; /* full: not queued, the caller runs it */
        break;
    case HIVE_PUBLISH_GLOBAL:
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
            return NULL;
        /* relaxed: a statistic, read after the run. */
        atomic_fetch_add_explicit(&hive_scheduler.injected, 1, memory_order_relaxed);
        break;
    }
    /* A worker's own push in a run of one worker: that worker is this one,
     * running, so there is nobody to wake, and the notify's fence would be
     * the dearest instruction of the spawn. (Pushes from outside the run's
     * workers, w == NULL, always notify: the one worker may be parked.) */
    if (w && hive_scheduler.workers == 1)
        return NULL;
    hive_notify_idle(w);
    return NULL;
}

void hive_publish_spawn(struct hive_worker *w, struct hive_task *t)
{
    struct hive_task *prev = w->lifo;
    HIVE_TRACE_EVENT(HIVE_TRACE_SPAWN, t, HIVE_TRACE_AT_LIFO);
    w->lifo = t;
    w->stats.spawned++;
    if (prev)
        hive_publish(w, HIVE_PUBLISH_RING, prev); /* the evicted task becomes stealable */
}
