/*
 * The demo that `tools/hive run` boots: a real workload on every core.
 *
 * One hive_run on all cores runs, one after the other, the workloads that the
 * tests and the benchmark run too (tests/workloads/):
 *   - fib(27) with hive_join, a task per call and no cutoff (about 320 000
 *     joins: the fork-join overhead dominates, which is the point);
 *   - N-Queens(10), a hive_group per placed queen down to the last three
 *     rows, counting the 724 solutions;
 *   - a merge sort of 10^6 pseudo-random integers (hive_join for the halves
 *     down to insertion-sorted leaves of 32, serial merges), checked sorted
 *     and checksummed.
 * It prints each result with its time, the run's per-core statistics, and
 * ends with one line: "demo: ok cores=N tasks=T steals=S", or
 * "demo: FAILED ..." and a non-zero exit status.
 *
 * It also builds for the host port (`tools/hive trace --host demo`), where the
 * cores are threads: there the first argument is the core count (default 4)
 * and the greeting from every core, which needs the kernel, is left out.
 */
#ifndef HIVE_BOARD_NAME
#define _POSIX_C_SOURCE 200809L /* clock_gettime, on the host */
#endif
#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hive/hive.h"
#ifdef HIVE_BOARD_NAME
#include "kernel/kernel.h"
#else
#include <time.h>

#include "host_cores.h"
#endif
#include "workloads/fib.h"
#include "workloads/msort.h"
#include "workloads/nqueens.h"

#ifdef HIVE_BOARD_NAME
static atomic_uint arrived;

static void hello(void *arg)
{
    (void)arg;
    struct hive_cpu *cpu = arch_this_cpu();
    printf("demo: core %u online (hw id %#lx)\n", cpu->id, (unsigned long)cpu->hw_id);
    atomic_fetch_add(&arrived, 1);
}
#endif

#ifdef HIVE_BOARD_NAME
static uint64_t now_ns(void) { return hive_now_ns(); }
#else
static uint64_t now_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}
#endif

static uint64_t ms_since(uint64_t t0)
{
    return (now_ns() - t0) / 1000000;
}

/* ---- the run ------------------------------------------------------------------ */

#define SORT_N 1000000u

struct demo {
    struct wl_fib fib;
    struct wl_queens queens;
    struct wl_msort sort;
    uint64_t fib_ms, queens_ms, sort_ms;
};

static void demo_entry(void *p)
{
    struct demo *d = p;
    uint64_t t0 = now_ns();
    wl_fib_task(&d->fib);
    d->fib_ms = ms_since(t0);

    t0 = now_ns();
    wl_queens_task(&d->queens);
    d->queens_ms = ms_since(t0);

    t0 = now_ns();
    wl_msort_task(&d->sort);
    d->sort_ms = ms_since(t0);
}

static int run_demo(unsigned cores)
{
    struct demo d;
    memset(&d, 0, sizeof d);
    d.fib.n = 27;
    d.queens.n = 10;
    d.queens.task_rows = wl_queens_fine_rows(d.queens.n);
    d.sort.n = SORT_N;
    d.sort.a = malloc(SORT_N * sizeof *d.sort.a);
    d.sort.tmp = malloc(SORT_N * sizeof *d.sort.tmp);
    if (!d.sort.a || !d.sort.tmp) {
        printf("demo: FAILED cannot allocate %u integers\n", SORT_N);
        return 1;
    }
    uint64_t sum = wl_msort_fill(d.sort.a, SORT_N);

    struct hive_config c = {.cores = cores};
    int rc = hive_run(demo_entry, &d, &c);
    if (rc != HIVE_OK) {
        printf("demo: FAILED hive_run: %s\n", hive_strerror(rc));
        return 1;
    }
    bool fib_ok = wl_fib_ok(&d.fib), queens_ok = wl_queens_ok(&d.queens);
    bool sort_ok = wl_msort_ok(d.sort.a, SORT_N, sum);
    printf("demo: fib(%u) = %llu (%s), %llu ms\n", d.fib.n, (unsigned long long)d.fib.r,
           fib_ok ? "ok" : "WRONG", (unsigned long long)d.fib_ms);
    printf("demo: queens(%u) = %llu solutions (%s), %llu ms\n", d.queens.n,
           (unsigned long long)d.queens.count, queens_ok ? "ok" : "WRONG",
           (unsigned long long)d.queens_ms);
    printf("demo: merge sort of %u integers: %s, %llu ms\n", SORT_N,
           sort_ok ? "sorted" : "NOT SORTED", (unsigned long long)d.sort_ms);
    if (!fib_ok)
        printf("demo: fib(%u) should be %llu\n", d.fib.n, (unsigned long long)wl_fib_ref(d.fib.n));
    if (!queens_ok)
        printf("demo: queens(%u) should be %llu solutions (%s)\n", d.queens.n,
               (unsigned long long)wl_queens_expect(d.queens.n), hive_strerror(d.queens.err));

    const struct hive_stats *s = hive_stats_last();
    hive_stats_print(s);
    free(d.sort.a);
    free(d.sort.tmp);
    if (!fib_ok || !queens_ok || !sort_ok) {
        printf("demo: FAILED cores=%u fib=%s queens=%s sort=%s\n", s->cores,
               fib_ok ? "ok" : "wrong", queens_ok ? "ok" : "wrong", sort_ok ? "ok" : "wrong");
        return 1;
    }
    printf("demo: ok cores=%u tasks=%llu steals=%llu\n", s->cores,
           (unsigned long long)s->total.tasks_run, (unsigned long long)s->total.steals);
    return 0;
}

#ifdef HIVE_BOARD_NAME
int main(void)
{
    unsigned n = hive_cpu_count();
    hive_smp_call_all(hello, NULL);
    if (atomic_load(&arrived) != n) {
        printf("demo: FAILED cores=%u reported=%u\n", n, atomic_load(&arrived));
        return 1;
    }
    return run_demo(0); /* every core the board brought up */
}
#else
int main(int argc, char **argv)
{
    unsigned cores = app_host_cores("demo", argc, argv);
    return cores ? run_demo(cores) : 2;
}
#endif
