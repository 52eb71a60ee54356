/*
 * Single-threaded unit tests of the queues and of the scheduler's two ways of
 * taking work from elsewhere (hive_steal_from, hive_take_global: every steal
 * below goes through the function the worker calls): exact results of every
 * path, including the ones concurrency makes rare (a full ring with a steal
 * in flight, a steal refused for lack of room, indices crossing 2^32).
 */
#include <stdatomic.h>
#include <stdint.h>
#include <string.h>

#include "harness.h"
#include "sched/deque.h"
#include "sched/global_queue.h"
#include "sched/ring.h"
#include "sched/steal.h"

#define CAP HIVE_RING_CAP
#define HALF HIVE_RING_HALF
#define NTASKS 4096

static struct hive_task tasks[NTASKS];
/* Three cores' queues; the ring tests use the rings, whose deques stay empty. */
static struct hive_core_queues qa, qb, qc;
static struct hive_core_stats stats;
static struct hive_global global;

static unsigned id(struct hive_task *t) { return t ? (unsigned)(t - tasks) : ~0u; }

static uint32_t steal_of(struct hive_ring *r) { return hive_ring_steal_head(atomic_load(&r->head)); }
static uint32_t real_of(struct hive_ring *r) { return hive_ring_real_head(atomic_load(&r->head)); }
static uint32_t tail_of(struct hive_ring *r) { return atomic_load(&r->tail); }
/* Free slots, measured from the steal head as the claim measures them. */
static uint32_t room_of(struct hive_ring *r) { return CAP - (tail_of(r) - steal_of(r)); }

static void reset(uint32_t start)
{
    memset(tasks, 0, sizeof tasks);
    hive_core_queues_init_at(&qa, HIVE_QUEUE_ANY_OWNER, start);
    hive_core_queues_init_at(&qb, HIVE_QUEUE_ANY_OWNER, start);
    hive_core_queues_init_at(&qc, HIVE_QUEUE_ANY_OWNER, start);
    hive_global_init(&global);
    stats = (struct hive_core_stats){0};
}

/* The thief `to` steals from `from`, as the worker does. */
static struct hive_task *steal(struct hive_core_queues *from, struct hive_core_queues *to)
{
    return hive_steal_from(from, to, &stats);
}

static struct hive_task *global_pop1(void)
{
    unsigned long got;
    return hive_global_pop_batch(&global, 1, &got);
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
        CHECK_EQ(id(global_pop1()), from + i);
}

HIVE_TEST(ring_empty)
{
    reset(0);
    CHECK(hive_ring_pop(&qa.ring) == NULL);
    CHECK_EQ(hive_ring_len(&qa.ring), 0);
    CHECK_EQ(room_of(&qa.ring), CAP);
    struct hive_ring_claim c;
    CHECK_EQ(hive_ring_steal_claim(&qa.ring, &qb.ring, &c), HIVE_STEAL_EMPTY);
    CHECK(steal(&qa, &qb) == NULL);
    CHECK(steal(&qa, &qa) == NULL); /* never from oneself */
    fill(&qa.ring, 0, 1);
    CHECK(steal(&qa, &qa) == NULL);
    CHECK_EQ(id(hive_ring_pop(&qa.ring)), 0);
    CHECK(hive_ring_pop(&qa.ring) == NULL);
}

HIVE_TEST(ring_fifo_full_without_spill)
{
    reset(0);
    fill(&qa.ring, 0, CAP);
    CHECK_EQ(hive_ring_len(&qa.ring), CAP);
    CHECK_EQ(room_of(&qa.ring), 0);
    CHECK(hive_global_is_empty(&global));
    expect_pops(&qa.ring, 0, CAP);
    CHECK(hive_ring_pop(&qa.ring) == NULL);
    CHECK_EQ(steal_of(&qa.ring), CAP);
    CHECK_EQ(real_of(&qa.ring), CAP);
    CHECK_EQ(tail_of(&qa.ring), CAP);
}

