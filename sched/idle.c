/*
 * The idle protocol: when workers search, park and wake. The scheme is the
 * "last searcher must notify" one of Tokio's scheduler, with two changes
 * argued below: a waker only claims a parked bit (the woken worker counts
 * itself back), and a worker's park and unpark are always one pair, whoever
 * ends the park.
 *
 * State: one atomic word S = unparked << 32 | searching, and a bitmap P of
 * parked workers (bit set = parked and not yet claimed by a waker). Every
 * change of S and P is a seq_cst read-modify-write whose result is checked.
 * S changes only for the calling worker itself (park, unpark, start and stop
 * searching), so its counts can never go below what the workers really are;
 * a waker only claims a bit. (Tokio's waker counts the woken worker in S on
 * its behalf; with a separate bitmap that is two RMWs, and a woken worker that
 * sees its bit clear before the waker's count lands would stop searching
 * first and take the count below zero.)
 *
 * Rules
 *  1. Enqueue: a core that makes work takeable by other cores (a task evicted
 *     from its LIFO slot into its ring, a join frame or group task pushed on
 *     its fork-join deque, a push to the global queue, a batch a waiting core
 *     stole into its ring; sched/publish.c) then calls hive_idle_notify: a
 *     seq_cst fence, a load of S, and if searching == 0 and unparked < n it
 *     claims the lowest set bit of P (fetch_and, checked: if the bit was
 *     already clear another waker won it, try the next) and wakes that
 *     worker. So one enqueue wakes at most one core, and only when nobody is
 *     searching. A worker's push to its own ring or deque notifies without
 *     the fence (hive_idle_notify_unfenced) and, if that woke nobody, arms
 *     the backstop: HIVE_BACKSTOP_NS later a check on that core notifies
 *     again with the fence if the work is still queued ("Own pushes", below).
 *  2. A worker that runs out of local work may become a searcher (a CAS on S
 *     that refuses once half the workers search) and steals. If it finds work
 *     it stops searching; if it was the last searcher (the fetch_sub saw 1)
 *     it notifies (rule 1), so the search goes on while work may remain.
 *  3. Park: set our bit in P (fetch_or, checked clear), then subtract one from
 *     unparked and, if we searched, one from searching (fetch_sub, checked).
 *     If nobody searches after that - we were the last searcher, or we were
 *     refused by the cap and the searchers have all stopped since - issue a
 *     seq_cst fence and rescan every queue (all rings, all fork-join deques,
 *     the global queue); if anything is there, notify (rule 1; it may claim
 *     and wake ourselves). A non-searcher must rescan too: the searcher that
 *     refused it may have found a task that queues work and then runs for
 *     long (or waits for that work without helping); that work's notify saw
 *     everyone awake, so nobody else looks for it (model/idle.pml -DLONG,
 *     the case below).
 *  4. A parked worker leaves once its bit is clear - a waker claimed it - or
 *     on its own (timeout, end of run, or for a join or group waiter the end
 *     of its wait: sched/wait.c), clearing its bit itself. Either way
 *     it adds one to unparked and one to searching (it leaves as a searcher)
 *     and issues a seq_cst fence. One park, one unpark, whoever cleared the
 *     bit: so a worker that times out while another claims it can neither
 *     count itself twice nor leak the searching count.
 *
 * Why no wakeup is lost. Call a scan "late" if it reads every queue after a
 * seq_cst RMW of S that follows E's load of S in S's modification order, and
 * after a seq_cst fence. Such a scan sees E's task: E's fence precedes E's
 * load, which reads before that RMW, which precedes the scanner's fence, so
 * the two fences are ordered E first. Every scan the protocol does is of this
 * kind when its RMW comes after E's load: a searcher scans (steal loop, then
 * the global queue) after its start_search CAS and a fence; a worker that
 * parks leaving nobody searching rescans after its fetch_sub and a fence; a
 * claimed worker counts
 * itself back (fetch_add, then a fence) only after its seq_cst bit load saw
 * the claimer's fetch_and, which follows the claimer's load of S.
 * Now take an enqueue E (push; fence; load S) and what its load reads:
 *  - searching == 0, unparked < n: k workers have parked and not yet counted
 *    themselves back, and each set its bit before its decrement (rule 3).
 *    If E finds a set bit it claims it; that worker reads the claim, which
 *    follows E's load, and only then counts itself back: its search is late.
 *    If E finds none, all k were claimed (or left on their own) and each one's
 *    unpark follows E's load, which did not see it: their searches are late.
 *  - searching == 0, unparked == n: all workers are awake and nobody
 *    searches. Take any worker X that parks later (if none does, no core
 *    sleeps): its fetch_sub follows E's load (unparked == n there). If
 *    nobody searches after it, X rescans, and that rescan is late. Else
 *    some searcher is counted there, and it began searching after E's load
 *    (searching == 0 there): its scan is late.
 *    This holds whatever the other workers do meanwhile: a worker may stay
 *    in one task for as long as it likes - E's own worker may, after E, run
 *    a task that waits for E's task without helping - and the task is still
 *    found by a worker that parks. (Rescanning only as the last searcher, as
 *    Tokio does, needs every worker to make another attempt to search after
 *    its current task: X, refused by a searcher that then found the task
 *    making E, parks without a rescan, and E's task waits for a busy core.)
 *  - searching > 0: let Y be any of those searchers. Y parks (its decrement
 *    follows E's load; if nobody searches after it its rescan is late, else
 *    another searcher remains and we repeat with it) or stops because it
 *    found work: if last, it notifies after E's load, which is the first
 *    case (a claimed worker's search is late) or the second (all awake); if
 *    not last, repeat with a remaining searcher.
 * In every case a late scan finds the task, or a worker that made one took
 * other work and is awake; no worker sleeps for good while the task waits
 * to be taken, even while the others run long tasks.
 *
 * Own pushes. A worker's push to its own ring or deque has no fence before
 * its load of S, so the argument above does not hold for it as it stands:
 * the load may read S from before a worker X parked, while X's rescan misses
 * the push (the store-buffering outcome). Two things still hold.
 *  - No task is left queued while every core sleeps: the pushing core P is
 *    awake, and before it sleeps it parks (its seq_cst RMWs of P and S follow
 *    the push), finds its own queues first, and the last worker to leave
 *    nobody searching rescans. Every park's RMW of S after P's is late for
 *    the push, and some worker's park comes after all others' in S's order:
 *    P's, or a later one. Such a worker sees the push (P's RMW precedes its
 *    own), so if it leaves nobody searching its rescan finds the task, and
 *    if it leaves a searcher, that searcher's scan is late too.
 *  - While P runs on (a long task, or one that waits for the pushed work
 *    without helping), a worker that missed the push may sleep beside it:
 *    until the backstop. The push that woke nobody armed it; HIVE_BACKSTOP_NS
 *    later the check, an interrupt of P (on the host: a thread of the
 *    port's), looks at S: with no worker parked, nobody has missed the push
 *    yet, and it looks again a period later. Once one is parked it clears
 *    the flag, fences (on the host: a membarrier, which puts a fence on P),
 *    and if the work is still there notifies as rule 1 does: the enqueue E
 *    of the argument above, made late, with everything P pushed before it.
 *    A push after the check sees the flag clear and arms it again. So a
 *    core sleeps beside work a busy core pushed for at most two periods
 *    (the park may follow a look that found nobody parked) plus the
 *    interrupt's latency (model/idle.pml -DLONG checks it, and that it fails
 *    without the backstop).
 *  - Private group tasks (sched/group.c) are pushes not yet made: no other
 *    core can take them, and so none can miss them. Their core is awake and
 *    pops them before it parks, or publishes them (a deep wait, which never
 *    parks). Made stealable later, they are pushes like any other: by the
 *    core in task context, followed by its notify; or by the heartbeat's
 *    poke, inside the backstop check just before the check's own fence and
 *    look (publish.c), so that look is their notify - made late, as above.
 * Wakes themselves are never lost: hive_port_wake leaves one pending wake per
 * core that the next hive_port_wait consumes, and a parked worker re-checks
 * its bit after every return from hive_port_wait. No step depends on a park
 * timeout: it is optional (none by default, hive_config.park_timeout_ns), so
 * every wake the argument needs comes from a waker.
 *
 * The cap on searchers is a CAS loop, so searching never exceeds n/2 through
 * rule 2; woken workers may add one more each (a woken core always searches).
 * The price of a bit-only claim: until a woken worker counts itself, another
 * enqueue that finds nobody searching may wake a second core.
 */
