/*
 * Single-threaded unit tests of the queues: exact results of every path,
 * including the ones concurrency makes rare (a full ring with a steal in
 * flight, a steal refused for lack of room, indices crossing 2^32).
 */
#include <stdatomic.h>
#include <stdint.h>
#include <string.h>

#include "harness.h"
#include "sched/deque.h"
#include "sched/global_queue.h"
#include "sched/ring.h"
#include "sched/runq.h"
#include "sched/shared_queue.h"

#define CAP HIVE_RING_CAP
#define HALF HIVE_RING_HALF
#define NTASKS 4096

static struct hive_task tasks[NTASKS];
static struct hive_ring ring_a, ring_b, ring_c;
static struct hive_global global;

static unsigned id(struct hive_task *t) { return t ? (unsigned)(t - tasks) : ~0u; }

static uint32_t steal_of(struct hive_ring *r) { return hive_ring_steal_head(atomic_load(&r->head)); }
static uint32_t real_of(struct hive_ring *r) { return hive_ring_real_head(atomic_load(&r->head)); }
static uint32_t tail_of(struct hive_ring *r) { return atomic_load(&r->tail); }

static void reset(uint32_t start)
{
    memset(tasks, 0, sizeof tasks);
    hive_ring_init_at(&ring_a, start);
    hive_ring_init_at(&ring_b, start);
    hive_ring_init_at(&ring_c, start);
    hive_global_init(&global);
}

/* Push tasks [from, from + n) into r; none may spill. */
static void fill(struct hive_ring *r, unsigned from, unsigned n)
{
    for (unsigned i = 0; i < n; i++)
        hive_ring_push(r, &tasks[from + i], &global);
}

/* Pop n tasks from r and check they are [from, from + n) in order. */
static void expect_pops(struct hive_ring *r, unsigned from, unsigned n)
{
    for (unsigned i = 0; i < n; i++)
        CHECK_EQ(id(hive_ring_pop(r)), from + i);
}

/* Pop n tasks from the global queue one by one: [from, from + n) in order. */
static void expect_global(unsigned from, unsigned n)
{
    for (unsigned i = 0; i < n; i++)
        CHECK_EQ(id(hive_global_pop(&global)), from + i);
}

HIVE_TEST(ring_empty)
{
    reset(0);
    CHECK(hive_ring_pop(&ring_a) == NULL);
    CHECK_EQ(hive_ring_len(&ring_a), 0);
    CHECK_EQ(hive_ring_room(&ring_a), CAP);
    struct hive_ring_claim c;
    CHECK_EQ(hive_ring_steal_claim(&ring_a, &ring_b, &c), HIVE_STEAL_EMPTY);
    CHECK(hive_ring_steal(&ring_a, &ring_b) == NULL);
    CHECK(hive_ring_steal(&ring_a, &ring_a) == NULL); /* never from oneself */
    fill(&ring_a, 0, 1);
    CHECK(hive_ring_steal(&ring_a, &ring_a) == NULL);
    CHECK_EQ(id(hive_ring_pop(&ring_a)), 0);
    CHECK(hive_ring_pop(&ring_a) == NULL);
}

HIVE_TEST(ring_fifo_full_without_spill)
{
    reset(0);
    fill(&ring_a, 0, CAP);
    CHECK_EQ(hive_ring_len(&ring_a), CAP);
    CHECK_EQ(hive_ring_room(&ring_a), 0);
    CHECK(hive_global_is_empty(&global));
    expect_pops(&ring_a, 0, CAP);
    CHECK(hive_ring_pop(&ring_a) == NULL);
    CHECK_EQ(steal_of(&ring_a), CAP);
    CHECK_EQ(real_of(&ring_a), CAP);
    CHECK_EQ(tail_of(&ring_a), CAP);
}