/* Indices started just below 2^32: every operation crosses the wrap. */
HIVE_TEST(ring_indices_wrap)
{
    static const uint32_t starts[] = {0xFFFFFFFFu, 0xFFFFFFFBu, 0xFFFFFF80u, 0xFFFFFF00u, 0x7FFFFFFFu};
    for (unsigned s = 0; s < sizeof starts / sizeof starts[0]; s++) {
        uint32_t start = starts[s];
        reset(start);
        fill(&qa.ring, 0, CAP);
        CHECK_EQ(hive_ring_len(&qa.ring), CAP);
        CHECK_EQ(tail_of(&qa.ring), start + CAP);
        expect_pops(&qa.ring, 0, 10);
        CHECK_EQ(real_of(&qa.ring), start + 10);
        fill(&qa.ring, CAP, 10);
        CHECK_EQ(hive_ring_len(&qa.ring), CAP);
        /* overflow across the wrap */
        hive_ring_push(&qa.ring, &tasks[CAP + 10], &global);
        CHECK_EQ(hive_global_len(&global), HALF + 1);
        expect_global(10 + HALF, HALF + 1);
        /* steal across the wrap */
        struct hive_task *t = steal(&qa, &qb);
        CHECK_EQ(id(t), 10);
        CHECK_EQ(hive_ring_len(&qb.ring), HALF / 2 - 1);
        expect_pops(&qb.ring, 11, HALF / 2 - 1);
        expect_pops(&qa.ring, 10 + HALF / 2, HALF / 2);
        CHECK(hive_ring_pop(&qa.ring) == NULL);
        CHECK_EQ(steal_of(&qa.ring), real_of(&qa.ring));
        CHECK_EQ(real_of(&qa.ring), tail_of(&qa.ring));
    }
}

/* Full ring, no steal in flight: the newer half plus the new task leave as
 * one batch, in order; the older half stays, in order, and runs first. */
HIVE_TEST(ring_overflow_moves_newer_half)
{
    reset(0);
    /* something already waiting in the global queue */
    hive_global_push(&global, &tasks[1000]);
    fill(&qa.ring, 0, CAP);
    hive_ring_push(&qa.ring, &tasks[CAP], &global);
    CHECK_EQ(hive_global_len(&global), 1 + HALF + 1);
    CHECK_EQ(hive_ring_len(&qa.ring), HALF);
    /* indices: everything claimed, then the older half re-queued in place */
    CHECK_EQ(steal_of(&qa.ring), CAP);
    CHECK_EQ(real_of(&qa.ring), CAP);
    CHECK_EQ(tail_of(&qa.ring), CAP + HALF);
    /* order: older half here, then the global queue's older work, then the
     * newer half, then the new task */
    expect_pops(&qa.ring, 0, HALF);
    CHECK(hive_ring_pop(&qa.ring) == NULL);
    CHECK_EQ(id(global_pop1()), 1000);
    expect_global(HALF, HALF + 1);
    CHECK(hive_global_is_empty(&global));
}

HIVE_TEST(ring_overflow_repeated)
{
    reset(0xFFFFFFF0u);
    /* push 3 rings' worth with no pops: each full push spills HALF + 1 */
    unsigned n = 3 * CAP;
    fill(&qa.ring, 0, n);
    CHECK_EQ(hive_ring_len(&qa.ring) + hive_global_len(&global), n);
    /* nothing lost, nothing twice */
    static unsigned char seen[NTASKS];
    memset(seen, 0, sizeof seen);
    struct hive_task *t;
    while ((t = hive_ring_pop(&qa.ring)) != NULL)
        seen[id(t)]++;
    while ((t = global_pop1()) != NULL)
        seen[id(t)]++;
    for (unsigned i = 0; i < n; i++)
        CHECK_EQ(seen[i], 1);
}

