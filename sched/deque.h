/*
 * The classic Chase-Lev deque on a fixed ring (C11 orderings as Lê, Pop,
 * Cohen and Zappa Nardelli proved them for it, PPoPP 2013): the owner pushes
 * and pops at the bottom (LIFO), thieves take one task at a time from the top
 * (FIFO).
 *
 * The ring never grows: a full push hands the task back and the caller runs
 * it inline, as Cilk does on overflow: the work still gets done, on the
 * pusher's stack, and nothing allocates. That is also what makes it
 * safe - a growable deque that frees its old buffer while a thief may still
 * read it is a use-after-free.
 *
 * Indices are uint32_t and wrap; sizes are signed differences (bottom may sit
 * one below top while a pop of an empty deque is undone).
 *
 * The owner may also keep entries private, above bottom, where thieves do not
 * look (Lace's split deque): push_private puts a task at private_end, the
 * owner's own end, and moves no index a thief reads; pop takes a private
 * entry back with plain loads and stores, no fence and no CAS, as no thief
 * can race for it; publish_oldest makes the n oldest private entries (all,
 * or some) stealable at once, with the one release store of bottom that a
 * push makes. A thief sees a prefix of what the owner pushed, exactly as if
 * the private entries had not been pushed yet: their slots are written as a
 * push writes them, and bottom, the only index a thief reads, moves as it
 * would for those pushes made at the time of the publish. What the
 * scheduler keeps private and when it publishes: sched/group.c, "Private
 * group tasks".
 *
 * Owner only: push, push_private, publish_oldest, pop, pop_above, no_limit,
 * at, top_solo, take_solo, bottom, owned, full, private_len (never from an
 * interrupt handler, but publish_oldest, which the owner core's own
 * interrupt may make when no private operation is under way: publish.c,
 * "The heartbeat"; a debug build checks it, sched/debug_checks.h). Any core: steal, len.
 */
#ifndef HIVE_SCHED_DEQUE_H
#define HIVE_SCHED_DEQUE_H

#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "hive/task.h"
#include "sched/cache.h"
#include "sched/debug_checks.h"
#include "sched/ring.h" /* enum hive_steal_result */

#ifndef HIVE_DEQUE_CAP
#define HIVE_DEQUE_CAP 256u
#endif
#define HIVE_DEQUE_MASK (HIVE_DEQUE_CAP - 1u)
_Static_assert((HIVE_DEQUE_CAP & HIVE_DEQUE_MASK) == 0, "deque capacity must be a power of two");
_Static_assert(HIVE_DEQUE_CAP <= (1u << 30), "deque capacity out of range");

struct hive_deque {
    _Alignas(HIVE_CACHE_LINE) _Atomic uint32_t top;    /* thieves' end; only ever CASed up */
    _Alignas(HIVE_CACHE_LINE) _Atomic uint32_t bottom; /* thieves' limit; written only by the owner */
    /* The owner's end: entries [bottom, private_end) are private. Plain:
     * only the owner reads or writes it. */
    uint32_t private_end;
    /* No other core takes from this deque this run (the run has one
     * worker): the owner's pop needs neither the fence nor the CAS that
     * settle a race with thieves. Set with the owner, between runs; on
     * bottom's line, which every pop reads anyway. */
    bool solo;
    /* Thieves read a slot before their CAS decides whether it was theirs, so
     * the owner may be rewriting it at the same moment: atomic. */
    _Alignas(HIVE_CACHE_LINE) _Atomic(struct hive_task *) slot[HIVE_DEQUE_CAP];
    /* The owner's core, or HIVE_QUEUE_ANY_OWNER; read by the debug checks,
     * and by a traced steal to name its victim (set before a run's workers
     * start, so thieves read it unraced). */
    unsigned owner;
};

/* What hive_deque_take_solo leaves in the slot of an entry it takes from
 * the middle of a solo deque: never returned by a pop, never run. */
extern struct hive_task hive_deque_hole;

/* Empty, owned by core `owner`, both indices at `start` (tests start near
 * 2^32 to wrap). */
void hive_deque_init_at(struct hive_deque *d, unsigned owner, uint32_t start);

