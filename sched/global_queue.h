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
 * Chunks keep it short for pulls too. Cutting a batch of n off a plain list
 * means following n next pointers under the lock, n dependent loads of
 * headers that are often cold or in another core's cache; on the host, with
 * two cores draining 10^6 queued tasks 32 a pull, a pull held the lock
 * 800-1,200 cycles (150 with one core) and the cores took turns at it. So
 * the list is cut into chunks when it is pushed: the first task of each
 * chunk holds the chunk's length (chunk_len) and the next chunk's first
 * task (chunk_next), and a pull takes the oldest chunk whole by reading and
 * writing only that first task - then walks the chunk to find its end after
 * the unlock, when the chunk is its own (60-100 cycles a pull held there).
 * A push of fewer than HIVE_GLOBAL_CHUNK tasks joins the newest chunk while
 * that stays within HIVE_GLOBAL_CHUNK (one task pushed at a time still
 * builds full chunks); a longer push is cut into chunks of HIVE_GLOBAL_CHUNK,
 * its last chunk taking the remainder (a ring's spill of 129: 32, 32, 32,
 * 33), so that pulls of HIVE_GLOBAL_CHUNK meet no stub chunks.
 *
 * Hints keep the walk after the unlock short too. Following the chunk's next
 * pointers is a chain of dependent misses when its headers lie in the
 * pushing core's cache - a ring's spill, pulled by another core: on the
 * host, 10^6 tasks spawned from one task, the walk was a fifth of the
 * pulling core's time, and that core ran its tasks at 57 ns each where
 * one core spawning and running them all took 44. So a push also leaves in
 * each task but a chunk's first (whose chunk_next is the queue's) a hint:
 * chunk_next names the task HIVE_GLOBAL_HINT_AHEAD after it in the chunk.
 * The walk asks for that line as it passes each header, so after the first
 * few steps the lines it waits for are already on their way, that many at
 * a time. 4, 8 and 16 did alike there; 8 it is.
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
    struct hive_task *tail_chunk; /* the newest chunk's first task; under lock */
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

#define HIVE_GLOBAL_INIT { HIVE_SPINLOCK_INIT, 0, 0, 0, 0 }

/* Tasks in a chunk cut from a long push (see the top); a chunk holds at
 * most HIVE_GLOBAL_CHUNK_MAX, so one pull takes at most that many. */
#define HIVE_GLOBAL_CHUNK 32u
#define HIVE_GLOBAL_CHUNK_MAX (2u * HIVE_GLOBAL_CHUNK - 1u)
/* How far ahead in its chunk a task's prefetch hint points (see the top). */
#define HIVE_GLOBAL_HINT_AHEAD 8u
_Static_assert(HIVE_GLOBAL_CHUNK_MAX <= 255, "a chunk's length is an unsigned char");

void hive_global_init(struct hive_global *g);

/* Append one task. Safe from interrupt handlers. */
void hive_global_push(struct hive_global *g, struct hive_task *t);

/*
 * Append the list first..last (n tasks, linked through next; last->next is
 * ignored and overwritten), keeping its order. Safe from interrupt
 * handlers. n == 0 is a no-op. O(1) under the lock; the list is walked
 * once before it, to cut it into chunks and write each task's hint.
 */
void hive_global_push_batch(struct hive_global *g, struct hive_task *first,
                            struct hive_task *last, unsigned long n);

/*
 * Remove the oldest tasks (in order) as a NULL-terminated list linked
 * through next; *got receives how many. NULL when empty or max == 0. What
 * it takes is the oldest chunk: the whole of it when it holds fewer than
 * 2 * max tasks, else its first max - so between 1 and 2 * max - 1 tasks,
 * and never more than HIVE_GLOBAL_CHUNK_MAX. Whole, it holds the lock for
 * O(1); a part of max walks max - 1 headers under it. The caller decides
 * max (hive_take_global in sched/steal.c: min(len / cores + 1,
 * HIVE_GLOBAL_BATCH), or 1).
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
