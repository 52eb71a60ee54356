/*
 * Queue benchmark: the dual-head ring (each core's run queue) and the
 * Chase-Lev deque (each core's fork-join queue), stolen from through the
 * scheduler's own functions (sched/steal.h: hive_steal_from for the ring,
 * hive_steal_forkjoin for the deque).
 *
 *   queue_bench time [SCALE]  owner push+pop pairs, and steal throughput with
 *                             1 and 2 thieves; Markdown table rows on stdout
 *   queue_bench count OP N    run OP N times between callgrind's START and
 *                             STOP_INSTRUMENTATION (bench/run turns the
 *                             instruction totals into per-operation counts)
 *   queue_bench smoke         a few iterations of everything (ctest)
 *
 * Timings are the best of several repetitions: on a shared machine the
 * minimum is the figure least disturbed by other work.
 */
#define _POSIX_C_SOURCE 200809L /* clock_gettime, under -std=c11 */

#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "sched/deque.h"
#include "sched/global_queue.h"
#include "sched/ring.h"
#include "sched/steal.h"

#if defined(__has_include)
#if __has_include(<valgrind/callgrind.h>)
#include <valgrind/callgrind.h>
#endif
#endif
#ifndef CALLGRIND_START_INSTRUMENTATION
#define CALLGRIND_START_INSTRUMENTATION
#define CALLGRIND_STOP_INSTRUMENTATION
#endif

enum kind { RING, DEQUE };
static const char *const kind_name[] = {"ring", "deque"};

#define POOL 1024u /* tasks are only queued by pointer: a small pool suffices */
static struct hive_task pool[POOL];
/* Core 0 is the owner (its ring, its deque); thieves are cores 1 and 2. */
static struct hive_core_queues cores[3];
#define deque (&cores[0].forkjoin)
static struct hive_global global = HIVE_GLOBAL_INIT;

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec + ts.tv_nsec * 1e-9;
}

static void die(const char *what)
{
    fprintf(stderr, "queue_bench: %s\n", what);
    exit(1);
}

static void reset(void)
{
    for (unsigned i = 0; i < 3; i++)
        hive_core_queues_init_at(&cores[i], HIVE_QUEUE_ANY_OWNER, 0);
    hive_global_init(&global);
}

/* ---- owner alone: push then pop the same task ----------------------------- */

/* One loop per queue, so that no per-iteration dispatch is counted. The empty
 * asm keeps the popped task without spending an instruction on it. */
#define PAIRS(name, push_fails, pop)                                           \
    static void name(unsigned long n)                                          \
    {                                                                          \
        struct hive_task *t = &pool[0];                                        \
        for (unsigned long i = 0; i < n; i++) {                                \
            if (push_fails)                                                    \
                die("full");                                                   \
            struct hive_task *got = (pop);                                     \
            __asm__ volatile("" ::"r"(got) : "memory");                        \
        }                                                                      \
        if ((pop) != NULL)                                                     \
            die("pairs left a task behind");                                   \
    }
PAIRS(pairs_ring, (hive_ring_push(&cores[0].ring, t, &global), 0), hive_ring_pop(&cores[0].ring))
PAIRS(pairs_deque, hive_deque_push(deque, t), hive_deque_pop(deque))

static void pairs(enum kind k, unsigned long n)
{
    (k == RING ? pairs_ring : pairs_deque)(n);
}

/* ---- steal throughput: the owner only pushes, thieves take everything ------ */

struct run {
    enum kind k;
    unsigned long total;
    atomic_bool go, pushed_all;
};

struct thief {
    pthread_t th;
    struct run *run;
    unsigned me; /* its own queues: cores[me] */
    unsigned long taken, steals;
    struct hive_core_stats stats;
};

static void *thief_main(void *arg)
{
    struct thief *th = arg;
    struct run *run = th->run;
    /* acquire: pairs with the release store of go in the owner's loop, so
     * the reset queues are seen before any steal. */
    while (!atomic_load_explicit(&run->go, memory_order_acquire))
        sched_yield();
    for (;;) {
        struct hive_task *t;
        if (run->k == RING) {
            t = hive_steal_from(&cores[0], &cores[th->me], &th->stats);
            if (t) {
                th->steals++;
                th->taken++;
                while (hive_ring_pop(&cores[th->me].ring))
                    th->taken++;
                continue;
            }
        } else {
            t = hive_steal_forkjoin(&cores[0], &th->stats);
        }
        if (t) {
            th->steals++;
            th->taken++;
            continue;
        }
        uint32_t left = run->k == RING ? hive_ring_len(&cores[0].ring) : hive_deque_len(deque);
        /* len is a hint: whatever a wrong "0" leaves, the owner drains.
         * acquire: pairs with the owner's release store of pushed_all. */
        if (atomic_load_explicit(&run->pushed_all, memory_order_acquire) && left == 0)
            break;
        sched_yield(); /* more threads than cores: let the owner run */
    }
    return NULL;
}