/* Indices started just below 2^32: every operation crosses the wrap. */
HIVE_TEST(ring_indices_wrap)
{
    static const uint32_t starts[] = {0xFFFFFFFFu, 0xFFFFFFFBu, 0xFFFFFF80u, 0xFFFFFF00u, 0x7FFFFFFFu};
    for (unsigned s = 0; s < sizeof starts / sizeof starts[0]; s++) {
        uint32_t start = starts[s];
        reset(start);
        fill(&ring_a, 0, CAP);
        CHECK_EQ(hive_ring_len(&ring_a), CAP);
        CHECK_EQ(tail_of(&ring_a), start + CAP);
        expect_pops(&ring_a, 0, 10);
        CHECK_EQ(real_of(&ring_a), start + 10);
        fill(&ring_a, CAP, 10);
        CHECK_EQ(hive_ring_len(&ring_a), CAP);
        /* overflow across the wrap */
        hive_ring_push(&ring_a, &tasks[CAP + 10], &global);
        CHECK_EQ(hive_global_len(&global), HALF + 1);
        expect_global(10 + HALF, HALF + 1);
        /* steal across the wrap */
        struct hive_task *t = hive_ring_steal(&ring_a, &ring_b);
        CHECK_EQ(id(t), 10);
        CHECK_EQ(hive_ring_len(&ring_b), HALF / 2 - 1);
        expect_pops(&ring_b, 11, HALF / 2 - 1);
        expect_pops(&ring_a, 10 + HALF / 2, HALF / 2);
        CHECK(hive_ring_pop(&ring_a) == NULL);
        CHECK_EQ(steal_of(&ring_a), real_of(&ring_a));
        CHECK_EQ(real_of(&ring_a), tail_of(&ring_a));
    }
}

/* Full ring, no steal in flight: the newer half plus the new task leave as
 * one batch, in order; the older half stays, in order, and runs first. */
HIVE_TEST(ring_overflow_moves_newer_half)
{
    reset(0);
    /* something already waiting in the global queue */
    hive_global_push(&global, &tasks[1000]);
    fill(&ring_a, 0, CAP);
    hive_ring_push(&ring_a, &tasks[CAP], &global);
    CHECK_EQ(hive_global_len(&global), 1 + HALF + 1);
    CHECK_EQ(hive_ring_len(&ring_a), HALF);
    /* indices: everything claimed, then the older half re-queued in place */
    CHECK_EQ(steal_of(&ring_a), CAP);
    CHECK_EQ(real_of(&ring_a), CAP);
    CHECK_EQ(tail_of(&ring_a), CAP + HALF);
    /* order: older half here, then the global queue's older work, then the
     * newer half, then the new task */
    expect_pops(&ring_a, 0, HALF);
    CHECK(hive_ring_pop(&ring_a) == NULL);
    CHECK_EQ(id(hive_global_pop(&global)), 1000);
    expect_global(HALF, HALF + 1);
    CHECK(hive_global_is_empty(&global));
}

HIVE_TEST(ring_overflow_repeated)
{
    reset(0xFFFFFFF0u);
    /* push 3 rings' worth with no pops: each full push spills HALF + 1 */
    unsigned n = 3 * CAP;
    fill(&ring_a, 0, n);
    CHECK_EQ(hive_ring_len(&ring_a) + hive_global_len(&global), n);
    /* nothing lost, nothing twice */
    static unsigned char seen[NTASKS];
    memset(seen, 0, sizeof seen);
    struct hive_task *t;
    while ((t = hive_ring_pop(&ring_a)) != NULL)
        seen[id(t)]++;
    while ((t = hive_global_pop(&global)) != NULL)
        seen[id(t)]++;
    for (unsigned i = 0; i < n; i++)
        CHECK_EQ(seen[i], 1);
}

