/*
 * The scheduler benchmark's common part, included by each of its programs:
 *   sched_bench       hive, and the serial baselines (`sched_bench serial`)
 *   sched_bench_tbb   oneTBB (C++)
 *   sched_bench_omp   OpenMP tasks, built twice: gcc/libgomp and clang/libomp
 *   bench/rayon       Rayon (Rust), and a serial Rust baseline: the same
 *                     workloads, options and output, in Rust (src/main.rs)
 *
 * One runtime per process: an idle OpenMP or TBB team spins for a while
 * after its work, and on a 2-core machine that would be timed against the
 * next runtime. bench/run starts the programs in turn, repetition by
 * repetition, so that every runtime sees the same drift in machine load.
 *
 * Every program runs the same workloads written the same way (same splits,
 * same leaf sizes, same spawned half), only the fork/wait calls differ. The
 * workloads are those of tests/workloads/, which apps/demo and the scheduler
 * tests run too: hive's program uses their hive versions as they are; the
 * peers cannot call hive's API, so they write the forks and waits in their
 * own runtime but share everything else - the serial leaf kernels (insertion
 * sort, merge, the N-Queens safe-placement step and serial count), the grain
 * rules, the inputs, the task counts and the checkers with the table of
 * expected results - so every runtime runs identical leaf code:
 *   empty   a run that does nothing: the fixed cost of starting one
 *   fib     fib(n), one fork per call and no cutoff: fib(n-2) is forked,
 *           fib(n-1) runs inline, then the wait. tasks = fib(n+1) - 1 forks.
 *           (workloads/fib.h)
 *   fib-tg  fib again with tbb::task_group (TBB only; fib is parallel_invoke)
 *   sort    merge sort of n uint32: fork the halves down to 32-element
 *           leaves (insertion sort), serial merge (workloads/msort.h)
 *   queens  N-Queens(n): a task per placement in the first 4 rows (a few
 *           thousand tasks of about a microsecond), the rest serial in them
 *           (workloads/nqueens.h, WL_QUEENS_TASK_ROWS)
 *   spawn   n independent tasks spawned by one task, then all awaited
 *           (workloads/spawn.h)
 *   uts-t1  UTS's tree T1 (geometric, 4,130,071 nodes), a task per node;
 *           size: its depth limit, 10 (uts.h)
 *   uts-t3  UTS's tree T3 (binomial, 4,112,897 nodes), a task per node;
 *           size: the root's branching, 2000 (uts.h)
 *   skynet  a 10-ary tree of tasks over n leaves summing their numbers;
 *           size: the leaves, 10^6 (skynet.h)
 * and checks every result: a wrong one prints FAILED and the exit status is 1.
 *
 * Output, one line per timed run (bench/sched_report.py reads them):
 *   R <runtime> <workload> <threads> <seconds> <size> <tasks> ok|FAILED
 * where tasks is the forks (fib, sort), the tasks (queens, spawn, skynet) or
 * the nodes (uts) of the run; a runtime may follow it with its own counters:
 *   S <runtime> <workload> <threads> <name> <value> [<name> <value>]...
 * Plain C, also compiled as C++ (casts on malloc, no designated initialisers).
 */
#ifndef HIVE_BENCH_SCHED_BENCH_H
#define HIVE_BENCH_SCHED_BENCH_H

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "workloads/fib.h"
#include "workloads/msort.h"
#include "workloads/nqueens.h"
#include "workloads/spawn.h"

#include "skynet.h"
#include "uts.h"

enum sb_wl {
    SB_EMPTY, SB_FIB, SB_FIB_TG, SB_SORT, SB_QUEENS, SB_SPAWN, SB_UTS_T1, SB_UTS_T3, SB_SKYNET,
    /* spawn again, where a runtime's spawn may run the task at once: hive's
     * hive_spawn_or_run, OpenMP's task (whose runtimes may run it at once);
     * oneTBB and Rayon have no such spawn and skip it. */
    SB_SPAWN_OR_RUN,
    SB_NWL
};
static const char *const sb_wl_name[SB_NWL] = {"empty", "fib",    "fib-tg", "sort",  "queens",
                                               "spawn", "uts-t1", "uts-t3", "skynet",
                                               "spawn-or-run"};

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
    char stats[256]; /* the runtime's counters, "name value ...", printed as an S line */
};

static inline double sb_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* ---- buffers: allocated once, written before any timing ---------------------- */

/* Write every page of a fresh buffer now, so that its page faults are taken
 * here and not in the first timed run that writes it. Through a volatile
 * pointer: gcc turns a malloc followed by memset(0) into calloc, whose fresh
 * pages stay untouched until first written (the sort's scratch buffer was
 * that way until 2026-11-28, in every C program, and Rust's vec![0; n] is a
 * calloc too). */
