/*
 * Scheduler test bodies shared by the host tests (tests/host/sched_test.c,
 * plain and ThreadSanitizer builds, looping over core counts) and the
 * on-target image (tests/target/sched_test.c, all cores QEMU was given).
 *
 * Each sched_case_* runs one or more hive_run()s on `cores` workers (0: the
 * port's default) and reports failures through CHECK. Sizes come from the
 * caller so QEMU and TSan can run them smaller. fib, N-Queens, the merge
 * sort and spawn are the shared workloads of tests/workloads/, which bench/
 * and apps/demo run too, compiled into each test program (hive_use_workloads).
 *
 * White-box: the lost-wakeup case reads the idle state (sched_internal.h) to
 * know when every worker has parked.
 */
#ifndef HIVE_TESTS_SCHED_WORKLOADS_H
#define HIVE_TESTS_SCHED_WORKLOADS_H

#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "harness.h"
#include "hive/hive.h"
#include "sched/sched_internal.h"
#include "workloads/fib.h"
#include "workloads/msort.h"
#include "workloads/nqueens.h"
#include "workloads/spawn.h"

/*
 * Time a spinning core was seen running. A loaded host can stop a whole
 * process - every thread at once - for over a second (measured on a 2-core
 * machine running QEMU images beside the tests: gaps of 1.4 s, the same in
 * both threads of a spinning pair), and QEMU's vCPU threads with it. A
 * wall-clock deadline in one core then expires the moment it runs again,
 * before the core it waits for has run at all; a fixed-length busy loop ends
 * at once after such a stop, before the core meant to overlap it has moved.
 * So the waits and busy loops below count only the time between polls that
 * follow each other closely (SW_ACTIVE_GAP_NS): a longer gap is time this
 * core was not running, in which nothing could be expected of the others
 * either. A lost wake-up still fails: the waiting core spins on, running,
 * and its count reaches the budget.
 */
#define SW_ACTIVE_GAP_NS 5000000ull /* 5 ms: longer than any poll, shorter than a stop */

/*
 * What a spin below does between polls. On a board a core is the program's
 * alone: a pause. A host test program whose cores are threads defines
 * SW_SPIN_PAUSE before including this file to give its CPU away as well: on
 * a host loaded past its CPUs (QEMU soaks beside the suite), a spin that
 * only paused kept the very thread it waited for off the CPU until the OS
 * preempted it - each hand-off a time slice, 14 s for a case that takes
 * 0.4 s quiet. The counts above see only running time, so either way the
 * verdicts are the same.
 */
#ifndef SW_SPIN_PAUSE
#define SW_SPIN_PAUSE() hive_port_cpu_relax()
#endif
/* Whether worker `core` sleeps in hive_port_wait now: the port's own test
 * accessor, which the including program names (hive_host_sleeping,
 * hive_park_sleeping). */
#ifndef SW_CORE_SLEEPING
#error "define SW_CORE_SLEEPING(core) before including sched_workloads.h"
#endif

struct sw_active {
    uint64_t last_ns;  /* the previous poll */
    uint64_t spent_ns; /* running time counted so far */
    uint64_t gap_ns;   /* the longest stop left out */
};

static inline void sw_active_start(struct sw_active *a)
{
    a->last_ns = hive_port_now_ns();
    a->spent_ns = 0;
    a->gap_ns = 0;
}

/* Running time since sw_active_start; call often (each poll of a spin). */
static inline uint64_t sw_active_poll(struct sw_active *a)
{
    uint64_t now = hive_port_now_ns();
    uint64_t step = now - a->last_ns;
    if (step < SW_ACTIVE_GAP_NS)
        a->spent_ns += step;
    else if (step > a->gap_ns)
        a->gap_ns = step;
    a->last_ns = now;
    return a->spent_ns;
}

/* Spin for ns of this core's running time (sw_active_poll). */
static inline void sw_spin_running(uint64_t ns)
{
    struct sw_active a;
    sw_active_start(&a);
    while (sw_active_poll(&a) < ns)
        SW_SPIN_PAUSE();
}

static inline struct hive_config sw_cfg(unsigned cores)
{
    struct hive_config c = {0};
    c.cores = cores;
    return c;
}

#define SW_RUN(cores, fn, arg)                                                  \
    do {                                                                        \
        struct hive_config c_ = sw_cfg(cores);                                  \
        CHECK_EQ(hive_run((fn), (arg), &c_), HIVE_OK);                          \
    } while (0)

/* Tasks and entries that do nothing, for the cases that need one. */
static void sw_err_noop_task(struct hive_task *t) { (void)t; }
static void sw_err_noop(void *p) { (void)p; }

/* A quiet stretch (sched/group.c): `spawns` group spawns of t into g, each
 * waited for at once - queued, then taken back by the wait - so that none
 * sees a core wanting work where the caller holds every other core. */
static void sw_quiet_stretch(struct hive_group *g, struct hive_task *t, unsigned spawns)
{
    for (unsigned i = 0; i < spawns; i++) {
        CHECK_EQ(hive_group_spawn(g, t, sw_err_noop_task), HIVE_OK);
        CHECK_EQ(hive_group_wait(g), HIVE_OK);
    }
}

/* ---- fib: a join per call, no cutoff (workloads/fib.h) ---------------------------- */

static void sched_case_fib(unsigned cores, unsigned n)
{
    struct wl_fib f = {n, 0};
    SW_RUN(cores, wl_fib_task, &f);
    CHECK_EQ(f.r, wl_fib_ref(n));
    const struct hive_stats *s = hive_stats_last();
    /* Every join pushes one frame, taken back or stolen. */
    CHECK_EQ(s->total.joins_inline + s->total.joins_waited, wl_fib_forks(n));
}

/* ---- N-Queens: a group per position, fine-grained (workloads/nqueens.h) ------------ */

static void sched_case_nqueens(unsigned cores, unsigned n)
{
    struct wl_queens q = {n, wl_queens_fine_rows(n), 0, HIVE_OK};
    SW_RUN(cores, wl_queens_task, &q);
    CHECK_EQ(q.err, HIVE_OK);
    CHECK_EQ(q.count, wl_queens_expect(n));
    /* A group spawn per placement above the serial rows, and nothing else
     * spawned from a worker: queued, or run at once by its spawner - every
     * one at one worker (sched/group.c); at more, those spawned while every
     * core was busy and enough were queued already. */
    const struct hive_core_stats *t = &hive_stats_last()->total;
    uint64_t tasks = wl_queens_tasks(n, q.task_rows, 0, wl_queens_empty());
    CHECK_EQ(t->spawned + t->run_at_spawn, tasks);
    if (hive_stats_last()->cores == 1)
        CHECK_EQ(t->run_at_spawn, tasks);
}

/* ---- merge sort: join for the halves, serial merge (workloads/msort.h) ------------- */

static void sched_case_msort(unsigned cores, size_t n)
{
    uint32_t *a = malloc(n * sizeof *a), *tmp = malloc(n * sizeof *tmp);
    CHECK(a && tmp);
    if (a && tmp) {
        uint64_t sum = wl_msort_fill(a, n);
        struct wl_msort m = {a, tmp, n};
        SW_RUN(cores, wl_msort_task, &m);
        CHECK(wl_msort_ok(a, n, sum));
        const struct hive_stats *s = hive_stats_last();
        CHECK_EQ(s->total.joins_inline + s->total.joins_waited, wl_msort_forks(n));
    }
    free(a);
    free(tmp);
}

/* ---- spawn: n independent tasks from one task (workloads/spawn.h) ------------------ */

static void sched_case_spawn(unsigned cores, size_t n)
{
    struct wl_spawn s;
    memset(&s, 0, sizeof s);
    /* The second run reuses what the first allocated, as the benchmark does;
     * the last two spawn with hive_spawn_or_run. */
    const size_t sizes[4] = {n, n / 2, n, n / 2};
    for (unsigned k = 0; k < 4; k++) {
        size_t m = sizes[k];
        int rc = wl_spawn_prepare(&s, m, cores ? cores : hive_core_count());
        CHECK_EQ(rc, 0);
        if (rc != 0)
            break;
        s.or_run = k >= 2;
        SW_RUN(cores, wl_spawn_entry, &s);
        CHECK_EQ(s.err, HIVE_OK);
        CHECK(wl_spawn_run_ok(&s));
        const struct hive_core_stats *t = &hive_stats_last()->total;
        CHECK_EQ(t->spawned + t->run_at_spawn, m);
        CHECK_EQ(t->tasks_run, m + 1); /* and the entry */
        /* Alone, the spawner's queues fill (the LIFO slot and the ring) and
         * stay full: every spawn after that runs at once. */
        if (!s.or_run)
            CHECK_EQ(t->run_at_spawn, 0);
        else if (hive_worker_count() == 1 && m > HIVE_RING_CAP + 1)
            CHECK_EQ(t->run_at_spawn, m - HIVE_RING_CAP - 1);
    }
    wl_spawn_free(&s);
}

/* ---- hive_spawn_or_run: when it runs the task, and when it must not --------------- */

#define SW_OR_RUN_FILL (HIVE_RING_CAP + 1) /* the LIFO slot and a full ring */

struct sw_or_run {
    struct hive_task fill[SW_OR_RUN_FILL];
    struct hive_task now, queued;
    unsigned fill_runs;  /* 1 worker: only that core writes these */
    unsigned now_runs, queued_runs;
    int rc_now, rc_busy, rc_null_task, rc_null_fn;
    unsigned fill_ran_before_return; /* fill tasks run inside their own spawn */
    unsigned now_ran_before_return;
};

static struct sw_or_run sw_or_run_g;

static void sw_or_run_fill(struct hive_task *t)
{
    (void)t;
    sw_or_run_g.fill_runs++;
}

static void sw_or_run_now(struct hive_task *t)
{
    (void)t;
    sw_or_run_g.now_runs++;
}

static void sw_or_run_queued(struct hive_task *t)
{
    (void)t;
    sw_or_run_g.queued_runs++;
}

static void sw_or_run_entry(void *unused)
{
    (void)unused;
    struct sw_or_run *g = &sw_or_run_g;
    /* A task queued first (into the LIFO slot): still queued below. */
    CHECK_EQ(hive_spawn(&g->queued, sw_or_run_queued), HIVE_OK);
    /* Until the queues are full every spawn queues; the one after runs at once. */
    for (unsigned i = 0; i < SW_OR_RUN_FILL; i++) {
        unsigned before = g->fill_runs;
        int rc = hive_spawn_or_run(&g->fill[i], sw_or_run_fill);
        CHECK_EQ(rc, HIVE_OK);
        g->fill_ran_before_return += g->fill_runs - before;
    }
    g->rc_now = hive_spawn_or_run(&g->now, sw_or_run_now);
    g->now_ran_before_return = g->now_runs;
    /* Full queues, but the task is queued: refused, as hive_spawn refuses. */
    g->rc_busy = hive_spawn_or_run(&g->queued, sw_or_run_queued);
    g->rc_null_task = hive_spawn_or_run(NULL, sw_or_run_now);
    g->rc_null_fn = hive_spawn_or_run(&g->now, NULL);
}

static void sched_case_spawn_or_run(void)
{
    struct sw_or_run *g = &sw_or_run_g;
    memset(g, 0, sizeof *g);
    SW_RUN(1, sw_or_run_entry, NULL);
    /* The LIFO slot took `queued` and gave it to the ring at the first fill,
     * so the ring was full one spawn early: the last fill ran at once. */
    CHECK_EQ(g->fill_ran_before_return, 1);
    CHECK_EQ(g->fill_runs, SW_OR_RUN_FILL);
    CHECK_EQ(g->rc_now, HIVE_OK);
    CHECK_EQ(g->now_ran_before_return, 1);
    CHECK_EQ(g->now_runs, 1);
    CHECK_EQ(g->rc_busy, HIVE_EBUSY);
    CHECK_EQ(g->queued_runs, 1);
    CHECK_EQ(g->rc_null_task, HIVE_EINVAL);
    CHECK_EQ(g->rc_null_fn, HIVE_EINVAL);
    CHECK_EQ(hive_stats_last()->total.run_at_spawn, 2);
    /* Outside task context it queues, for the next run. */
    memset(g, 0, sizeof *g);
    CHECK_EQ(hive_spawn_or_run(&g->now, sw_or_run_now), HIVE_OK);
    CHECK_EQ(g->now_runs, 0);
    SW_RUN(1, sw_err_noop, NULL);
    CHECK_EQ(g->now_runs, 1);
}

/* A chain: each task spawns the next with hive_spawn_or_run once the queues
 * are full - or, at one worker, into a group (sched/group.c) - so each would
 * run inside the last, ever deeper in the stack; past the middle of the
 * stack the spawns queue instead. */
struct sw_chain_link {
    struct hive_task task;
    unsigned index;
};

static struct {
    struct sw_chain_link *links;
    unsigned char *hit;
    unsigned n;
    struct hive_task fill[SW_OR_RUN_FILL];
    uintptr_t lowest; /* the lowest frame a link ran in (1 worker) */
    bool in_group;    /* the links go into `group`, not to hive_spawn_or_run */
    struct hive_group group;
} sw_chain;

static void sw_chain_run(struct hive_task *t)
{
    struct sw_chain_link *l = HIVE_CONTAINER_OF(t, struct sw_chain_link, task);
    char here;
    if ((uintptr_t)&here < sw_chain.lowest)
        sw_chain.lowest = (uintptr_t)&here;
    sw_chain.hit[l->index]++;
    if (l->index + 1 >= sw_chain.n)
        return;
    struct hive_task *next = &sw_chain.links[l->index + 1].task;
    if (sw_chain.in_group)
        CHECK_EQ(hive_group_spawn(&sw_chain.group, next, sw_chain_run), HIVE_OK);
    else
        CHECK_EQ(hive_spawn_or_run(next, sw_chain_run), HIVE_OK);
}

static void sw_chain_entry(void *unused)
{
    (void)unused;
    if (sw_chain.in_group) {
        hive_group_init(&sw_chain.group);
        CHECK_EQ(hive_group_spawn(&sw_chain.group, &sw_chain.links[0].task, sw_chain_run), HIVE_OK);
        CHECK_EQ(hive_group_wait(&sw_chain.group), HIVE_OK);
        return;
    }
    for (unsigned i = 0; i < SW_OR_RUN_FILL; i++)
        CHECK_EQ(hive_spawn(&sw_chain.fill[i], sw_err_noop_task), HIVE_OK);
    CHECK_EQ(hive_spawn_or_run(&sw_chain.links[0].task, sw_chain_run), HIVE_OK);
}