/* Full ring with a steal in flight: only the new task leaves. */
HIVE_TEST(ring_overflow_during_steal)
{
    reset(0xFFFFFF10u);
    fill(&ring_a, 0, CAP);
    struct hive_ring_claim c;
    CHECK_EQ(hive_ring_steal_claim(&ring_a, &ring_b, &c), HIVE_STEAL_OK);
    CHECK_EQ(c.n, HALF);
    /* the victim pushes while the thief is between claim and release */
    hive_ring_push(&ring_a, &tasks[CAP], &global);
    CHECK_EQ(hive_global_len(&global), 1);
    CHECK_EQ(hive_ring_len(&ring_a), CAP - HALF);
    hive_ring_push(&ring_a, &tasks[CAP + 1], &global);
    CHECK_EQ(hive_global_len(&global), 2);
    /* the victim pops meanwhile: only its real head moves */
    CHECK_EQ(id(hive_ring_pop(&ring_a)), HALF);
    CHECK_EQ(steal_of(&ring_a), 0xFFFFFF10u);
    CHECK_EQ(real_of(&ring_a), 0xFFFFFF10u + HALF + 1);
    /* finish: steal head catches up with the real head */
    CHECK_EQ(id(hive_ring_steal_finish(&ring_a, &ring_b, &c)), 0);
    CHECK_EQ(steal_of(&ring_a), real_of(&ring_a));
    expect_pops(&ring_b, 1, HALF - 1);
    /* room again: pushes stay local */
    hive_ring_push(&ring_a, &tasks[CAP + 2], &global);
    CHECK_EQ(hive_global_len(&global), 2);
    expect_pops(&ring_a, HALF + 1, CAP - HALF - 1);
    CHECK_EQ(id(hive_ring_pop(&ring_a)), CAP + 2);
    expect_global(CAP, 2);
}

/* A push finding the ring full just after a thief claimed (between its claim
 * and the owner's overflow CAS) must not move what the thief claimed. */
HIVE_TEST(ring_overflow_after_claim_then_release)
{
    reset(0);
    fill(&ring_a, 0, CAP);
    struct hive_ring_claim c;
    CHECK_EQ(hive_ring_steal_claim(&ring_a, &ring_b, &c), HIVE_STEAL_OK);
    CHECK_EQ(id(hive_ring_steal_finish(&ring_a, &ring_b, &c)), 0);
    /* now 128 free: fill them, then overflow with no steal in flight */
    fill(&ring_a, CAP, HALF);
    hive_ring_push(&ring_a, &tasks[CAP + HALF], &global);
    CHECK_EQ(hive_global_len(&global), HALF + 1);
    expect_pops(&ring_a, HALF, HALF);
    expect_global(CAP, HALF + 1);
    expect_pops(&ring_b, 1, HALF - 1);
}

/* Half, rounded up, at most HALF; the oldest is returned, the rest queued in
 * the thief's ring in order; the victim keeps the newer part. */
HIVE_TEST(ring_steal_sizes)
{
    static const unsigned avail[] = {1, 2, 3, 4, 5, 7, 100, 127, 128, 129, 200, 255, 256};
    for (unsigned k = 0; k < sizeof avail / sizeof avail[0]; k++) {
        unsigned a = avail[k];
        unsigned n = a - a / 2;
        if (n > HALF)
            n = HALF;
        reset(0xFFFFFFFFu - k);
        fill(&ring_a, 0, a);
        struct hive_task *t = hive_ring_steal(&ring_a, &ring_b);
        CHECK_EQ(id(t), 0);
        CHECK_EQ(hive_ring_len(&ring_b), n - 1);
        CHECK_EQ(hive_ring_len(&ring_a), a - n);
        expect_pops(&ring_b, 1, n - 1);
        expect_pops(&ring_a, n, a - n);
        CHECK(hive_ring_pop(&ring_b) == NULL);
        CHECK(hive_ring_pop(&ring_a) == NULL);
    }
}

HIVE_TEST(ring_steal_busy_while_in_flight)
{
    reset(0);
    fill(&ring_a, 0, 10);
    struct hive_ring_claim c1, c2;
    CHECK_EQ(hive_ring_steal_claim(&ring_a, &ring_b, &c1), HIVE_STEAL_OK);
    CHECK_EQ(hive_ring_steal_claim(&ring_a, &ring_c, &c2), HIVE_STEAL_BUSY);
    CHECK(hive_ring_steal(&ring_a, &ring_c) == NULL);
    CHECK_EQ(id(hive_ring_steal_finish(&ring_a, &ring_b, &c1)), 0);
    CHECK_EQ(id(hive_ring_steal(&ring_a, &ring_c)), 5);
    CHECK_EQ(hive_ring_len(&ring_c), 2);
}

