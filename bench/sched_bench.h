/*
 * The scheduler benchmark's common part, included by each of its programs:
 *   sched_bench       hive, and the serial baselines (`sched_bench serial`)
 *   sched_bench_tbb   oneTBB (C++)
 *   sched_bench_omp   OpenMP tasks, built twice: gcc/libgomp and clang/libomp
 *
 * One runtime per process: an idle OpenMP or TBB team spins for a while
 * after its work, and on a 2-core machine that would be timed against the
 * next runtime. bench/run starts the programs in turn, repetition by
 * repetition, so that every runtime sees the same drift in machine load.
 *
 * Every program runs the same workloads written the same way (same splits,
 * same leaf sizes, same spawned half), only the fork/wait calls differ:
 *   empty   a run that does nothing: the fixed cost of starting one
 *   fib     fib(n), one fork per call and no cutoff: fib(n-2) is forked,
 *           fib(n-1) runs inline, then the wait. tasks = fib(n+1) - 1 forks.
 *   fib-tg  fib again with tbb::task_group (TBB only; fib is parallel_invoke)
 *   sort    merge sort of n uint32: fork the halves down to 32-element
 *           leaves (insertion sort), serial merge
 *   queens  N-Queens(n): a task per placement in the first 4 rows (a few
 *           thousand tasks of about a microsecond), the rest serial in them
 *   spawn   n independent tasks spawned by one task, then all awaited
 * and checks every result: a wrong one prints FAILED and the exit status is 1.
 *
 * Output, one line per timed run (bench/sched_report.py reads them):
 *   R <runtime> <workload> <threads> <seconds> <size> <tasks> ok|FAILED
 * Plain C, also compiled as C++ (casts on malloc, no designated initialisers).
 */
#ifndef HIVE_BENCH_SCHED_BENCH_H
#define HIVE_BENCH_SCHED_BENCH_H

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

enum sb_wl { SB_EMPTY, SB_FIB, SB_FIB_TG, SB_SORT, SB_QUEENS, SB_SPAWN, SB_NWL };
static const char *const sb_wl_name[SB_NWL] = {"empty", "fib", "fib-tg", "sort", "queens", "spawn"};

#define SB_SORT_LEAF 32  /* merge sort: insertion sort below this */
#define SB_QUEENS_TASK_ROWS 4 /* N-Queens: tasks down to this row, then serial */
#define SB_MAX_THREADS 64

struct sb_opts {
    unsigned threads[16], nthreads;
    unsigned reps;
    int warm;            /* a warm-up run first (--no-warmup: not, for callgrind) */
    size_t size[SB_NWL]; /* per workload; 0: skip it */
};

/* What one timed run produced; `ok` is set by the runtime's own check. */
struct sb_result {
    double secs;
    uint64_t tasks;
    int ok;
};

static inline double sb_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* ---- fib ------------------------------------------------------------------ */

static inline uint64_t sb_fib_ref(unsigned n)
{
    uint64_t a = 0, b = 1;
    for (unsigned i = 0; i < n; i++) {
        uint64_t t = a + b;
        a = b;
        b = t;
    }
    return a;
}

/* ---- sort ------------------------------------------------------------------ */

static inline void sb_insertion(uint32_t *a, size_t n)
{
    for (size_t i = 1; i < n; i++) {
        uint32_t v = a[i];
        size_t j = i;
        while (j > 0 && a[j - 1] > v) {
            a[j] = a[j - 1];
            j--;
        }
        a[j] = v;
    }
}

/* Merge the sorted halves a[0,h) and a[h,n) through tmp. */
static inline void sb_merge(uint32_t *a, uint32_t *tmp, size_t n, size_t h)
{
    size_t i = 0, j = h, k = 0;
    while (i < h && j < n)
        tmp[k++] = a[i] <= a[j] ? a[i++] : a[j++];
    while (i < h)
        tmp[k++] = a[i++];
    while (j < n)
        tmp[k++] = a[j++];
    memcpy(a, tmp, n * sizeof *a);
}

/* Forks a sort of n makes (one per split). */
static inline uint64_t sb_sort_forks(size_t n)
{
    return n <= SB_SORT_LEAF ? 0 : 1 + sb_sort_forks(n / 2) + sb_sort_forks(n - n / 2);
}

