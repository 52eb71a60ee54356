/*
 * Which other cores a searching worker steals from, and in which order: all
 * of them once per round, from a random start (so that thieves spread over
 * victims instead of all trying core 0 first), skipping those whose parked
 * bit is set (their queues were empty when they parked, and the rescan of
 * the worker that parks leaving nobody searching covers one skipped wrongly). Each steal is
 * hive_steal_from (steal.c).
 *
 * After a steal from a ring that took HIVE_SMALL_RING_STEAL tasks or fewer,
 * the next round waits HIVE_SMALL_STEAL_PAUSE_NS (1 us) first. The worker
 * loop has looked at its own queues and the global queue before a round
 * (find_work.c), so no work it could take without stealing waits; a waiter
 * (wait.c) looks at the global queue after its round, 1 us later then. A
 * ring that small belongs to a core that is queueing tasks one by one as the
 * thief takes them: each push and each steal then moves the ring's lines
 * between the two cores, both slow down, and the thief keeps taking each
 * task as it comes. Measured on the host (10^6 spawns of an empty task from
 * one task, 2 workers, hive_spawn_or_run): 2-3 tasks a steal, up to 370,000
 * steals, 24-34 ms a run in most processes on a busy machine; with the pause
 * 8-10 ms in the same rounds (hive_spawn, whose full ring feeds the other
 * core through the global queue, is unchanged: 13-26 against 13-25; skynet,
 * queens, sort and UTS T3, which steal from fork-join deques, unchanged
 * within the noise). A fork-join deque's steal takes one task by design and
 * never pauses. The pause holds nothing back: the core stays what it was
 * (a searcher, or a waiter that checks its awaited count after the round),
 * and what it pauses before is a steal from others' queues, which their
 * owners run meanwhile.
 */
#include "sched/sched_internal.h"

static uint32_t rng_next(struct hive_worker *w)
{
    /* xorshift64+ on two 32-bit halves, shifts 17/7/16: cheap, and good
     * enough to spread victims; never all zero (worker_reset in run.c). */
    uint32_t s1 = w->rng[0];
    uint32_t s0 = w->rng[1];
    s1 ^= s1 << 17;
    s1 = s1 ^ s0 ^ (s1 >> 7) ^ (s0 >> 16);
    w->rng[0] = s0;
    w->rng[1] = s1;
    return s0 + s1;
}

/* Uniform in [0, n) without a division (Lemire's multiply-shift). */
static unsigned rng_below(struct hive_worker *w, unsigned n)
{
    return (unsigned)(((uint64_t)rng_next(w) * n) >> 32);
}

struct hive_task *hive_steal_round(struct hive_worker *w)
{
    unsigned n = hive_scheduler.workers;
    if (n < 2)
        return NULL;
    if (w->queues.small_ring_steal) {
        w->queues.small_ring_steal = false;
        uint64_t until = hive_port_now_ns() + HIVE_SMALL_STEAL_PAUSE_NS;
        while (hive_port_now_ns() < until)
            hive_port_cpu_relax();
    }
    unsigned start = rng_below(w, n);
    for (unsigned i = 0; i < n; i++) {
        unsigned v = start + i < n ? start + i : start + i - n;
        if (v == w->id || hive_idle_hint_parked(&hive_scheduler.idle, v))
            continue;
        struct hive_task *t = hive_steal_from(&hive_workers[v].queues, &w->queues, &w->stats);
        if (t)
            return t;
        /* Nothing: if v may hold private group tasks and this core is not
         * a searcher (a waiter), ask for them. relaxed: a hint; a lost ask
         * waits for this core's park, which the idle word does show. */
        struct hive_worker *victim = &hive_workers[v];
        if (!w->searching && atomic_load_explicit(&victim->private_held, memory_order_relaxed))
            hive_ask(victim);
    }
    return NULL;
}