/* The destination's room is measured from its steal head: slots a thief of
 * the destination is still copying out are not free. */
HIVE_TEST(ring_steal_refused_no_room)
{
    struct hive_ring_claim c, cb;
    reset(0xFFFFFFC0u);
    /* dst with 200 queued: room 56 */
    fill(&ring_b, 1000, 200);
    fill(&ring_a, 0, CAP);                      /* would steal 128: needs 127 */
    CHECK_EQ(hive_ring_steal_claim(&ring_a, &ring_b, &c), HIVE_STEAL_NO_ROOM);
    CHECK_EQ(hive_ring_len(&ring_a), CAP);      /* nothing claimed */
    CHECK_EQ(steal_of(&ring_a), real_of(&ring_a));
    CHECK(hive_ring_steal(&ring_a, &ring_b) == NULL);

    /* dst room 28: a victim of 55 gives 28 (27 copied), of 58 gives 29 (28
     * copied: exactly enough), of 60 gives 30 (29: refused) */
    reset(0);
    fill(&ring_b, 1000, CAP - 28);
    fill(&ring_a, 0, 55);
    CHECK_EQ(hive_ring_steal_claim(&ring_a, &ring_b, &c), HIVE_STEAL_OK);
    CHECK_EQ(c.n, 28);
    CHECK_EQ(id(hive_ring_steal_finish(&ring_a, &ring_b, &c)), 0);
    CHECK_EQ(hive_ring_room(&ring_b), 1);
    reset(0);
    fill(&ring_b, 1000, CAP - 28);
    fill(&ring_a, 0, 58);
    CHECK_EQ(hive_ring_steal_claim(&ring_a, &ring_b, &c), HIVE_STEAL_OK);
    CHECK_EQ(id(hive_ring_steal_finish(&ring_a, &ring_b, &c)), 0);
    CHECK_EQ(hive_ring_room(&ring_b), 0);
    reset(0);
    fill(&ring_b, 1000, CAP - 28);
    fill(&ring_a, 0, 60);
    CHECK_EQ(hive_ring_steal_claim(&ring_a, &ring_b, &c), HIVE_STEAL_NO_ROOM);

    /* dst full, a thief (ring_c) has claimed half of dst and not released:
     * dst's real head says 128 free, its steal head says 0. */
    reset(0);
    fill(&ring_b, 1000, CAP);
    CHECK_EQ(hive_ring_steal_claim(&ring_b, &ring_c, &cb), HIVE_STEAL_OK);
    CHECK_EQ(hive_ring_len(&ring_b), CAP - HALF);
    CHECK_EQ(hive_ring_room(&ring_b), 0);
    fill(&ring_a, 0, 4); /* steal 2: needs 1 slot */
    CHECK_EQ(hive_ring_steal_claim(&ring_a, &ring_b, &c), HIVE_STEAL_NO_ROOM);
    reset(0);
    fill(&ring_b, 1000, CAP);
    CHECK_EQ(hive_ring_steal_claim(&ring_b, &ring_c, &cb), HIVE_STEAL_OK);
    fill(&ring_a, 0, 2); /* steal 1: needs no slot, allowed */
    CHECK_EQ(id(hive_ring_steal(&ring_a, &ring_b)), 0);
    /* once ring_c releases, dst has room again */
    CHECK_EQ(id(hive_ring_steal_finish(&ring_b, &ring_c, &cb)), 1000);
    CHECK_EQ(hive_ring_room(&ring_b), HALF);
    fill(&ring_a, 2, 6); /* ring_a: 1 left + 6 = 7 -> steal 4 */
    CHECK_EQ(id(hive_ring_steal(&ring_a, &ring_b)), 1);
    CHECK_EQ(hive_ring_len(&ring_b), CAP - HALF + 3);
}