/* Full ring with a steal in flight: only the new task leaves. */
HIVE_TEST(ring_overflow_during_steal)
{
    reset(0xFFFFFF10u);
    fill(&qa.ring, 0, CAP);
    struct hive_ring_claim c;
    CHECK_EQ(hive_ring_steal_claim(&qa.ring, &qb.ring, &c), HIVE_STEAL_OK);
    CHECK_EQ(c.n, HALF);
    /* the victim pushes while the thief is between claim and release */
    hive_ring_push(&qa.ring, &tasks[CAP], &global);
    CHECK_EQ(hive_global_len(&global), 1);
    CHECK_EQ(hive_ring_len(&qa.ring), CAP - HALF);
    hive_ring_push(&qa.ring, &tasks[CAP + 1], &global);
    CHECK_EQ(hive_global_len(&global), 2);
    /* the victim pops meanwhile: only its real head moves */
    CHECK_EQ(id(hive_ring_pop(&qa.ring)), HALF);
    CHECK_EQ(steal_of(&qa.ring), 0xFFFFFF10u);
    CHECK_EQ(real_of(&qa.ring), 0xFFFFFF10u + HALF + 1);
    /* finish: steal head catches up with the real head */
    CHECK_EQ(id(hive_ring_steal_finish(&qa.ring, &qb.ring, &c)), 0);
    CHECK_EQ(steal_of(&qa.ring), real_of(&qa.ring));
    expect_pops(&qb.ring, 1, HALF - 1);
    /* room again: pushes stay local */
    hive_ring_push(&qa.ring, &tasks[CAP + 2], &global);
    CHECK_EQ(hive_global_len(&global), 2);
    expect_pops(&qa.ring, HALF + 1, CAP - HALF - 1);
    CHECK_EQ(id(hive_ring_pop(&qa.ring)), CAP + 2);
    expect_global(CAP, 2);
}

/* A push finding the ring full just after a thief claimed (between its claim
 * and the owner's overflow CAS) must not move what the thief claimed. */
HIVE_TEST(ring_overflow_after_claim_then_release)
{
    reset(0);
    fill(&qa.ring, 0, CAP);
    struct hive_ring_claim c;
    CHECK_EQ(hive_ring_steal_claim(&qa.ring, &qb.ring, &c), HIVE_STEAL_OK);
    CHECK_EQ(id(hive_ring_steal_finish(&qa.ring, &qb.ring, &c)), 0);
    /* now 128 free: fill them, then overflow with no steal in flight */
    fill(&qa.ring, CAP, HALF);
    hive_ring_push(&qa.ring, &tasks[CAP + HALF], &global);
    CHECK_EQ(hive_global_len(&global), HALF + 1);
    expect_pops(&qa.ring, HALF, HALF);
    expect_global(CAP, HALF + 1);
    expect_pops(&qb.ring, 1, HALF - 1);
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
        fill(&qa.ring, 0, a);
        struct hive_task *t = steal(&qa, &qb);
        CHECK_EQ(id(t), 0);
        CHECK_EQ(hive_ring_len(&qb.ring), n - 1);
        CHECK_EQ(hive_ring_len(&qa.ring), a - n);
        expect_pops(&qb.ring, 1, n - 1);
        expect_pops(&qa.ring, n, a - n);
        CHECK(hive_ring_pop(&qb.ring) == NULL);
        CHECK(hive_ring_pop(&qa.ring) == NULL);
    }
}

HIVE_TEST(ring_steal_busy_while_in_flight)
{
    reset(0);
    fill(&qa.ring, 0, 10);
    struct hive_ring_claim c1, c2;
    CHECK_EQ(hive_ring_steal_claim(&qa.ring, &qb.ring, &c1), HIVE_STEAL_OK);
    CHECK_EQ(hive_ring_steal_claim(&qa.ring, &qc.ring, &c2), HIVE_STEAL_BUSY);
    CHECK(steal(&qa, &qc) == NULL);
    CHECK_EQ(id(hive_ring_steal_finish(&qa.ring, &qb.ring, &c1)), 0);
    CHECK_EQ(id(steal(&qa, &qc)), 5);
    CHECK_EQ(hive_ring_len(&qc.ring), 2);
}

/* The destination's room is measured from its steal head: slots a thief of
 * the destination is still copying out are not free. */
