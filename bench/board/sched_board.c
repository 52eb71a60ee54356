/*
 * The scheduler benchmark on a board (under QEMU): the workloads of the host's
 * sched_bench (bench/sched_bench.h) that fit a board, each run at 1, 2 and 4
 * cores (hive_config.cores; as many of those as the board brought up), every
 * result checked. bench/run boots it once per repetition, with 4 cores.
 *
 * Per (workload, cores): one untimed warm-up at a smaller size (under QEMU
 * the first run of any code also pays for translating it), then one timed
 * run: a whole hive_run(), start and end of the workers included, timed by
 * hive_now_ns(). Under QEMU's TCG guest time is host time: the figures
 * include whatever else the host is doing.
 *
 * Output, one line per timed run and one with its statistics:
 *   B <board> <workload> <cores> <ns> <size> <tasks> ok|FAILED
 *   BS <board> <workload> <cores> <name> <value> [<name> <value>]...
 * then "sched_board: ok" (exit 0) or "sched_board: FAILED ..." (exit 1).
 *
 * The workloads, as on the host: fib (a hive_join per call, no cutoff),
 * sort (merge sort, hive_join for the halves), queens (a hive_group per
 * placement in the first rows), spawn (independent hive_spawns from one
 * task), skynet (a 10-ary tree of group tasks), uts-t1 (UTS's T1 cut at a
 * depth whose node count uts_known holds; the full T1 has 4 M nodes, which
 * takes minutes under TCG; T3 is left out: its only known small size is a
 * smoke size). SCHED_BOARD_SMOKE builds tiny sizes: the
 * bench-smoke ctest, which proves the image builds, runs and checks.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hive/hive.h"
#include "kernel/cpu.h"
#include "skynet.h"
#include "uts.h"
#include "workloads/fib.h"
#include "workloads/msort.h"
#include "workloads/nqueens.h"
#include "workloads/spawn.h"

#ifdef SCHED_BOARD_SMOKE
#define FIB_N 15
#define SORT_N 5000u
#define QUEENS_N 7
#define SPAWN_N 2000u
#define SKYNET_N 1000u
#define UTS_T1_DEPTH 5 /* 3,987 nodes */
#else
/* Sized for about 0.2-1 s each at 1 core under TCG on a 2-core x86 host. */
#define FIB_N 26
#define SORT_N 200000u
#define QUEENS_N 13
#define SPAWN_N 100000u
#define SKYNET_N 100000u
#define UTS_T1_DEPTH 7 /* 63,914 nodes */
#endif

enum wl { WL_FIB, WL_SORT, WL_QUEENS, WL_SPAWN, WL_SKYNET, WL_UTS_T1, WL_N };
static const char *const wl_name[WL_N] = {"fib", "sort", "queens", "spawn", "skynet", "uts-t1"};
static const size_t wl_size[WL_N] = {FIB_N, SORT_N, QUEENS_N, SPAWN_N, SKYNET_N, UTS_T1_DEPTH};

/* A smaller size for the warm-up run: the same code, a fraction of the work. */
static size_t warm_size(int w, size_t n)
{
    if (w == WL_FIB || w == WL_QUEENS)
        return n > 8 ? n - 3 : n;
    if (w == WL_UTS_T1)
        return n > 5 ? n - 2 : n;
    if (w == WL_SKYNET)
        return n >= 100 ? n / 10 : n;
    return n / 8 + 1;
}

struct result {
    uint64_t ns, tasks;
    int ok;
};

static uint32_t *sort_a, *sort_tmp;
static struct wl_spawn spawns;

static int timed_run(void (*entry)(void *), void *arg, unsigned cores, struct result *r)
{
    struct hive_config c = {.cores = cores};
    uint64_t t0 = hive_now_ns();
    int rc = hive_run(entry, arg, &c);
    r->ns = hive_now_ns() - t0;
    if (rc != HIVE_OK)
        printf("sched_board: hive_run: %s\n", hive_strerror(rc));
    return rc == HIVE_OK;
}