static void sw_chain_case(unsigned cores, unsigned n, bool in_group)
{
    memset(&sw_chain, 0, sizeof sw_chain);
    sw_chain.links = calloc(n, sizeof *sw_chain.links);
    sw_chain.hit = calloc(n, 1);
    CHECK(sw_chain.links && sw_chain.hit);
    if (!sw_chain.links || !sw_chain.hit)
        goto out;
    for (unsigned i = 0; i < n; i++)
        sw_chain.links[i].index = i;
    sw_chain.n = n;
    sw_chain.lowest = UINTPTR_MAX;
    sw_chain.in_group = in_group;
    SW_RUN(cores, sw_chain_entry, NULL);
    unsigned bad = 0;
    for (unsigned i = 0; i < n; i++)
        bad += sw_chain.hit[i] != 1;
    CHECK_EQ(bad, 0);
    const struct hive_core_stats *t = &hive_stats_last()->total;
    unsigned fill = in_group ? 0 : SW_OR_RUN_FILL;
    CHECK_EQ(t->spawned + t->run_at_spawn, n + fill);
    /* Some ran at once, and some were queued when the stack ran low: no
     * link ran more than a few frames below the middle of the stack. */
    if (hive_worker_count() == 1) {
        CHECK(t->run_at_spawn > 0);
        CHECK(t->spawned > fill);
        CHECK(sw_chain.lowest + 1024 > hive_workers[0].deep_below);
    }
out:
    free(sw_chain.links);
    free(sw_chain.hit);
}

static void sched_case_spawn_or_run_chain(unsigned cores, unsigned n)
{
    sw_chain_case(cores, n, false);
}

/* The same chain through a group, which at one worker runs its tasks at
 * once (sched/group.c): the spawns past the middle of the stack are queued
 * and the group's wait, high up, runs them. */
static void sched_case_group_chain(unsigned cores, unsigned n)
{
    sw_chain_case(cores, n, true);
}

/* ---- parallel_for and group: every index exactly once ----------------------------- */

struct sw_cover {
    atomic_uchar *hits;
    size_t lo, hi, grain;
    atomic_ulong bad_chunks;
};

static void sw_cover_chunk(size_t lo, size_t hi, void *ctx)
{
    struct sw_cover *c = ctx;
    if (lo >= hi || (c->grain && hi - lo > c->grain))
        atomic_fetch_add(&c->bad_chunks, 1);
    /* relaxed: a count, read after hive_run has returned. */
    for (size_t i = lo; i < hi; i++)
        atomic_fetch_add_explicit(&c->hits[i], 1, memory_order_relaxed);
}

static void sw_cover_entry(void *p)
{
    struct sw_cover *c = p;
    CHECK_EQ(hive_parallel_for(c->lo, c->hi, c->grain, sw_cover_chunk, c), HIVE_OK);
}

static void sched_case_parallel_for(unsigned cores, size_t n)
{
    atomic_uchar *hits = calloc(n + 2, 1);
    CHECK(hits != NULL);
    if (!hits)
        return;
    static const size_t grains[] = {0, 1, 7, 1000};
    for (unsigned g = 0; g < sizeof grains / sizeof grains[0]; g++) {
        memset(hits, 0, n + 2);
        struct sw_cover c = {hits + 1, 0, n, grains[g], 0};
        SW_RUN(cores, sw_cover_entry, &c);
        size_t wrong = 0;
        for (size_t i = 0; i < n; i++)
            wrong += atomic_load(&hits[1 + i]) != 1;
        CHECK_EQ(wrong, 0);
        CHECK_EQ(atomic_load(&hits[0]) + atomic_load(&hits[n + 1]), 0);
        CHECK_EQ(atomic_load(&c.bad_chunks), 0);
    }
    free(hits);
}

struct sw_gtask {
    struct hive_task task;
    atomic_uchar *hit;
};

static void sw_gtask_run(struct hive_task *t)
{
    struct sw_gtask *g = HIVE_CONTAINER_OF(t, struct sw_gtask, task);
    /* relaxed: a count; hive_group_wait's acquire orders it before the check. */
    atomic_fetch_add_explicit(g->hit, 1, memory_order_relaxed);
}

static void sw_gfn_run(void *p)
{
    /* relaxed: as in sw_gtask_run. */
    atomic_fetch_add_explicit((atomic_uchar *)p, 1, memory_order_relaxed);
}

struct sw_group_ctx {
    struct sw_gtask *tasks;
    atomic_uchar *hits;
    size_t n;
    atomic_ulong pending_after_wait;
};

/* Spawn a slice into a group, then wait; half intrusive, half pooled. */
static void sw_group_slice(size_t lo, size_t hi, void *p)
{
    struct sw_group_ctx *c = p;
    struct hive_group g;
    hive_group_init(&g);
    for (size_t i = lo; i < hi; i++) {
        if (i % 2 == 0) {
            memset(&c->tasks[i].task, 0, sizeof c->tasks[i].task);
            c->tasks[i].hit = &c->hits[i];
            CHECK_EQ(hive_group_spawn(&g, &c->tasks[i].task, sw_gtask_run), HIVE_OK);
        } else {
            int rc;
            /* The pool may run dry while our own tasks are queued: help. */
            while ((rc = hive_group_spawn_fn(&g, sw_gfn_run, &c->hits[i])) == HIVE_ENOMEM)
                CHECK_EQ(hive_group_wait(&g), HIVE_OK);
            CHECK_EQ(rc, HIVE_OK);
        }
    }
    CHECK_EQ(hive_group_wait(&g), HIVE_OK);
    if (atomic_load(&g.pending) != 0)
        atomic_fetch_add(&c->pending_after_wait, 1);
    /* relaxed: the group wait above ordered every task's count before us. */
    for (size_t i = lo; i < hi; i++)
        if (atomic_load_explicit(&c->hits[i], memory_order_relaxed) != 1)
            atomic_fetch_add(&c->pending_after_wait, 1);
}

static void sw_group_entry(void *p)
{
    struct sw_group_ctx *c = p;
    CHECK_EQ(hive_parallel_for(0, c->n, 500, sw_group_slice, c), HIVE_OK);
}

static void sched_case_group(unsigned cores, size_t n)
{
    struct sw_group_ctx c = {calloc(n, sizeof(struct sw_gtask)), calloc(n, 1), n, 0};
    CHECK(c.tasks && c.hits);
    if (c.tasks && c.hits) {
        SW_RUN(cores, sw_group_entry, &c);
        size_t wrong = 0;
        for (size_t i = 0; i < n; i++)
            wrong += atomic_load(&c.hits[i]) != 1;
        CHECK_EQ(wrong, 0);
        CHECK_EQ(atomic_load(&c.pending_after_wait), 0);
    }
    free(c.tasks);
    free(c.hits);
}

/* ---- below the middle of the stack -------------------------------------------------- */

/*
 * Spend this core's stack a KiB a frame until the frame is below its middle,
 * where every wait is deep (sched/join.c, "Waiting"), then call fn(arg)
 * there. Returns the frames spent. Not inlined into itself: riscv64 builds
 * refuse frames above 4 KiB.
 */
__attribute__((noinline)) static unsigned sw_descend(unsigned frames, void (*fn)(void *),
                                                     void *arg)
{
    volatile char pad[1024];
    pad[0] = (char)frames;
    char here;
    if ((uintptr_t)&here < hive_tls_worker->deep_below) {
        fn(arg);
        return frames;
    }
    unsigned n = sw_descend(frames + 1, fn, arg);
    return n + (unsigned)(pad[0] != (char)frames); /* pad outlives the call */
}

/* ---- a group spawn into a full deque ------------------------------------------------- */

/*
 * A group spawn that finds its core's fork-join deque full runs the task at
 * once, before it returns, without claiming its header (sched/group.c) -
 * unless the header is still queued, which is refused with HIVE_EBUSY as
 * anywhere else: the shortcut must not run a queued task a second time.
 * Every other core is held by a blocker task first (stolen from the
 * entry's deque, then spinning until released), so nobody steals from the
 * entry's deque while it fills it: HIVE_DEQUE_CAP - 1 fillers, then q, the
 * newest - all spawned below the middle of the stack, where a spawn queues
 * its task while every core is busy (above it, once a few are queued, the
 * rest would run at once: sched/group.c). Then q again (refused), then one more task (run at once, its
 * header untouched), then the blockers go and every wait returns; each task
 * ran exactly once.
 */
#define SW_FULL_FILLERS (HIVE_DEQUE_CAP - 1u)
#define SW_FULL_LIMIT_NS 10000000000ull /* running time for what a case waits for */

/* Spin until *flag is set; false (and a count in *late) after the limit. */
static bool sw_full_await(atomic_uint *flag, atomic_uint *late)
{
    struct sw_active a;
    sw_active_start(&a);
    while (!atomic_load(flag)) {
        if (sw_active_poll(&a) > SW_FULL_LIMIT_NS) {
            atomic_fetch_add(late, 1);
            return false;
        }
        SW_SPIN_PAUSE();
    }
    return true;
}

/* Cores held by blocker tasks, each spinning until released: group spawns
 * into `group`, which idle cores steal one each, oldest first. Both cases
 * below hold the cores they must keep from stealing so (one at a time). */
struct sw_hold {
    struct hive_group group;
    struct hive_task tasks[HIVE_SCHED_MAX_CORES];
    atomic_uint started, release, late;
};

static struct sw_hold sw_hold_g;

static void sw_hold_task(struct hive_task *t)
{
    (void)t;
    atomic_fetch_add(&sw_hold_g.started, 1);
    sw_full_await(&sw_hold_g.release, &sw_hold_g.late);
}

static void sw_hold_spawn_below(void *arg)
{
    unsigned n = *(const unsigned *)arg;
    for (unsigned i = 0; i < n; i++)
        CHECK_EQ(hive_group_spawn(&sw_hold_g.group, &sw_hold_g.tasks[i], sw_hold_task), HIVE_OK);
}

/* Below the middle of the stack: a blocker waits for a release its spawner
 * gives later, which a task its spawn runs at once must not (hive.h) - and
 * above the middle, once a few are queued while every core is busy, a group
 * spawn runs its task at once (sched/group.c). */
static void sw_hold_spawn(unsigned n)
{
    (void)sw_descend(0, sw_hold_spawn_below, &n);
}

/* Wait for n blockers to have started; false after the limit. */
static bool sw_hold_started(unsigned n)
{
    struct sw_active a;
    sw_active_start(&a);
    while (atomic_load(&sw_hold_g.started) < n) {
        if (sw_active_poll(&a) > SW_FULL_LIMIT_NS)
            return false;
        SW_SPIN_PAUSE();
    }
    return true;
}

static void sw_hold_release(void)
{
    atomic_store(&sw_hold_g.release, 1);
    CHECK_EQ(hive_group_wait(&sw_hold_g.group), HIVE_OK);
}

/* The cores of a case whose entry holds every other core with a blocker:
 * `cores` (0: all), with the blockers' state reset; 0, after a failed
 * check, where that is not 2 to HIVE_SCHED_MAX_CORES. */
static unsigned sw_hold_cores(unsigned cores)
{
    unsigned n = cores ? cores : hive_core_count();
    CHECK(n >= 2 && n <= HIVE_SCHED_MAX_CORES);
    if (n < 2 || n > HIVE_SCHED_MAX_CORES)
        return 0;
    memset(&sw_hold_g, 0, sizeof sw_hold_g);
    return n;
}

struct sw_full {
    struct hive_group g;
    struct hive_task fillers[SW_FULL_FILLERS], q, extra;
    atomic_uint filler_runs, q_runs, extra_runs;
    unsigned blockers_wanted; /* one per core beyond the entry's */
    int rc_q, rc_q_again, rc_extra;
    unsigned extra_ran_before_return, blockers_late;
};

static struct sw_full sw_full_g;

/* Each task counts its runs, by which header it is. */
static void sw_full_count(struct hive_task *t)
{
    struct sw_full *s = &sw_full_g;
    atomic_fetch_add(t == &s->q ? &s->q_runs : t == &s->extra ? &s->extra_runs : &s->filler_runs, 1);
}

static void sw_full_fill(void *arg)
{
    struct sw_full *s = arg;
    for (unsigned i = 0; i < SW_FULL_FILLERS; i++)
        CHECK_EQ(hive_group_spawn(&s->g, &s->fillers[i], sw_full_count), HIVE_OK);
    s->rc_q = hive_group_spawn(&s->g, &s->q, sw_full_count);
    s->rc_q_again = hive_group_spawn(&s->g, &s->q, sw_full_count);
    s->rc_extra = hive_group_spawn(&s->g, &s->extra, sw_full_count);
    s->extra_ran_before_return = atomic_load(&s->extra_runs);
}

static void sw_full_entry(void *unused)
{
    (void)unused;
    struct sw_full *s = &sw_full_g;
    sw_hold_spawn(s->blockers_wanted);
    s->blockers_late = !sw_hold_started(s->blockers_wanted);
    if (!s->blockers_late)
        (void)sw_descend(0, sw_full_fill, s);
    /* Released before the wait, which the blockers' cores help with. */
    atomic_store(&sw_hold_g.release, 1);
    CHECK_EQ(hive_group_wait(&s->g), HIVE_OK);
    sw_hold_release();
}

static void sw_full_refuses_queued(unsigned cores)
{
    struct sw_full *s = &sw_full_g;
    memset(s, 0, sizeof *s);
    unsigned n = sw_hold_cores(cores);
    if (!n)
        return;
    s->blockers_wanted = n - 1;
    SW_RUN(cores, sw_full_entry, NULL);
    CHECK_EQ(s->blockers_late, 0);
    CHECK_EQ(atomic_load(&sw_hold_g.started), s->blockers_wanted);
    CHECK_EQ(s->rc_q, HIVE_OK);
    CHECK_EQ(s->rc_q_again, HIVE_EBUSY);
    CHECK_EQ(s->rc_extra, HIVE_OK);
    CHECK_EQ(s->extra_ran_before_return, 1);
    CHECK_EQ(atomic_load(&s->filler_runs), SW_FULL_FILLERS);
    CHECK_EQ(atomic_load(&s->q_runs), 1);
    CHECK_EQ(atomic_load(&s->extra_runs), 1);
    CHECK_EQ(atomic_load(&s->q.state), HIVE_TASK_IDLE);
    /* Run at once, not claimed, counted and refused: its header untouched
     * (a refused push would have left it marked a group task of g). */
    CHECK(s->extra.group == NULL && s->extra.kind == 0);
    CHECK_EQ(atomic_load(&s->extra.state), HIVE_TASK_IDLE);
}