#include "sched/idle.h"

#include "sched/port.h"

#define ONE_UNPARKED ((uint64_t)1 << 32)
#define ONE_SEARCHING ((uint64_t)1)

static void idle_panic(const char *why)
{
    /* A broken invariant is a scheduler bug: stop loudly, never strand work. */
    hive_port_panic(why);
}

void hive_idle_init(struct hive_idle *idle, unsigned n)
{
    /* relaxed, all: published by hive_run's seq_cst store of the phase, and
     * the port starts the workers after it; nobody uses the state before
     * (an outside spawner loads the phase first: hive_publish_global). */
    atomic_store_explicit(&idle->n, n, memory_order_relaxed);
    atomic_store_explicit(&idle->state, (uint64_t)n << 32, memory_order_relaxed);
    for (unsigned i = 0; i < HIVE_IDLE_WORDS; i++)
        atomic_store_explicit(&idle->parked[i], 0, memory_order_relaxed);
}

bool hive_idle_start_search(struct hive_idle *idle, bool *first_want)
{
    unsigned n = hive_idle_workers(idle);
    uint64_t s = atomic_load(&idle->state);
    for (;;) {
        if (2 * hive_idle_searching(s) >= n)
            return false;
        if (atomic_compare_exchange_weak(&idle->state, &s, s + ONE_SEARCHING)) {
            if (first_want)
                *first_want = s == hive_idle_all_busy(n);
            /* The scan that follows must be late (see above). */
            atomic_thread_fence(memory_order_seq_cst);
            return true;
        }
    }
}

