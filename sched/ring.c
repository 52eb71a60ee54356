/*
 * The dual-head ring: protocol.
 *
 * State (all indices are uint32_t and wrap; every comparison is on an unsigned
 * difference, so only differences below 2^31 are meaningful, and they are at
 * most CAP):
 *
 *   head = steal << 32 | real   one 64-bit atomic, changed only by CAS
 *   tail                        written only by the owner
 *   slot[CAP]                   written only by the owner; slot[i & MASK]
 *                               holds index i
 *
 *   [steal, real)  claimed by the one thief in flight, which is still copying
 *                  them out; empty when steal == real ("no steal in progress")
 *   [real, tail)   queued tasks, oldest at real
 *
 * Invariants, in modification order of head and tail (I1..I4 hold at every
 * instant; the owner's and a thief's views may lag, see "torn snapshot"):
 *   I1  steal <= real <= tail, and tail - steal <= CAP
 *   I2  steal and real only move forward; tail only moves forward
 *   I3  at most one steal is in flight per ring (a claim requires steal == real)
 *   I4  the owner writes slot[i & MASK] for index i only while i - steal < CAP,
 *       i.e. never a slot a thief may still be reading
 *
 * Operations (CAS = compare-and-swap on head from the value last read; on
 * failure the operation re-reads and starts over, as noted):
 *
 *   push (owner)     if tail - steal < CAP: slot[tail] = t; tail += 1.
 *                    else if steal != real: the ring is full because a thief
 *                      is copying; send t alone to the global queue.
 *                    else OVERFLOW (below).
 *   pop (owner)      if real == tail: empty. else CAS head from (s, r) to
 *                    (r+1, r+1) if s == r, else (s, r+1); return slot[r].
 *                    Retry on CAS failure.
 *   steal src->dst   claim:   read src head (s, r); if s != r: BUSY. Read src
 *   (thief, dst its          tail t; n = ceil((t - r) / 2), at most CAP/2; if
 *    own ring)               n == 0: EMPTY. If n - 1 > CAP - (dst.tail -
 *                            dst.steal): NO_ROOM (refuse before claiming).
 *                            CAS src head (s, r) -> (s, r+n). Retry on CAS
 *                            failure with the head it returned.
 *                    copy:    slot r is returned to run at once; slots
 *                            r+1 .. r+n-1 are copied to dst's slots at
 *                            dst.tail ...
 *                    release: CAS src head (s, r') -> (r', r') for the current
 *                            r' (the owner may have popped meanwhile); retry
 *                            until it succeeds. Then dst.tail += n - 1.
 *   OVERFLOW (owner, ring full and steal == real == tail - CAP)
 *                    CAS head (r, r) -> (tail, tail): take the whole ring in
 *                    one step, so no thief can claim any of it (retry the push
 *                    from the top on failure: a thief got in first). Link the
 *                    newer half, indices [r + CAP/2, tail), then t, and append
 *                    that list to the global queue with one lock. Give the
 *                    older half back with tail += CAP/2: indices
 *                    [tail, tail + CAP/2) map to the very slots that hold
 *                    [r, r + CAP/2), so nothing is copied.
 *
 * Why nothing is lost or run twice: a task is at one index; it leaves the
 * ring only through a successful CAS that moves real past that index (pop,
 * claim, overflow), so exactly one party takes it. Overflow re-queues the older
 * half by moving tail, not by reusing claimed indices, and the CAS before it
 * ensured nobody else holds a claim on them.
 *
 * Overflow fairness: which half leaves. The older half [r, r + CAP/2) is what
 * this core would run next; the newer half has 128 tasks queued ahead of it
 * here, and new work keeps arriving behind it. Sending the older half to the
 * back of the global queue (the simpler choice) makes the oldest tasks wait
 * behind everything already in the global queue and behind the newer half
 * that stays here, and under a steady flood they are the ones that keep
 * bouncing. Sending the newer half plus the new task keeps the order the tasks
 * were queued in: older half (here, next), then what was already in the global
 * queue, then the newer half, then t. Taking the whole ring with one CAS and
 * giving the older half back is what lets the owner take the half at the tail
 * safely: a thief's claim always starts at real, so the owner cannot carve the
 * newer half out from under a concurrent claim without owning [real, tail).
 *
 * Steal room check: a steal that copied without looking could overwrite slots
 * the destination's own thieves are still reading. The thief writes dst slots
 * [dst.tail, dst.tail + n - 1). Slots at and after
 * dst.steal - not dst.real - may still be being read by a thief of dst, so the
 * room is CAP - (dst.tail - dst.steal). It only grows while the claim is in
 * flight (only dst's owner, the caller, fills dst), so checking before the
 * claim CAS is enough; a steal that does not fit is refused, never partial.
 *
 * Memory ordering (a bare CAS or load below is seq_cst; the rare paths keep it):
 *   - tail store (push, overflow, steal finish) is release and a thief's tail
 *     load is acquire: a thief that sees tail = t sees slots [.., t) written,
 *     and the tasks' contents written before they were pushed. Slot stores and
 *     loads are therefore relaxed.
 *   - The release CAS ending a steal pairs with the owner's acquire head loads
 *     (push, and the dst head load of the owner's own steals): the thief
 *     has finished reading a slot before the owner may overwrite it (I4).
 *     Every later change of head is a CAS, so it stays in that release
 *     sequence and an acquire load of any later head value still synchronizes.
 *   - pop is relaxed throughout: it reads only a slot this core wrote and
 *     frees a slot only this core will reuse.
 *   - Torn snapshot: a thief reads src head relaxed and then tail acquire. The
 *     head may already include pops that the tail it reads does not precede
 *     (pop publishes nothing), so tail - real can underflow; the thief then
 *     re-reads (avail > CAP). If tail >= real, every index in [real, tail) was
 *     published by that tail store, and if the claim CAS succeeds, head was
 *     still (s, r), so by I4 none of those slots has been rewritten.
 *
 * Known limit, shared with Tokio's queue: the head CAS compares values, so a
 * thief stalled between reading head and its claim CAS for exactly 2^32 pops
 * (head wrapping to the same value) could claim stale indices.
 */