HIVE_TEST(ring_steal_refused_no_room)
{
    struct hive_ring_claim c, cb;
    reset(0xFFFFFFC0u);
    /* dst with 200 queued: room 56 */
    fill(&qb.ring, 1000, 200);
    fill(&qa.ring, 0, CAP);                      /* would steal 128: needs 127 */
    CHECK_EQ(hive_ring_steal_claim(&qa.ring, &qb.ring, &c), HIVE_STEAL_NO_ROOM);
    CHECK_EQ(hive_ring_len(&qa.ring), CAP);      /* nothing claimed */
    CHECK_EQ(steal_of(&qa.ring), real_of(&qa.ring));
    CHECK(steal(&qa, &qb) == NULL);

    /* dst room 28: a victim of 55 gives 28 (27 copied), of 58 gives 29 (28
     * copied: exactly enough), of 60 gives 30 (29: refused) */
    reset(0);
    fill(&qb.ring, 1000, CAP - 28);
    fill(&qa.ring, 0, 55);
    CHECK_EQ(hive_ring_steal_claim(&qa.ring, &qb.ring, &c), HIVE_STEAL_OK);
    CHECK_EQ(c.n, 28);
    CHECK_EQ(id(hive_ring_steal_finish(&qa.ring, &qb.ring, &c)), 0);
    CHECK_EQ(room_of(&qb.ring), 1);
    reset(0);
    fill(&qb.ring, 1000, CAP - 28);
    fill(&qa.ring, 0, 58);
    CHECK_EQ(hive_ring_steal_claim(&qa.ring, &qb.ring, &c), HIVE_STEAL_OK);
    CHECK_EQ(id(hive_ring_steal_finish(&qa.ring, &qb.ring, &c)), 0);
    CHECK_EQ(room_of(&qb.ring), 0);
    reset(0);
    fill(&qb.ring, 1000, CAP - 28);
    fill(&qa.ring, 0, 60);
    CHECK_EQ(hive_ring_steal_claim(&qa.ring, &qb.ring, &c), HIVE_STEAL_NO_ROOM);

    /* dst full, a thief (qc) has claimed half of dst and not released:
     * dst's real head says 128 free, its steal head says 0. */
    reset(0);
    fill(&qb.ring, 1000, CAP);
    CHECK_EQ(hive_ring_steal_claim(&qb.ring, &qc.ring, &cb), HIVE_STEAL_OK);
    CHECK_EQ(hive_ring_len(&qb.ring), CAP - HALF);
    CHECK_EQ(room_of(&qb.ring), 0);
    fill(&qa.ring, 0, 4); /* steal 2: needs 1 slot */
    CHECK_EQ(hive_ring_steal_claim(&qa.ring, &qb.ring, &c), HIVE_STEAL_NO_ROOM);
    reset(0);
    fill(&qb.ring, 1000, CAP);
    CHECK_EQ(hive_ring_steal_claim(&qb.ring, &qc.ring, &cb), HIVE_STEAL_OK);
    fill(&qa.ring, 0, 2); /* steal 1: needs no slot, allowed */
    CHECK_EQ(id(steal(&qa, &qb)), 0);
    /* once qc releases, dst has room again */
    CHECK_EQ(id(hive_ring_steal_finish(&qb.ring, &qc.ring, &cb)), 1000);
    CHECK_EQ(room_of(&qb.ring), HALF);
    fill(&qa.ring, 2, 6); /* qa: 1 left + 6 = 7 -> steal 4 */
    CHECK_EQ(id(steal(&qa, &qb)), 1);
    CHECK_EQ(hive_ring_len(&qb.ring), CAP - HALF + 3);
}

/* A global pull takes min(len / cores + 1, HIVE_GLOBAL_BATCH), oldest first:
 * one to run, the rest as a list for the caller's ring, in order; with no
 * place for a rest, one. */
static void expect_list(struct hive_task *l, unsigned from, unsigned n)
{
    for (unsigned i = 0; i < n; i++, l = l->next)
        CHECK_EQ(id(l), from + i);
    CHECK(l == NULL);
}