static void run_wl(int w, unsigned cores, size_t n, struct result *r)
{
    memset(r, 0, sizeof *r);
    switch (w) {
    case WL_FIB: {
        struct wl_fib f = {(unsigned)n, 0};
        r->ok = timed_run(wl_fib_task, &f, cores, r) && wl_fib_ok(&f);
        r->tasks = wl_fib_forks(f.n);
        break;
    }
    case WL_SORT: {
        uint64_t sum = wl_msort_fill(sort_a, n);
        struct wl_msort s = {sort_a, sort_tmp, n};
        r->ok = timed_run(wl_msort_task, &s, cores, r) && wl_msort_ok(sort_a, n, sum);
        r->tasks = wl_msort_forks(n);
        break;
    }
    case WL_QUEENS: {
        struct wl_queens q = {(unsigned)n, WL_QUEENS_TASK_ROWS, 0, HIVE_OK};
        r->ok = timed_run(wl_queens_task, &q, cores, r) && wl_queens_ok(&q);
        r->tasks = wl_queens_tasks(q.n, WL_QUEENS_TASK_ROWS, 0, wl_queens_empty());
        break;
    }
    case WL_SPAWN:
        if (wl_spawn_prepare(&spawns, n, cores) != 0) {
            printf("sched_board: out of memory for %zu spawns\n", n);
            return;
        }
        r->ok = timed_run(wl_spawn_entry, &spawns, cores, r) && wl_spawn_run_ok(&spawns);
        r->tasks = n;
        break;
    case WL_SKYNET: {
        struct skynet_run k = {n, 0, HIVE_OK};
        r->ok = timed_run(skynet_task, &k, cores, r) && k.err == HIVE_OK &&
                k.sum == skynet_expect(n);
        r->tasks = skynet_nodes(n) - 1;
        break;
    }
    case WL_UTS_T1: {
        struct uts_run u;
        memset(&u, 0, sizeof u);
        u.tree = uts_t1((unsigned)n);
        /* uts_known: a size known beforehand, never a count of this run's own. */
        uint64_t expect = uts_known(&u.tree);
        r->ok = timed_run(uts_task, &u, cores, r) && u.err == HIVE_OK && expect &&
                u.nodes == expect && sb_sha1_selftest();
        r->tasks = u.nodes;
        break;
    }
    default:
        break;
    }
}

static void print_stats(int w, unsigned cores)
{
    const struct hive_core_stats *t = &hive_stats_last()->total;
    printf("BS %s %s %u tasks_run %llu steal_attempts %llu steals %llu stolen_tasks %llu "
           "parks %llu wait_parks %llu wakes %llu global_pulls %llu overflows %llu "
           "run_at_spawn %llu\n",
           HIVE_BOARD_NAME, wl_name[w], cores, (unsigned long long)t->tasks_run,
           (unsigned long long)t->steal_attempts, (unsigned long long)t->steals,
           (unsigned long long)t->stolen_tasks, (unsigned long long)t->parks,
           (unsigned long long)t->wait_parks, (unsigned long long)t->wakes,
           (unsigned long long)t->global_pulls, (unsigned long long)t->overflows,
           (unsigned long long)t->run_at_spawn);
}

int main(void)
{
    static const unsigned core_counts[] = {1, 2, 4};
    unsigned have = hive_cpu_count();
    sort_a = malloc(SORT_N * sizeof *sort_a);
    sort_tmp = malloc(SORT_N * sizeof *sort_tmp);
    if (!sort_a || !sort_tmp) {
        printf("sched_board: FAILED cannot allocate %u integers\n", SORT_N);
        return 1;
    }
    printf("sched_board: board %s, %u cores online\n", HIVE_BOARD_NAME, have);
    int failed = 0;
    for (int w = 0; w < WL_N; w++) {
        for (unsigned i = 0; i < sizeof core_counts / sizeof core_counts[0]; i++) {
            unsigned cores = core_counts[i];
            if (cores > have)
                break;
            struct result r;
            run_wl(w, cores, warm_size(w, wl_size[w]), &r);
            if (!r.ok) {
                printf("sched_board: %s warm-up at %u cores FAILED\n", wl_name[w], cores);
                failed = 1;
            }
            run_wl(w, cores, wl_size[w], &r);
            printf("B %s %s %u %llu %zu %llu %s\n", HIVE_BOARD_NAME, wl_name[w], cores,
                   (unsigned long long)r.ns, wl_size[w], (unsigned long long)r.tasks,
                   r.ok ? "ok" : "FAILED");
            print_stats(w, cores);
            failed |= !r.ok;
        }
    }
    if (failed) {
        printf("sched_board: FAILED: a run computed a wrong result\n");
        return 1;
    }
    printf("sched_board: ok\n");
    return 0;
}