bool hive_idle_stop_search(struct hive_idle *idle)
{
    uint64_t prev = atomic_fetch_sub(&idle->state, ONE_SEARCHING);
    if (hive_idle_searching(prev) == 0)
        idle_panic("searching count underflow");
    return hive_idle_searching(prev) == 1;
}

int hive_idle_notify(struct hive_idle *idle)
{
    /* The full fence of rule 1: orders our enqueue before the load of S. */
    atomic_thread_fence(memory_order_seq_cst);
    return hive_idle_notify_unfenced(idle);
}

int hive_idle_claim_parked(struct hive_idle *idle, unsigned n)
{
    unsigned words = (n + 63) / 64;
    for (unsigned w = 0; w < words; w++) {
        uint64_t bits = atomic_load(&idle->parked[w]);
        while (bits) {
            unsigned b = (unsigned)__builtin_ctzll(bits);
            uint64_t mask = (uint64_t)1 << b;
            uint64_t old = atomic_fetch_and(&idle->parked[w], ~mask);
            if (old & mask) {
                unsigned id = w * 64 + b;
                hive_port_wake(id);
                return (int)id;
            }
            /* Another waker claimed it; look at what is left. */
            bits = old & ~mask;
        }
    }
    /* Nobody to claim: every parked worker was claimed by concurrent wakers
     * or left on its own, and each of them will search. */
    return -1;
}

bool hive_idle_park(struct hive_idle *idle, unsigned id, bool searching, bool *first_want)
{
    uint64_t mask = (uint64_t)1 << (id % 64);
    uint64_t old = atomic_fetch_or(&idle->parked[id / 64], mask);
    if (old & mask)
        idle_panic("parked twice");
    uint64_t dec = ONE_UNPARKED | (searching ? ONE_SEARCHING : 0);
    uint64_t prev = atomic_fetch_sub(&idle->state, dec);
    if (hive_idle_unparked(prev) == 0 || (searching && hive_idle_searching(prev) == 0))
        idle_panic("idle count underflow");
    if (first_want)
        *first_want = prev == hive_idle_all_busy(hive_idle_workers(idle));
    /* Rule 3: nobody searches after us (we were the last searcher, or no
     * searcher is left of those that made the cap refuse us). */
    bool rescan = hive_idle_searching(prev) == (searching ? 1u : 0u);
    if (rescan)
        /* The rescan's loads come after this fence. */
        atomic_thread_fence(memory_order_seq_cst);
    return rescan;
}

bool hive_idle_is_parked(struct hive_idle *idle, unsigned id)
{
    /* seq_cst: pairs with the claiming fetch_and in hive_idle_claim_parked
     * (what hive_idle_notify and hive_idle_notify_unfenced call), so a
     * worker that sees itself claimed also sees what its waker queued. */
    return atomic_load(&idle->parked[id / 64]) >> (id % 64) & 1;
}

bool hive_idle_unpark(struct hive_idle *idle, unsigned id)
{
    uint64_t mask = (uint64_t)1 << (id % 64);
    /* Clear our bit if no waker did: from now on nobody can claim us. */
    uint64_t old = atomic_fetch_and(&idle->parked[id / 64], ~mask);
    uint64_t prev = atomic_fetch_add(&idle->state, ONE_UNPARKED | ONE_SEARCHING);
    unsigned n = hive_idle_workers(idle);
    if (hive_idle_unparked(prev) >= n || hive_idle_searching(prev) >= n)
        idle_panic("idle count overflow");
    /* Rule 4: the search that follows must be late (see above). */
    atomic_thread_fence(memory_order_seq_cst);
    return !(old & mask);
}
