/*
 * One bounded queue that every core pushes to and takes from (seed 004's
 * "shared" strategy). No allocation, so instead of seed 004's growable segments
 * it is Vyukov's bounded MPMC array queue: each cell carries a sequence number
 * that says whether it is ready for the producer or the consumer of a given
 * position; positions are claimed with a CAS on enq / deq.
 *
 * A full push hands the task back (the caller runs it inline, as with the
 * deque). Not strictly lock-free: a producer stalled between claiming a
 * position and publishing its cell makes consumers see "empty" at that cell
 * until it resumes; callers treat NULL as "nothing now", never as "nothing
 * ever". Not for interrupt handlers (they use the global queue).
 */
#ifndef HIVE_SCHED_SHARED_QUEUE_H
#define HIVE_SCHED_SHARED_QUEUE_H

#include <stdatomic.h>
#include <stdint.h>

#include "hive/task.h"
#include "sched/cache.h"

#ifndef HIVE_SHARED_CAP
#define HIVE_SHARED_CAP 4096u
#endif
#define HIVE_SHARED_MASK (HIVE_SHARED_CAP - 1u)
_Static_assert((HIVE_SHARED_CAP & HIVE_SHARED_MASK) == 0, "shared capacity must be a power of two");
_Static_assert(HIVE_SHARED_CAP >= 2 && HIVE_SHARED_CAP <= (1u << 30), "shared capacity out of range");

struct hive_shared_cell {
    /* == pos: free for the producer of pos; == pos + 1: holds pos's task. */
    _Atomic uint32_t seq;
    _Atomic(struct hive_task *) task;
};

struct hive_shared_queue {
    _Alignas(HIVE_CACHE_LINE) _Atomic uint32_t enq;
    _Alignas(HIVE_CACHE_LINE) _Atomic uint32_t deq;
    _Alignas(HIVE_CACHE_LINE) struct hive_shared_cell cell[HIVE_SHARED_CAP];
};

void hive_shared_init(struct hive_shared_queue *q);
void hive_shared_init_at(struct hive_shared_queue *q, uint32_t start); /* for tests: wrap */

/* Any core: append t. NULL, or t itself when full (run it inline). */
struct hive_task *hive_shared_push(struct hive_shared_queue *q, struct hive_task *t);
/* Any core: take the oldest task, or NULL. */
struct hive_task *hive_shared_pop(struct hive_shared_queue *q);
/* A hint. */
uint32_t hive_shared_len(struct hive_shared_queue *q);

#endif
