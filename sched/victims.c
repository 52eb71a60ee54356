/*
 * Which other cores a searching worker steals from, and in which order: all
 * of them once per round, from a random start (so that thieves spread over
 * victims instead of all trying core 0 first), skipping those whose parked
 * bit is set (their queues were empty when they parked, and the rescan of
 * the worker that parks leaving nobody searching covers one skipped wrongly). Each steal is
 * hive_steal_from (steal.c).
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
    unsigned start = rng_below(w, n);
    for (unsigned i = 0; i < n; i++) {
        unsigned v = start + i < n ? start + i : start + i - n;
        if (v == w->id || hive_idle_hint_parked(&hive_scheduler.idle, v))
            continue;
        struct hive_task *t = hive_steal_from(&hive_workers[v].queues, &w->queues, &w->stats);
        if (t)
            return t;
    }
    return NULL;
}
