/*
 * Chase-Lev steal (see deque.h). The protocol is the textbook one: a thief
 * reads top, then bottom; if the deque looks non-empty it reads the slot at
 * top and claims it with a CAS of top. The seq_cst fence between the two
 * reads pairs with the one in pop between its store of bottom and its load of
 * top: of a pop and a steal racing for the last task, at least one sees the
 * other, and then both go to the CAS on top, which exactly one wins.
 */
#include "sched/deque.h"

#include <stddef.h>

struct hive_task hive_deque_hole;

void hive_deque_init_at(struct hive_deque *d, unsigned owner, uint32_t start)
{
    d->owner = owner;
    d->solo = false;
    atomic_init(&d->top, start);
    atomic_init(&d->bottom, start);
    d->private_end = start;
    for (uint32_t i = 0; i < HIVE_DEQUE_CAP; i++)
        atomic_init(&d->slot[i], NULL);
}

enum hive_steal_result hive_deque_steal(struct hive_deque *d, struct hive_task **out)
{
    /* Its owner's pops do not race with thieves (deque.h). */
    HIVE_CHECK(!d->solo, HIVE_RULE_DEQUE_SOLO);
    /* acquire: pairs with the seq_cst CAS on top by other thieves and pop. */
    uint32_t t = atomic_load_explicit(&d->top, memory_order_acquire);
    /* pairs with the seq_cst fence in hive_deque_pop. */
    atomic_thread_fence(memory_order_seq_cst);
    /* acquire: pairs with the release stores of bottom in push and pop: the
     * slots below bottom are written. */
    uint32_t b = atomic_load_explicit(&d->bottom, memory_order_acquire);
    if ((int32_t)(b - t) <= 0)
        return HIVE_STEAL_EMPTY;
    /* relaxed: published by the bottom we acquired; if the owner has since
     * rewritten the slot it had seen top move past t, and the CAS fails. */
    struct hive_task *x = atomic_load_explicit(&d->slot[t & HIVE_DEQUE_MASK], memory_order_relaxed);
    /* relaxed on failure: we only learn that someone else won. */
    if (!atomic_compare_exchange_strong_explicit(&d->top, &t, t + 1, memory_order_seq_cst,
                                                 memory_order_relaxed))
        return HIVE_STEAL_BUSY;
    *out = x;
    return HIVE_STEAL_OK;
}

