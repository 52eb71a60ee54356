/*
 * The idle protocol's state: how many workers are awake ("unparked") and how
 * many of those are searching for work, in one atomic word, and a bitmap of
 * parked workers. The protocol and why it loses no wakeup: sched/idle.c.
 */
#ifndef HIVE_SCHED_IDLE_H
#define HIVE_SCHED_IDLE_H

#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>

#include "hive/hive.h"
#include "sched/cache.h"

#define HIVE_IDLE_WORDS ((HIVE_MAX_WORKERS + 63) / 64)

struct hive_idle {
    /* unparked << 32 | searching. Every change is a checked seq_cst RMW. */
    _Alignas(HIVE_CACHE_LINE) _Atomic uint64_t state;
    /* Bit i of word i/64: worker i is parked and nobody has claimed it. */
    _Alignas(HIVE_CACHE_LINE) _Atomic uint64_t parked[HIVE_IDLE_WORDS];
    /* Workers in the current run. Atomic because a spawner outside the run
     * (another thread on the host, an interrupt handler) may notify while
     * the next run's hive_idle_init rewrites it: see hive_idle_workers. */
    _Atomic unsigned n;
};

/*
 * The worker count, for notify and the counts' checks. relaxed: hive_run
 * stores it before its seq_cst store of the RUNNING phase, which publishes
 * it to the workers and to outside spawners that see that phase. A spawner
 * that saw the phase of an earlier run and notifies late may read the old
 * count or the new one, with the new run's state and bitmap: at worst it
 * wakes a worker for nothing or wakes nobody, and its task, pushed before
 * the new run began, is found by the new run's workers, who look at the
 * global queue when they start.
 */
static inline unsigned hive_idle_workers(struct hive_idle *idle)
{
    return atomic_load_explicit(&idle->n, memory_order_relaxed);
}

static inline uint32_t hive_idle_searching(uint64_t s) { return (uint32_t)s; }
static inline uint32_t hive_idle_unparked(uint64_t s) { return (uint32_t)(s >> 32); }
/* The state with all n workers awake and none searching: nobody wants work. */
static inline uint64_t hive_idle_all_busy(unsigned n) { return (uint64_t)n << 32; }

/* Before a run, with no worker active: n workers, all awake, none searching. */
void hive_idle_init(struct hive_idle *idle, unsigned n);

/* Become a searcher unless half the workers already search. *first_want
 * (if not NULL) is set to whether this call made the state leave "every
 * worker awake, none searching": the caller is the first to want work then
 * (join.c's hive_latent_want). */
bool hive_idle_start_search(struct hive_idle *idle, bool *first_want);
/* Stop searching (found work). True if we were the last searcher: the caller
 * must then notify (wake another to keep searching). */
bool hive_idle_stop_search(struct hive_idle *idle);

/*
 * After queueing work: a full fence, then, if nobody is searching and some
 * worker is parked, claim the lowest parked worker in the bitmap and wake it.
 * Returns the woken worker, or -1.
 */
int hive_idle_notify(struct hive_idle *idle);
/* Claim the lowest parked worker in the bitmap and wake it; -1 if none is
 * left to claim. The second half of a notify, once S said to look. */
int hive_idle_claim_parked(struct hive_idle *idle, unsigned n);
/*
 * The same without the fence: the load of S may be ordered before the
 * caller's enqueue, so it may see a state older than that enqueue and wake
 * nobody whom a parking worker's rescan then misses. Only for a worker's
 * pushes to its own queues, whose backstop (publish.c) notifies again with
 * the fence. Inline: on every such push, and while every core is busy it
 * is only the load of S, a word nobody writes then.
 */
static inline int hive_idle_notify_unfenced(struct hive_idle *idle)
{
    unsigned n = hive_idle_workers(idle);
    uint64_t s = atomic_load(&idle->state);
    if (hive_idle_searching(s) != 0 || hive_idle_unparked(s) >= n)
        return -1;
    return hive_idle_claim_parked(idle, n);
}

/*
 * Worker `id` parks: sets its bit, then counts itself parked (and no longer
 * searching if it was). Returns true if nobody searches after that (it was
 * the last searcher, or a non-searcher with no searcher left): it must then
 * rescan every queue and notify if it finds work (rule 3 of idle.c).
 * *first_want as for hive_idle_start_search.
 */
bool hive_idle_park(struct hive_idle *idle, unsigned id, bool searching, bool *first_want);
/* Still parked (nobody has claimed us)? */
bool hive_idle_is_parked(struct hive_idle *idle, unsigned id);
/*
 * Leave the parked state: after a waker claimed us, or on our own (timeout,
 * end of run; then our bit is cleared here). Counts us awake and searching.
 * Returns true if a waker had claimed us.
 */
bool hive_idle_unpark(struct hive_idle *idle, unsigned id);

/*
 * Does any worker want work: is one searching, or parked? `all_busy` is the
 * state's value with every worker awake and none searching (n << 32). This
 * is the question a join asks before it offers its second half (join.c,
 * "Latent frames"), on every join, so it must be cheap: one load of a word
 * that no core writes while all are busy, so it stays in every core's cache.
 */
static inline bool hive_idle_wanted(struct hive_idle *idle, uint64_t all_busy)
{
    /* relaxed: a hint. It decides only whether a join makes its second half
     * stealable now; a stale "nobody" delays that to a later join on this
     * core (the half is never lost: its joiner runs it), and a stale "some"
     * shares one frame for nothing. What is shared is published with the
     * full protocol (publish.c, rule 1 of idle.c). */
    return atomic_load_explicit(&idle->state, memory_order_relaxed) != all_busy;
}

/* Parked-bit test for victim selection: a hint (relaxed). */
static inline bool hive_idle_hint_parked(struct hive_idle *idle, unsigned id)
{
    /* relaxed: only a hint to skip a victim whose queues were empty when it
     * parked; a stale answer costs one useless or one skipped probe, and the
     * rescan before parking (idle.c) covers a skipped one. */
    return atomic_load_explicit(&idle->parked[id / 64], memory_order_relaxed) >> (id % 64) & 1;
}

#endif