struct sb_sortbuf {
    uint32_t *a, *tmp;
    size_t n;
    uint64_t sum;
};

/* Fill with the same pseudo-random input every run (outside the timing). */
static inline void sb_sort_fill(struct sb_sortbuf *s, size_t n)
{
    if (s->n != n) {
        free(s->a);
        free(s->tmp);
        s->a = (uint32_t *)malloc(n * sizeof *s->a);
        s->tmp = (uint32_t *)malloc(n * sizeof *s->tmp);
        if (!s->a || !s->tmp) {
            fprintf(stderr, "sched_bench: out of memory\n");
            exit(1);
        }
        s->n = n;
        memset(s->tmp, 0, n * sizeof *s->tmp); /* its page faults are not the sort's */
    }
    uint32_t x = 2463534242u;
    s->sum = 0;
    for (size_t i = 0; i < n; i++) {
        x ^= x << 13, x ^= x >> 17, x ^= x << 5;
        s->a[i] = x;
        s->sum += x;
    }
}

/* Sorted, and the same multiset as far as a sum can tell. */
static inline int sb_sort_ok(const struct sb_sortbuf *s)
{
    uint64_t sum = 0;
    for (size_t i = 0; i < s->n; i++) {
        sum += s->a[i];
        if (i && s->a[i - 1] > s->a[i])
            return 0;
    }
    return sum == s->sum;
}

/* ---- N-Queens (bitboards: columns and both diagonals) ------------------------ */

static inline uint64_t sb_queens_serial(unsigned n, unsigned row, uint32_t cols, uint32_t d1,
                                        uint32_t d2)
{
    if (row == n)
        return 1;
    uint64_t c = 0;
    uint32_t all = (1u << n) - 1;
    for (uint32_t avail = all & ~(cols | d1 | d2); avail; avail &= avail - 1) {
        uint32_t bit = avail & (0u - avail);
        c += sb_queens_serial(n, row + 1, cols | bit, (d1 | bit) << 1, (d2 | bit) >> 1);
    }
    return c;
}

/* Tasks the parallel versions spawn: one per placement in the first
 * SB_QUEENS_TASK_ROWS rows. */
static inline uint64_t sb_queens_tasks(unsigned n, unsigned row, uint32_t cols, uint32_t d1,
                                       uint32_t d2)
{
    if (row == n || row >= SB_QUEENS_TASK_ROWS)
        return 0;
    uint64_t c = 0;
    uint32_t all = (1u << n) - 1;
    for (uint32_t avail = all & ~(cols | d1 | d2); avail; avail &= avail - 1) {
        uint32_t bit = avail & (0u - avail);
        c += 1 + sb_queens_tasks(n, row + 1, cols | bit, (d1 | bit) << 1, (d2 | bit) >> 1);
    }
    return c;
}

static inline uint64_t sb_queens_expect(unsigned n)
{
    static const uint64_t known[] = {1, 1, 0, 0, 2, 10, 4, 40, 92, 352, 724, 2680, 14200, 73712};
    return n < sizeof known / sizeof known[0] ? known[n] : sb_queens_serial(n, 0, 0, 0, 0);
}

/* ---- spawn: n tasks, each marks its own byte --------------------------------- */

static inline int sb_hits_ok(const unsigned char *hit, size_t n)
{
    for (size_t i = 0; i < n; i++)
        if (hit[i] != 1)
            return 0;
    return 1;
}

/* ---- options and the main loop ------------------------------------------------ */

static inline void sb_usage(const char *prog)
{
    fprintf(stderr,
            "usage: %s [--threads 1,2] [--reps R] [--fib N] [--sort N] [--queens N] "
            "[--spawn N] [--only WORKLOAD] [--smoke] [--no-warmup]\n",
            prog);
    exit(2);
}

