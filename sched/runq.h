/*
 * The run-queue strategy, chosen at compile time (seed 004), behind one
 * interface so each can be measured in the same scheduler:
 *
 *   HIVE_RUNQ_RING    (default) per-core dual-head ring (ring.h): FIFO pop,
 *                     half steal into the thief's ring, overflow to the
 *                     global queue. push never hands a task back.
 *   HIVE_RUNQ_DEQUE   per-core Chase-Lev deque (deque.h): LIFO pop, one-task
 *                     steal guided by a bitmask of non-empty deques; a full
 *                     push hands the task back to run inline.
 *   HIVE_RUNQ_SHARED  one bounded MPMC queue for all cores (shared_queue.h);
 *                     pop takes from it, steal has nothing to add; a full push
 *                     hands the task back to run inline.
 *
 * Select with -DHIVE_RUNQ=HIVE_RUNQ_DEQUE etc. (CMake: -DHIVE_RUNQ=deque). The
 * implementations are compiled in every build; only this header changes, and
 * it is header-only, so one program must use one strategy throughout.
 *
 * Storage is the caller's: a struct hive_runq_set (shared state) and an array
 * of `cores` struct hive_runq (one per core). Nothing allocates.
 *
 * Caller contract: push, pop and refill for `core` run on that core; steal
 * runs on `thief` (its own queue receives stolen work). Interrupt handlers use
 * the global queue (global_queue.h), never these.
 */
#ifndef HIVE_SCHED_RUNQ_H
#define HIVE_SCHED_RUNQ_H

#include <stdatomic.h>
#include <stddef.h>
#include <stdint.h>

#include "hive/task.h"
#include "sched/cache.h"
#include "sched/deque.h"
#include "sched/global_queue.h"
#include "sched/ring.h"
#include "sched/shared_queue.h"

#define HIVE_RUNQ_RING 1
#define HIVE_RUNQ_DEQUE 2
#define HIVE_RUNQ_SHARED 3
#ifndef HIVE_RUNQ
#define HIVE_RUNQ HIVE_RUNQ_RING
#endif

/* Most cores a set may hold (sizes the deque strategy's bitmask). Every build
 * defines it once: a board in its board.cmake, the host in CMakeLists.txt. */
#ifndef HIVE_MAX_CORES
#error "HIVE_MAX_CORES is set by the board (boards/<board>/board.cmake) or the host tree"
#endif

#if HIVE_RUNQ == HIVE_RUNQ_RING
#define HIVE_RUNQ_NAME "ring"
struct hive_runq {
    struct hive_ring q;
};
#elif HIVE_RUNQ == HIVE_RUNQ_DEQUE
#define HIVE_RUNQ_NAME "deque"
#define HIVE_RUNQ_MASK_WORDS ((HIVE_MAX_CORES + 63) / 64)
struct hive_runq {
    struct hive_deque q;
};
#elif HIVE_RUNQ == HIVE_RUNQ_SHARED
#define HIVE_RUNQ_NAME "shared"
struct hive_runq {
    char unused; /* every core uses hive_runq_set.shared */
};
#else
#error "HIVE_RUNQ must be HIVE_RUNQ_RING, HIVE_RUNQ_DEQUE or HIVE_RUNQ_SHARED"
#endif

struct hive_runq_set {
    struct hive_runq *q;
    unsigned cores;
#if HIVE_RUNQ == HIVE_RUNQ_DEQUE
    /* Bit i % 64 of word i / 64: deque i may be non-empty. A hint (see
     * hive_runq_steal). One word up to 64 cores, as in seed 004. */
    _Alignas(HIVE_CACHE_LINE) _Atomic uint64_t nonempty[HIVE_RUNQ_MASK_WORDS];
#elif HIVE_RUNQ == HIVE_RUNQ_SHARED
    struct hive_shared_queue shared;
#endif
};

/* cores <= HIVE_MAX_CORES. For tests: every index starts at `start` (use a
 * value near 2^32 to wrap); hive_runq_init starts at 0. */