HIVE_TEST(ring_refill_batch_size)
{
    reset(0);
    /* min(len / cores + 1, room + 1, HALF) */
    for (unsigned i = 0; i < 1000; i++)
        hive_global_push(&global, &tasks[i]);
    struct hive_task *t = hive_ring_refill(&ring_a, &global, 4); /* 1000/4+1 = 251 -> 128 */
    CHECK_EQ(id(t), 0);
    CHECK_EQ(hive_ring_len(&ring_a), HALF - 1);
    CHECK_EQ(hive_global_len(&global), 1000 - HALF);
    expect_pops(&ring_a, 1, HALF - 1);
    t = hive_ring_refill(&ring_a, &global, 16); /* 872/16+1 = 55 */
    CHECK_EQ(id(t), HALF);
    CHECK_EQ(hive_ring_len(&ring_a), 54);
    expect_pops(&ring_a, HALF + 1, 54);
    /* room-limited: ring holds 250, room 6 -> 7 taken */
    fill(&ring_b, 2000, 250);
    t = hive_ring_refill(&ring_b, &global, 1);
    CHECK_EQ(id(t), HALF + 55);
    CHECK_EQ(hive_ring_len(&ring_b), CAP);
    CHECK_EQ(hive_global_len(&global), 1000 - HALF - 55 - 7);
    /* full ring: one task, straight to the caller */
    t = hive_ring_refill(&ring_b, &global, 1);
    CHECK_EQ(id(t), HALF + 62);
    CHECK_EQ(hive_ring_len(&ring_b), CAP);
    /* empty global queue */
    reset(0);
    CHECK(hive_ring_refill(&ring_a, &global, 1) == NULL);
}

HIVE_TEST(global_fifo_and_batches)
{
    reset(0);
    CHECK(hive_global_is_empty(&global));
    CHECK(hive_global_pop(&global) == NULL);
    unsigned long got = 99;
    CHECK(hive_global_pop_batch(&global, 10, &got) == NULL);
    CHECK_EQ(got, 0);
    hive_global_push(&global, &tasks[0]);
    /* a linked batch 1..5 */
    for (unsigned i = 1; i < 5; i++)
        tasks[i].next = &tasks[i + 1];
    tasks[5].next = &tasks[77]; /* ignored: last->next is overwritten */
    hive_global_push_batch(&global, &tasks[1], &tasks[5], 5);
    hive_global_push_batch(&global, &tasks[6], &tasks[6], 0); /* no-op */
    hive_global_push(&global, &tasks[6]);
    CHECK_EQ(hive_global_len(&global), 7);
    struct hive_task *l = hive_global_pop_batch(&global, 3, &got);
    CHECK_EQ(got, 3);
    CHECK_EQ(id(l), 0);
    CHECK_EQ(id(l->next), 1);
    CHECK_EQ(id(l->next->next), 2);
    CHECK(l->next->next->next == NULL);
    CHECK(hive_global_pop_batch(&global, 0, &got) == NULL);
    l = hive_global_pop_batch(&global, 100, &got);
    CHECK_EQ(got, 4);
    CHECK_EQ(id(l), 3);
    CHECK(hive_global_is_empty(&global));
    /* and usable again after draining */
    hive_global_push(&global, &tasks[9]);
    CHECK_EQ(id(hive_global_pop(&global)), 9);
    CHECK(hive_global_pop(&global) == NULL);
}

static struct hive_deque deque;

