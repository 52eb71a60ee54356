/*
 * Stealing from one victim and pulling from the global queue (steal.h). The
 * queues' own protocols are in ring.c, deque.c and global_queue.c; what this
 * file adds is which queue is tried first, how much is taken, and the counts.
 */
#include "sched/steal.h"

#include <stddef.h>

#include "sched/trace.h"

void hive_core_queues_init_at(struct hive_core_queues *q, unsigned owner, uint32_t start)
{
    hive_ring_init_at(&q->ring, owner, start);
    hive_deque_init_at(&q->forkjoin, owner, start);
    q->small_ring_steal = false;
}

void hive_core_queues_reset(struct hive_core_queues *q, unsigned owner, bool solo)
{
    /* relaxed (all): between runs nobody else touches q. */
    HIVE_CHECK(atomic_load_explicit(&q->ring.tail, memory_order_relaxed) ==
                       hive_ring_real_head(atomic_load_explicit(&q->ring.head, memory_order_relaxed)) &&
                   atomic_load_explicit(&q->forkjoin.top, memory_order_relaxed) ==
                       atomic_load_explicit(&q->forkjoin.bottom, memory_order_relaxed),
               HIVE_RULE_QUEUES_EMPTY_AT_START);
    q->ring.owner = q->forkjoin.owner = owner;
    q->ring.solo = q->forkjoin.solo = solo;
    q->small_ring_steal = false;
}

void hive_core_queues_adopt(struct hive_core_queues *q)
{
    q->ring.owner = q->forkjoin.owner = hive_port_core_id();
}

struct hive_task *hive_steal_forkjoin(struct hive_core_queues *victim, struct hive_core_stats *stats)
{
    struct hive_task *t = NULL;
    /* hive_deque_len costs no fence; a deque that looks empty is skipped
     * without the steal's seq_cst fence and CAS. */
    while (hive_deque_len(&victim->forkjoin)) {
        enum hive_steal_result r = hive_deque_steal(&victim->forkjoin, &t);
        if (r == HIVE_STEAL_OK) {
            HIVE_TRACE_EVENT(HIVE_TRACE_STEAL, victim->forkjoin.owner, 1);
            HIVE_TRACE_EVENT(HIVE_TRACE_STOLEN, t, victim->forkjoin.owner);
            stats->steals++;
            stats->stolen_tasks++;
            return t;
        }
        if (r == HIVE_STEAL_EMPTY)
            break;
        /* BUSY: a racing pop or steal made progress; look again. */
    }
    return NULL;
}

#ifdef HIVE_TRACE
/* A ring steal, between its claim and its finish: the victim, and each task
 * claimed, read from the victim's slots as hive_ring_steal_finish reads them
 * (published by the tail the claim acquired, kept until the finish). Recorded
 * before the finish publishes them in the thief's ring: a core that steals
 * them from there next must find this steal earlier in the trace. */
static void trace_ring_steal(struct hive_core_queues *victim, const struct hive_ring_claim *claim)
{
    unsigned v = victim->ring.owner;
    HIVE_TRACE_EVENT(HIVE_TRACE_STEAL, v, claim->n);
    for (uint32_t i = 0; i < claim->n; i++) {
        /* relaxed: see above. */
        struct hive_task *t = atomic_load_explicit(
            &victim->ring.slot[(claim->start + i) & HIVE_RING_MASK], memory_order_relaxed);
        HIVE_TRACE_EVENT(HIVE_TRACE_STOLEN, t, v);
    }
}
#endif

struct hive_task *hive_steal_from(struct hive_core_queues *victim, struct hive_core_queues *thief,
                                  struct hive_core_stats *stats)
{
    if (victim == thief)
        return NULL;
    stats->steal_attempts++;
    /* The deque first: its oldest entry is the largest piece of a fork-join
     * tree, worth more than half of a ring of spawned tasks. */
    struct hive_task *t = hive_steal_forkjoin(victim, stats);
    if (t)
        return t;
    struct hive_ring_claim claim;
    if (hive_ring_steal_claim(&victim->ring, &thief->ring, &claim) != HIVE_STEAL_OK)
        return NULL;
    stats->steals++;
    stats->stolen_tasks += claim.n;
    thief->small_ring_steal = claim.n <= HIVE_SMALL_RING_STEAL;
#ifdef HIVE_TRACE
    trace_ring_steal(victim, &claim);
#endif
    return hive_ring_steal_finish(&victim->ring, &thief->ring, &claim);
}

struct hive_task *hive_take_global(struct hive_global *g, unsigned cores, struct hive_task **rest,
                                   struct hive_core_stats *stats)
{
    /* Lock-free early out: the common case for a core polling an empty queue. */
    if (hive_global_is_empty(g))
        return NULL;
    unsigned long n = 1;
    if (rest) {
        n = hive_global_len(g) / (cores ? cores : 1) + 1;
        if (n > HIVE_GLOBAL_BATCH)
            n = HIVE_GLOBAL_BATCH;
    }
    unsigned long got;
    struct hive_task *t = hive_global_pop_batch(g, n, &got);
    if (!t)
        return NULL;
    if (rest)
        *rest = t->next; /* NULL-terminated by pop_batch; the caller's alone now */
    stats->global_pulls++;
    HIVE_TRACE_EVENT(HIVE_TRACE_PULL, got, 0);
#ifdef HIVE_TRACE
    for (struct hive_task *p = t; p; p = p->next)
        HIVE_TRACE_EVENT(HIVE_TRACE_PULLED, p, 0);
#endif
    return t;
}