static inline void hive_runq_init_at(struct hive_runq_set *s, struct hive_runq *per_core,
                                     unsigned cores, uint32_t start)
{
    s->q = per_core;
    s->cores = cores;
#if HIVE_RUNQ == HIVE_RUNQ_RING
    for (unsigned i = 0; i < cores; i++)
        hive_ring_init_at(&per_core[i].q, start);
#elif HIVE_RUNQ == HIVE_RUNQ_DEQUE
    for (unsigned i = 0; i < cores; i++)
        hive_deque_init_at(&per_core[i].q, start);
    for (unsigned w = 0; w < HIVE_RUNQ_MASK_WORDS; w++)
        atomic_init(&s->nonempty[w], 0);
#else
    hive_shared_init_at(&s->shared, start);
#endif
}

static inline void hive_runq_init(struct hive_runq_set *s, struct hive_runq *per_core, unsigned cores)
{
    hive_runq_init_at(s, per_core, cores, 0);
}

/*
 * On `core`: queue t. Returns NULL when queued (for the ring, possibly by
 * spilling to g), or t itself when the strategy is full: run it inline.
 * hive_runq_push_or_spill below is the form that never hands t back.
 */
static inline struct hive_task *hive_runq_push(struct hive_runq_set *s, unsigned core,
                                               struct hive_task *t, struct hive_global *g)
{
#if HIVE_RUNQ == HIVE_RUNQ_RING
    hive_ring_push(&s->q[core].q, t, g);
    return NULL;
#elif HIVE_RUNQ == HIVE_RUNQ_DEQUE
    (void)g;
    if (hive_deque_push(&s->q[core].q, t))
        return t;
    _Atomic uint64_t *word = &s->nonempty[core / 64];
    uint64_t bit = (uint64_t)1 << (core % 64);
    /* relaxed (both): the mask is a hint and pairs with nothing; the deque's
     * own indices carry the task. Test before set: most pushes find it set. */
    if (!(atomic_load_explicit(word, memory_order_relaxed) & bit))
        atomic_fetch_or_explicit(word, bit, memory_order_relaxed);
    return NULL;
#else
    (void)core;
    (void)g;
    return hive_shared_push(&s->shared, t);
#endif
}

/*
 * On `core`: queue t here or, when this core's queue is full, on g (the ring
 * spills a batch itself; the others send t). True if work went to g.
 */
static inline bool hive_runq_push_or_spill(struct hive_runq_set *s, unsigned core,
                                           struct hive_task *t, struct hive_global *g)
{
#if HIVE_RUNQ == HIVE_RUNQ_RING
    return hive_ring_push(&s->q[core].q, t, g);
#else
    if (!hive_runq_push(s, core, t, g))
        return false;
    hive_global_push(g, t);
    return true;
#endif
}

/* On `core`: take the next local task (ring: oldest; deque: newest; shared:
 * oldest of all), or NULL. */
static inline struct hive_task *hive_runq_pop(struct hive_runq_set *s, unsigned core)
{
#if HIVE_RUNQ == HIVE_RUNQ_RING
    return hive_ring_pop(&s->q[core].q);
#elif HIVE_RUNQ == HIVE_RUNQ_DEQUE
    return hive_deque_pop(&s->q[core].q);
#else
    (void)core;
    return hive_shared_pop(&s->shared);
#endif
}

/* On `thief`: steal from one named victim, ignoring any hint. Ring: half the
 * victim into the thief's ring, one returned; deque: one task; shared: NULL. */
static inline struct hive_task *hive_runq_steal_from(struct hive_runq_set *s, unsigned thief,
                                                     unsigned victim)
{
#if HIVE_RUNQ == HIVE_RUNQ_RING
    if (victim == thief)
        return NULL;
    return hive_ring_steal(&s->q[victim].q, &s->q[thief].q);
#elif HIVE_RUNQ == HIVE_RUNQ_DEQUE
    struct hive_task *t = NULL;
    if (victim == thief)
        return NULL;
    /* BUSY means another pop or steal made progress: retrying is lock-free. */
    for (;;) {
        enum hive_steal_result r = hive_deque_steal(&s->q[victim].q, &t);
        if (r == HIVE_STEAL_OK)
            return t;
        if (r == HIVE_STEAL_EMPTY)
            return NULL;
    }
#else
    (void)s;
    (void)thief;
    (void)victim;
    return NULL;
#endif
}