/*
 * The task a full deque runs at once still counts in its group while it
 * runs: a wait for the group on another core returns only after it. Task a
 * (a thief's) fills its own deque and spawns t into g, at once; t runs
 * until l, the group's other task, has finished, and a little after; l
 * waits for t to start. The entry, which spawned both a and l, waits for g
 * (running l itself, the newest in its deque, while a thief takes a): its
 * wait must not return before t has finished. Not counted, t would leave g
 * at zero the moment l ended. Needs a second core (l waits for a, which
 * only another core runs meanwhile). Every core beyond those two is held by
 * a blocker, spawned first so that thieves take them before a: nobody
 * steals from a's deque, which so fills in every round.
 */
#define SW_FULLW_FILLERS (4u * HIVE_DEQUE_CAP) /* more than a deque holds, as thieves take some */

struct sw_fullw {
    struct hive_group g, h, k;
    struct hive_task a, l, t, fillers[SW_FULLW_FILLERS];
    unsigned blockers_wanted;
    atomic_uint t_started, l_done, t_done, early, late;
    unsigned rounds_full; /* rounds in which a found its deque full */
};

static struct sw_fullw sw_fullw_g;

static void sw_fullw_filler(struct hive_task *t)
{
    (void)t;
}

static void sw_fullw_t(struct hive_task *t)
{
    (void)t;
    atomic_store(&sw_fullw_g.t_started, 1);
    if (sw_full_await(&sw_fullw_g.l_done, &sw_fullw_g.late))
        sw_spin_running(2000000); /* 2 ms: the entry's wait would return meanwhile */
    atomic_store(&sw_fullw_g.t_done, 1);
}

static void sw_fullw_l(struct hive_task *t)
{
    (void)t;
    sw_full_await(&sw_fullw_g.t_started, &sw_fullw_g.late);
    atomic_store(&sw_fullw_g.l_done, 1);
}

/* a's spawns, below the middle of the stack (as sw_full_fill's). */
static void sw_fullw_fill(void *arg)
{
    struct sw_fullw *s = arg;
    struct hive_worker *w = hive_self();
    for (unsigned i = 0; i < SW_FULLW_FILLERS && !hive_deque_full(&w->queues.forkjoin); i++)
        CHECK_EQ(hive_group_spawn(&s->k, &s->fillers[i], sw_fullw_filler), HIVE_OK);
    s->rounds_full += hive_deque_full(&w->queues.forkjoin);
    CHECK_EQ(hive_group_spawn(&s->g, &s->t, sw_fullw_t), HIVE_OK);
    CHECK_EQ(hive_group_wait(&s->k), HIVE_OK);
}

static void sw_fullw_a(struct hive_task *t)
{
    (void)t;
    (void)sw_descend(0, sw_fullw_fill, &sw_fullw_g);
}

/* Below the middle of the stack, as sw_hold_spawn's: a and l each wait for
 * the other's work, which neither may if its spawn ran it at once. */
static void sw_fullw_body(void *arg)
{
    struct sw_fullw *s = arg;
    sw_hold_spawn(s->blockers_wanted);
    CHECK_EQ(hive_group_spawn(&s->h, &s->a, sw_fullw_a), HIVE_OK);
    CHECK_EQ(hive_group_spawn(&s->g, &s->l, sw_fullw_l), HIVE_OK);
    CHECK_EQ(hive_group_wait(&s->g), HIVE_OK);
    if (!atomic_load(&s->t_done))
        atomic_fetch_add(&s->early, 1);
    sw_hold_release();
    CHECK_EQ(hive_group_wait(&s->h), HIVE_OK);
}

static void sw_fullw_entry(void *unused)
{
    (void)unused;
    (void)sw_descend(0, sw_fullw_body, &sw_fullw_g);
}

static void sw_full_counts_while_running(unsigned cores, unsigned rounds)
{
    struct sw_fullw *s = &sw_fullw_g;
    unsigned n = cores ? cores : hive_core_count();
    CHECK(n >= 2 && n <= HIVE_SCHED_MAX_CORES);
    if (n < 2 || n > HIVE_SCHED_MAX_CORES)
        return;
    unsigned early = 0, late = 0, full = 0;
    for (unsigned r = 0; r < rounds; r++) {
        memset(s, 0, sizeof *s);
        memset(&sw_hold_g, 0, sizeof sw_hold_g);
        s->blockers_wanted = n - 2;
        SW_RUN(cores, sw_fullw_entry, NULL);
        early += atomic_load(&s->early);
        late += atomic_load(&s->late) + atomic_load(&sw_hold_g.late);
        full += s->rounds_full;
    }
    CHECK_EQ(early, 0);
    CHECK_EQ(late, 0);
    /* Nobody can steal from a's deque while it fills it (the entry's core
     * runs l, the blockers hold the rest): every round takes the shortcut. */
    CHECK_EQ(full, rounds);
    printf("  %u cores: %u of %u rounds spawned t into a full deque\n", hive_stats_last()->cores,
           full, rounds);
}

static void sched_case_group_full_deque(unsigned cores, unsigned rounds)
{
    sw_full_refuses_queued(cores);
    sw_full_counts_while_running(cores, rounds);
}

/* ---- a full deque, then a quarter ------------------------------------------------- */

/*
 * Once a hive_group_spawn finds its core's deque full, that core's group
 * spawns (at two workers and more, above the middle of the stack) run
 * their tasks at once until one finds fewer than HIVE_GROUP_STOCK_LOW
 * tasks queued (sched/group.c, "Full, then a quarter"). Every core but the
 * entry's is held by a blocker, so nothing is stolen from the entry's
 * deque. The entry, above the middle of the stack and before any quiet
 * stretch (so no spawn runs at once for a busy core), fills its deque with
 * HIVE_DEQUE_CAP tasks of k, then spawns one more (at once: full). Its wait
 * pops them newest first: filler i runs with exactly i tasks queued under
 * it and spawns a child into a group of its own - at once for i >=
 * HIVE_GROUP_STOCK_LOW, queued below (where the mark clears and stays
 * clear: each filler's own wait pops its queued child).
 */
#define SW_STOCK_FILL HIVE_DEQUE_CAP

struct sw_stock {
    struct hive_group k;
    struct hive_task fill[SW_STOCK_FILL], over, child[SW_STOCK_FILL];
    atomic_uint child_ran[SW_STOCK_FILL], over_ran;
    unsigned left[SW_STOCK_FILL];    /* tasks queued here when filler i ran */
    unsigned at_once[SW_STOCK_FILL]; /* filler i's child ran inside its spawn */
    unsigned blockers;
    bool blockers_late;
    unsigned over_at_once;
};

static struct sw_stock sw_stock_g;

static void sw_stock_child(struct hive_task *t)
{
    atomic_store(&sw_stock_g.child_ran[t - sw_stock_g.child], 1);
}

static void sw_stock_filler(struct hive_task *t)
{
    struct sw_stock *s = &sw_stock_g;
    unsigned i = (unsigned)(t - s->fill);
    struct hive_group g;
    hive_group_init(&g);
    s->left[i] = hive_deque_owned(&hive_tls_worker->queues.forkjoin);
    CHECK_EQ(hive_group_spawn(&g, &s->child[i], sw_stock_child), HIVE_OK);
    s->at_once[i] = atomic_load(&s->child_ran[i]);
    CHECK_EQ(hive_group_wait(&g), HIVE_OK);
}

static void sw_stock_over(struct hive_task *t)
{
    (void)t;
    atomic_store(&sw_stock_g.over_ran, 1);
}

static void sw_stock_entry(void *unused)
{
    (void)unused;
    struct sw_stock *s = &sw_stock_g;
    sw_hold_spawn(s->blockers);
    s->blockers_late = !sw_hold_started(s->blockers);
    if (!s->blockers_late) {
        for (unsigned i = 0; i < SW_STOCK_FILL; i++)
            CHECK_EQ(hive_group_spawn(&s->k, &s->fill[i], sw_stock_filler), HIVE_OK);
        CHECK(hive_deque_full(&hive_tls_worker->queues.forkjoin));
        CHECK_EQ(hive_group_spawn(&s->k, &s->over, sw_stock_over), HIVE_OK);
        s->over_at_once = atomic_load(&s->over_ran);
        CHECK_EQ(hive_group_wait(&s->k), HIVE_OK);
    }
    sw_hold_release();
}

static void sched_case_group_stock(unsigned cores)
{
    struct sw_stock *s = &sw_stock_g;
    unsigned n = sw_hold_cores(cores);
    if (!n)
        return;
    memset(s, 0, sizeof *s);
    s->blockers = n - 1;
    SW_RUN(cores, sw_stock_entry, NULL);
    CHECK(!s->blockers_late);
    CHECK_EQ(atomic_load(&sw_hold_g.late), 0);
    CHECK_EQ(s->over_at_once, 1);
    unsigned at_once = 0, wrong_left = 0, wrong_way = 0, unrun = 0;
    for (unsigned i = 0; i < SW_STOCK_FILL; i++) {
        at_once += s->at_once[i];
        wrong_left += s->left[i] != i;
        wrong_way += s->at_once[i] != (i >= HIVE_GROUP_STOCK_LOW);
        unrun += !atomic_load(&s->child_ran[i]);
    }
    CHECK_EQ(wrong_left, 0); /* nothing stolen: the case is deterministic */
    CHECK_EQ(unrun, 0);
    CHECK_EQ(wrong_way, 0);
    CHECK_EQ(at_once, SW_STOCK_FILL - HIVE_GROUP_STOCK_LOW);
    printf("  %u cores: %u of %u children run at once while the deque drained to %u\n", n,
           at_once, SW_STOCK_FILL, HIVE_GROUP_STOCK_LOW);
}

/*
 * Below the middle of the stack a group spawn queues its task, so that a
 * chain of tasks that each spawn the next keeps to half the stack (hive.h);
 * only a deque that is full runs it at once there, where a push would be
 * refused. A deque that was full and still holds HIVE_GROUP_STOCK_LOW or
 * more must not: the entry, below the middle (blockers holding every other
 * core at two workers and more), fills its deque with HIVE_DEQUE_CAP tasks
 * of k (the newest starts the chain), spawns one more into the full deque,
 * and waits for k there. Its wait pops the chain's head with 255 tasks
 * left, and each link's spawn of the next finds 255: queued, and run by
 * the wait a frame or two above - not inside the last link, SW_STOCKC_LINKS
 * deep (about 290 bytes a link on the host: 290 KB, where SW_STOCKC_ROOM
 * allows 64 KiB).
 */
#define SW_STOCKC_LINKS 1000u
#define SW_STOCKC_ROOM 65536u /* bytes below the wait's frame a link may run */

struct sw_stockc {
    struct hive_group k, c;
    struct hive_task fill[HIVE_DEQUE_CAP], over, links[SW_STOCKC_LINKS];
    unsigned char hit[SW_STOCKC_LINKS];
    uintptr_t base, lowest;
    unsigned blockers;
    bool blockers_late;
};

static struct sw_stockc sw_stockc_g;

static void sw_stockc_link(struct hive_task *t)
{
    struct sw_stockc *s = &sw_stockc_g;
    unsigned i = (unsigned)(t - s->links);
    char here;
    if ((uintptr_t)&here < s->lowest)
        s->lowest = (uintptr_t)&here;
    s->hit[i]++;
    if (i + 1 < SW_STOCKC_LINKS)
        CHECK_EQ(hive_group_spawn(&s->c, &s->links[i + 1], sw_stockc_link), HIVE_OK);
}

static void sw_stockc_filler(struct hive_task *t)
{
    struct sw_stockc *s = &sw_stockc_g;
    if (t == &s->fill[HIVE_DEQUE_CAP - 1])
        CHECK_EQ(hive_group_spawn(&s->c, &s->links[0], sw_stockc_link), HIVE_OK);
}

static void sw_stockc_below(void *arg)
{
    struct sw_stockc *s = arg;
    char here;
    s->base = (uintptr_t)&here;
    for (unsigned i = 0; i < HIVE_DEQUE_CAP; i++)
        CHECK_EQ(hive_group_spawn(&s->k, &s->fill[i], sw_stockc_filler), HIVE_OK);
    CHECK(hive_deque_full(&hive_tls_worker->queues.forkjoin));
    CHECK_EQ(hive_group_spawn(&s->k, &s->over, sw_err_noop_task), HIVE_OK);
    CHECK_EQ(hive_group_wait(&s->k), HIVE_OK);
    CHECK_EQ(hive_group_wait(&s->c), HIVE_OK);
}

static void sw_stockc_entry(void *unused)
{
    (void)unused;
    struct sw_stockc *s = &sw_stockc_g;
    if (s->blockers) {
        sw_hold_spawn(s->blockers);
        s->blockers_late = !sw_hold_started(s->blockers);
    }
    if (!s->blockers_late)
        (void)sw_descend(0, sw_stockc_below, s);
    if (s->blockers)
        sw_hold_release();
}

static void sched_case_group_stock_chain(unsigned cores)
{
    struct sw_stockc *s = &sw_stockc_g;
    unsigned n = cores ? cores : hive_core_count();
    memset(s, 0, sizeof *s);
    memset(&sw_hold_g, 0, sizeof sw_hold_g);
    s->blockers = n - 1;
    s->lowest = UINTPTR_MAX;
    SW_RUN(cores, sw_stockc_entry, NULL);
    CHECK(!s->blockers_late);
    unsigned bad = 0;
    for (unsigned i = 0; i < SW_STOCKC_LINKS; i++)
        bad += s->hit[i] != 1;
    CHECK_EQ(bad, 0);
    CHECK(s->lowest != UINTPTR_MAX && s->base != 0);
    size_t below = s->base > s->lowest ? (size_t)(s->base - s->lowest) : 0;
    CHECK(below < SW_STOCKC_ROOM);
    printf("  %u cores: a chain of %u links from a drained deque ran at most %zu bytes below its wait\n",
           n, SW_STOCKC_LINKS, below);
}