HIVE_TEST(take_global_batch_size)
{
    reset(0);
    struct hive_task *rest = &tasks[NTASKS - 1];
    CHECK(hive_take_global(&global, 4, &rest, &stats) == NULL); /* empty */
    CHECK(rest == &tasks[NTASKS - 1]);                          /* untouched */
    CHECK_EQ(stats.global_pulls, 0);
    for (unsigned i = 0; i < 1000; i++)
        hive_global_push(&global, &tasks[i]);
    struct hive_task *t = hive_take_global(&global, 4, &rest, &stats); /* 251 -> 32 */
    CHECK_EQ(id(t), 0);
    expect_list(rest, 1, HIVE_GLOBAL_BATCH - 1);
    CHECK_EQ(hive_global_len(&global), 1000 - HIVE_GLOBAL_BATCH);
    t = hive_take_global(&global, 64, &rest, &stats); /* 968/64+1 = 16 */
    CHECK_EQ(id(t), HIVE_GLOBAL_BATCH);
    expect_list(rest, HIVE_GLOBAL_BATCH + 1, 15);
    CHECK_EQ(stats.global_pulls, 2);
    /* one core takes what little is left in pulls of len + 1 at most */
    reset(0);
    hive_global_push(&global, &tasks[7]);
    hive_global_push(&global, &tasks[8]);
    t = hive_take_global(&global, 8, &rest, &stats); /* 2/8+1 = 1 */
    CHECK_EQ(id(t), 7);
    CHECK(rest == NULL);
    t = hive_take_global(&global, 1, &rest, &stats); /* 1/1+1 = 2, 1 there */
    CHECK_EQ(id(t), 8);
    CHECK(rest == NULL);
    CHECK(hive_global_is_empty(&global));
    /* No rest wanted (the worker's ring holds work): one task a pull. */
    for (unsigned i = 0; i < 10; i++)
        hive_global_push(&global, &tasks[i]);
    CHECK_EQ(id(hive_take_global(&global, 1, NULL, &stats)), 0);
    CHECK_EQ(hive_global_len(&global), 9);
}

/* A pull's rest goes into the ring in one store of tail, in order, across
 * the indices' wrap; refused, with nothing queued, when the ring may lack
 * room for the bound (a thief still copying out counts as occupied). */
HIVE_TEST(ring_push_list)
{
    reset(0xFFFFFFF0u);
    for (unsigned i = 0; i < 30; i++)
        tasks[100 + i].next = i + 1 < 30 ? &tasks[100 + i + 1] : NULL;
    CHECK(hive_ring_push_list(&qa.ring, &tasks[100], HIVE_GLOBAL_BATCH));
    CHECK_EQ(hive_ring_len(&qa.ring), 30);
    CHECK_EQ(tail_of(&qa.ring), 0xFFFFFFF0u + 30);
    expect_pops(&qa.ring, 100, 30);
    CHECK(hive_ring_push_list(&qa.ring, NULL, HIVE_GLOBAL_BATCH)); /* an empty list */
    CHECK_EQ(hive_ring_len(&qa.ring), 0);
    /* Too little room: CAP - 8 queued, 8 free, a bound of 9. */
    fill(&qa.ring, 0, CAP - 8);
    for (unsigned i = 0; i < 8; i++)
        tasks[200 + i].next = i + 1 < 8 ? &tasks[200 + i + 1] : NULL;
    CHECK(!hive_ring_push_list(&qa.ring, &tasks[200], 9));
    CHECK_EQ(hive_ring_len(&qa.ring), CAP - 8);
    CHECK(hive_ring_push_list(&qa.ring, &tasks[200], 8));
    CHECK_EQ(room_of(&qa.ring), 0);
    /* A thief's claim in flight holds its slots until it finishes. */
    struct hive_ring_claim c;
    CHECK_EQ(hive_ring_steal_claim(&qa.ring, &qb.ring, &c), HIVE_STEAL_OK);
    expect_pops(&qa.ring, c.n, CAP - 8 - c.n);
    expect_pops(&qa.ring, 200, 8);
    /* Empty for its owner, yet the next slots at the tail are the claimed
     * ones (the indices wrapped round to them): no room at all. */
    CHECK_EQ(hive_ring_len(&qa.ring), 0);
    CHECK(!hive_ring_push_list(&qa.ring, &tasks[100], 1));
    CHECK_EQ(id(hive_ring_steal_finish(&qa.ring, &qb.ring, &c)), 0);
    CHECK(hive_ring_push_list(&qa.ring, &tasks[100], CAP));
    expect_pops(&qa.ring, 100, 30);
}

HIVE_TEST(global_fifo_and_batches)
{
    reset(0);
    CHECK(hive_global_is_empty(&global));
    CHECK(global_pop1() == NULL);
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
    CHECK_EQ(id(global_pop1()), 9);
    CHECK(global_pop1() == NULL);
}

