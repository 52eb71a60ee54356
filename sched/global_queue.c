/*
 * The global injection queue (see global_queue.h for why it is a lock, and
 * why chunks).
 *
 * Invariants under the lock: head == NULL iff tail == NULL iff tail_chunk ==
 * NULL iff len == 0. The list from head through next reaches tail in exactly
 * len steps. It is cut into chunks: head is the first task of the first
 * chunk; a chunk's first task c holds its length c->chunk_len (1 to
 * HIVE_GLOBAL_CHUNK_MAX) and c->chunk_next, the first task of the next
 * chunk - the task c->chunk_len steps after c - or NULL for the newest
 * chunk, whose first task is tail_chunk and which ends at tail. The
 * chunks' lengths add up to len. Another task's chunk_len means nothing;
 * its chunk_next is a prefetch hint: the task HIVE_GLOBAL_HINT_AHEAD after
 * it in the batch it was pushed with and in the same chunk, or NULL. A push
 * sets it for every task it queues (cut_chunks), so no hint left from a
 * task's earlier time in a queue survives into this one, and a queued
 * task's hint names a task queued after it in its chunk (a pull that cuts
 * a chunk leaves the rest's hints inside the rest). Only a pull's walk
 * reads hints, of tasks it has just taken, and only to prefetch; it
 * prefetches none past what it took. A task taken keeps its hint, stale
 * once the task it names is taken in turn: nothing reads chunk_next of a
 * task outside the queue, and its next push writes it again.
 *
 * Every path holds the lock for O(1) pointer reads and writes, of the queue
 * and of at most two headers, except a pull of part of a chunk, which walks
 * the part (half the chunk at most: fewer than HIVE_GLOBAL_CHUNK headers)
 * to cut it.
 */
#include "sched/global_queue.h"

#include <stddef.h>

void hive_global_init(struct hive_global *g)
{
    atomic_init(&g->lock.locked, false);
    g->head = NULL;
    g->tail = NULL;
    g->tail_chunk = NULL;
    atomic_init(&g->len, 0);
}

/* Cut first.. (n > 0 tasks, linked, the last one's next NULL) into chunks:
 * HIVE_GLOBAL_CHUNK each, the last one the remainder as well (at most
 * HIVE_GLOBAL_CHUNK_MAX), and give every task that is not a chunk's first its
 * prefetch hint (see the top): the task HIVE_GLOBAL_HINT_AHEAD later in its
 * chunk, or NULL. Returns the last chunk's first task. The list is still the
 * caller's alone, and as a rule still in this core's cache (it was spawned
 * here): no lock, and a walk that costs little. */
static struct hive_task *cut_chunks(struct hive_task *first, unsigned long n)
{
    struct hive_task *behind[HIVE_GLOBAL_HINT_AHEAD]; /* the last tasks walked, by index */
    struct hive_task *chunk = first;
    for (;;) {
        unsigned long len = n > HIVE_GLOBAL_CHUNK_MAX ? HIVE_GLOBAL_CHUNK : n;
        struct hive_task *t = chunk;
        for (unsigned long i = 0;; i++) {
            t->chunk_next = NULL;
            if (i >= HIVE_GLOBAL_HINT_AHEAD)
                behind[i % HIVE_GLOBAL_HINT_AHEAD]->chunk_next = t;
            behind[i % HIVE_GLOBAL_HINT_AHEAD] = t;
            if (i + 1 == len)
                break;
            t = t->next;
        }
        /* The chunk's first task: its length, and the next chunk's first
         * (NULL for the newest) instead of a hint. */
        chunk->chunk_len = (unsigned char)len;
        n -= len;
        chunk->chunk_next = n ? t->next : NULL;
        if (!n)
            return chunk;
        chunk = t->next;
    }
}

void hive_global_push_batch(struct hive_global *g, struct hive_task *first,
                            struct hive_task *last, unsigned long n)
{
    if (n == 0)
        return;
    last->next = NULL;
    struct hive_task *newest = cut_chunks(first, n);
    unsigned long irq = hive_spin_lock(&g->lock);
    if (!g->tail) {
        g->head = first;
        g->tail_chunk = newest;
    } else {
        g->tail->next = first;
        struct hive_task *open = g->tail_chunk;
        if (open->chunk_len + n <= HIVE_GLOBAL_CHUNK) {
            /* Short, and the newest chunk has room: one chunk with it
             * (first's own chunk fields now mean nothing). */
            open->chunk_len = (unsigned char)(open->chunk_len + n);
        } else {
            open->chunk_next = first;
            g->tail_chunk = newest;
        }
    }
    g->tail = last;
    /* relaxed load: len is only written under the lock we hold; the store is
     * seq_cst (global_queue.h says what the idle protocol needs of it). */
    atomic_store(&g->len, atomic_load_explicit(&g->len, memory_order_relaxed) + n);
    hive_spin_unlock(&g->lock, irq);
}

void hive_global_push(struct hive_global *g, struct hive_task *t)
{
    hive_global_push_batch(g, t, t, 1);
}

/* The walk of a batch taken: ask for each header for writing, as the core
 * that runs them will write their state and wait for that write (an
 * exchange: run_task.c), so each comes over once, ready for it - and, from each
 * header but the first (whose chunk_next is the queue's link), ask for the
 * one its hint names too: that line is on its way while the walk waits for
 * the ones before it (see the top). Returns the n-th. */
static struct hive_task *walk_to_last(struct hive_task *first, unsigned long n)
{
    struct hive_task *last = first;
    hive_prefetch_for_write(last);
    for (unsigned long i = 1; i < n; i++) {
        last = last->next;
        hive_prefetch_for_write(last);
        /* Not past the n-th: a part taken under the lock leaves the rest
         * queued, and its headers are not this core's to pull over. */
        if (i + HIVE_GLOBAL_HINT_AHEAD < n && last->chunk_next)
            hive_prefetch_for_write(last->chunk_next);
    }
    return last;
}

struct hive_task *hive_global_pop_batch(struct hive_global *g, unsigned long max,
                                        unsigned long *got)
{
    *got = 0;
    /* Lock-free early out: the common case for an idle core polling. */
    if (max == 0 || hive_global_is_empty(g))
        return NULL;
    unsigned long irq = hive_spin_lock(&g->lock);
    struct hive_task *first = g->head, *last = NULL;
    unsigned long n = 0;
    if (first) {
        unsigned long chunk = first->chunk_len;
        if (chunk / 2 < max) { /* chunk < 2 * max, which cannot overflow */
            /* The whole chunk: its end is found after the unlock. */
            n = chunk;
            g->head = first->chunk_next;
            if (!g->head)
                g->tail = g->tail_chunk = NULL;
        } else {
            /* Its first max: cut here; the rest is a chunk of its own. */
            n = max;
            last = walk_to_last(first, n);
            struct hive_task *rest = last->next;
            rest->chunk_len = (unsigned char)(chunk - n);
            rest->chunk_next = first->chunk_next;
            if (g->tail_chunk == first)
                g->tail_chunk = rest;
            g->head = rest;
            last->next = NULL;
        }
        /* relaxed load: len is only written under the lock we hold. */
        atomic_store(&g->len, atomic_load_explicit(&g->len, memory_order_relaxed) - n);
    }
    hive_spin_unlock(&g->lock, irq);
    if (n && !last) {
        /* The chunk is ours now: nobody else reaches it from the queue, and
         * its last task's next is written by a push only while that task is
         * the queue's tail - and if it was, the pull emptied the queue. */
        last = walk_to_last(first, n);
        last->next = NULL;
    }
    *got = n;
    return first;
}