static inline void sb_touch(void *p, size_t n)
{
    volatile unsigned char *b = (volatile unsigned char *)p;
    for (size_t i = 0; i < n; i += 4096)
        b[i] = 0;
    if (n)
        b[n - 1] = 0;
}

/* p, or the end of the program if an allocation failed. */
static inline void *sb_allocated(void *p)
{
    if (!p) {
        fprintf(stderr, "sched_bench: out of memory\n");
        exit(1);
    }
    return p;
}

static inline void *sb_alloc(size_t n)
{
    void *p = sb_allocated(malloc(n ? n : 1));
    sb_touch(p, n);
    return p;
}

/* ---- sort: the buffers (the kernels are workloads/msort.h) ------------------ */

struct sb_sortbuf {
    uint32_t *a, *tmp;
    size_t n, cap;
    uint64_t sum;
};

/* Fill with the same pseudo-random input every run (outside the timing).
 * The buffers are kept and only grow, their pages written when allocated. */
static inline void sb_sort_fill(struct sb_sortbuf *s, size_t n)
{
    if (n > s->cap) {
        free(s->a);
        free(s->tmp);
        s->a = (uint32_t *)sb_alloc(n * sizeof *s->a);
        s->tmp = (uint32_t *)sb_alloc(n * sizeof *s->tmp); /* its page faults are not the sort's */
        s->cap = n;
    }
    s->n = n;
    s->sum = wl_msort_fill(s->a, n);
}

/* ---- spawn: the peers' marks (hive's are wl_spawn's) ------------------------- */

/* The bytes the peers' spawned tasks mark, an array of n a thread
 * wl_spawn_stride(n) apart (workloads/spawn.h: its layout and checker):
 * kept between runs, only growing, written when allocated and zeroed before
 * every run, outside the timing. */
struct sb_hits {
    unsigned char *hit;
    size_t cap;
};

static inline unsigned char *sb_hits_zero(struct sb_hits *h, size_t n, unsigned threads)
{
    size_t bytes = threads * wl_spawn_stride(n);
    if (bytes > h->cap) {
        free(h->hit);
        h->hit = (unsigned char *)sb_alloc(bytes);
        h->cap = bytes;
    }
    memset(h->hit, 0, bytes);
    return h->hit;
}

/* The peers' task records (workloads/spawn.h, struct wl_spawn_item): kept
 * between runs, only growing, numbered before every run, outside the
 * timing. */
struct sb_items {
    struct wl_spawn_item *item;
    size_t cap;
};

static inline struct wl_spawn_item *sb_items_fill(struct sb_items *it, size_t n)
{
    if (n > it->cap) {
        free(it->item);
        /* 64-aligned: a record a cache line, as hive's task records are.
         * Every page is written by the fill below. */
        it->item = (struct wl_spawn_item *)sb_allocated(aligned_alloc(64, n * sizeof *it->item));
        it->cap = n;
    }
    wl_spawn_items_fill(it->item, n);
    return it->item;
}

static inline int sb_sort_ok(const struct sb_sortbuf *s)
{
    return wl_msort_ok(s->a, s->n, s->sum);
}

/* Tasks the parallel N-Queens(n) spawns at the benchmark's grain. */
static inline uint64_t sb_queens_tasks(unsigned n)
{
    return wl_queens_tasks(n, WL_QUEENS_TASK_ROWS, 0, wl_queens_empty());
}

/* ---- the serial baselines --------------------------------------------------- */

/* One run of workload w without a scheduler: the same kernels, plain calls
 * (a program's `serial` mode; spawn is the program's own, and empty has none).
 * Returns 0 if w has no serial version here. */
static inline int sb_run_serial(int w, size_t size, struct sb_result *r, struct sb_sortbuf *sort)
{
    double t0 = sb_now();
    switch (w) {
    case SB_FIB: {
        uint64_t v = wl_fib_serial((unsigned)size);
        r->secs = sb_now() - t0;
        r->tasks = wl_fib_forks((unsigned)size); /* as forked elsewhere */
        r->ok = v == wl_fib_ref((unsigned)size);
        break;
    }
    case SB_SORT:
        sb_sort_fill(sort, size);
        t0 = sb_now();
        wl_msort_serial(sort->a, sort->tmp, size);
        r->secs = sb_now() - t0;
        r->tasks = wl_msort_forks(size);
        r->ok = sb_sort_ok(sort);
        break;
    case SB_QUEENS: {
        uint64_t v = wl_queens_serial((unsigned)size, 0, wl_queens_empty());
        r->secs = sb_now() - t0;
        r->tasks = sb_queens_tasks((unsigned)size);
        r->ok = v == wl_queens_expect((unsigned)size);
        break;
    }
    case SB_UTS_T1:
    case SB_UTS_T3: {
        struct uts_tree t = w == SB_UTS_T1 ? uts_t1((unsigned)size) : uts_t3((unsigned)size);
        uint64_t expect = uts_expect(&t); /* before the clock: it may count serially */
        t0 = sb_now();
        uint64_t v = uts_serial(&t);
        r->secs = sb_now() - t0;
        r->tasks = v;
        r->ok = v == expect;
        break;
    }
    case SB_SKYNET: {
        uint64_t v = skynet_serial(0, size);
        r->secs = sb_now() - t0;
        r->tasks = skynet_nodes(size) - 1;
        r->ok = v == skynet_expect(size);
        break;
    }
    default:
        return 0;
    }
    return 1;
}