/* ---- group spawns while every core is busy ---------------------------------------- */

/*
 * At two workers and more, while no core wants work, a group spawn that
 * finds HIVE_GROUP_QUEUED_ENOUGH tasks queued on its core runs its task at
 * once, before it returns - once HIVE_GROUP_QUIET_SPAWNS group spawns of
 * that core have seen no core wanting work (sched/group.c). A blocker holds
 * every core but the entry's; the entry spawns SW_BUSY_TASKS tasks, none of
 * which may run at once (the run has just begun), makes that many spawns,
 * each waited for at once, then spawns SW_BUSY_TASKS tasks into g: the first
 * HIVE_GROUP_QUEUED_ENOUGH are queued, every later one runs inside its spawn.
 * The last of those hive_spawns a child, which hive puts in the LIFO slot of
 * the core that runs it - the entry's, whose loop takes that slot only once
 * the entry returns. Then the blockers go and the entry spins with no spawn,
 * pop or wait until the child and the queued tasks have run: the freed cores
 * must take them - the queued ones offered by the heartbeat, the child moved
 * to the ring when the task that spawned it returned (hive_lifo_yield in
 * sched_internal.h). Without that move the child waits for the entry's wait,
 * past the limit.
 */
#define SW_BUSY_TASKS (HIVE_GROUP_QUEUED_ENOUGH + 8u)

struct sw_busy {
    struct hive_group g, quiet;
    struct hive_task tasks[SW_BUSY_TASKS], child, quiet_task, early[SW_BUSY_TASKS];
    atomic_uint ran[SW_BUSY_TASKS], child_ran, early_runs;
    unsigned queued, at_once, early_at_once, blockers;
    bool blockers_late, late;
};

static struct sw_busy sw_busy_g;

static void sw_busy_early(struct hive_task *t)
{
    (void)t;
    atomic_fetch_add(&sw_busy_g.early_runs, 1);
}

static void sw_busy_child(struct hive_task *t)
{
    (void)t;
    atomic_store(&sw_busy_g.child_ran, 1);
}

static void sw_busy_task(struct hive_task *t)
{
    struct sw_busy *s = &sw_busy_g;
    unsigned i = (unsigned)(t - s->tasks);
    atomic_store(&s->ran[i], 1);
    if (i == SW_BUSY_TASKS - 1) {
        memset(&s->child, 0, sizeof s->child);
        CHECK_EQ(hive_spawn(&s->child, sw_busy_child), HIVE_OK);
    }
}

static bool sw_busy_all_ran(void)
{
    struct sw_busy *s = &sw_busy_g;
    for (unsigned i = 0; i < SW_BUSY_TASKS; i++)
        if (!atomic_load(&s->ran[i]))
            return false;
    return atomic_load(&s->child_ran) != 0;
}

static void sw_busy_entry(void *unused)
{
    (void)unused;
    struct sw_busy *s = &sw_busy_g;
    sw_hold_spawn(s->blockers);
    s->blockers_late = !sw_hold_started(s->blockers);
    /* Before a quiet stretch, every core busy: none runs at once. */
    for (unsigned i = 0; i < SW_BUSY_TASKS && !s->blockers_late; i++) {
        unsigned before = atomic_load(&s->early_runs);
        CHECK_EQ(hive_group_spawn(&s->quiet, &s->early[i], sw_busy_early), HIVE_OK);
        s->early_at_once += atomic_load(&s->early_runs) != before;
    }
    CHECK_EQ(hive_group_wait(&s->quiet), HIVE_OK);
    if (!s->blockers_late)
        sw_quiet_stretch(&s->quiet, &s->quiet_task, HIVE_GROUP_QUIET_SPAWNS);
    /* The blockers' cores took them: the entry's deque is empty again. */
    for (unsigned i = 0; i < SW_BUSY_TASKS && !s->blockers_late; i++) {
        CHECK_EQ(hive_group_spawn(&s->g, &s->tasks[i], sw_busy_task), HIVE_OK);
        if (atomic_load(&s->ran[i]))
            s->at_once++;
        else if (i < HIVE_GROUP_QUEUED_ENOUGH)
            s->queued++;
    }
    atomic_store(&sw_hold_g.release, 1);
    struct sw_active a;
    sw_active_start(&a);
    while (!sw_busy_all_ran() && !s->late) {
        s->late = sw_active_poll(&a) > 2000000000ull; /* 2 s of running: ~2 ms needed */
        SW_SPIN_PAUSE();
    }
    CHECK_EQ(hive_group_wait(&s->g), HIVE_OK);
    sw_hold_release();
}

static void sched_case_group_busy_at_once(unsigned cores)
{
    struct sw_busy *s = &sw_busy_g;
    unsigned n = sw_hold_cores(cores);
    if (!n)
        return;
    memset(s, 0, sizeof *s);
    s->blockers = n - 1;
    SW_RUN(cores, sw_busy_entry, NULL);
    CHECK(!s->blockers_late);
    CHECK_EQ(s->early_at_once, 0);
    CHECK_EQ(atomic_load(&s->early_runs), SW_BUSY_TASKS);
    CHECK_EQ(s->queued, HIVE_GROUP_QUEUED_ENOUGH);
    CHECK_EQ(s->at_once, SW_BUSY_TASKS - HIVE_GROUP_QUEUED_ENOUGH);
    CHECK(!s->late);
    CHECK(sw_busy_all_ran());
    printf("  %u cores: %u queued, %u at once; the rest taken by the freed cores%s\n", n,
           s->queued, s->at_once, s->late ? " only at the wait (late)" : "");
}

/* ---- one group, two waiters ---------------------------------------------------------- */

/*
 * Two tasks wait for one group: the task that spawned its tasks, and one more
 * (a task of another group, spawned first, so that a thief takes it before
 * the group's own tasks). The group's tasks spin long enough (running time)
 * for a waiter with nothing to help with to park: both may sleep on the
 * group's word, one named in it and the other on its OTHERS bit
 * (sched/wait.c, model/await.pml). Each waiter checks, when its wait
 * returns, that every task spawned into the group before its wait began
 * is done: the spawner, all of them; the second, those the spawner had
 * counted as spawned when it began (at one worker it runs at once, before
 * any). Then the spawner
 * reuses the group at once - one more task, one more wait - while the
 * second waiter may still be in its wait: spawning into a group whose wait
 * has returned is allowed (hive.h); re-initialising it is not until every
 * wait has returned, so the next round does that only after the second
 * waiter's own group is waited for.
 */
#define SW_TWO_TASKS 6u

struct sw_two_task {
    struct hive_task task;
    atomic_uchar done;
};

struct sw_two {
    struct hive_group g;      /* the group both wait for */
    struct hive_group h;      /* the second waiter's */
    struct hive_task second;  /* the second waiter */
    struct sw_two_task t[SW_TWO_TASKS + 1]; /* the last: the reuse's */
    uint64_t spin_ns;
    unsigned rounds;
    atomic_uint spawned;      /* tasks of this round spawned into g so far */
    atomic_ulong early;       /* waits that returned before their tasks were done */
    atomic_ulong second_full; /* rounds whose second waiter began after every spawn */
};

static struct sw_two sw_two_g;

static void sw_two_spin(struct hive_task *task)
{
    struct sw_two_task *x = HIVE_CONTAINER_OF(task, struct sw_two_task, task);
    sw_spin_running(sw_two_g.spin_ns);
    /* relaxed: the group's count (a release RMW after this) and the wait's
     * acquire load of it order it before the waiters' checks. */
    atomic_store_explicit(&x->done, 1, memory_order_relaxed);
}

static void sw_two_check(unsigned first, unsigned end)
{
    /* relaxed: the caller's group wait (acquire) ordered each task's store
     * (sw_two_spin) before these loads. */
    for (unsigned i = first; i < end; i++)
        if (atomic_load_explicit(&sw_two_g.t[i].done, memory_order_relaxed) != 1)
            atomic_fetch_add(&sw_two_g.early, 1);
}

static void sw_two_second(struct hive_task *t)
{
    (void)t;
    /* A thief takes this task first, and the spawner makes its spawns
     * within microseconds: a little running time first, so that it mostly
     * waits for all of them. Time only, no flag: a group task must not wait
     * for what its spawner does after spawning it (hive.h). Its group wait
     * does not either: it waits for the tasks spawned into g by then, and
     * for later ones only if they come while it waits - at one worker, none. */
    sw_spin_running(sw_two_g.spin_ns / 3);
    /* acquire: pairs with the entry's release increments - each spawn it
     * counts happened before this wait begins, so the wait covers it. */
    unsigned before = atomic_load_explicit(&sw_two_g.spawned, memory_order_acquire);
    CHECK_EQ(hive_group_wait(&sw_two_g.g), HIVE_OK);
    sw_two_check(0, before);
    if (before == SW_TWO_TASKS)
        atomic_fetch_add(&sw_two_g.second_full, 1);
}

static void sw_two_entry(void *unused)
{
    (void)unused;
    struct sw_two *s = &sw_two_g;
    for (unsigned r = 0; r < s->rounds; r++) {
        /* Every wait of the last round has returned: g may be reset. The
         * relaxed resets below are published to this round's tasks by
         * their spawns (the header's claim and the deque's release push). */
        hive_group_init(&s->g);
        hive_group_init(&s->h);
        atomic_store_explicit(&s->spawned, 0, memory_order_relaxed);
        memset(&s->second, 0, sizeof s->second);
        for (unsigned i = 0; i <= SW_TWO_TASKS; i++) {
            memset(&s->t[i].task, 0, sizeof s->t[i].task);
            atomic_store_explicit(&s->t[i].done, 0, memory_order_relaxed);
        }
        CHECK_EQ(hive_group_spawn(&s->h, &s->second, sw_two_second), HIVE_OK);
        for (unsigned i = 0; i < SW_TWO_TASKS; i++) {
            CHECK_EQ(hive_group_spawn(&s->g, &s->t[i].task, sw_two_spin), HIVE_OK);
            /* release: pairs with the second waiter's acquire load. */
            atomic_fetch_add_explicit(&s->spawned, 1, memory_order_release);
        }
        CHECK_EQ(hive_group_wait(&s->g), HIVE_OK);
        sw_two_check(0, SW_TWO_TASKS);
        /* Reused at once, the second waiter perhaps still in its wait. */
        CHECK_EQ(hive_group_spawn(&s->g, &s->t[SW_TWO_TASKS].task, sw_two_spin), HIVE_OK);
        CHECK_EQ(hive_group_wait(&s->g), HIVE_OK);
        sw_two_check(SW_TWO_TASKS, SW_TWO_TASKS + 1);
        CHECK_EQ(hive_group_wait(&s->h), HIVE_OK);
    }
}

static void sched_case_two_waiters(unsigned cores, unsigned rounds, uint64_t spin_ns)
{
    struct sw_two *s = &sw_two_g;
    s->spin_ns = spin_ns;
    s->rounds = rounds;
    atomic_store(&s->early, 0);
    atomic_store(&s->second_full, 0);
    SW_RUN(cores, sw_two_entry, NULL);
    CHECK_EQ(atomic_load(&s->early), 0);
    printf("  %u core(s): %u rounds, %lu with the second waiter after every spawn, %llu sleeps "
           "in waits\n", hive_stats_last()->cores, rounds,
           (unsigned long)atomic_load(&s->second_full),
           (unsigned long long)hive_stats_last()->total.wait_parks);
}

/* ---- one group, two sleeping waiters --------------------------------------------- */

/*
 * Two waiters with nothing else to do must both sleep while the group's task
 * runs, and both wake when it ends (sched/wait.c: the first is named in the
 * group's word, the second sets OTHERS, and the last completion wakes
 * every core). The group's one task runs on a third core and spins until it
 * sees both waiters' cores asleep in hive_port_wait (SW_CORE_SLEEPING, the
 * port's); a second waiter that polled instead of sleeping would keep it
 * spinning to SW_SLEEPERS_LIMIT_NS, and the case fails (it did, before
 * the second waiter slept). Then the entry's wait returns, and the second
 * waiter's must follow within SW_SLEEPERS_WAKE_NS: a park timeout of
 * SW_SLEEPERS_PARK_TIMEOUT_NS ends a park no wake reached, so a lost wake
 * fails the case instead of hanging it. Both limits count the polling
 * core's running time (sw_active_poll), so a host that stops the process
 * for seconds fails nothing; the park timeout is wall time, and so much
 * longer that a lost wake is seen before it. The second
 * waiter begins its wait SW_SLEEPERS_SECOND_LATE_NS late, so that the
 * entry is named and the second marks OTHERS: then little but the
 * broadcast wakes it (the idle protocol's hand-off, rule 2, may: the named
 * waiter, woken, stops searching and wakes the lowest parked core, if it
 * is the last searcher). A completer that woke only the core named failed
 * the case at 4 and 8 workers; the other way round, the entry on OTHERS,
 * the hand-off woke it in every round (core 0, the lowest).
 * Needs 3 cores: the entry spawns the task and waits until another core
 * has taken it (it must not wait for it in a group wait, which would run
 * it), then spawns the second waiter and waits until a third core has
 * taken that.
 */
#define SW_SLEEPERS_LIMIT_NS 10000000000ull        /* 10 s running: a failure, never a pass */
#define SW_SLEEPERS_WAKE_NS 2000000000ull          /* 2 s running: the same */
#define SW_SLEEPERS_PARK_TIMEOUT_NS 30000000000ull /* 30 s */
#define SW_SLEEPERS_SECOND_LATE_NS 2000000ull     /* 2 ms */

struct sw_sleepers {
    struct hive_group g;        /* both wait for it */
    struct hive_group h;        /* the second waiter's own */
    struct hive_task task;      /* g's one task */
    struct hive_task second;    /* the second waiter */
    atomic_int task_core;       /* where the task runs (-1: not started) */
    atomic_int second_core;     /* where the second waiter runs */
    atomic_int entry_core;
    atomic_uchar task_done;
    atomic_uchar second_back;   /* the second waiter's wait has returned */
    atomic_ulong never_slept;   /* rounds whose task gave up on the waiters */
    atomic_ulong never_woken;   /* rounds whose second waiter was not woken */
    atomic_ulong early;         /* waits that returned before the task ended */
    unsigned rounds;
    unsigned rounds_done;
};