/* Owner: push t at the bottom. Returns NULL, or t itself when the deque is
 * full: the caller runs it inline. */
static inline struct hive_task *hive_deque_push(struct hive_deque *d, struct hive_task *t)
{
    HIVE_CHECK_OWNER(d->owner, HIVE_RULE_DEQUE_OWNER);
    /* A push publishes everything under it: private entries must have been
     * published first (the caller's business: they may need converting).
     * relaxed: only this core writes bottom. */
    HIVE_CHECK(d->private_end == atomic_load_explicit(&d->bottom, memory_order_relaxed),
               HIVE_RULE_DEQUE_PRIVATE);
    uint32_t b = d->private_end;
    /* acquire: pairs with the thieves' seq_cst CAS on top, so a thief's read
     * of the slot we may overwrite is done. */
    uint32_t t0 = atomic_load_explicit(&d->top, memory_order_acquire);
    if ((int32_t)(b - t0) >= (int32_t)HIVE_DEQUE_CAP)
        return t;
    /* relaxed: published by the release store of bottom below. */
    atomic_store_explicit(&d->slot[b & HIVE_DEQUE_MASK], t, memory_order_relaxed);
    /* release: pairs with the acquire load of bottom in hive_deque_steal. */
    atomic_store_explicit(&d->bottom, b + 1, memory_order_release);
    d->private_end = b + 1;
    return NULL;
}

/* Owner: push t at the owner's end, private (see the top). Returns NULL, or
 * t itself when the deque is full. */
static inline struct hive_task *hive_deque_push_private(struct hive_deque *d, struct hive_task *t)
{
    HIVE_CHECK_OWNER(d->owner, HIVE_RULE_DEQUE_OWNER);
    uint32_t b = d->private_end;
    /* acquire: as in push - a thief's read of a slot we may overwrite is
     * done (a slot under top may be rewritten once top has moved past it). */
    uint32_t t0 = atomic_load_explicit(&d->top, memory_order_acquire);
    if ((int32_t)(b - t0) >= (int32_t)HIVE_DEQUE_CAP)
        return t;
    /* relaxed: no thief reads at or above bottom; publish releases it. */
    atomic_store_explicit(&d->slot[b & HIVE_DEQUE_MASK], t, memory_order_relaxed);
    d->private_end = b + 1;
    return NULL;
}

/* Owner: the private entries, oldest first, are slots [bottom, private_end). */
static inline uint32_t hive_deque_private_len(const struct hive_deque *d)
{
    /* relaxed: only this core writes bottom. */
    return d->private_end - atomic_load_explicit(&d->bottom, memory_order_relaxed);
}

/* Owner: the task at index i (bottom <= i < private_end: a private entry;
 * or any entry of a solo deque: group.c's deep group wait - there it may be
 * hive_deque_hole). */
static inline struct hive_task *hive_deque_at(struct hive_deque *d, uint32_t i)
{
    /* relaxed: this core wrote it. */
    return atomic_load_explicit(&d->slot[i & HIVE_DEQUE_MASK], memory_order_relaxed);
}

/* Owner: make the n oldest private entries stealable (n <= private_len).
 * Also from an interrupt of the owner core that finds no private operation
 * under way (the heartbeat: publish.c). */
static inline void hive_deque_publish_oldest(struct hive_deque *d, uint32_t n)
{
    HIVE_CHECK_OWNER_CORE(d->owner, HIVE_RULE_DEQUE_OWNER);
    /* relaxed load: only this core writes bottom. release store: pairs with
     * the acquire load of bottom in hive_deque_steal, as a push's: the slots
     * and what the owner wrote into the tasks before this store (their kind
     * and count: group.c) are visible to a thief that sees the new bottom. */
    uint32_t b = atomic_load_explicit(&d->bottom, memory_order_relaxed);
    atomic_store_explicit(&d->bottom, b + n, memory_order_release);
}

/* Owner of a solo deque (no other core takes from it this run): its oldest
 * index. relaxed: top does not move in such a run. */
