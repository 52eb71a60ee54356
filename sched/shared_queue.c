/*
 * Vyukov's bounded MPMC queue (see shared_queue.h).
 *
 * Cell c = cell[pos & MASK] cycles through seq = pos (free for the producer of
 * pos), pos + 1 (full, for the consumer of pos), pos + CAP (free for the
 * producer of pos + CAP). Only the thread that won the CAS for pos touches the
 * cell until it stores the next seq, so the seq store/load pair (release /
 * acquire) carries all the ordering: the task pointer and the task's contents
 * from producer to consumer, and the consumer's read from it to the next
 * producer of that cell. The CASes on enq and deq only hand out positions and
 * are relaxed.
 */
#include "sched/shared_queue.h"

#include <stddef.h>

void hive_shared_init_at(struct hive_shared_queue *q, uint32_t start)
{
    atomic_init(&q->enq, start);
    atomic_init(&q->deq, start);
    for (uint32_t i = 0; i < HIVE_SHARED_CAP; i++) {
        struct hive_shared_cell *c = &q->cell[(start + i) & HIVE_SHARED_MASK];
        atomic_init(&c->seq, start + i);
        atomic_init(&c->task, NULL);
    }
}

void hive_shared_init(struct hive_shared_queue *q)
{
    hive_shared_init_at(q, 0);
}

struct hive_task *hive_shared_push(struct hive_shared_queue *q, struct hive_task *t)
{
    /* relaxed: a position guess that the CAS validates. */
    uint32_t pos = atomic_load_explicit(&q->enq, memory_order_relaxed);
    struct hive_shared_cell *c;
    for (;;) {
        c = &q->cell[pos & HIVE_SHARED_MASK];
        /* acquire: pairs with the release store of seq in pop (the consumer of
         * pos - CAP has read the cell). */
        uint32_t seq = atomic_load_explicit(&c->seq, memory_order_acquire);
        int32_t dif = (int32_t)(seq - pos);
        if (dif == 0) {
            /* relaxed: hands out the position only; seq carries the data. */
            if (atomic_compare_exchange_weak_explicit(&q->enq, &pos, pos + 1, memory_order_relaxed,
                                                      memory_order_relaxed))
                break;
        } else if (dif < 0) {
            return t; /* full: the consumer of pos - CAP is not done */
        } else {
            /* relaxed: another producer took pos; guess again. */
            pos = atomic_load_explicit(&q->enq, memory_order_relaxed);
        }
    }
    /* relaxed: published by the release store of seq below. */
    atomic_store_explicit(&c->task, t, memory_order_relaxed);
    /* release: pairs with the acquire load of seq in pop. */
    atomic_store_explicit(&c->seq, pos + 1, memory_order_release);
    return NULL;
}

struct hive_task *hive_shared_pop(struct hive_shared_queue *q)
{
    /* relaxed: a position guess that the CAS validates. */
    uint32_t pos = atomic_load_explicit(&q->deq, memory_order_relaxed);
    struct hive_shared_cell *c;
    for (;;) {
        c = &q->cell[pos & HIVE_SHARED_MASK];
        /* acquire: pairs with the release store of seq in push. */
        uint32_t seq = atomic_load_explicit(&c->seq, memory_order_acquire);
        int32_t dif = (int32_t)(seq - (pos + 1));
        if (dif == 0) {
            /* relaxed: hands out the position only; seq carries the data. */
            if (atomic_compare_exchange_weak_explicit(&q->deq, &pos, pos + 1, memory_order_relaxed,
                                                      memory_order_relaxed))
                break;
        } else if (dif < 0) {
            return NULL; /* empty (or its producer has not published yet) */
        } else {
            /* relaxed: another consumer took pos; guess again. */
            pos = atomic_load_explicit(&q->deq, memory_order_relaxed);
        }
    }
    /* relaxed: made visible by the acquire load of seq above. */
    struct hive_task *t = atomic_load_explicit(&c->task, memory_order_relaxed);
    /* release: pairs with the acquire load of seq in push by the producer of
     * pos + CAP. */
    atomic_store_explicit(&c->seq, pos + HIVE_SHARED_CAP, memory_order_release);
    return t;
}

uint32_t hive_shared_len(struct hive_shared_queue *q)
{
    /* relaxed (both): a hint; a torn pair reads as empty. */
    uint32_t d = atomic_load_explicit(&q->deq, memory_order_relaxed);
    uint32_t e = atomic_load_explicit(&q->enq, memory_order_relaxed);
    int32_t n = (int32_t)(e - d);
    return n > 0 && n <= (int32_t)HIVE_SHARED_CAP ? (uint32_t)n : 0;
}