/* ---- options and the main loop ------------------------------------------------ */

static inline void sb_usage(const char *prog)
{
    fprintf(stderr,
            "usage: %s [--threads 1,2] [--reps R] [--fib N] [--sort N] [--queens N] "
            "[--spawn N] [--uts-t1 DEPTH] [--uts-t3 ROOT_BRANCHING] [--skynet LEAVES] "
            "[--only WORKLOAD] [--smoke] [--no-warmup]\n",
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
    o->size[SB_SPAWN] = o->size[SB_SPAWN_OR_RUN] = 1000000;
    o->size[SB_UTS_T1] = 10;   /* the published T1 */
    o->size[SB_UTS_T3] = 2000; /* the published T3 */
    o->size[SB_SKYNET] = 1000000;
    const char *only = NULL;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
        if (strcmp(a, "--smoke") == 0) {
            o->reps = 1;
            o->size[SB_FIB] = o->size[SB_FIB_TG] = 15;
            o->size[SB_SORT] = 5000;
            o->size[SB_QUEENS] = 7;
            o->size[SB_SPAWN] = o->size[SB_SPAWN_OR_RUN] = 2000;
            o->size[SB_UTS_T1] = 5;  /* 3,987 nodes */
            o->size[SB_UTS_T3] = 20; /* 6,213 nodes */
            o->size[SB_SKYNET] = 1000;
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
            o->size[SB_SPAWN] = o->size[SB_SPAWN_OR_RUN] = (size_t)strtod(v, NULL);
        } else if (strcmp(a, "--uts-t1") == 0) {
            o->size[SB_UTS_T1] = strtoul(v, NULL, 10);
        } else if (strcmp(a, "--uts-t3") == 0) {
            o->size[SB_UTS_T3] = strtoul(v, NULL, 10);
        } else if (strcmp(a, "--skynet") == 0) {
            o->size[SB_SKYNET] = (size_t)strtod(v, NULL);
        } else if (strcmp(a, "--only") == 0) {
            only = v;
        } else {
            sb_usage(argv[0]);
        }
    }
    if (o->size[SB_FIB] > 60 || o->size[SB_QUEENS] > WL_QUEENS_MAX || o->size[SB_QUEENS] < 1 ||
        o->size[SB_UTS_T1] > 20 || o->size[SB_UTS_T3] > 100000 || !skynet_size_ok(o->size[SB_SKYNET]))
        sb_usage(argv[0]);
    for (int w = 0; only && w < SB_NWL; w++)
        if (strcmp(only, sb_wl_name[w]) != 0)
            o->size[w] = 0;
}

/* A smaller size for the untimed warm-up runs (page faults, first thread
 * starts, lazy binding and allocator pools stay out of the figures). spawn
 * warms up at its full size: the peers allocate a task object per spawn
 * inside the timing (their API; hive's spawns use headers the caller
 * supplies), all n of them queued before most run, so their allocators'
 * pools and the pages under them must already have held n tasks - else each
 * process's first full-size run pays the page faults (bench/run runs one
 * timed repetition per process: oneTBB's first run took 3 to 9 times its
 * later ones, Rayon's 2). The same rule for every runtime, hive included. */
static inline size_t sb_warm_size(int w, size_t n)
{
    if (w == SB_SPAWN || w == SB_SPAWN_OR_RUN)
        return n;
    if (w == SB_FIB || w == SB_FIB_TG)
        return n > 8 ? n - 4 : n;
    if (w == SB_QUEENS)
        return n > 8 ? n - 2 : n;
    if (w == SB_UTS_T1) /* a quarter of the nodes per level less: about 1/64 */
        return n > 4 ? n - 3 : n;
    if (w == SB_UTS_T3) /* T3's bulk hangs below a few of the root's children */
        return n / 20 + 1;
    if (w == SB_SKYNET)
        return n >= 1000 ? n / 100 : n;
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
                if (r.stats[0])
                    printf("S %s %s %u %s\n", runtime, sb_wl_name[w], o->threads[ti], r.stats);
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