static inline uint32_t hive_deque_top_solo(const struct hive_deque *d)
{
    HIVE_CHECK(d->solo, HIVE_RULE_DEQUE_TAKE_SOLO);
    return atomic_load_explicit(&d->top, memory_order_relaxed);
}

/* Owner of a solo deque: remove and return the entry at index i (top <= i <
 * bottom; a solo deque has no private entries). An entry from the middle
 * leaves a hole in its slot: every other entry keeps its index, as a shared
 * join frame must (its joiner finds it by its index: join.c), and the pops
 * that reach the hole drop it. Until then the hole takes a slot: a deque
 * full of entries and holes refuses a push, whose task then runs inline
 * (the overflow rule at the top). relaxed (all): no other core takes from this
 * deque this run, and what other threads read of it (the backstop's look at
 * its length) is a hint. */
static inline struct hive_task *hive_deque_take_solo(struct hive_deque *d, uint32_t i)
{
    HIVE_CHECK_OWNER(d->owner, HIVE_RULE_DEQUE_OWNER);
    uint32_t b = atomic_load_explicit(&d->bottom, memory_order_relaxed);
    HIVE_CHECK(d->solo && d->private_end == b && (int32_t)(b - i) > 0 &&
                   (int32_t)(i - atomic_load_explicit(&d->top, memory_order_relaxed)) >= 0,
               HIVE_RULE_DEQUE_TAKE_SOLO);
    struct hive_task *t = atomic_load_explicit(&d->slot[i & HIVE_DEQUE_MASK], memory_order_relaxed);
    HIVE_CHECK(t != &hive_deque_hole, HIVE_RULE_DEQUE_TAKE_SOLO);
    if (i + 1 == b) {
        atomic_store_explicit(&d->bottom, i, memory_order_relaxed);
        d->private_end = i;
    } else {
        atomic_store_explicit(&d->slot[i & HIVE_DEQUE_MASK], &hive_deque_hole, memory_order_relaxed);
    }
    return t;
}

/* Owner: pop the newest task, at index limit or above, or NULL. The caller
 * has seen bottom above limit, so only a solo deque's holes (dropped as the
 * pop passes them) can bring the pop down to it. */
static inline struct hive_task *hive_deque_pop_above(struct hive_deque *d, uint32_t limit)
{
    HIVE_CHECK_OWNER(d->owner, HIVE_RULE_DEQUE_OWNER);
    /* relaxed: only this core writes bottom. */
    uint32_t b0 = atomic_load_explicit(&d->bottom, memory_order_relaxed);
    if (d->private_end != b0) {
        /* A private entry: no thief looks at or above bottom. */
        uint32_t i = --d->private_end;
        return atomic_load_explicit(&d->slot[i & HIVE_DEQUE_MASK], memory_order_relaxed);
    }
    if (d->solo) {
        /* relaxed (all): nobody else reads or writes this deque this run,
         * so top does not move. At one worker the join frames a wait takes
         * back and the group tasks spawned past the middle of the stack
         * (group.c runs the others at once) are popped here. When every
         * group task was (skynet: 1.1 million a run), skynet at 1 worker
         * took 32.5 ms without the fence instead of 39.5 (medians, 8
         * interleaved runs each, on the host). */
        uint32_t bottom = b0;
        uint32_t top = atomic_load_explicit(&d->top, memory_order_relaxed);
        if (bottom == top)
            return NULL;
        struct hive_task *x = NULL;
        while (bottom != top && (int32_t)(bottom - limit) > 0) {
            x = atomic_load_explicit(&d->slot[--bottom & HIVE_DEQUE_MASK], memory_order_relaxed);
            if (x != &hive_deque_hole)
                break;
            x = NULL;
        }
        atomic_store_explicit(&d->bottom, bottom, memory_order_relaxed);
        d->private_end = bottom;
        return x;
    }
    uint32_t b = b0 - 1;
    /* release: pairs with the acquire load of bottom in hive_deque_steal (a
     * thief reading this value still sees the slots below it written). */
    atomic_store_explicit(&d->bottom, b, memory_order_release);
    /* The claim of slot b must be visible before we read top, or a thief and
     * we could both take it: the seq_cst fence pairs with the one in
     * hive_deque_steal: of a pop and a steal racing for the same slot, at
     * least one sees the other's index move (deque.c). */
    atomic_thread_fence(memory_order_seq_cst);
    /* relaxed: ordered by the fence above. */
    uint32_t t = atomic_load_explicit(&d->top, memory_order_relaxed);
    int32_t size = (int32_t)(b - t);
    struct hive_task *x = NULL;
    if (size >= 0) {
        /* relaxed: this core wrote the slot. */
        x = atomic_load_explicit(&d->slot[b & HIVE_DEQUE_MASK], memory_order_relaxed);
        if (size > 0) {
            d->private_end = b;
            return x;
        }
        /* The last task: race the thieves for it on top. relaxed on failure:
         * we only learn that a thief won. */
        if (!atomic_compare_exchange_strong_explicit(&d->top, &t, t + 1, memory_order_seq_cst,
                                                     memory_order_relaxed))
            x = NULL;
    }
    /* Empty now (top == b + 1 either way). release: pairs with the acquire load
     * of bottom in hive_deque_steal; keeps the slots published by push visible
     * through this store. */
    atomic_store_explicit(&d->bottom, b + 1, memory_order_release);
    d->private_end = b + 1;
    return x;
}