static struct sw_sleepers sw_sleepers_g;

static void sw_sleepers_task(struct hive_task *t)
{
    (void)t;
    struct sw_sleepers *s = &sw_sleepers_g;
    /* release: pairs with the entry's acquire load (it spawns the second
     * waiter only once this task is taken). */
    atomic_store_explicit(&s->task_core, hive_worker_id(), memory_order_release);
    /* relaxed: stored before the entry's spawn of this task, which
     * publishes it (the header's claim, the deque's release push). */
    int entry = atomic_load_explicit(&s->entry_core, memory_order_relaxed);
    struct sw_active a;
    sw_active_start(&a);
    for (;;) {
        /* acquire: the second waiter's store of its core, before its wait. */
        int second = atomic_load_explicit(&s->second_core, memory_order_acquire);
        if (second >= 0 && SW_CORE_SLEEPING((unsigned)entry) &&
            SW_CORE_SLEEPING((unsigned)second))
            break;
        if (sw_active_poll(&a) > SW_SLEEPERS_LIMIT_NS) {
            printf("  sleepers: after %llu ms running, entry on core %d sleeps %d, second "
                   "waiter on "
                   "core %d sleeps %d\n",
                   (unsigned long long)(SW_SLEEPERS_LIMIT_NS / 1000000), entry,
                   (int)SW_CORE_SLEEPING((unsigned)entry), second,
                   second >= 0 ? (int)SW_CORE_SLEEPING((unsigned)second) : 0);
            atomic_fetch_add(&s->never_slept, 1);
            break;
        }
        SW_SPIN_PAUSE();
    }
    /* relaxed: the group's release decrement orders it before the waits. */
    atomic_store_explicit(&s->task_done, 1, memory_order_relaxed);
}

static void sw_sleepers_second(struct hive_task *t)
{
    (void)t;
    struct sw_sleepers *s = &sw_sleepers_g;
    /* release: pairs with the task's and the entry's acquire loads. */
    atomic_store_explicit(&s->second_core, hive_worker_id(), memory_order_release);
    /* Mostly after the entry's park: it is named, and this waiter marks
     * OTHERS (see the top). */
    sw_spin_running(SW_SLEEPERS_SECOND_LATE_NS);
    CHECK_EQ(hive_group_wait(&s->g), HIVE_OK);
    /* relaxed: ordered by the wait (acquire). */
    if (!atomic_load_explicit(&s->task_done, memory_order_relaxed))
        atomic_fetch_add(&s->early, 1);
    /* relaxed: a flag the entry only polls (its wait for h orders the
     * rest). */
    atomic_store_explicit(&s->second_back, 1, memory_order_relaxed);
}

/* Until the second waiter's wait has returned, or SW_SLEEPERS_WAKE_NS of
 * running time. */
static bool sw_sleepers_second_back(struct sw_sleepers *s)
{
    struct sw_active a;
    sw_active_start(&a);
    /* relaxed: a flag (sw_sleepers_second). */
    while (!atomic_load_explicit(&s->second_back, memory_order_relaxed)) {
        if (sw_active_poll(&a) > SW_SLEEPERS_WAKE_NS)
            return false;
        SW_SPIN_PAUSE();
    }
    return true;
}

static void sw_sleepers_entry(void *unused)
{
    (void)unused;
    struct sw_sleepers *s = &sw_sleepers_g;
    /* relaxed: published to the tasks by their spawns (the header's claim
     * and the deque's release push), as are the resets below - each also
     * follows, in its object's order, the store of the last round it
     * overwrites, which that round's waits ordered before this. */
    atomic_store_explicit(&s->entry_core, hive_worker_id(), memory_order_relaxed);
    for (unsigned r = 0; r < s->rounds; r++) {
        hive_group_init(&s->g);
        hive_group_init(&s->h);
        memset(&s->task, 0, sizeof s->task);
        memset(&s->second, 0, sizeof s->second);
        atomic_store_explicit(&s->task_core, -1, memory_order_relaxed);
        atomic_store_explicit(&s->second_core, -1, memory_order_relaxed);
        atomic_store_explicit(&s->task_done, 0, memory_order_relaxed);
        atomic_store_explicit(&s->second_back, 0, memory_order_relaxed);
        CHECK_EQ(hive_group_spawn(&s->g, &s->task, sw_sleepers_task), HIVE_OK);
        /* acquire (both): pairs with the tasks' release stores. */
        while (atomic_load_explicit(&s->task_core, memory_order_acquire) < 0)
            SW_SPIN_PAUSE();
        CHECK_EQ(hive_group_spawn(&s->h, &s->second, sw_sleepers_second), HIVE_OK);
        while (atomic_load_explicit(&s->second_core, memory_order_acquire) < 0)
            SW_SPIN_PAUSE();
        CHECK_EQ(hive_group_wait(&s->g), HIVE_OK);
        /* relaxed: ordered by the wait (acquire). */
        if (!atomic_load_explicit(&s->task_done, memory_order_relaxed))
            atomic_fetch_add(&s->early, 1);
        /* Polled outside a wait, so that this core runs nothing meanwhile;
         * past the limit the park timeout ends the second waiter's park,
         * and the wait for h below returns. */
        if (!sw_sleepers_second_back(s)) {
            printf("  sleepers: the second waiter's wait had not returned %llu ms (running) "
                   "after the entry's\n", (unsigned long long)(SW_SLEEPERS_WAKE_NS / 1000000));
            atomic_fetch_add(&s->never_woken, 1);
        }
        /* Every wait for g returns before the next round re-initialises it. */
        CHECK_EQ(hive_group_wait(&s->h), HIVE_OK);
        if (atomic_load(&s->never_slept) || atomic_load(&s->never_woken))
            break; /* failed: once is enough */
        s->rounds_done = r + 1;
    }
}

/* cores >= 3 (0: the board's, which the caller has checked). */
static void sched_case_two_sleepers(unsigned cores, unsigned rounds)
{
    struct sw_sleepers *s = &sw_sleepers_g;
    s->rounds = rounds;
    s->rounds_done = 0;
    atomic_store(&s->never_slept, 0);
    atomic_store(&s->never_woken, 0);
    atomic_store(&s->early, 0);
    struct hive_config c = sw_cfg(cores);
    c.park_timeout_ns = SW_SLEEPERS_PARK_TIMEOUT_NS;
    CHECK_EQ(hive_run(sw_sleepers_entry, NULL, &c), HIVE_OK);
    CHECK_EQ(atomic_load(&s->never_slept), 0);
    CHECK_EQ(atomic_load(&s->never_woken), 0);
    CHECK_EQ(atomic_load(&s->early), 0);
    /* hive_run's return ordered the entry's rounds_done before this. */
    printf("  %u cores: %u of %u rounds passed (both waiters asleep at once, then woken); "
           "%llu sleeps in waits, %llu park timeouts\n", hive_stats_last()->cores,
           s->rounds_done, rounds,
           (unsigned long long)hive_stats_last()->total.wait_parks,
           (unsigned long long)hive_stats_last()->total.park_timeouts);
}

/* ---- exactly once: 10^6 intrusive tasks from everywhere -------------------------- */

struct sw_once_task {
    struct hive_task task;
    uint32_t idx;
};

struct sw_once {
    struct sw_once_task *t;
    atomic_uchar *hits;
    uint32_t n;
    unsigned spawners;
    atomic_ulong spawn_errors;
};

static struct sw_once sw_once_g;

static void sw_once_leaf(struct hive_task *t)
{
    struct sw_once_task *o = HIVE_CONTAINER_OF(t, struct sw_once_task, task);
    /* relaxed: a count, checked after hive_run has returned. */
    atomic_fetch_add_explicit(&sw_once_g.hits[o->idx], 1, memory_order_relaxed);
}

static void sw_once_spawn(uint32_t i, void (*fn)(struct hive_task *))
{
    if (hive_spawn(&sw_once_g.t[i].task, fn) != HIVE_OK)
        atomic_fetch_add(&sw_once_g.spawn_errors, 1);
}

/* Nested: task i spawns 2i+1 and 2i+2 (a binary tree of spawns). */
static void sw_once_tree(struct hive_task *t)
{
    struct sw_once_task *o = HIVE_CONTAINER_OF(t, struct sw_once_task, task);
    uint32_t i = o->idx;
    /* relaxed: as in sw_once_leaf. */
    atomic_fetch_add_explicit(&sw_once_g.hits[i], 1, memory_order_relaxed);
    for (uint32_t c = 2 * i + 1; c <= 2 * i + 2 && c < sw_once_g.n; c++)
        sw_once_spawn(c, sw_once_tree);
}

static void sw_once_nop(void *p) { (void)p; }

static void sw_once_flat(void *p)
{
    (void)p;
    for (uint32_t i = 0; i < sw_once_g.n; i++)
        sw_once_spawn(i, sw_once_leaf);
}

static void sw_once_nested(void *p)
{
    (void)p;
    sw_once_spawn(0, sw_once_tree);
}

/* Many cores at once: a parallel_for over slices, each spawning its slice. */
static void sw_once_slice(size_t lo, size_t hi, void *p)
{
    (void)p;
    for (size_t i = lo; i < hi; i++)
        sw_once_spawn((uint32_t)i, sw_once_leaf);
}

static void sw_once_many(void *p)
{
    (void)p;
    CHECK_EQ(hive_parallel_for(0, sw_once_g.n, sw_once_g.n / 64 + 1, sw_once_slice, NULL), HIVE_OK);
}

static void sw_once_check(const char *what)
{
    uint32_t wrong = 0, first = 0;
    /* relaxed: hive_run's return ordered every task before this check. */
    for (uint32_t i = 0; i < sw_once_g.n; i++)
        if (atomic_load_explicit(&sw_once_g.hits[i], memory_order_relaxed) != 1 && !wrong++)
            first = i;
    if (wrong)
        printf("  exactly-once (%s): %u tasks wrong, first %u ran %u times\n", what, wrong, first,
               (unsigned)atomic_load(&sw_once_g.hits[first]));
    CHECK_EQ(wrong, 0);
    CHECK_EQ(atomic_load(&sw_once_g.spawn_errors), 0);
}

static void sw_once_reset(void)
{
    memset(sw_once_g.t, 0, (size_t)sw_once_g.n * sizeof *sw_once_g.t);
    for (uint32_t i = 0; i < sw_once_g.n; i++)
        sw_once_g.t[i].idx = i;
    memset(sw_once_g.hits, 0, sw_once_g.n);
    atomic_store(&sw_once_g.spawn_errors, 0);
}

static void sched_case_exactly_once(unsigned cores, uint32_t n)
{
    sw_once_g.n = n;
    sw_once_g.t = malloc((size_t)n * sizeof *sw_once_g.t);
    sw_once_g.hits = malloc(n);
    CHECK(sw_once_g.t && sw_once_g.hits);
    if (!sw_once_g.t || !sw_once_g.hits)
        goto out;

    /* From the boot code before a run: everything goes to the global queue. */
    sw_once_reset();
    for (uint32_t i = 0; i < n; i++)
        sw_once_spawn(i, sw_once_leaf);
    SW_RUN(cores, sw_once_nop, NULL);
    sw_once_check("boot");

    /* From one task: LIFO slot, ring, overflow to the global queue. */
    sw_once_reset();
    SW_RUN(cores, sw_once_flat, NULL);
    sw_once_check("one task");

    /* Nested: every task spawns two. */
    sw_once_reset();
    SW_RUN(cores, sw_once_nested, NULL);
    sw_once_check("nested");

    /* From many cores at once. */
    sw_once_reset();
    SW_RUN(cores, sw_once_many, NULL);
    sw_once_check("many cores");
out:
    free(sw_once_g.t);
    free(sw_once_g.hits);
    sw_once_g.t = NULL;
    sw_once_g.hits = NULL;
}

/* ---- no lost wakeup: rounds of burst, drain, idle --------------------------------- */

/*
 * The entry task is the driver. Each round it puts a burst of tasks where only
 * other cores can take them - its fork-join deque, through a group it does NOT
 * help with - so every task needs a sleeping core to be woken (rule 1 of
 * sched/idle.c); half the rounds the burst's tasks spawn more with hive_spawn
 * (the LIFO/ring path). It spins until the burst is done, then until every
 * other worker has parked again; each wait has a deadline that fails the test
 * (and then helps, so a lost wakeup ends the test instead of hanging it).
 */
struct sw_wake {
    unsigned rounds;
    uint64_t deadline_ns;
    atomic_ulong done;
    unsigned long expect;
    unsigned failures;
    unsigned idle_timeouts;
};

static struct sw_wake sw_wake_g;

struct sw_wake_task {
    struct hive_task task;
    struct hive_task child[3];
};

static void sw_wake_child(struct hive_task *t)
{
    (void)t;
    /* relaxed: read by the driver only as a count. */
    atomic_fetch_add_explicit(&sw_wake_g.done, 1, memory_order_relaxed);
}

static void sw_wake_leaf(struct hive_task *t)
{
    /* relaxed: as in sw_wake_child. */
    atomic_fetch_add_explicit(&sw_wake_g.done, 1, memory_order_relaxed);
    (void)t;
}

static void sw_wake_fanout(struct hive_task *t)
{
    struct sw_wake_task *w = HIVE_CONTAINER_OF(t, struct sw_wake_task, task);
    for (unsigned i = 0; i < 3; i++) {
        memset(&w->child[i], 0, sizeof w->child[i]);
        if (hive_spawn(&w->child[i], sw_wake_child) != HIVE_OK)
            atomic_fetch_add(&sw_wake_g.done, 1000000);
    }
    /* relaxed: as in sw_wake_child. */
    atomic_fetch_add_explicit(&sw_wake_g.done, 1, memory_order_relaxed);
}

static bool sw_wait_until(bool (*cond)(void))
{
    struct sw_active a;
    sw_active_start(&a);
    while (!cond()) {
        if (sw_active_poll(&a) > sw_wake_g.deadline_ns)
            return false;
        SW_SPIN_PAUSE();
    }
    return true;
}