/* Owner: free slots of r, measured from the steal head as its push does. */
static uint32_t ring_room(struct hive_ring *r)
{
    /* relaxed: only the owner, the caller, writes tail. */
    uint32_t tail = atomic_load_explicit(&r->tail, memory_order_relaxed);
    /* acquire: pairs with the release CAS ending a steal, as in hive_ring_push. */
    uint64_t head = atomic_load_explicit(&r->head, memory_order_acquire);
    return HIVE_RING_CAP - (tail - hive_ring_steal_head(head));
}

/* Returns seconds; *steals gets the successful steal operations. */
static double steal_run(enum kind k, unsigned nthieves, unsigned long total, unsigned long *steals)
{
    struct run run = {.k = k, .total = total};
    struct thief th[2];
    reset();
    for (unsigned i = 0; i < nthieves; i++) {
        th[i] = (struct thief){.run = &run, .me = i + 1};
        if (pthread_create(&th[i].th, NULL, thief_main, &th[i]))
            die("pthread_create");
    }
    double t0 = now();
    /* release: pairs with the thieves' acquire load of go (queues reset). */
    atomic_store_explicit(&run.go, true, memory_order_release);
    for (unsigned long i = 0; i < total;) {
        struct hive_task *t = &pool[i % POOL];
        bool full;
        if (k == RING) {
            full = ring_room(&cores[0].ring) == 0; /* never overflow: steals only */
            if (!full)
                hive_ring_push(&cores[0].ring, t, &global);
        } else {
            full = hive_deque_push(deque, t) != NULL;
        }
        if (full)
            sched_yield();
        else
            i++;
    }
    /* release: pairs with the thieves' acquire load of pushed_all: every push
     * is visible to a thief that sees it, so its final len check is fair. */
    atomic_store_explicit(&run.pushed_all, true, memory_order_release);
    unsigned long taken = 0;
    *steals = 0;
    for (unsigned i = 0; i < nthieves; i++) {
        pthread_join(th[i].th, NULL);
        taken += th[i].taken;
        *steals += th[i].steals;
    }
    double secs = now() - t0;
    /* Left behind by a thief that saw pushed_all and an empty-looking ring. */
    for (;;) {
        struct hive_task *t = k == RING ? hive_ring_pop(&cores[0].ring) : hive_deque_pop(deque);
        if (!t)
            break;
        taken++;
    }
    if (taken != total)
        die("steal run lost or duplicated tasks");
    return secs;
}

/* ---- callgrind: deterministic single-threaded loops ----------------------- */

/* Both rings back to empty and the victim refilled before each steal, so that
 * every steal takes the same path. bench/run counts the steal call alone
 * (callgrind's inclusive cost of the steal function). */
static void steal_setup(enum kind k, unsigned fill)
{
    hive_core_queues_init_at(&cores[0], HIVE_QUEUE_ANY_OWNER, 0);
    hive_core_queues_init_at(&cores[1], HIVE_QUEUE_ANY_OWNER, 0);
    for (unsigned i = 0; i < fill; i++) {
        if (k == RING)
            hive_ring_push(&cores[0].ring, &pool[i], &global);
        else
            hive_deque_push(deque, &pool[i]);
    }
}