static inline void sb_parse(int argc, char **argv, struct sb_opts *o)
{
    memset(o, 0, sizeof *o);
    o->threads[0] = 1, o->threads[1] = 2, o->nthreads = 2;
    o->reps = 5;
    o->warm = 1;
    o->size[SB_EMPTY] = 1;
    o->size[SB_FIB] = o->size[SB_FIB_TG] = 30;
    o->size[SB_SORT] = 1000000;
    o->size[SB_QUEENS] = 12; /* 11 is about 1 ms serial here: too short to time */
    o->size[SB_SPAWN] = 1000000;
    const char *only = NULL;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
        if (strcmp(a, "--smoke") == 0) {
            o->reps = 1;
            o->size[SB_FIB] = o->size[SB_FIB_TG] = 15;
            o->size[SB_SORT] = 5000;
            o->size[SB_QUEENS] = 7;
            o->size[SB_SPAWN] = 2000;
            continue;
        }
        if (strcmp(a, "--no-warmup") == 0) {
            o->warm = 0;
            continue;
        }
        if (!v)
            sb_usage(argv[0]);
        i++;
        if (strcmp(a, "--threads") == 0) {
            o->nthreads = 0;
            for (const char *s = v; *s && o->nthreads < 16;) {
                char *end;
                unsigned long t = strtoul(s, &end, 10);
                if (end == s || t < 1 || t > SB_MAX_THREADS)
                    sb_usage(argv[0]);
                o->threads[o->nthreads++] = (unsigned)t;
                s = *end == ',' ? end + 1 : end;
            }
        } else if (strcmp(a, "--reps") == 0) {
            o->reps = (unsigned)strtoul(v, NULL, 10);
        } else if (strcmp(a, "--fib") == 0) {
            o->size[SB_FIB] = o->size[SB_FIB_TG] = strtoul(v, NULL, 10);
        } else if (strcmp(a, "--sort") == 0) {
            o->size[SB_SORT] = (size_t)strtod(v, NULL); /* 1e6 works too */
        } else if (strcmp(a, "--queens") == 0) {
            o->size[SB_QUEENS] = strtoul(v, NULL, 10);
        } else if (strcmp(a, "--spawn") == 0) {
            o->size[SB_SPAWN] = (size_t)strtod(v, NULL);
        } else if (strcmp(a, "--only") == 0) {
            only = v;
        } else {
            sb_usage(argv[0]);
        }
    }
    if (o->size[SB_FIB] > 60 || o->size[SB_QUEENS] > 16 || o->size[SB_QUEENS] < 1)
        sb_usage(argv[0]);
    for (int w = 0; only && w < SB_NWL; w++)
        if (strcmp(only, sb_wl_name[w]) != 0)
            o->size[w] = 0;
}

/* A smaller size for the untimed warm-up runs (page faults, first thread
 * starts, lazy binding and allocator pools stay out of the figures). */
static inline size_t sb_warm_size(int w, size_t n)
{
    if (w == SB_FIB || w == SB_FIB_TG)
        return n > 8 ? n - 4 : n;
    if (w == SB_QUEENS)
        return n > 8 ? n - 2 : n;
    return n / 4 + 1;
}

/*
 * run(w, threads, size, &r): one run of workload w; returns 0 if the runtime
 * does not have it. Every (workload, thread count): two warm-ups, then `reps`
 * timed runs. Returns the exit status: 1 if any result was wrong.
 */
static inline int sb_loop(const struct sb_opts *o, const char *runtime,
                          int (*run)(int w, unsigned threads, size_t size, struct sb_result *r))
{
    int failed = 0;
    for (int w = 0; w < SB_NWL; w++) {
        if (!o->size[w])
            continue;
        for (unsigned ti = 0; ti < o->nthreads; ti++) {
            struct sb_result r;
            memset(&r, 0, sizeof r);
            /* Twice: libgomp's first region after its team grew can still
             * wait milliseconds for the new thread (seen on this VM). */
            int have = 1;
            for (int k = 0; o->warm && k < 2 && have; k++) {
                have = run(w, o->threads[ti], sb_warm_size(w, o->size[w]), &r);
                failed |= have && !r.ok;
            }
            if (!have)
                break;
            for (unsigned k = 0; k < o->reps; k++) {
                memset(&r, 0, sizeof r);
                if (!run(w, o->threads[ti], o->size[w], &r))
                    break;
                printf("R %s %s %u %.9f %zu %llu %s\n", runtime, sb_wl_name[w], o->threads[ti],
                       r.secs, o->size[w], (unsigned long long)r.tasks, r.ok ? "ok" : "FAILED");
                fflush(stdout);
                failed |= !r.ok;
            }
        }
    }
    if (failed)
        fprintf(stderr, "%s: FAILED: a run computed a wrong result\n", runtime);
    return failed;
}

#endif