/* Link tasks [from, from + n) and push them as one batch. */
static void push_linked(unsigned from, unsigned n)
{
    for (unsigned i = 0; i + 1 < n; i++)
        tasks[from + i].next = &tasks[from + i + 1];
    hive_global_push_batch(&global, &tasks[from], &tasks[from + n - 1], n);
}

/* Pop with max and expect [from, from + n) in order, NULL-terminated. */
static void expect_pop(unsigned long max, unsigned from, unsigned n)
{
    unsigned long got = 99;
    struct hive_task *l = hive_global_pop_batch(&global, max, &got);
    CHECK_EQ(got, n);
    expect_list(l, from, n);
}

/* The global queue's chunks (global_queue.h): a pull of max takes the
 * oldest chunk whole when it holds fewer than 2 * max, else max of it. */
HIVE_TEST(global_chunks)
{
    reset(0);
    /* A ring's spill, 129: chunks of 32, 32, 32 and 33 (the remainder joins
     * the last), each taken whole by a pull of 32. Each task but a chunk's
     * first holds its prefetch hint: the task HIVE_GLOBAL_HINT_AHEAD later
     * in the chunk, where there is one - none left unset, none across a cut. */
    push_linked(0, HIVE_RING_HALF + 1);
    static const unsigned spill_chunks[] = {32, 32, 32, 33};
    for (unsigned c = 0, base = 0; c < 4; base += spill_chunks[c++]) {
        unsigned len = spill_chunks[c];
        CHECK_EQ(tasks[base].chunk_len, len);
        CHECK(tasks[base].chunk_next == (c < 3 ? &tasks[base + len] : NULL));
        for (unsigned i = 1; i < len; i++)
            CHECK(tasks[base + i].chunk_next ==
                  (i + HIVE_GLOBAL_HINT_AHEAD < len ? &tasks[base + i + HIVE_GLOBAL_HINT_AHEAD] : NULL));
    }
    expect_pop(32, 0, 32);
    expect_pop(32, 32, 32);
    expect_pop(32, 64, 32);
    expect_pop(32, 96, 33);
    CHECK(hive_global_is_empty(&global));
    /* One at a time: they fill a chunk of HIVE_GLOBAL_CHUNK, then the next. */
    for (unsigned i = 0; i < HIVE_GLOBAL_CHUNK + 8; i++)
        hive_global_push(&global, &tasks[200 + i]);
    expect_pop(HIVE_GLOBAL_CHUNK_MAX, 200, HIVE_GLOBAL_CHUNK);
    expect_pop(HIVE_GLOBAL_CHUNK_MAX, 200 + HIVE_GLOBAL_CHUNK, 8);
    /* A long chunk (33) takes no more: one pushed after it starts its own. */
    push_linked(300, 33);
    hive_global_push(&global, &tasks[333]);
    expect_pop(1, 300, 1);        /* a part: 32 left, a chunk of its own */
    expect_pop(16, 301, 16);      /* 32 is not under 2 * 16: a part again */
    expect_pop(16, 317, 16);      /* 16 is: whole */
    expect_pop(16, 333, 1);
    CHECK(hive_global_is_empty(&global));
    /* A part taken from the newest chunk leaves the rest the newest: a
     * push after it joins it there. */
    for (unsigned i = 0; i < 6; i++)
        hive_global_push(&global, &tasks[400 + i]);
    expect_pop(2, 400, 2);        /* 6 is not under 4: 2 of it */
    hive_global_push(&global, &tasks[406]);
    CHECK_EQ(hive_global_len(&global), 5);
    expect_pop(3, 402, 5);        /* 5 is under 6: whole, 406 with it */
    CHECK(hive_global_is_empty(&global));
}

static struct hive_deque deque;

