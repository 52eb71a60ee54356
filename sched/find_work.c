/*
 * Where a worker looks for work, and in which order (hive_find_work):
 *   1. every `interval` polls: the global queue first (one task, or a batch
 *      when the ring is empty: below);
 *   2. the LIFO slot, at most HIVE_LIFO_MAX_POLLS (3) times in a row - the
 *      newest spawn runs next while it is cache-hot, but a task that keeps
 *      spawning into the slot cannot starve the ring: on the 4th poll the
 *      slot's task goes to the ring's tail and the ring's oldest runs;
 *   3. the core's fork-join deque (group tasks nobody waited for yet);
 *   4. the ring (FIFO);
 *   5. the global queue (a batch), before any other core's queues;
 *   6. become a searcher (at most half the workers search) and steal
 *      (victims.c: every other core from a random start; from each, the
 *      fork-join deque's oldest entry first, then half of its ring);
 *   7. the global queue once more, now as a searcher (a batch);
 *   8. nothing: the worker parks (park.c, sched/idle.c).
 *
 * Why the global queue before stealing (as Go's scheduler does): what waits
 * there waits for any core, while a steal takes work its owner would run
 * anyway, and costs the owner as well - its ring's head, tail and slots are
 * lines the thief reads and CASes, which the owner's next push must fetch
 * back. A core that spawns faster than a ring holds sends half of it to the
 * global queue each time it fills (ring.c), so the other cores can be fed
 * from there without touching its ring at all. Stealing first, measured on
 * the host (10^6 tasks spawned from one task, 2 workers): the thief caught
 * up with the spawner's ring and took 2 or 3 tasks a steal, 400,000 steals,
 * and the spawner's loop took 250-320 ms instead of 10 (at 1 worker); the
 * global queue first: no steal at all, the loop 19-25 ms, the whole run
 * about as long as at 1 worker. Elsewhere the global queue is empty, and
 * step 5 costs a load of its length.
 *
 * The global batch. A pull asks for min(global length / workers + 1,
 * HIVE_GLOBAL_BATCH) tasks (hive_take_global, steal.c) when this core's ring
 * is empty - and takes the oldest chunk of the queue whole if that holds
 * fewer than twice as many (global_queue.h: so a pull touches one header
 * under the queue's lock, not every header it takes; at most
 * HIVE_GLOBAL_PULL_MOST) - it runs the first and puts the rest into the
 * ring, where they run next, in order - and where thieves can take them,
 * with the notify of any push. When the ring holds work, a pull takes one
 * task: the rest at the ring's tail would wait behind that work (measured on
 * the host, 2 workers busy with 50 us local tasks, one outside spawn every
 * 200 us: global tasks waited 6.9 ms on average, p99 16 ms, against the 1 ms
 * target), while in the global queue they wait only for the next pull of any
 * core. The batch was once a private list of the core's, run first: 0.43 ms
 * there, p99 1.1 ms, but no other core could see it - a core that pulled two
 * tasks and ran the first for long (or for ever: one that waits for the
 * second) kept the second from cores parked beside it.
 *
 * The global interval: the mean task time of each tick (worker.c) feeds an
 * EWMA (alpha 0.1), and interval = clamp(HIVE_GLOBAL_LATENCY_NS /
 * avg_task_ns, min, max) polls, so a globally queued task waits about 1 ms at
 * most whatever the task size. The bounds, measured (host, 2 workers kept
 * busy by 64 self-respawning local tasks, an outside thread spawning every
 * 200 us; global wait mean / p99):
 *   task     [1,1]         [8,128]         [61,61]        [32,1024]
 *   100 ns   0.8 / 4.6 us  13 / 34 us      5.6 / 14 us    13 / 32 us
 *   2 us     1.7 / 3.0 us  94 / 257 us     43 / 123 us    90 / 264 us
 *   50 us    11 / 18 us    427 / 1075 us   1985 / 3569 us 786 / 1566 us
 * Local throughput moved by 1% at most (an empty global queue costs one
 * load to poll). A max above 128 changes nothing: the end of each 128-task
 * tick polls the global queue anyway. A fixed interval of 61 (Tokio's) misses
 * the target for long tasks. [8,128] keeps every case near or under the 1 ms
 * target while a min of 8 keeps a steady global stream from taking every poll
 * from the ring (with min 1, tasks of 1 ms or more would poll the global
 * queue first on every poll). Defaults [8,128]; struct hive_config can set
 * others.
 */
#include "sched/sched_internal.h"

void hive_tick_end(struct hive_worker *w, uint64_t now)
{
    if (w->tick_tasks) {
        uint64_t sample = (now - w->tick_start_ns) / w->tick_tasks;
        /* EWMA, alpha = 0.1 */
        w->avg_task_ns = (w->avg_task_ns * 9 + sample) / 10;
        if (w->avg_task_ns == 0)
            w->avg_task_ns = 1;
        uint64_t iv = HIVE_GLOBAL_LATENCY_NS / w->avg_task_ns;
        if (iv < hive_scheduler.interval_min)
            iv = hive_scheduler.interval_min;
        if (iv > hive_scheduler.interval_max)
            iv = hive_scheduler.interval_max;
        w->interval = (unsigned)iv;
    }
    w->tick_start_ns = now;
    w->tick_tasks = 0;
}

struct hive_task *hive_pull_global(struct hive_worker *w)
{
    /* For the owner a length of 0 means empty (ring.h). */
    bool batch = hive_ring_len(&w->queues.ring) == 0;
    struct hive_task *rest = NULL;
    struct hive_task *t = hive_take_global(&hive_scheduler.global, hive_scheduler.workers,
                                           batch ? &rest : NULL, &w->stats);
    if (rest)
        hive_publish_pulled(w, rest);
    return t;
}

struct hive_task *hive_find_local(struct hive_worker *w)
{
    struct hive_task *t;
    if (++w->polls >= w->interval) {
        w->polls = 0;
        if ((t = hive_pull_global(w)))
            return t;
    }
    if ((t = w->lifo)) {
        w->lifo = NULL;
        if (w->lifo_polls < HIVE_LIFO_MAX_POLLS) {
            w->lifo_polls++;
            w->stats.lifo_hits++;
            return t;
        }
        hive_publish_ring(w, t);
    }
    w->lifo_polls = 0;
    /* hive_deque_owned costs no fence (pop does), and 0 means empty. */
    if (hive_deque_owned(&w->queues.forkjoin) && (t = hive_forkjoin_pop(w)))
        return t;
    return hive_ring_pop(&w->queues.ring);
}

bool hive_start_searching(struct hive_worker *w)
{
    bool first_want = false;
    w->searching = hive_idle_start_search(&hive_scheduler.idle, &first_want);
    /* The first core to want work closes the other cores' inline join gates
     * (join.c, latent_gate.c); while any core wants, they stay closed. */
    if (first_want)
        hive_latent_want(w);
    return w->searching;
}

void hive_stop_searching(struct hive_worker *w)
{
    w->searching = false;
    /* Rule 2 of idle.c: the last searcher to find work wakes another. */
    if (hive_idle_stop_search(&hive_scheduler.idle))
        hive_notify_idle(w);
}

struct hive_task *hive_find_work(struct hive_worker *w)
{
    struct hive_task *t = hive_find_local(w);
    if (!t) {
        t = hive_pull_global(w);
        if (!t && (w->searching || hive_start_searching(w)))
            t = hive_steal_round(w);
        if (!t)
            t = hive_pull_global(w);
    }
    if (t && w->searching)
        hive_stop_searching(w);
    return t;
}