#include "sched/ring.h"

#include <stddef.h>

void hive_ring_init_at(struct hive_ring *r, unsigned owner, uint32_t start)
{
    r->owner = owner;
    r->solo = false;
    atomic_init(&r->head, hive_ring_pack(start, start));
    atomic_init(&r->tail, start);
    for (uint32_t i = 0; i < HIVE_RING_CAP; i++)
        atomic_init(&r->slot[i], NULL);
}

uint32_t hive_ring_len(struct hive_ring *r)
{
    /* relaxed (both): a hint; a torn pair is caught by the range check. */
    uint64_t head = atomic_load_explicit(&r->head, memory_order_relaxed);
    uint32_t tail = atomic_load_explicit(&r->tail, memory_order_relaxed);
    uint32_t len = tail - hive_ring_real_head(head);
    return len > HIVE_RING_CAP ? 0 : len;
}

bool hive_ring_push_list(struct hive_ring *r, struct hive_task *list, uint32_t most)
{
    HIVE_CHECK_OWNER(r->owner, HIVE_RULE_RING_OWNER);
    /* relaxed: only this core writes tail. */
    uint32_t tail = atomic_load_explicit(&r->tail, memory_order_relaxed);
    /* acquire: pairs with the release CAS ending a steal, as in hive_ring_push. */
    uint64_t head = atomic_load_explicit(&r->head, memory_order_acquire);
    if (HIVE_RING_CAP - (tail - hive_ring_steal_head(head)) < most)
        return false;
    uint32_t end = tail;
    for (struct hive_task *t = list; t; t = t->next) {
        HIVE_CHECK(end - tail < most, "hive_ring_push_list: a list longer than its bound");
        /* relaxed: published by the release store of tail below; nobody
         * takes the task before it, so its next is still ours to read. */
        atomic_store_explicit(&r->slot[end++ & HIVE_RING_MASK], t, memory_order_relaxed);
    }
    /* release: pairs with the acquire load of tail in hive_ring_steal_claim. */
    atomic_store_explicit(&r->tail, end, memory_order_release);
    return true;
}

bool hive_ring_push_slow(struct hive_ring *r, struct hive_task *t, struct hive_global *g)
{
    /* relaxed: only this core writes tail. */
    uint32_t tail = atomic_load_explicit(&r->tail, memory_order_relaxed);
    /* acquire: pairs with the release CAS ending a steal (see hive_ring_push). */
    uint64_t head = atomic_load_explicit(&r->head, memory_order_acquire);
    for (;;) {
        uint32_t steal = hive_ring_steal_head(head), real = hive_ring_real_head(head);
        if (tail - steal < HIVE_RING_CAP) {
            /* A steal ended since the fast path looked. */
            /* relaxed: published by the release store of tail just below. */
            atomic_store_explicit(&r->slot[tail & HIVE_RING_MASK], t, memory_order_relaxed);
            /* release: pairs with the acquire load of tail in hive_ring_steal_claim. */
            atomic_store_explicit(&r->tail, tail + 1, memory_order_release);
            return false;
        }
        if (steal != real) {
            /* Full because a thief is still copying out: the slots it claimed
             * are not ours to move, so only t leaves. */
            hive_global_push(g, t);
            return true;
        }
        /* Full, nothing in flight: take [real, tail) in one CAS. On failure a
         * thief claimed first; head holds its value and we look again. seq_cst
         * on a rare path, though only its atomicity is argued. */
        if (atomic_compare_exchange_strong(&r->head, &head, hive_ring_pack(tail, tail)))
            break;
    }

    /* Every index in [tail - CAP, tail) is ours (real == steal == tail - CAP:
     * by I1 and read-read coherence the owner never sees tail - steal > CAP).
     * Link the newer half, then t. */
    uint32_t older = tail - HIVE_RING_CAP;
    struct hive_task *first = NULL, *last = NULL;
    for (uint32_t i = HIVE_RING_HALF; i < HIVE_RING_CAP; i++) {
        /* relaxed: this core wrote the slot. */
        struct hive_task *x =
            atomic_load_explicit(&r->slot[(older + i) & HIVE_RING_MASK], memory_order_relaxed);
        if (last)
            last->next = x;
        else
            first = x;
        last = x;
    }
    last->next = t;

    /* Re-queue the older half where it lies: index tail + i maps to the slot of
     * older + i. release: pairs with the acquire load of tail in
     * hive_ring_steal_claim (the slots were written by this core earlier). */
    atomic_store_explicit(&r->tail, tail + HIVE_RING_HALF, memory_order_release);

    hive_global_push_batch(g, first, t, HIVE_RING_HALF + 1);
    return true;
}