static bool sw_burst_done(void)
{
    /* relaxed: only a count; the group wait that follows orders the tasks. */
    return atomic_load_explicit(&sw_wake_g.done, memory_order_relaxed) >= sw_wake_g.expect;
}

static bool sw_others_parked(void)
{
    /* Only the driver is awake (and it is not searching). */
    return hive_idle_unparked(atomic_load(&hive_scheduler.idle.state)) <= 1;
}

static void sw_wake_entry(void *p)
{
    (void)p;
    enum { BURST_MAX = 16 };
    struct sw_wake_task tasks[BURST_MAX];
    uint32_t x = 12345;
    for (unsigned r = 0; r < sw_wake_g.rounds; r++) {
        x ^= x << 13, x ^= x >> 17, x ^= x << 5;
        unsigned burst = 1 + x % BURST_MAX;
        bool fan = r & 1;
        atomic_store(&sw_wake_g.done, 0);
        sw_wake_g.expect = fan ? burst * 4ul : burst;
        struct hive_group g = HIVE_GROUP_INIT;
        for (unsigned i = 0; i < burst; i++) {
            memset(&tasks[i].task, 0, sizeof tasks[i].task);
            CHECK_EQ(hive_group_spawn(&g, &tasks[i].task, fan ? sw_wake_fanout : sw_wake_leaf),
                     HIVE_OK);
        }
        bool ok = sw_wait_until(sw_burst_done);
        if (!ok) {
            printf("  lost wakeup? round %u: %lu of %lu tasks done after the deadline\n", r,
                   atomic_load(&sw_wake_g.done), sw_wake_g.expect);
            sw_wake_g.failures++;
        }
        /* helps if they were stranded; else returns */
        CHECK_EQ(hive_group_wait(&g), HIVE_OK);
        if (!ok)
            break;
        if (!sw_wait_until(sw_others_parked))
            sw_wake_g.idle_timeouts++;
    }
}

static void sched_case_no_lost_wakeup(unsigned cores, unsigned rounds, uint64_t deadline_ns)
{
    sw_wake_g.rounds = rounds;
    sw_wake_g.deadline_ns = deadline_ns;
    sw_wake_g.failures = 0;
    sw_wake_g.idle_timeouts = 0;
    SW_RUN(cores, sw_wake_entry, NULL);
    CHECK_EQ(sw_wake_g.failures, 0);
    CHECK_EQ(sw_wake_g.idle_timeouts, 0);
}

/* ---- run, return, run again; spawns between runs --------------------------------- */

static atomic_uint sw_again_hits;

static void sw_again_fn(void *p)
{
    (void)p;
    atomic_fetch_add(&sw_again_hits, 1);
}

static void sw_again_entry(void *p)
{
    unsigned k = *(unsigned *)p;
    for (unsigned i = 0; i < k; i++)
        CHECK_EQ(hive_spawn_fn(sw_again_fn, NULL), HIVE_OK);
}

static void sched_case_run_again(unsigned cores, unsigned runs)
{
    for (unsigned r = 0; r < runs; r++) {
        atomic_store(&sw_again_hits, 0);
        /* Spawned from the boot code between runs: runs in the next one. */
        CHECK_EQ(hive_spawn_fn(sw_again_fn, NULL), HIVE_OK);
        unsigned k = 50 + r;
        SW_RUN(cores, sw_again_entry, &k);
        CHECK_EQ(atomic_load(&sw_again_hits), k + 1);
        const struct hive_stats *s = hive_stats_last();
        CHECK_EQ(s->cores, cores ? cores : hive_port_core_count());
        CHECK(s->total.tasks_run >= k + 2); /* entry, the boot spawn, k spawns */
    }
}

/* ---- a group task left above a deep join wait ------------------------------------ */

/*
 * The hang this case guards against (fixed in sched/join.c's wait): at 2
 * workers, a chain of joins whose fb halves alternate between the cores
 * (each fa spins until its fb has started elsewhere) nests waits on both
 * cores, all deep - each core's first level spends half its stack first -
 * where a waiter only takes work from the core running its fb. At the
 * bottom of the chain, core X runs level K (its group waits are deep) while
 * core Y waits for it (deep, helping X):
 *   level K on X:  hive_join(spin until L has run, L); then wait for group g
 *   L, which Y leapfrogs from X's deque inside its wait: spawns G into g and
 *     returns without waiting (legal: g is waited for within the run)
 * G now sits in Y's deque above Y's wait frame. X waits for g, Y waits for X:
 * unless Y's deep wait pops entries pushed during the wait, nobody runs G.
 * X's wait for g spins against a deadline first; past it the case fails and
 * rescues G (steals it from Y's deque) so the test ends instead of hanging.
 */
#define SW_DEEP_LEVELS 6u

struct sw_deep {
    uint64_t deadline_ns;
    atomic_bool started[SW_DEEP_LEVELS + 1];
    int core[SW_DEEP_LEVELS + 1];      /* worker that ran each level */
    atomic_bool l_done;
    atomic_int l_core;                 /* worker that ran L, or -1 */
    bool l_deep;                       /* the wait it ran L in was deep */
    bool x_deep;                       /* level K's core was in a deep wait there */
    struct hive_group g;
    struct hive_task gtask;
    atomic_bool g_ran;
    atomic_uint fa_timeouts;           /* the chain did not alternate */
    unsigned hangs;                    /* G was stranded: the bug */
};

static struct sw_deep sw_deep_g;

static bool sw_deep_spin(atomic_bool *flag)
{
    struct sw_active a;
    sw_active_start(&a);
    while (!atomic_load(flag)) {
        if (sw_active_poll(&a) > sw_deep_g.deadline_ns)
            return false;
        SW_SPIN_PAUSE();
    }
    return true;
}

static void sw_deep_gtask(struct hive_task *t)
{
    (void)t;
    atomic_store(&sw_deep_g.g_ran, true);
}

/* L: spawn into g, return without waiting for it. */
static void sw_deep_l(void *p)
{
    (void)p;
    atomic_store(&sw_deep_g.l_core, hive_worker_id());
    sw_deep_g.l_deep = hive_tls_worker->wait_deep;
    CHECK_EQ(hive_group_spawn(&sw_deep_g.g, &sw_deep_g.gtask, sw_deep_gtask), HIVE_OK);
    atomic_store(&sw_deep_g.l_done, true);
}

static void sw_deep_wait_l(void *p)
{
    (void)p;
    if (!sw_deep_spin(&sw_deep_g.l_done))
        atomic_fetch_add(&sw_deep_g.fa_timeouts, 1); /* then L runs inline after we return */
}

static void sw_deep_bottom(void)
{
    struct hive_worker *w = hive_tls_worker;
    sw_deep_g.x_deep = w->wait_deep;
    CHECK_EQ(hive_join(sw_deep_wait_l, NULL, sw_deep_l, NULL), HIVE_OK);
    if (!sw_deep_spin(&sw_deep_g.g_ran)) {
        sw_deep_g.hangs++;
        int y = atomic_load(&sw_deep_g.l_core);
        struct hive_task *t = NULL;
        if (y >= 0 && y != (int)w->id)
            t = hive_steal_forkjoin(&hive_workers[y].queues, &w->stats);
        if (t)
            hive_run_task(w, t); /* the rescue: G, so the run can end */
    }
    CHECK_EQ(hive_group_wait(&sw_deep_g.g), HIVE_OK);
}

static void sw_deep_level(void *p);

static void sw_deep_fa(void *p)
{
    unsigned k = (unsigned)(uintptr_t)p;
    if (!sw_deep_spin(&sw_deep_g.started[k + 1]))
        atomic_fetch_add(&sw_deep_g.fa_timeouts, 1);
}

static void sw_deep_level_work(void *p)
{
    unsigned k = (unsigned)(uintptr_t)p;
    if (k == SW_DEEP_LEVELS) {
        sw_deep_bottom();
        return;
    }
    CHECK_EQ(hive_join(sw_deep_fa, p, sw_deep_level, (void *)(uintptr_t)(k + 1)), HIVE_OK);
}

static void sw_deep_level(void *p)
{
    unsigned k = (unsigned)(uintptr_t)p;
    sw_deep_g.core[k] = hive_worker_id();
    atomic_store(&sw_deep_g.started[k], true);
    if (k <= 1)
        (void)sw_descend(0, sw_deep_level_work, p); /* each core's first level */
    else
        sw_deep_level_work(p);
}

static void sched_case_deep_wait_own_deque(unsigned rounds, uint64_t deadline_ns)
{
    for (unsigned r = 0; r < rounds; r++) {
        memset(&sw_deep_g, 0, sizeof sw_deep_g);
        sw_deep_g.deadline_ns = deadline_ns;
        atomic_init(&sw_deep_g.l_core, -1);
        hive_group_init(&sw_deep_g.g);
        SW_RUN(2, sw_deep_level, (void *)(uintptr_t)0);
        /* The scenario was built: levels alternated, both cores deep. */
        unsigned fa_timeouts = atomic_load(&sw_deep_g.fa_timeouts);
        CHECK_EQ(fa_timeouts, 0);
        for (unsigned k = 1; k <= SW_DEEP_LEVELS; k++)
            CHECK(sw_deep_g.core[k] != sw_deep_g.core[k - 1]);
        CHECK(atomic_load(&sw_deep_g.l_core) != sw_deep_g.core[SW_DEEP_LEVELS]);
        CHECK(sw_deep_g.l_deep);
        CHECK(sw_deep_g.x_deep);
        /* And G did not need the rescue. */
        CHECK_EQ(sw_deep_g.hangs, 0);
        CHECK(atomic_load(&sw_deep_g.g_ran));
        if (sw_deep_g.hangs || fa_timeouts) {
            printf("  round %u: %u stranded, %u chain timeouts\n", r, sw_deep_g.hangs,
                   fa_timeouts);
            break;
        }
    }
}

/* ---- a wait in the lower half of the stack keeps to its own work ------------------- */

/*
 * However shallow, a wait whose frame lies below the middle of the stack its
 * core's worker loop began with is deep (sched/join.c, "Waiting"): a waiter
 * that ran unrelated work there could run a board's 32 KiB stack into its
 * guard. The case spends stack a KiB a frame until it is past the middle,
 * then waits for a group task of its own, which reports the wait it runs in:
 * deep, one wait deep. And the same wait high up is not deep - which a port
 * that cannot tell where its stack lies (room 0: every wait deep) fails.
 * Two workers: at one, the group spawn high on the stack would run the task
 * at once, in no wait (sched/group.c). The other worker is held in a task of its own until
 * the wait is over, so the waiter itself runs the group task, in its wait.
 */
struct sw_low {
    struct hive_group g;
    struct hive_task task;
    struct hive_task hold, behind; /* the other core's hold; what pushes it out */
    atomic_bool held, release;
    bool deep;        /* the wait the task ran in was deep */
    unsigned depth;   /* and that many waits deep */
    unsigned frames;  /* KiB frames spent to get below the middle */
};

static struct sw_low sw_low_g;

static void sw_low_task(struct hive_task *t)
{
    (void)t;
    sw_low_g.deep = hive_tls_worker->wait_deep;
    sw_low_g.depth = hive_tls_worker->wait_depth;
}

static void sw_low_hold(struct hive_task *t)
{
    (void)t;
    atomic_store(&sw_low_g.held, true);
    while (!atomic_load(&sw_low_g.release))
        SW_SPIN_PAUSE();
}

static void sw_low_wait(void *unused)
{
    (void)unused;
    hive_group_init(&sw_low_g.g);
    CHECK_EQ(hive_group_spawn(&sw_low_g.g, &sw_low_g.task, sw_low_task), HIVE_OK);
    CHECK_EQ(hive_group_wait(&sw_low_g.g), HIVE_OK);
}

static void sw_low_entry(void *low)
{
    memset(&sw_low_g, 0, sizeof sw_low_g);
    /* The hold goes to this core's LIFO slot, which no other core takes;
     * the next spawn moves it to the run queue, where the other core can. */
    CHECK_EQ(hive_spawn(&sw_low_g.hold, sw_low_hold), HIVE_OK);
    CHECK_EQ(hive_spawn(&sw_low_g.behind, sw_err_noop_task), HIVE_OK);
    while (!atomic_load(&sw_low_g.held))
        SW_SPIN_PAUSE();
    if (low)
        sw_low_g.frames = sw_descend(0, sw_low_wait, NULL);
    else
        sw_low_wait(NULL);
    atomic_store(&sw_low_g.release, true);
}

static void sched_case_low_wait_is_deep(void)
{
    SW_RUN(2, sw_low_entry, NULL);
    CHECK(!sw_low_g.deep);
    CHECK_EQ(sw_low_g.depth, 1);
    SW_RUN(2, sw_low_entry, (void *)1);
    CHECK(sw_low_g.deep);
    CHECK_EQ(sw_low_g.depth, 1);
    CHECK(sw_low_g.frames > 0);
}

/* ---- a deep group wait leaves what lies under its floor there -------------------- */

/*
 * A deep wait runs only what was pushed above its task's floor (the bottom
 * when the task began), and one task of its own group found at the very
 * bottom under it (sched/join.c, "Waiting"; group.c). It may pop an entry
 * under the floor only to look at it and put it back. When that entry was
 * the deque's last, the pop moved top past it and the push back lands one
 * index up - at the floor - where the next look took it as the task's own
 * work and ran it nested in the wait, one level further down the stack.
 * The case, at 2 workers, below the stack's middle: G, a long task of group
 * gg, goes to the other core; then E (group hh) and T (group ht) are pushed,
 * and the wait for ht runs T, whose floor lies above E: T waits for gg, and
 * E - the deque's last entry, under T's floor - must not run inside that
 * wait. G waits for T's wait to begin (up to 2 s of its core's running
 * time), then ends once E has run, or after sw_floor_g.hold_ns more. A
 * round in which G did not see T waiting tests nothing - nor one whose T
 * the other core took (it steals E and then T when this core's thread or
 * vCPU is held off the CPU that long, and runs T from its own loop, where
 * its wait is not deep) - and the case fails unless some round built it.
 */
struct sw_floor {
    uint64_t hold_ns;
    struct hive_group gg, hh, ht;
    struct hive_task g, e, t;
    atomic_bool g_started, e_ran, t_waiting;
    atomic_int g_core;
    bool g_saw_wait;     /* G saw T's wait begin: the round can test */
    int t_core;
    bool e_in_t;         /* E ran on T's core while T waited: the bug */
    bool t_deep;         /* T's wait was deep, as the case needs */
    int low_core;        /* the core that spawned E and T */
};