HIVE_TEST(deque_lifo_steal_fifo_full_wrap)
{
    static const uint32_t starts[] = {0, 0xFFFFFFF0u, 0x7FFFFFF0u};
    for (unsigned s = 0; s < 3; s++) {
        memset(tasks, 0, sizeof tasks);
        hive_deque_init_at(&deque, starts[s]);
        struct hive_task *x = &tasks[999];
        CHECK(hive_deque_pop(&deque) == NULL);
        CHECK_EQ(hive_deque_steal(&deque, &x), HIVE_STEAL_EMPTY);
        for (unsigned i = 0; i < HIVE_DEQUE_CAP; i++)
            CHECK(hive_deque_push(&deque, &tasks[i]) == NULL);
        /* full: handed back */
        CHECK(hive_deque_push(&deque, &tasks[HIVE_DEQUE_CAP]) == &tasks[HIVE_DEQUE_CAP]);
        CHECK_EQ(hive_deque_len(&deque), HIVE_DEQUE_CAP);
        CHECK_EQ(id(hive_deque_pop(&deque)), HIVE_DEQUE_CAP - 1);
        CHECK_EQ(hive_deque_steal(&deque, &x), HIVE_STEAL_OK);
        CHECK_EQ(id(x), 0);
        CHECK_EQ(hive_deque_steal(&deque, &x), HIVE_STEAL_OK);
        CHECK_EQ(id(x), 1);
        for (unsigned i = HIVE_DEQUE_CAP - 2; i >= 2; i--)
            CHECK_EQ(id(hive_deque_pop(&deque)), i);
        CHECK(hive_deque_pop(&deque) == NULL);
        CHECK(hive_deque_pop(&deque) == NULL);
        CHECK_EQ(hive_deque_len(&deque), 0);
        /* last item taken by a thief */
        CHECK(hive_deque_push(&deque, &tasks[5]) == NULL);
        CHECK_EQ(hive_deque_steal(&deque, &x), HIVE_STEAL_OK);
        CHECK_EQ(id(x), 5);
        CHECK(hive_deque_pop(&deque) == NULL);
        CHECK(hive_deque_push(&deque, &tasks[6]) == NULL);
        CHECK_EQ(id(hive_deque_pop(&deque)), 6);
        CHECK_EQ(hive_deque_steal(&deque, &x), HIVE_STEAL_EMPTY);
    }
}

static struct hive_shared_queue shared;

HIVE_TEST(shared_fifo_full_wrap)
{
    static const uint32_t starts[] = {0, 0xFFFFFFF0u, 0xFFFFF000u};
    for (unsigned s = 0; s < 3; s++) {
        hive_shared_init_at(&shared, starts[s]);
        CHECK(hive_shared_pop(&shared) == NULL);
        for (unsigned round = 0; round < 3; round++) {
            for (unsigned i = 0; i < HIVE_SHARED_CAP; i++)
                CHECK(hive_shared_push(&shared, &tasks[i % NTASKS]) == NULL);
            CHECK(hive_shared_push(&shared, &tasks[1]) == &tasks[1]);
            CHECK_EQ(hive_shared_len(&shared), HIVE_SHARED_CAP);
            for (unsigned i = 0; i < HIVE_SHARED_CAP; i++)
                CHECK_EQ(id(hive_shared_pop(&shared)), i % NTASKS);
            CHECK(hive_shared_pop(&shared) == NULL);
            CHECK_EQ(hive_shared_len(&shared), 0);
        }
    }
}

/* The strategy this tree is configured with, through runq.h. */
static struct hive_runq_set set;
static struct hive_runq runqs[3];

HIVE_TEST(runq_configured_strategy)
{
    reset(0);
    hive_runq_init_at(&set, runqs, 3, 0xFFFFFFFEu);
    CHECK(hive_runq_pop(&set, 0) == NULL);
    CHECK(hive_runq_steal(&set, 1, 0) == NULL);
    unsigned queued = 0, inline_runs = 0;
    static unsigned char seen[NTASKS];
    memset(seen, 0, sizeof seen);
    for (unsigned i = 0; i < 300; i++) {
        struct hive_task *back = hive_runq_push(&set, 0, &tasks[i], &global);
        if (back) {
            CHECK(back == &tasks[i]);
            seen[i]++;
            inline_runs++;
        } else {
            queued++;
        }
    }
    CHECK(hive_runq_len(&set, 0) > 0);
    struct hive_task *t;
#if HIVE_RUNQ != HIVE_RUNQ_SHARED
    t = hive_runq_steal(&set, 1, 0);
    CHECK(t != NULL);
    if (t)
        seen[id(t)]++;
#endif
    for (unsigned core = 0; core < 3; core++) {
        while ((t = hive_runq_pop(&set, core)) != NULL || (t = hive_runq_refill(&set, core, &global)) != NULL)
            seen[id(t)]++;
    }
    for (unsigned i = 0; i < 300; i++)
        CHECK_EQ(seen[i], 1);
    (void)queued;
    (void)inline_runs;
}

int main(void)
{
    return hive_test_main();
}