HIVE_TEST(deque_lifo_steal_fifo_full_wrap)
{
    static const uint32_t starts[] = {0, 0xFFFFFFF0u, 0x7FFFFFF0u};
    for (unsigned s = 0; s < 3; s++) {
        memset(tasks, 0, sizeof tasks);
        hive_deque_init_at(&deque, HIVE_QUEUE_ANY_OWNER, starts[s]);
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

/* Private entries (the split): invisible to thieves until published, popped
 * back newest first, the older half published first; full counts them; a
 * public push goes on top once they are published; across the index wrap. */
HIVE_TEST(deque_private_split)
{
    static const uint32_t starts[] = {0, 0xFFFFFFF8u};
    for (unsigned s = 0; s < 2; s++) {
        memset(tasks, 0, sizeof tasks);
        hive_deque_init_at(&deque, HIVE_QUEUE_ANY_OWNER, starts[s]);
        struct hive_task *x = NULL;
        for (unsigned i = 0; i < 5; i++)
            CHECK(hive_deque_push_private(&deque, &tasks[i]) == NULL);
        CHECK_EQ(hive_deque_len(&deque), 0);
        CHECK_EQ(hive_deque_owned(&deque), 5);
        CHECK_EQ(hive_deque_private_len(&deque), 5);
        CHECK_EQ(hive_deque_bottom(&deque), starts[s] + 5);
        CHECK_EQ(hive_deque_steal(&deque, &x), HIVE_STEAL_EMPTY);
        /* the owner takes its newest back, no thief involved */
        CHECK_EQ(id(hive_deque_pop(&deque)), 4);
        /* the older half of the four left: 0 and 1 */
        hive_deque_publish_oldest(&deque, 2);
        CHECK_EQ(hive_deque_len(&deque), 2);
        CHECK_EQ(hive_deque_private_len(&deque), 2);
        CHECK_EQ(hive_deque_steal(&deque, &x), HIVE_STEAL_OK);
        CHECK_EQ(id(x), 0);
        /* newest first: the private ones, then the public one by the
         * classic pop */
        CHECK_EQ(id(hive_deque_pop(&deque)), 3);
        CHECK_EQ(id(hive_deque_pop(&deque)), 2);
        CHECK_EQ(id(hive_deque_pop(&deque)), 1);
        CHECK(hive_deque_pop(&deque) == NULL);
        CHECK_EQ(hive_deque_owned(&deque), 0);
        /* full counts private entries; publish all, then a public push */
        for (unsigned i = 0; i < HIVE_DEQUE_CAP - 1; i++)
            CHECK(hive_deque_push_private(&deque, &tasks[10 + i]) == NULL);
        CHECK(!hive_deque_full(&deque));
        hive_deque_publish_oldest(&deque, hive_deque_private_len(&deque));
        CHECK_EQ(hive_deque_private_len(&deque), 0);
        CHECK(hive_deque_push(&deque, &tasks[9]) == NULL);
        CHECK(hive_deque_full(&deque));
        CHECK(hive_deque_push_private(&deque, &tasks[8]) == &tasks[8]);
        CHECK_EQ(hive_deque_len(&deque), HIVE_DEQUE_CAP);
        CHECK_EQ(id(hive_deque_pop(&deque)), 9);
        CHECK_EQ(hive_deque_steal(&deque, &x), HIVE_STEAL_OK);
        CHECK_EQ(id(x), 10);
        while (hive_deque_pop(&deque))
            ;
        CHECK_EQ(hive_deque_owned(&deque), 0);
    }
}

/* A solo deque (a run of one worker) gives up an entry from its middle: it
 * leaves a hole, every other entry keeps its index, and the pops drop the
 * holes they pass - but never below the limit they are given. The oldest,
 * one in the middle, then the newest (no hole: the bottom moves); across the
 * index wrap. */
HIVE_TEST(deque_take_solo)
{
    static const uint32_t starts[] = {0, 0xFFFFFFFEu, 0x7FFFFFFDu};
    for (unsigned s = 0; s < 3; s++) {
        uint32_t at = starts[s];
        memset(tasks, 0, sizeof tasks);
        hive_deque_init_at(&deque, HIVE_QUEUE_ANY_OWNER, at);
        deque.solo = true;
        for (unsigned i = 0; i < 7; i++)
            CHECK(hive_deque_push(&deque, &tasks[i]) == NULL);
        CHECK_EQ(hive_deque_top_solo(&deque), at);
        CHECK_EQ(id(hive_deque_take_solo(&deque, at)), 0);
        CHECK_EQ(id(hive_deque_take_solo(&deque, at + 3)), 3);
        CHECK_EQ(id(hive_deque_take_solo(&deque, at + 4)), 4);
        CHECK_EQ(id(hive_deque_take_solo(&deque, at + 6)), 6);
        CHECK_EQ(hive_deque_bottom(&deque), at + 6);
        CHECK_EQ(id(hive_deque_at(&deque, at + 1)), 1);
        CHECK_EQ(id(hive_deque_at(&deque, at + 5)), 5);
        CHECK_EQ(id(hive_deque_pop(&deque)), 5);
        /* Holes at 3 and 4: a pop limited to 4 drops the one at 4, stops */
        CHECK(hive_deque_pop_above(&deque, at + 4) == NULL);
        CHECK_EQ(hive_deque_bottom(&deque), at + 4);
        /* limited to 2: drops the hole at 3, takes 2 */
        CHECK_EQ(id(hive_deque_pop_above(&deque, at + 2)), 2);
        CHECK_EQ(id(hive_deque_pop(&deque)), 1);
        /* the hole at the oldest index: dropped, and the deque is empty */
        CHECK_EQ(hive_deque_owned(&deque), 1);
        CHECK(hive_deque_pop(&deque) == NULL);
        CHECK_EQ(hive_deque_bottom(&deque), at);
        CHECK_EQ(hive_deque_owned(&deque), 0);
    }
}

/* The worker's steal: the victim's fork-join deque first (its oldest entry,
 * one task), then half of its ring; nothing from oneself; every attempt, steal
 * and task moved counted. */
HIVE_TEST(steal_from_deque_first_then_ring)
{
    reset(0xFFFFFFFEu);
    CHECK(steal(&qa, &qb) == NULL);
    CHECK_EQ(stats.steal_attempts, 1);
    CHECK_EQ(stats.steals, 0);
    fill(&qa.ring, 0, 10);
    CHECK(hive_deque_push(&qa.forkjoin, &tasks[100]) == NULL);
    CHECK(hive_deque_push(&qa.forkjoin, &tasks[101]) == NULL);
    CHECK(steal(&qa, &qa) == NULL); /* never from oneself */
    CHECK_EQ(stats.steal_attempts, 1);
    CHECK_EQ(id(steal(&qa, &qb)), 100); /* the deque's oldest */
    CHECK_EQ(id(steal(&qa, &qb)), 101);
    CHECK_EQ(hive_ring_len(&qb.ring), 0);
    CHECK_EQ(stats.steals, 2);
    CHECK_EQ(stats.stolen_tasks, 2);
    CHECK_EQ(id(steal(&qa, &qb)), 0); /* then half the ring: 5, one to run */
    CHECK_EQ(stats.steals, 3);
    CHECK_EQ(stats.stolen_tasks, 2 + 5);
    expect_pops(&qb.ring, 1, 4);
    expect_pops(&qa.ring, 5, 5);
    CHECK(steal(&qa, &qb) == NULL);
    CHECK_EQ(stats.steal_attempts, 5);
    CHECK_EQ(stats.steals, 3);
    /* the deque alone, through the leapfrogging helper */
    CHECK(hive_deque_push(&qc.forkjoin, &tasks[200]) == NULL);
    CHECK_EQ(id(hive_steal_forkjoin(&qc, &stats)), 200);
    CHECK(hive_steal_forkjoin(&qc, &stats) == NULL);
    CHECK_EQ(stats.steals, 4);
    CHECK_EQ(stats.steal_attempts, 5); /* hive_steal_forkjoin counts no attempt */
}

/* A thief whose ring has no room for the victim's batch gets nothing from the
 * victim's ring, but still a task from its fork-join deque (one task needs no
 * room). */
HIVE_TEST(steal_from_refused_no_room)
{
    reset(0);
    fill(&qb.ring, 1000, CAP);
    fill(&qa.ring, 0, 4);
    CHECK(steal(&qa, &qb) == NULL);
    CHECK_EQ(hive_ring_len(&qa.ring), 4);
    CHECK(hive_deque_push(&qa.forkjoin, &tasks[50]) == NULL);
    CHECK_EQ(id(steal(&qa, &qb)), 50); /* one task needs no room */
    CHECK_EQ(stats.steals, 1);
}

int main(void)
{
    return hive_test_main();
}