static struct sw_floor sw_floor_g;

static void sw_floor_gtask(struct hive_task *t)
{
    (void)t;
    atomic_store(&sw_floor_g.g_core, hive_worker_id());
    atomic_store(&sw_floor_g.g_started, true);
    struct sw_active a;
    sw_active_start(&a);
    while (!atomic_load(&sw_floor_g.t_waiting) && sw_active_poll(&a) < 2000000000ull)
        SW_SPIN_PAUSE();
    sw_floor_g.g_saw_wait = atomic_load(&sw_floor_g.t_waiting);
    sw_active_start(&a);
    while (!atomic_load(&sw_floor_g.e_ran) && sw_active_poll(&a) < sw_floor_g.hold_ns)
        SW_SPIN_PAUSE();
}

static void sw_floor_etask(struct hive_task *t)
{
    (void)t;
    sw_floor_g.e_in_t = atomic_load(&sw_floor_g.t_waiting) && hive_worker_id() == sw_floor_g.t_core;
    atomic_store(&sw_floor_g.e_ran, true);
}

static void sw_floor_ttask(struct hive_task *t)
{
    (void)t;
    sw_floor_g.t_core = hive_worker_id();
    sw_floor_g.t_deep = hive_tls_worker->wait_deep;
    atomic_store(&sw_floor_g.t_waiting, true);
    CHECK_EQ(hive_group_wait(&sw_floor_g.gg), HIVE_OK);
    atomic_store(&sw_floor_g.t_waiting, false);
}

static void sw_floor_low(void *unused)
{
    (void)unused;
    CHECK_EQ(hive_group_spawn(&sw_floor_g.gg, &sw_floor_g.g, sw_floor_gtask), HIVE_OK);
    /* The other core may be asleep, or its thread off the CPU on a busy
     * host: up to 2 s of this core's running time for it to take G. */
    struct sw_active a;
    sw_active_start(&a);
    while (!atomic_load(&sw_floor_g.g_started) && sw_active_poll(&a) < 2000000000ull)
        SW_SPIN_PAUSE();
    CHECK(atomic_load(&sw_floor_g.g_started));
    CHECK(atomic_load(&sw_floor_g.g_core) != hive_worker_id());
    sw_floor_g.low_core = hive_worker_id();
    CHECK_EQ(hive_group_spawn(&sw_floor_g.hh, &sw_floor_g.e, sw_floor_etask), HIVE_OK);
    CHECK_EQ(hive_group_spawn(&sw_floor_g.ht, &sw_floor_g.t, sw_floor_ttask), HIVE_OK);
    CHECK_EQ(hive_group_wait(&sw_floor_g.ht), HIVE_OK);
    CHECK_EQ(hive_group_wait(&sw_floor_g.hh), HIVE_OK);
}

static void sw_floor_entry(void *unused)
{
    (void)unused;
    CHECK(sw_descend(0, sw_floor_low, NULL) > 0);
}

static void sched_case_deep_wait_keeps_its_floor(unsigned rounds, uint64_t hold_ns)
{
    unsigned built = 0;
    for (unsigned r = 0; r < rounds; r++) {
        memset(&sw_floor_g, 0, sizeof sw_floor_g);
        sw_floor_g.hold_ns = hold_ns;
        atomic_init(&sw_floor_g.g_core, -1);
        hive_group_init(&sw_floor_g.gg);
        hive_group_init(&sw_floor_g.hh);
        hive_group_init(&sw_floor_g.ht);
        SW_RUN(2, sw_floor_entry, NULL);
        /* Run by the core that spawned it, T waited deep (the wait for ht
         * popped it); taken by the other core, it tests nothing. */
        CHECK(sw_floor_g.t_deep || sw_floor_g.t_core != sw_floor_g.low_core);
        if (sw_floor_g.t_core != sw_floor_g.low_core)
            printf("  round %u: T taken by the other core (tests nothing)\n", r);
        else if (!sw_floor_g.g_saw_wait)
            printf("  round %u: G did not see T wait (tests nothing)\n", r);
        else
            built++;
        CHECK(atomic_load(&sw_floor_g.e_ran));
        CHECK(!sw_floor_g.e_in_t);
        if (sw_floor_g.e_in_t) {
            printf("  round %u: E ran inside T's deep wait\n", r);
            break;
        }
    }
    printf("  %u of %u rounds built the case (the others test nothing)\n", built, rounds);
    CHECK(built > 0);
}

/* ---- an entry moved up stays under the floors recorded above it ------------------ */

/*
 * The case above, one task further down: the entry that the look under a
 * floor moves up (the deque's last) lands at the floor of the task under
 * the waiting one on this stack, not at the waiter's own. At 2 workers,
 * below the stack's middle: A, a long task of group ga, goes to the other
 * core, and spawns there B (group gb), which that core runs after A. Then
 * E (group he) and T (group ht) are pushed, and the wait for ht runs T,
 * whose floor lies just above E. T joins: its first join shares its frame
 * at once, and fa waits for gb - deep, so it pops the frame and runs fb
 * inside the wait; fb waits for ga and, finding nothing above its floor,
 * looks under it: E, the deque's last entry, moved up to T's floor and
 * beyond. A ends once this core's deque shows E moved (its top past E's
 * index), or after 2 s of its core's running time; fb returns, and fa's
 * wait for gb goes on at T's floor - where E must stay under it: it must
 * not run inside T. B ends once E has run, or after hold_ns of its core's
 * running time after fb returned. A round in which E did not move tests
 * nothing; the case fails unless some round moved it.
 */
struct sw_outer {
    uint64_t hold_ns;
    struct hive_group ga, gb, he, ht;
    struct hive_task a, b, e, t;
    atomic_bool a_started, b_spawned, fb_waiting, fb_done, e_ran, t_active;
    atomic_int other_core;
    int low_core, t_core, fb_core;
    uint32_t e_index;    /* E's index in the low core's deque when spawned */
    atomic_bool moved;   /* A saw that deque's top pass it: E was moved */
    bool t_in_deep;      /* T ran inside a deep wait (the one for ht) */
    bool fb_in_deep;     /* fb ran inside a deep wait (fa's) */
    bool e_in_t;         /* E ran on T's core while T ran: the bug */
};

static struct sw_outer sw_outer_g;

static void sw_outer_btask(struct hive_task *t)
{
    (void)t;
    struct sw_active a;
    sw_active_start(&a);
    while (!atomic_load(&sw_outer_g.fb_done) && sw_active_poll(&a) < 2000000000ull)
        SW_SPIN_PAUSE();
    sw_active_start(&a);
    while (!atomic_load(&sw_outer_g.e_ran) && sw_active_poll(&a) < sw_outer_g.hold_ns)
        SW_SPIN_PAUSE();
}

static void sw_outer_atask(struct hive_task *t)
{
    (void)t;
    atomic_store(&sw_outer_g.other_core, hive_worker_id());
    CHECK_EQ(hive_group_spawn(&sw_outer_g.gb, &sw_outer_g.b, sw_outer_btask), HIVE_OK);
    atomic_store(&sw_outer_g.b_spawned, true);
    atomic_store(&sw_outer_g.a_started, true);
    struct sw_active a;
    sw_active_start(&a);
    while (!atomic_load(&sw_outer_g.fb_waiting) && sw_active_poll(&a) < 2000000000ull)
        SW_SPIN_PAUSE();
    /* The move comes at fb's first look under its floor: up to 2 s of this
     * core's running time for it, as for the other waits here. */
    struct hive_deque *d = &hive_workers[sw_outer_g.low_core].queues.forkjoin;
    sw_active_start(&a);
    while (sw_active_poll(&a) < 2000000000ull) {
        if ((int32_t)(atomic_load(&d->top) - sw_outer_g.e_index) > 0) {
            atomic_store(&sw_outer_g.moved, true);
            break;
        }
        SW_SPIN_PAUSE();
    }
}

static void sw_outer_etask(struct hive_task *t)
{
    (void)t;
    sw_outer_g.e_in_t = atomic_load(&sw_outer_g.t_active) && hive_worker_id() == sw_outer_g.t_core;
    atomic_store(&sw_outer_g.e_ran, true);
}

static void sw_outer_fa(void *unused)
{
    (void)unused;
    CHECK_EQ(hive_group_wait(&sw_outer_g.gb), HIVE_OK);
}

static void sw_outer_fb(void *unused)
{
    (void)unused;
    sw_outer_g.fb_core = hive_worker_id();
    sw_outer_g.fb_in_deep = hive_tls_worker->wait_deep;
    atomic_store(&sw_outer_g.fb_waiting, true);
    CHECK_EQ(hive_group_wait(&sw_outer_g.ga), HIVE_OK);
    atomic_store(&sw_outer_g.fb_done, true);
}

static void sw_outer_ttask(struct hive_task *t)
{
    (void)t;
    sw_outer_g.t_core = hive_worker_id();
    sw_outer_g.t_in_deep = hive_tls_worker->wait_deep;
    atomic_store(&sw_outer_g.t_active, true);
    CHECK_EQ(hive_join(sw_outer_fa, NULL, sw_outer_fb, NULL), HIVE_OK);
    atomic_store(&sw_outer_g.t_active, false);
}

static void sw_outer_low(void *unused)
{
    (void)unused;
    CHECK_EQ(hive_group_spawn(&sw_outer_g.ga, &sw_outer_g.a, sw_outer_atask), HIVE_OK);
    /* As in the case above: up to 2 s of this core's running time for the
     * other core to take A. */
    struct sw_active a;
    sw_active_start(&a);
    while (!atomic_load(&sw_outer_g.a_started) && sw_active_poll(&a) < 2000000000ull)
        SW_SPIN_PAUSE();
    CHECK(atomic_load(&sw_outer_g.a_started));
    CHECK(atomic_load(&sw_outer_g.other_core) != hive_worker_id());
    CHECK(atomic_load(&sw_outer_g.b_spawned));
    sw_outer_g.low_core = hive_worker_id();
    CHECK_EQ(hive_group_spawn(&sw_outer_g.he, &sw_outer_g.e, sw_outer_etask), HIVE_OK);
    sw_outer_g.e_index = hive_deque_bottom(&hive_tls_worker->queues.forkjoin) - 1u;
    CHECK_EQ(hive_group_spawn(&sw_outer_g.ht, &sw_outer_g.t, sw_outer_ttask), HIVE_OK);
    CHECK_EQ(hive_group_wait(&sw_outer_g.ht), HIVE_OK);
    CHECK_EQ(hive_group_wait(&sw_outer_g.he), HIVE_OK);
}

static void sw_outer_entry(void *unused)
{
    (void)unused;
    CHECK(sw_descend(0, sw_outer_low, NULL) > 0);
}

static void sched_case_moved_entry_stays_under(unsigned rounds, uint64_t hold_ns)
{
    unsigned moved = 0;
    for (unsigned r = 0; r < rounds; r++) {
        memset(&sw_outer_g, 0, sizeof sw_outer_g);
        sw_outer_g.hold_ns = hold_ns;
        atomic_init(&sw_outer_g.other_core, -1);
        hive_group_init(&sw_outer_g.ga);
        hive_group_init(&sw_outer_g.gb);
        hive_group_init(&sw_outer_g.he);
        hive_group_init(&sw_outer_g.ht);
        SW_RUN(2, sw_outer_entry, NULL);
        CHECK(atomic_load(&sw_outer_g.e_ran));
        /* T ran on the core that spawned it, in a deep wait, and fb inside
         * fa's deep wait there; taken by the other core, it tests nothing. */
        bool built = sw_outer_g.t_core == sw_outer_g.low_core;
        if (built) {
            CHECK(sw_outer_g.t_in_deep);
            CHECK_EQ(sw_outer_g.fb_core, sw_outer_g.low_core);
            CHECK(sw_outer_g.fb_in_deep);
        }
        if (built && atomic_load(&sw_outer_g.moved))
            moved++;
        CHECK(!sw_outer_g.e_in_t);
        if (sw_outer_g.e_in_t) {
            printf("  round %u: E ran inside T, above T's floor\n", r);
            break;
        }
    }
    printf("  %u of %u rounds moved E (the others test nothing)\n", moved, rounds);
    CHECK(moved > 0);
}

/* ---- a waiter parks while the awaited work runs long, and wakes when it ends ------- */

/*
 * A join whose other half (or a group whose one task) runs run_ns on another
 * core: the waiter must park - not spin - and be woken by the completion, not
 * by the park timeout: no sleep of the waiting core may end by its timeout.
 * The timeout (30 s) is there so that a waiter nobody woke fails the case
 * instead of hanging the test. How late the wait returned is printed, not
 * judged: a loaded host can stop the process between the end and the wake.
 * cpu_ns, when given (the host: the calling thread's CPU clock), must show
 * the waiting core mostly idle.
 */
#define SW_LONG_PARK_TIMEOUT_NS 30000000000ull
#define SW_LONG_START_NS 10000000000ull /* for the other half to be stolen */

struct sw_long {
    uint64_t run_ns;
    uint64_t (*cpu_ns)(void);
    atomic_bool started;
    atomic_int runner;          /* the core that ran the long half */
    int waiter;                 /* the core that waited */
    uint64_t ended_ns;          /* when the long half returned */
    uint64_t woke_ns;           /* when the wait returned */
    uint64_t wait_cpu0_ns;      /* the waiting core's CPU clock when its wait began */
    uint64_t wait_cpu_ns;       /* CPU time of the waiting core during the wait */
    bool start_timeout;
    struct hive_task group_task;
};

static void sw_long_work(struct sw_long *s)
{
    atomic_store(&s->runner, hive_worker_id());
    struct sw_active a;
    sw_active_start(&a);
    atomic_store(&s->started, true);
    while (sw_active_poll(&a) < s->run_ns)
        SW_SPIN_PAUSE();
    s->ended_ns = hive_port_now_ns();
}

static void sw_long_half(void *p) { sw_long_work(p); }
static void sw_long_group_task(struct hive_task *t)
{
    sw_long_work(HIVE_CONTAINER_OF(t, struct sw_long, group_task));
}