static void count(const char *op, unsigned long n)
{
    enum kind k = strncmp(op, "ring", 4) == 0 ? RING : DEQUE;
    const char *dash = strchr(op, '-');
    const char *what = dash ? dash + 1 : op;
    unsigned fill = strncmp(what, "steal1", 6) == 0 ? 1 : HIVE_RING_CAP;
    reset();
    if (strcmp(what, "pair") == 0) {
        pairs(k, 1000); /* warm: first-touch and lazy binding stay out */
        CALLGRIND_START_INSTRUMENTATION;
        pairs(k, n);
        CALLGRIND_STOP_INSTRUMENTATION;
    } else if (strcmp(op, "loop") == 0) {
        /* The loop alone, to subtract from the pairs. */
        CALLGRIND_START_INSTRUMENTATION;
        for (unsigned long i = 0; i < n; i++)
            __asm__ volatile("" ::: "memory");
        CALLGRIND_STOP_INSTRUMENTATION;
    } else if (strncmp(what, "steal", 5) == 0 && (strncmp(op, "ring", 4) == 0 ||
                                                  strncmp(op, "deque", 5) == 0)) {
        struct hive_core_stats stats = {0};
        CALLGRIND_START_INSTRUMENTATION;
        for (unsigned long i = 0; i < n; i++) {
            steal_setup(k, fill);
            if (k == RING ? !hive_steal_from(&cores[0], &cores[1], &stats)
                          : !hive_steal_forkjoin(&cores[0], &stats))
                die("steal failed");
        }
        CALLGRIND_STOP_INSTRUMENTATION;
    } else {
        die("count: OP is loop, {ring,deque}-pair, ring-steal1, ring-stealhalf or deque-steal1");
    }
}

/* ---- timing table ---------------------------------------------------------- */

#define REPS 5

static void time_pairs(enum kind k, unsigned long n)
{
    double best = 1e9;
    reset();
    pairs(k, n / 10); /* warm */
    for (int r = 0; r < REPS; r++) {
        double t0 = now();
        pairs(k, n);
        double s = now() - t0;
        if (s < best)
            best = s;
    }
    printf("| %s | owner push+pop pair | 1 | %.2f ns | %.1f M pairs/s | |\n", kind_name[k],
           best * 1e9 / n, n / best * 1e-6);
}

/* What one uncontended CAS costs here: the floor under any pop that takes a
 * task with a CAS (the ring's pop always does). */
static void time_cas(unsigned long n)
{
    static _Atomic uint64_t word;
    double best = 1e9;
    for (int r = 0; r < REPS; r++) {
        double t0 = now();
        for (unsigned long i = 0; i < n; i++) {
            uint64_t old = i;
            atomic_compare_exchange_strong(&word, &old, i + 1);
        }
        double s = now() - t0;
        if (s < best)
            best = s;
    }
    printf("| (reference) | one uncontended CAS | 1 | %.2f ns | %.1f M/s | |\n", best * 1e9 / n,
           n / best * 1e-6);
}

static void time_steals(enum kind k, unsigned nthieves, unsigned long total)
{
    double best = 1e9;
    unsigned long steals = 0, s;
    for (int r = 0; r < REPS; r++) {
        double secs = steal_run(k, nthieves, total, &s);
        if (secs < best) {
            best = secs;
            steals = s;
        }
    }
    printf("| %s | owner pushes, %u %s steal | %u | %.1f ns/task | %.1f M tasks/s | %.1f tasks/steal |\n",
           kind_name[k], nthieves, nthieves > 1 ? "thieves" : "thief", nthieves + 1,
           best * 1e9 / total, total / best * 1e-6, steals ? (double)total / steals : 0.0);
}

int main(int argc, char **argv)
{
    const char *mode = argc > 1 ? argv[1] : "time";
    if (strcmp(mode, "count") == 0) {
        if (argc != 4)
            die("usage: queue_bench count OP N");
        count(argv[2], strtoul(argv[3], NULL, 0));
        return 0;
    }
    double scale = 1.0;
    if (strcmp(mode, "smoke") == 0)
        scale = 1e-4;
    else if (strcmp(mode, "time") != 0)
        die("usage: queue_bench time [SCALE] | count OP N | smoke");
    else if (argc > 2)
        scale = strtod(argv[2], NULL);
    unsigned long pairs_n = (unsigned long)(2e7 * scale) + 1;
    unsigned long tasks_n = (unsigned long)(2e6 * scale) + 1;

    printf("| queue | case | threads | time | rate | batch |\n|---|---|---|---|---|---|\n");
    time_cas(pairs_n);
    for (int k = RING; k <= DEQUE; k++)
        time_pairs((enum kind)k, pairs_n);
    for (int k = RING; k <= DEQUE; k++)
        for (unsigned n = 1; n <= 2; n++)
            time_steals((enum kind)k, n, tasks_n);
    return 0;
}
