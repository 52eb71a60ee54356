/*
 * The global injection queue: multi-producer, multi-consumer, intrusive.
 *
 * Where work enters from outside a core's ring: tasks spawned from interrupt
 * handlers, from outside a run or from threads that are not workers, and the
 * overflow of a full ring (sched/ring.c). Tasks are linked through hive_task.next, so the queue
 * never allocates and a batch of any length is appended in O(1).
 *
 * It is a FIFO list under a spinlock taken with interrupts masked
 * (sched/spinlock.h): an interrupt handler may push on any core, even on a core
 * that was interrupted inside this queue, because that core cannot take the
 * interrupt until it has left the critical section; and no code path holds
 * this lock while taking another, so no deadlock is possible. A lock-free
 * MPMC list would need either tagged pointers or hazard pointers to pop safely;
 * the lock is short (a few pointer writes) and taken once per batch.
 *
 * The length is mirrored in an atomic so that "is it empty?" and "how much is
 * there?" cost no lock: idle cores poll it.
 */
#ifndef HIVE_SCHED_GLOBAL_QUEUE_H
#define HIVE_SCHED_GLOBAL_QUEUE_H

#include <stdatomic.h>
#include <stdbool.h>

#include "hive/task.h"
#include "sched/cache.h"
#include "hive/spinlock.h"

struct hive_global {
    _Alignas(HIVE_CACHE_LINE) struct hive_spinlock lock;
    struct hive_task *head; /* oldest; under lock */
    struct hive_task *tail; /* newest; under lock */
    /*
     * Written only under the lock, read without it. What the idle protocol
     * needs of it (sched/idle.c, "Why no wakeup is lost"): a publisher stores
     * it, then issues a seq_cst fence and loads the idle state (hive_idle_notify);
     * a searcher changes the idle state with a seq_cst read-modify-write,
     * issues a seq_cst fence, then loads it (hive_global_is_empty). The two
     * fences keep them from both missing each other, whatever the order of
     * these accesses; they are seq_cst all the same, as tested.
     */
    _Atomic unsigned long len;
};

#define HIVE_GLOBAL_INIT { HIVE_SPINLOCK_INIT, 0, 0, 0 }

void hive_global_init(struct hive_global *g);

/* Append one task. Safe from interrupt handlers. */
void hive_global_push(struct hive_global *g, struct hive_task *t);

/*
 * Append the list first..last (n tasks, linked through next; last->next is
 * ignored and overwritten) in O(1), keeping its order. Safe from interrupt
 * handlers. n == 0 is a no-op.
 */
void hive_global_push_batch(struct hive_global *g, struct hive_task *first,
                            struct hive_task *last, unsigned long n);

/*
 * Remove up to max of the oldest tasks (in order) as a NULL-terminated list
 * linked through next; *got receives how many. NULL when empty or max == 0.
 * The caller decides max (hive_take_global in sched/steal.c: its policy is
 * min(len / cores + 1, HIVE_GLOBAL_BATCH)).
 */
struct hive_task *hive_global_pop_batch(struct hive_global *g, unsigned long max,
                                        unsigned long *got);

/* Lock-free snapshot; exact only while no one else uses the queue. */
static inline unsigned long hive_global_len(struct hive_global *g)
{
    return atomic_load(&g->len);
}

static inline bool hive_global_is_empty(struct hive_global *g)
{
    return hive_global_len(g) == 0;
}

#endif