/* Until another core has taken the long work (bounded). */
static void sw_long_until_started(void *p)
{
    struct sw_long *s = p;
    struct sw_active a;
    sw_active_start(&a);
    while (!atomic_load(&s->started)) {
        if (sw_active_poll(&a) > SW_LONG_START_NS) {
            s->start_timeout = true;
            break;
        }
        SW_SPIN_PAUSE();
    }
    /* The wait proper starts here: the spin above is not the waiter idling. */
    s->wait_cpu0_ns = s->cpu_ns ? s->cpu_ns() : 0;
}

static void sw_long_join_entry(void *p)
{
    struct sw_long *s = p;
    s->waiter = hive_worker_id();
    CHECK_EQ(hive_join(sw_long_until_started, s, sw_long_half, s), HIVE_OK);
    s->woke_ns = hive_port_now_ns();
    s->wait_cpu_ns = s->cpu_ns ? s->cpu_ns() - s->wait_cpu0_ns : 0;
}

static void sw_long_group_entry(void *p)
{
    struct sw_long *s = p;
    struct hive_group g = HIVE_GROUP_INIT;
    s->waiter = hive_worker_id();
    CHECK_EQ(hive_group_spawn(&g, &s->group_task, sw_long_group_task), HIVE_OK);
    sw_long_until_started(s); /* so that the wait cannot run the task itself */
    CHECK_EQ(hive_group_wait(&g), HIVE_OK);
    s->woke_ns = hive_port_now_ns();
    s->wait_cpu_ns = s->cpu_ns ? s->cpu_ns() - s->wait_cpu0_ns : 0;
}

static void sched_case_waiter_parks(unsigned cores, uint64_t run_ns, uint64_t (*cpu_ns)(void))
{
    void (*entries[2])(void *) = {sw_long_join_entry, sw_long_group_entry};
    const char *names[2] = {"join", "group"};
    for (unsigned k = 0; k < 2; k++) {
        static struct sw_long s;
        memset(&s, 0, sizeof s);
        s.run_ns = run_ns;
        s.cpu_ns = cpu_ns;
        atomic_store(&s.runner, -1);
        struct hive_config c = sw_cfg(cores);
        c.park_timeout_ns = SW_LONG_PARK_TIMEOUT_NS;
        CHECK_EQ(hive_run(entries[k], &s, &c), HIVE_OK);
        const struct hive_stats *st = hive_stats_last();
        CHECK(!s.start_timeout);
        CHECK(atomic_load(&s.runner) >= 0 && atomic_load(&s.runner) != s.waiter);
        CHECK(st->core[s.waiter].wait_parks >= 1);
        CHECK_EQ(st->core[s.waiter].park_timeouts, 0);
        uint64_t late = s.woke_ns > s.ended_ns ? s.woke_ns - s.ended_ns : 0;
        if (cpu_ns)
            CHECK(s.wait_cpu_ns < run_ns / 2);
        printf("  %s: waiter core %d parked %llu times, returned %llu us after the end%s\n",
               names[k], s.waiter, (unsigned long long)st->core[s.waiter].wait_parks,
               (unsigned long long)(late / 1000), cpu_ns ? "" : " (no CPU clock here)");
        if (cpu_ns)
            printf("  %s: the waiting core used %llu us of CPU in %llu us\n", names[k],
                   (unsigned long long)(s.wait_cpu_ns / 1000),
                   (unsigned long long)(run_ns / 1000));
    }
}

/* ---- a group nobody waits for: its stranded tasks are dropped and reported -------- */

/*
 * The entry spawns into a group - intrusive headers and pooled ones - and
 * returns without waiting for it. hive_run must say so (HIVE_EUNWAITED, and
 * the count in the statistics), run none of what it drops, then or in a later
 * run, and leave every header usable: intrusive ones spawnable again, pooled
 * ones back in their pool (the pool is exactly as large as the entry needs, so
 * one lost header fails the spawn that follows).
 */
#define SW_UNWAITED 64u

struct sw_unwaited {
    struct hive_group g;
    struct hive_task tasks[SW_UNWAITED / 2];
    bool wait;
    atomic_uint ran;
};
static struct sw_unwaited sw_unwaited_g;

static void sw_unwaited_task(struct hive_task *t)
{
    (void)t;
    atomic_fetch_add(&sw_unwaited_g.ran, 1);
}

static void sw_unwaited_fn(void *p)
{
    (void)p;
    atomic_fetch_add(&sw_unwaited_g.ran, 1);
}

static void sw_unwaited_entry(void *p)
{
    (void)p;
    struct sw_unwaited *u = &sw_unwaited_g;
    hive_group_init(&u->g);
    for (unsigned i = 0; i < SW_UNWAITED / 2; i++) {
        CHECK_EQ(hive_group_spawn(&u->g, &u->tasks[i], sw_unwaited_task), HIVE_OK);
        CHECK_EQ(hive_group_spawn_fn(&u->g, sw_unwaited_fn, NULL), HIVE_OK);
    }
    if (u->wait)
        CHECK_EQ(hive_group_wait(&u->g), HIVE_OK);
}

static void sw_unwaited_nothing(void *p) { (void)p; }

/* One run of sw_unwaited_entry: hive_run's result; *ran gets what ran. */
static int sw_unwaited_run(unsigned cores, bool wait, unsigned *ran)
{
    struct hive_config c = sw_cfg(cores);
    c.pool_size = SW_UNWAITED / 2;
    sw_unwaited_g.wait = wait;
    atomic_store(&sw_unwaited_g.ran, 0);
    int rc = hive_run(sw_unwaited_entry, NULL, &c);
    *ran = atomic_load(&sw_unwaited_g.ran);
    return rc;
}

static void sched_case_unwaited_group(unsigned cores)
{
    unsigned ran;
    /* One core: every group spawn ran its task at once (sched/group.c), so
     * nothing is left queued to strand: the run is fine, and every task ran
     * exactly once. */
    CHECK_EQ(sw_unwaited_run(1, false, &ran), HIVE_OK);
    CHECK_EQ(ran, SW_UNWAITED);
    CHECK_EQ(hive_stats_last()->unwaited_group_tasks, 0);
    CHECK_EQ(hive_stats_last()->total.run_at_spawn, SW_UNWAITED);

    /* More cores: other cores may take and run some before the end; what
     * they did not take is dropped and counted, and the sum is every task.
     * The entry spawns its 64 in a few microseconds and returns, so some
     * are stranded in all but a freak round (another core would have to
     * wake and take each of them one by one first). */
    bool dropped_some = false;
    for (unsigned round = 0; round < 20; round++) {
        int rc = sw_unwaited_run(cores, false, &ran);
        uint64_t dropped = hive_stats_last()->unwaited_group_tasks;
        CHECK_EQ(ran + dropped, SW_UNWAITED);
        CHECK_EQ(rc, dropped ? HIVE_EUNWAITED : HIVE_OK);
        if (dropped && !dropped_some) {
            dropped_some = true;
            /* Dropped, not kept for later: the next run does not run them. */
            struct hive_config c = sw_cfg(cores);
            atomic_store(&sw_unwaited_g.ran, 0);
            CHECK_EQ(hive_run(sw_unwaited_nothing, NULL, &c), HIVE_OK);
            CHECK_EQ(atomic_load(&sw_unwaited_g.ran), 0);
            CHECK_EQ(hive_stats_last()->unwaited_group_tasks, 0);
        }
        /* Every header can be used again (the pool holds exactly 32), and a
         * group that is waited for is fine. */
        CHECK_EQ(sw_unwaited_run(cores, true, &ran), HIVE_OK);
        CHECK_EQ(ran, SW_UNWAITED);
        CHECK_EQ(hive_stats_last()->unwaited_group_tasks, 0);
    }
    if (hive_stats_last()->cores > 1) /* the last run's, at `cores` as every round's */
        CHECK(dropped_some);
}

/* ---- every error code from the misuse that should produce it --------------------- */

struct sw_err {
    struct hive_task q1, q2;
    unsigned pool_ok;
    int enomem, run_nested, busy_group;
};

static void sw_err_entry(void *p)
{
    struct sw_err *e = p;
    /* Pool of 4 (config): 4 spawn_fn succeed, the 5th is refused. On one core
     * nothing runs them meanwhile: this task does not return until then. */
    for (unsigned i = 0; i < 5; i++) {
        int rc = hive_spawn_fn(sw_err_noop, NULL);
        if (rc == HIVE_OK)
            e->pool_ok++;
        else
            e->enomem = rc;
    }
    struct hive_group g = HIVE_GROUP_INIT;
    CHECK_EQ(hive_group_spawn_fn(&g, sw_err_noop, NULL), HIVE_ENOMEM);
    CHECK_EQ(hive_group_spawn_fn(&g, NULL, NULL), HIVE_EINVAL);
    CHECK_EQ(hive_group_spawn_fn(NULL, sw_err_noop, NULL), HIVE_EINVAL);
    CHECK_EQ(hive_group_spawn(NULL, &e->q2, sw_err_noop_task), HIVE_EINVAL);
    CHECK_EQ(hive_group_spawn(&g, &e->q2, NULL), HIVE_EINVAL);
    CHECK_EQ(hive_group_spawn(&g, NULL, sw_err_noop_task), HIVE_EINVAL);
    CHECK_EQ(hive_group_wait(NULL), HIVE_EINVAL);
    /* A task still queued cannot go into a group either. */
    CHECK_EQ(hive_spawn(&e->q2, sw_err_noop_task), HIVE_OK);
    e->busy_group = hive_group_spawn(&g, &e->q2, sw_err_noop_task);
    CHECK_EQ(hive_spawn(&e->q2, sw_err_noop_task), HIVE_EBUSY);
    CHECK_EQ(hive_group_wait(&g), HIVE_OK);
    /* Nested run. */
    e->run_nested = hive_run(sw_err_noop, NULL, NULL);
    CHECK_EQ(hive_join(NULL, NULL, sw_err_noop, NULL), HIVE_EINVAL);
    CHECK_EQ(hive_join(sw_err_noop, NULL, NULL, NULL), HIVE_EINVAL);
    CHECK_EQ(hive_parallel_for(0, 10, 1, NULL, NULL), HIVE_EINVAL);
    CHECK(hive_in_task());
    CHECK_EQ(hive_worker_id(), 0);
    CHECK_EQ(hive_core_id(), 0);     /* in a task: the worker's core */
}

static void sw_err_cover(size_t lo, size_t hi, void *ctx)
{
    (void)lo, (void)hi, (void)ctx;
}

static void sched_case_errors(void)
{
    struct sw_err e;
    memset(&e, 0, sizeof e);
    struct hive_group g = HIVE_GROUP_INIT;

    CHECK_EQ(hive_spawn(NULL, sw_err_noop_task), HIVE_EINVAL);
    CHECK_EQ(hive_spawn(&e.q1, NULL), HIVE_EINVAL);
    CHECK_EQ(hive_spawn_fn(NULL, NULL), HIVE_EINVAL);
    /* A task spawned twice before it ran: the second is refused. */
    CHECK_EQ(hive_spawn(&e.q1, sw_err_noop_task), HIVE_OK);
    CHECK_EQ(hive_spawn(&e.q1, sw_err_noop_task), HIVE_EBUSY);
    /* Outside task context. */
    CHECK_EQ(hive_join(sw_err_noop, NULL, sw_err_noop, NULL), HIVE_ESTATE);
    CHECK_EQ(hive_parallel_for(0, 10, 1, sw_err_cover, NULL), HIVE_ESTATE);
    CHECK_EQ(hive_group_spawn(&g, &e.q2, sw_err_noop_task), HIVE_ESTATE);
    CHECK_EQ(hive_group_spawn_fn(&g, sw_err_noop, NULL), HIVE_ESTATE);
    CHECK_EQ(hive_group_wait(&g), HIVE_ESTATE);
    CHECK(!hive_in_task());
    CHECK_EQ(hive_worker_id(), -1);
    CHECK_EQ(hive_core_count(), hive_port_core_count());
    /* Bad run arguments. */
    struct hive_config c = {0};
    CHECK_EQ(hive_run(NULL, NULL, NULL), HIVE_EINVAL);
    c.cores = hive_port_core_count() + 1;
    CHECK_EQ(hive_run(sw_err_noop, NULL, &c), HIVE_EINVAL);
    c.cores = 1;
    c.pool_size = HIVE_POOL_MAX + 1;
    CHECK_EQ(hive_run(sw_err_noop, NULL, &c), HIVE_EINVAL);
    c.pool_size = 0;
    c.interval_min = 100;
    c.interval_max = 10;
    CHECK_EQ(hive_run(sw_err_noop, NULL, &c), HIVE_EINVAL);

    /* In a run on one core with a pool of 4. */
    c = (struct hive_config){0};
    c.cores = 1;
    c.pool_size = 4;
    CHECK_EQ(hive_run(sw_err_entry, &e, &c), HIVE_OK);
    CHECK_EQ(e.pool_ok, 4);
    CHECK_EQ(e.enomem, HIVE_ENOMEM);
    CHECK_EQ(e.run_nested, HIVE_ESTATE);
    CHECK_EQ(e.busy_group, HIVE_EBUSY);
    /* The refused calls changed nothing: q1 ran once and can be spawned again. */
    CHECK_EQ(atomic_load(&e.q1.state), HIVE_TASK_IDLE);
    CHECK_EQ(hive_spawn(&e.q1, sw_err_noop_task), HIVE_OK);
    c.pool_size = 0;
    CHECK_EQ(hive_run(sw_err_noop, NULL, &c), HIVE_OK);
    CHECK_EQ(atomic_load(&e.q1.state), HIVE_TASK_IDLE);

    CHECK(strcmp(hive_strerror(HIVE_OK), "HIVE_OK") == 0);
    CHECK(strcmp(hive_strerror(HIVE_EINVAL), "HIVE_EINVAL") == 0);
    CHECK(strcmp(hive_strerror(HIVE_EBUSY), "HIVE_EBUSY") == 0);
    CHECK(strcmp(hive_strerror(HIVE_ENOMEM), "HIVE_ENOMEM") == 0);
    CHECK(strcmp(hive_strerror(HIVE_ESTATE), "HIVE_ESTATE") == 0);
    CHECK(strcmp(hive_strerror(HIVE_EUNWAITED), "HIVE_EUNWAITED") == 0);
    CHECK(strcmp(hive_strerror(42), "unknown") == 0);
}

#endif
