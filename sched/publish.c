/*
 * Making work visible to other cores, and telling an idle core about it: the
 * one place in sched/ that calls hive_idle_notify.
 *
 * hive_publish_ring, _pulled, _forkjoin and _global are the only functions
 * that push a task where other cores can take it - this core's ring, its
 * fork-join deque, the global queue - and each then notifies (rule 1 of
 * sched/idle.c): a load of the idle state, then a wake if nobody is
 * searching and someone is parked. Callers that queue a task for others go
 * through them, so none can forget the notify.
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
 * call of the port). That look is one load of S, where the full check
 * below costs a membarrier on the host, an interrupt of every core thread;
 * while every core is busy the check is only that load, once a period.
 *
 * Once a core is parked, the full check: the flag is cleared, then
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
static bool backstop_check(unsigned core)
{
    struct hive_idle *idle = &hive_scheduler.idle;
    /* seq_cst, and what parks is an RMW of S: a core parked before this
     * load is seen parked. */
    if (hive_idle_unparked(atomic_load(&idle->state)) >= hive_idle_workers(idle))
        return true;
    struct hive_worker *w = &hive_workers[core];
    /* relaxed: ordered by the fence below, for both sides (see above). */
    atomic_store_explicit(&w->backstop_armed, false, memory_order_relaxed);
    hive_port_backstop_fence();
    if (!hive_ring_len(&w->queues.ring) && !hive_deque_len(&w->queues.forkjoin) &&
        hive_global_is_empty(&hive_scheduler.global))
        return false;
    if (hive_idle_notify(idle) >= 0)
        w->stats.backstop_wakes++;
    return false;
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
    /* relaxed, the load and the store: the check's clearing store pairs
     * with them through hive_port_backstop_fence (backstop_check); nothing
     * else reads the flag. */
    if (atomic_load_explicit(&w->backstop_armed, memory_order_relaxed))
        return;
    atomic_store_explicit(&w->backstop_armed, true, memory_order_relaxed);
    hive_port_backstop(HIVE_BACKSTOP_NS, backstop_check);
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

struct hive_task *hive_publish_forkjoin(struct hive_worker *w, struct hive_task *t)
{
    HIVE_TRACE_EVENT(HIVE_TRACE_SPAWN, t, HIVE_TRACE_AT_FORKJOIN);
    if (hive_deque_push(&w->queues.forkjoin, t))
        return t; /* full: not queued, the caller runs it */
    notify_own(w);
    return NULL;
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
