/*
 * The per-core run queue: a fixed ring with a packed dual head (a steal head
 * and a real head in one 64-bit word, so a thief can claim half the ring with
 * one CAS while the owner keeps popping). The protocol, its invariants and
 * the reason for every memory ordering are stated at the top of ring.c.
 *
 * One owner core pushes at the tail and pops at the head (FIFO; the LIFO
 * behaviour of the worker comes from its LIFO slot, not from here). Any core
 * may steal half of the ring into its own ring. When the ring is full, push
 * moves half of it plus the new task to the global queue as one batch.
 *
 * Who may call what:
 *   owner of r only:  hive_ring_push, hive_ring_pop;
 *                     and both steal functions with r as dst;
 *   any core:         hive_ring_steal_claim and hive_ring_steal_finish, with
 *                     src = the victim, dst = the caller's own ring
 *                     (src != dst; sched/steal.c is their one caller in the
 *                     scheduler); hive_ring_len (a hint).
 * Interrupt handlers never touch a ring: they push to the global queue.
 * A debug build checks both rules (sched/debug_checks.h).
 */
#ifndef HIVE_SCHED_RING_H
#define HIVE_SCHED_RING_H

#include <stdatomic.h>
#include <stddef.h>
#include <stdbool.h>
#include <stdint.h>

#include "hive/task.h"
#include "sched/cache.h"
#include "sched/debug_checks.h"
#include "sched/global_queue.h"

#ifndef HIVE_RING_CAP
#define HIVE_RING_CAP 256u
#endif
#define HIVE_RING_MASK (HIVE_RING_CAP - 1u)
/* Most tasks one steal takes, and the size of an overflow batch (+ 1). */
#define HIVE_RING_HALF (HIVE_RING_CAP / 2u)

_Static_assert((HIVE_RING_CAP & HIVE_RING_MASK) == 0, "ring capacity must be a power of two");
_Static_assert(HIVE_RING_CAP >= 4 && HIVE_RING_CAP <= (1u << 30), "ring capacity out of range");

struct hive_ring {
    /* steal head << 32 | real head; CAS by the owner (pop, overflow) and by thieves. */
    _Alignas(HIVE_CACHE_LINE) _Atomic uint64_t head;
    /* Written only by the owner. */
    _Alignas(HIVE_CACHE_LINE) _Atomic uint32_t tail;
    /* No other core takes from this ring this run (the run has one worker;
     * interrupt handlers and other threads never touch a ring): the owner's
     * pop needs no CAS. Set with the owner, between runs; on tail's line,
     * which every pop reads anyway. */
    bool solo;
    /* Written only by the owner; thieves read the slots they claimed. */
    _Alignas(HIVE_CACHE_LINE) _Atomic(struct hive_task *) slot[HIVE_RING_CAP];
    /* The owner's core (hive_port_core_id), or HIVE_QUEUE_ANY_OWNER; read
     * by the debug checks, and by a traced steal to name its victim. Set
     * before a run's workers start, so thieves read it unraced. */
    unsigned owner;
};

static inline uint64_t hive_ring_pack(uint32_t steal, uint32_t real)
{
    return (uint64_t)steal << 32 | real;
}
static inline uint32_t hive_ring_steal_head(uint64_t head) { return (uint32_t)(head >> 32); }
static inline uint32_t hive_ring_real_head(uint64_t head) { return (uint32_t)head; }

/* Empty, owned by core `owner`, every index at `start`: the scheduler starts
 * at 0, tests near 2^32 (e.g. 2^32 - 5) to cross the wrap. */
void hive_ring_init_at(struct hive_ring *r, unsigned owner, uint32_t start);

/* Full ring: overflow to g (see ring.c). True if work went to g. */
bool hive_ring_push_slow(struct hive_ring *r, struct hive_task *t, struct hive_global *g);

/* Owner: queue t at the tail. Never fails; when full, work spills to g, and
 * then it returns true (the scheduler counts overflows). */
static inline bool hive_ring_push(struct hive_ring *r, struct hive_task *t, struct hive_global *g)
{
    HIVE_CHECK_OWNER(r->owner, HIVE_RULE_RING_OWNER);
    /* relaxed: only this core writes tail. */
    uint32_t tail = atomic_load_explicit(&r->tail, memory_order_relaxed);
    /* acquire: pairs with the release CAS ending a steal (hive_ring_steal_finish),
     * so the thief's reads of the slot we may now overwrite are done. */
    uint64_t head = atomic_load_explicit(&r->head, memory_order_acquire);
    if (tail - hive_ring_steal_head(head) < HIVE_RING_CAP) {
        /* relaxed: published by the release store of tail just below. */
        atomic_store_explicit(&r->slot[tail & HIVE_RING_MASK], t, memory_order_relaxed);
        /* release: pairs with the acquire load of tail in hive_ring_steal_claim. */
        atomic_store_explicit(&r->tail, tail + 1, memory_order_release);
        return false;
    }
    return hive_ring_push_slow(r, t, g);
}