enum hive_steal_result hive_ring_steal_claim(struct hive_ring *src, struct hive_ring *dst,
                                             struct hive_ring_claim *c)
{
    if (src == dst)
        return HIVE_STEAL_EMPTY;
    /* Its owner's pops do not race with thieves (ring.h). */
    HIVE_CHECK(!src->solo, HIVE_RULE_RING_SOLO);
    /* The thief fills dst as its owner. */
    HIVE_CHECK_OWNER(dst->owner, HIVE_RULE_RING_OWNER);
    /* relaxed: dst is the caller's own ring; only it writes dst's tail. */
    uint32_t dst_tail = atomic_load_explicit(&dst->tail, memory_order_relaxed);
    /* acquire: pairs with the release CAS ending a steal out of dst, so those
     * thieves have read the slots we may fill. */
    uint64_t dst_head = atomic_load_explicit(&dst->head, memory_order_acquire);
    uint32_t room = HIVE_RING_CAP - (dst_tail - hive_ring_steal_head(dst_head));

    /* relaxed: a snapshot that the claim CAS validates (see "torn snapshot"). */
    uint64_t head = atomic_load_explicit(&src->head, memory_order_relaxed);
    for (;;) {
        uint32_t steal = hive_ring_steal_head(head), real = hive_ring_real_head(head);
        if (steal != real)
            return HIVE_STEAL_BUSY;
        /* acquire: pairs with the release stores of src's tail (push,
         * overflow, steal finish): slots [real, tail) are written. */
        uint32_t tail = atomic_load_explicit(&src->tail, memory_order_acquire);
        uint32_t avail = tail - real;
        if (avail > HIVE_RING_CAP) {
            /* Torn snapshot: this head includes pops later than this tail. */
            /* relaxed: as above. */
            head = atomic_load_explicit(&src->head, memory_order_relaxed);
            continue;
        }
        if (avail == 0)
            return HIVE_STEAL_EMPTY;
        uint32_t n = avail - avail / 2;
        if (n > HIVE_RING_HALF)
            n = HIVE_RING_HALF;
        if (n - 1 > room)
            return HIVE_STEAL_NO_ROOM;
        /* seq_cst, though only its atomicity is argued (the acquired tail
         * publishes the slots, I4 keeps them): the ordering spin and the tests
         * were run against. */
        if (atomic_compare_exchange_weak(&src->head, &head, hive_ring_pack(steal, real + n))) {
            c->start = real;
            c->n = n;
            c->dst_tail = dst_tail;
            return HIVE_STEAL_OK;
        }
    }
}

struct hive_task *hive_ring_steal_finish(struct hive_ring *src, struct hive_ring *dst,
                                         const struct hive_ring_claim *c)
{
    /* relaxed (slot loads): published by the tail that the claim acquired, and
     * not rewritten before the release CAS below (I4). */
    struct hive_task *first =
        atomic_load_explicit(&src->slot[c->start & HIVE_RING_MASK], memory_order_relaxed);
    /* Each stolen header will be written by this core when its task runs,
     * and waited for there (its state's exchange: run_task.c): ask for
     * the lines now, while the batch waits in the ring, so that they come
     * over from the victim's core together. */
    hive_prefetch_for_write(first);
    for (uint32_t i = 1; i < c->n; i++) {
        /* relaxed: as for first - published by the acquired tail, kept by I4. */
        struct hive_task *t =
            atomic_load_explicit(&src->slot[(c->start + i) & HIVE_RING_MASK], memory_order_relaxed);
        hive_prefetch_for_write(t);
        /* relaxed: published by the release store of dst's tail below. */
        atomic_store_explicit(&dst->slot[(c->dst_tail + i - 1) & HIVE_RING_MASK], t,
                              memory_order_relaxed);
    }

    /* Release: steal head catches up with real head (including any pops made
     * meanwhile). seq_cst CAS, whose release half pairs with the owner's
     * acquire head loads (push, dst side of its own steals). */
    /* relaxed: a snapshot that the CAS validates. */
    uint64_t head = atomic_load_explicit(&src->head, memory_order_relaxed);
    for (;;) {
        uint32_t real = hive_ring_real_head(head);
        if (atomic_compare_exchange_weak(&src->head, &head, hive_ring_pack(real, real)))
            break;
    }

    if (c->n > 1)
        /* release: pairs with the acquire load of tail in hive_ring_steal_claim
         * by thieves of dst. */
        atomic_store_explicit(&dst->tail, c->dst_tail + c->n - 1, memory_order_release);
    return first;
}
