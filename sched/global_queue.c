/*
 * The global injection queue (see global_queue.h for why it is a lock).
 *
 * Invariants under the lock: head == NULL iff tail == NULL iff len == 0; the
 * list from head through next reaches tail in exactly len steps. Every path
 * holds the lock for O(1) pointer writes except pop_batch, which walks at most
 * max nodes (HIVE_GLOBAL_BATCH, 32, in the scheduler) to cut the list.
 */
#include "sched/global_queue.h"

#include <stddef.h>

void hive_global_init(struct hive_global *g)
{
    atomic_init(&g->lock.locked, false);
    g->head = NULL;
    g->tail = NULL;
    atomic_init(&g->len, 0);
}

void hive_global_push_batch(struct hive_global *g, struct hive_task *first,
                            struct hive_task *last, unsigned long n)
{
    if (n == 0)
        return;
    last->next = NULL;
    unsigned long irq = hive_spin_lock(&g->lock);
    if (g->tail)
        g->tail->next = first;
    else
        g->head = first;
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

struct hive_task *hive_global_pop_batch(struct hive_global *g, unsigned long max,
                                        unsigned long *got)
{
    *got = 0;
    /* Lock-free early out: the common case for an idle core polling. */
    if (max == 0 || hive_global_is_empty(g))
        return NULL;
    unsigned long irq = hive_spin_lock(&g->lock);
    /* relaxed: len is only written under the lock we hold. */
    unsigned long len = atomic_load_explicit(&g->len, memory_order_relaxed);
    unsigned long n = len < max ? len : max;
    struct hive_task *first = g->head, *last = NULL;
    if (n > 0) {
        /* The walk reads each header the batch takes; ask for them for
         * writing, as the core that runs them will write their state and
         * wait for that store (a fence: run_task.c), so each comes over
         * once, ready for it. */
        last = first;
        hive_prefetch_for_write(last);
        for (unsigned long i = 1; i < n; i++) {
            last = last->next;
            hive_prefetch_for_write(last);
        }
        g->head = last->next;
        if (g->head == NULL)
            g->tail = NULL;
        last->next = NULL;
        atomic_store(&g->len, len - n);
    }
    hive_spin_unlock(&g->lock, irq);
    *got = n;
    return n ? first : NULL;
}