/* Owner: slots in use - queued tasks, and those a thief is still copying
 * out; HIVE_RING_CAP when a push would spill to the global queue. */
static inline uint32_t hive_ring_fill(struct hive_ring *r)
{
    HIVE_CHECK_OWNER(r->owner, HIVE_RULE_RING_OWNER);
    /* relaxed (both): only this core writes tail, and a stale head counts
     * slots a thief has just freed - a hint, which the caller takes as one. */
    uint32_t tail = atomic_load_explicit(&r->tail, memory_order_relaxed);
    uint64_t head = atomic_load_explicit(&r->head, memory_order_relaxed);
    return tail - hive_ring_steal_head(head);
}

/* Owner: queue list (linked through next, NULL-terminated, at most `most`
 * tasks) at the tail, in order, with one store of tail. False, and nothing
 * queued, when the ring may lack room for `most`: push them one by one. */
bool hive_ring_push_list(struct hive_ring *r, struct hive_task *list, uint32_t most);

/* Owner: take the oldest task, or NULL when empty. */
static inline struct hive_task *hive_ring_pop(struct hive_ring *r)
{
    HIVE_CHECK_OWNER(r->owner, HIVE_RULE_RING_OWNER);
    if (r->solo) {
        /* relaxed (all): nobody else reads or writes this ring this run,
         * so no steal is in flight (steal head == real head) and head moves
         * only here. At one worker every spawned task passes here. */
        uint32_t real = hive_ring_real_head(atomic_load_explicit(&r->head, memory_order_relaxed));
        if (real == atomic_load_explicit(&r->tail, memory_order_relaxed))
            return NULL;
        atomic_store_explicit(&r->head, hive_ring_pack(real + 1, real + 1), memory_order_relaxed);
        return atomic_load_explicit(&r->slot[real & HIVE_RING_MASK], memory_order_relaxed);
    }
    /* relaxed: a snapshot that the CAS below validates. */
    uint64_t head = atomic_load_explicit(&r->head, memory_order_relaxed);
    /* relaxed: only this core writes tail. */
    uint32_t tail = atomic_load_explicit(&r->tail, memory_order_relaxed);
    for (;;) {
        uint32_t steal = hive_ring_steal_head(head), real = hive_ring_real_head(head);
        if (real == tail)
            return NULL;
        uint32_t next = real + 1;
        /* With no steal in flight both heads move; otherwise the thief's
         * release CAS will bring the steal head up to the real head. */
        uint64_t want = hive_ring_pack(steal == real ? next : steal, next);
        /* relaxed (both): pop publishes nothing. The slot it frees is reused
         * only by this core, and a thief that reads this head validates it
         * against tail (see ring.c, "torn snapshot"). */
        if (atomic_compare_exchange_weak_explicit(&r->head, &head, want, memory_order_relaxed,
                                                  memory_order_relaxed))
            /* relaxed: this core wrote the slot. */
            return atomic_load_explicit(&r->slot[real & HIVE_RING_MASK], memory_order_relaxed);
    }
}

/* Tasks queued (tail - real head). A hint for everyone: the owner's tail is
 * exact, but its relaxed head load may miss a thief's claim, so the owner gets
 * an upper bound - 0 from the owner does mean empty. */
uint32_t hive_ring_len(struct hive_ring *r);

enum hive_steal_result {
    HIVE_STEAL_EMPTY = 0, /* the victim had nothing */
    HIVE_STEAL_OK,        /* claimed; finish with hive_ring_steal_finish */
    HIVE_STEAL_BUSY,      /* another steal from the victim is in progress */
    HIVE_STEAL_NO_ROOM,   /* dst cannot take the batch: refused, nothing claimed */
};

/* What a claim took: victim slots [start, start + n), copied to dst from dst_tail. */
struct hive_ring_claim {
    uint32_t start;
    uint32_t n;
    uint32_t dst_tail;
};

/*
 * A steal in two calls: claim, then finish (copy out and release). Split so
 * that the steal can count what it claimed (sched/steal.c) and the fuzzer can
 * interleave other operations between them, as a preempted thief sees them.
 * Between claim and finish the caller must not touch dst as its owner (no
 * push or pop): claim measured dst's room. finish returns the oldest claimed
 * task, to run at once; the others are in dst.
 */
enum hive_steal_result hive_ring_steal_claim(struct hive_ring *src, struct hive_ring *dst,
                                             struct hive_ring_claim *c);
struct hive_task *hive_ring_steal_finish(struct hive_ring *src, struct hive_ring *dst,
                                         const struct hive_ring_claim *c);

#endif