/* Owner: a limit for hive_deque_pop_above that limits nothing: a deque
 * holds at most its capacity, so that far below bottom it cannot reach. */
static inline uint32_t hive_deque_no_limit(const struct hive_deque *d)
{
    return d->private_end - HIVE_DEQUE_CAP;
}

/* Owner: pop the newest task, or NULL. */
static inline struct hive_task *hive_deque_pop(struct hive_deque *d)
{
    return hive_deque_pop_above(d, hive_deque_no_limit(d));
}

/* Owner: the owner's end, private entries included, exact (only the owner
 * moves it). Deep waits compare it with a recorded floor (see
 * sched/join.c, "Waiting"). */
static inline uint32_t hive_deque_bottom(struct hive_deque *d)
{
    return d->private_end;
}

/* Owner: the tasks it holds, private ones included (an upper bound, as a
 * steal may not be seen yet; 0 does mean empty). */
static inline uint32_t hive_deque_owned(struct hive_deque *d)
{
    /* relaxed: a hint, as hive_deque_len's. */
    uint32_t t = atomic_load_explicit(&d->top, memory_order_relaxed);
    int32_t n = (int32_t)(d->private_end - t);
    return n > 0 && n <= (int32_t)HIVE_DEQUE_CAP ? (uint32_t)n : 0;
}

/* Owner: would a push find the deque full? A stale top (a steal not seen
 * yet) can only say full where a push would have found one free slot: the
 * deque was full a moment ago. relaxed (both): only this core writes
 * bottom, and the answer is a hint the caller may act on either way. */
static inline bool hive_deque_full(struct hive_deque *d)
{
    HIVE_CHECK_OWNER(d->owner, HIVE_RULE_DEQUE_OWNER);
    uint32_t t = atomic_load_explicit(&d->top, memory_order_relaxed);
    return (int32_t)(d->private_end - t) >= (int32_t)HIVE_DEQUE_CAP;
}

/* Any core: take the oldest task. HIVE_STEAL_OK with *out set, HIVE_STEAL_EMPTY,
 * or HIVE_STEAL_BUSY when a racing pop or steal won (worth retrying). */
enum hive_steal_result hive_deque_steal(struct hive_deque *d, struct hive_task **out);

/* Tasks a thief could take (private ones are not counted: hive_deque_owned
 * is the owner's count). A hint for everyone. */
static inline uint32_t hive_deque_len(struct hive_deque *d)
{
    /* relaxed (both): a hint; negative or torn differences read as empty. */
    uint32_t t = atomic_load_explicit(&d->top, memory_order_relaxed);
    uint32_t b = atomic_load_explicit(&d->bottom, memory_order_relaxed);
    int32_t n = (int32_t)(b - t);
    return n > 0 && n <= (int32_t)HIVE_DEQUE_CAP ? (uint32_t)n : 0;
}

#endif