/*
 * On `thief`: try the other cores, starting at `start` (the caller's random
 * pick) and going round. The deque strategy visits only cores whose bit is set
 * and clears the bit of a deque it finds empty. That mask is a hint: a push
 * racing the clear can leave a non-empty deque unmarked until its owner's next
 * push, so before parking a core must check every queue (hive_runq_len or
 * hive_runq_steal_from), as the sleep protocol does anyway.
 */
static inline struct hive_task *hive_runq_steal(struct hive_runq_set *s, unsigned thief,
                                                unsigned start)
{
#if HIVE_RUNQ == HIVE_RUNQ_SHARED
    (void)s;
    (void)thief;
    (void)start;
    return NULL;
#else
    unsigned n = s->cores;
    start %= n;
#if HIVE_RUNQ == HIVE_RUNQ_DEQUE
    unsigned word_no = ~0u;
    uint64_t bits = 0;
#endif
    for (unsigned i = 0; i < n; i++) {
        unsigned v = start + i < n ? start + i : start + i - n;
        if (v == thief)
            continue;
#if HIVE_RUNQ == HIVE_RUNQ_DEQUE
        if (v / 64 != word_no) {
            word_no = v / 64;
            /* relaxed: a hint (see hive_runq_push); one load per 64 cores. */
            bits = atomic_load_explicit(&s->nonempty[word_no], memory_order_relaxed);
        }
        uint64_t bit = (uint64_t)1 << (v % 64);
        if (!(bits & bit))
            continue;
        struct hive_task *t = hive_runq_steal_from(s, thief, v);
        if (t)
            return t;
        /* relaxed: a hint. Clear, then look again so that a push we raced with
         * is not hidden for long. */
        atomic_fetch_and_explicit(&s->nonempty[word_no], ~bit, memory_order_relaxed);
        if (hive_deque_len(&s->q[v].q))
            atomic_fetch_or_explicit(&s->nonempty[word_no], bit, memory_order_relaxed);
#else
        struct hive_task *t = hive_runq_steal_from(s, thief, v);
        if (t)
            return t;
#endif
    }
    return NULL;
#endif
}

/*
 * On `core`: take work from the global queue. Ring: a batch of
 * min(len / cores + 1, room + 1, HIVE_RING_HALF), one returned and the rest
 * queued here; deque: the same bound with the deque's room; shared: one task
 * (the shared queue is as shared as the global one). NULL if g is empty.
 */
static inline struct hive_task *hive_runq_refill(struct hive_runq_set *s, unsigned core,
                                                 struct hive_global *g)
{
#if HIVE_RUNQ == HIVE_RUNQ_RING
    return hive_ring_refill(&s->q[core].q, g, s->cores);
#elif HIVE_RUNQ == HIVE_RUNQ_DEQUE
    if (hive_global_is_empty(g))
        return NULL;
    struct hive_deque *d = &s->q[core].q;
    unsigned long n = hive_global_len(g) / s->cores + 1;
    unsigned long room = HIVE_DEQUE_CAP - hive_deque_len(d);
    if (n > room + 1)
        n = room + 1;
    if (n > HIVE_DEQUE_CAP / 2)
        n = HIVE_DEQUE_CAP / 2;
    unsigned long got;
    struct hive_task *first = hive_global_pop_batch(g, n, &got);
    if (!first)
        return NULL;
    struct hive_task *t = first->next;
    for (unsigned long i = 1; i < got; i++) {
        struct hive_task *next = t->next;
        /* Room was measured by the owner and only grows; a refusal cannot
         * happen, but would go back to the global queue rather than be lost. */
        hive_runq_push_or_spill(s, core, t, g);
        t = next;
    }
    return first;
#else
    (void)s;
    (void)core;
    return hive_global_pop(g);
#endif
}

/* Tasks queued for `core` (shared: in the whole queue). A hint; for the owner
 * of a ring or deque an upper bound, so 0 means empty (ring.h, deque.h). */
static inline uint32_t hive_runq_len(struct hive_runq_set *s, unsigned core)
{
#if HIVE_RUNQ == HIVE_RUNQ_RING
    return hive_ring_len(&s->q[core].q);
#elif HIVE_RUNQ == HIVE_RUNQ_DEQUE
    return hive_deque_len(&s->q[core].q);
#else
    (void)core;
    return hive_shared_len(&s->shared);
#endif
}

#endif
