/*
 * Scheduler benchmark, OpenMP tasks' side: built with gcc -fopenmp (libgomp,
 * runtime "omp-gcc") and with clang -fopenmp (LLVM's libomp from
 * libomp-dev, "omp-llvm"). The same workloads as sched_bench.c, with the
 * same leaf code: the serial kernels, grain rules and checkers of
 * tests/workloads/ (see sched_bench.h); only the forks and waits are OpenMP's:
 *   hive_join    -> omp task for the forked half + taskwait (fib, sort)
 *   hive_group   -> a task per child + taskwait (queens)
 *   hive_spawn   -> omp task in a loop from one task, then taskwait (spawn)
 *   hive_spawn_or_run -> the same loop (spawn-or-run)
 *   hive_group   -> a task per child + taskwait (uts-t1, uts-t3, skynet)
 * A timed run is one `parallel num_threads(threads)` region whose `single`
 * thread runs the root; the team's threads are pooled between regions.
 * Both runtimes throttle task creation (a task is run at once, undeferred,
 * when too many are queued): that is part of what `omp task` costs.
 *
 * `sched_bench_omp_llvm serial` runs the serial baselines (sched_bench.h's)
 * compiled by clang, runtime "serial-clang": clang and gcc do not compile the
 * leaf code (the sort's loops, SHA-1) to the same speed, so libomp's times
 * are also given over this baseline.
 */
#define _POSIX_C_SOURCE 200809L /* clock_gettime, under -std=c11 */

#include "sched_bench.h"

#include <omp.h>

#ifdef __clang__
#define RUNTIME "omp-llvm"
#define SERIAL "serial-clang"
#else
#define RUNTIME "omp-gcc"
#define SERIAL "serial-gcc-omp"
#endif

static uint64_t fib_omp(unsigned n)
{
    if (n < 2)
        return n;
    uint64_t x, y;
#pragma omp task shared(y) /* forked, as in hive's join */
    y = fib_omp(n - 2);
    x = fib_omp(n - 1);
#pragma omp taskwait
    return x + y;
}

static void sort_omp(uint32_t *a, uint32_t *tmp, size_t n)
{
    if (n <= WL_MSORT_LEAF) {
        wl_insertion_sort(a, n);
        return;
    }
    size_t h = n / 2;
#pragma omp task
    sort_omp(a + h, tmp + h, n - h);
    sort_omp(a, tmp, h);
#pragma omp taskwait
    wl_merge(a, tmp, n, h);
}

static uint64_t queens_omp(unsigned n, unsigned row, struct wl_queens_pos p)
{
    if (wl_queens_leaf(n, WL_QUEENS_TASK_ROWS, row))
        return wl_queens_serial(n, row, p);
    uint64_t count[WL_QUEENS_MAX];
    unsigned k = 0;
    for (uint32_t s = wl_queens_safe(n, p); s; s &= s - 1) {
        uint64_t *c = &count[k++];
        struct wl_queens_pos next = wl_queens_place(p, wl_queens_lowest(s));
#pragma omp task
        *c = queens_omp(n, row + 1, next);
    }
#pragma omp taskwait
    uint64_t sum = 0;
    for (unsigned i = 0; i < k; i++)
        sum += count[i];
    return sum;
}

static uint64_t uts_omp(const struct uts_tree *t, const struct uts_node *n)
{
    unsigned k = uts_num_children(t, n);
    if (k == 0)
        return 1;
    uint64_t inline_counts[UTS_INLINE_CHILDREN];
    uint64_t *count = inline_counts;
    if (k > UTS_INLINE_CHILDREN) {
        count = malloc(k * sizeof *count);
        if (!count)
            exit(1);
    }
    for (unsigned i = 0; i < k; i++) {
        uint64_t *c = &count[i];
#pragma omp task
        {
            struct uts_node child;
            uts_child(n, i, &child);
            *c = uts_omp(t, &child);
        }
    }
#pragma omp taskwait
    uint64_t sum = 1;
    for (unsigned i = 0; i < k; i++)
        sum += count[i];
    if (count != inline_counts)
        free(count);
    return sum;
}

static uint64_t skynet_omp(uint64_t num, uint64_t size)
{
    if (size == 1)
        return num;
    uint64_t sum[SKYNET_FANOUT], sub = size / SKYNET_FANOUT;
    for (unsigned i = 0; i < SKYNET_FANOUT; i++) {
        uint64_t *s = &sum[i];
#pragma omp task
        *s = skynet_omp(num + i * sub, sub);
    }
#pragma omp taskwait
    uint64_t total = 0;
    for (unsigned i = 0; i < SKYNET_FANOUT; i++)
        total += sum[i];
    return total;
}

static struct sb_sortbuf sortbuf;
static struct sb_hits hitbuf;
static unsigned char *hits;
static struct sb_items itembuf;

static int run_omp(int w, unsigned threads, size_t size, struct sb_result *r)
{
    uint64_t v = 0;
    unsigned n = (unsigned)size;
    if (w == SB_FIB_TG || w >= SB_NWL)
        return 0;
    if (w == SB_SORT)
        sb_sort_fill(&sortbuf, size);
    struct uts_tree tree = w == SB_UTS_T1 ? uts_t1(n) : uts_t3(n);
    uint64_t expect = 0;
    if (w == SB_UTS_T1 || w == SB_UTS_T3)
        expect = uts_expect(&tree); /* before the clock: it may count serially */
    /* OpenMP's task is both: its runtime may run it at once (libgomp does
     * once 64 a thread are queued), as hive_spawn_or_run may. */
    int spawn = w == SB_SPAWN || w == SB_SPAWN_OR_RUN;
    size_t stride = wl_spawn_stride(size);
    struct wl_spawn_item *items = NULL;
    if (spawn) {
        hits = sb_hits_zero(&hitbuf, size, threads);
        items = sb_items_fill(&itembuf, size);
    }
    double t0 = sb_now();
#pragma omp parallel num_threads(threads)
#pragma omp single
    {
        if (w == SB_FIB) {
            v = fib_omp(n);
        } else if (w == SB_SORT) {
            sort_omp(sortbuf.a, sortbuf.tmp, size);
        } else if (w == SB_QUEENS) {
            v = queens_omp(n, 0, wl_queens_empty());
        } else if (spawn) {
            for (size_t i = 0; i < size; i++) {
                const struct wl_spawn_item *x = &items[i]; /* the task's record */
#pragma omp task firstprivate(x)
                hits[(size_t)omp_get_thread_num() * stride + x->i]++;
            }
#pragma omp taskwait
        } else if (w == SB_UTS_T1 || w == SB_UTS_T3) {
            struct uts_node root;
            uts_root(&tree, &root);
            v = uts_omp(&tree, &root);
        } else if (w == SB_SKYNET) {
            v = skynet_omp(0, size);
        }
    }
    r->secs = sb_now() - t0;
    switch (w) {
    case SB_EMPTY:
        r->ok = 1;
        break;
    case SB_FIB:
        r->tasks = wl_fib_forks(n);
        r->ok = v == wl_fib_ref(n);
        break;
    case SB_SORT:
        r->tasks = wl_msort_forks(size);
        r->ok = sb_sort_ok(&sortbuf);
        break;
    case SB_QUEENS:
        r->tasks = sb_queens_tasks(n);
        r->ok = v == wl_queens_expect(n);
        break;
    case SB_SPAWN:
    case SB_SPAWN_OR_RUN:
        r->tasks = size;
        r->ok = wl_spawn_ok(hits, size, threads);
        break;
    case SB_UTS_T1:
    case SB_UTS_T3:
        r->tasks = v;
        r->ok = v == expect;
        break;
    case SB_SKYNET:
        r->tasks = skynet_nodes(size) - 1;
        r->ok = v == skynet_expect(size);
        break;
    }
    return 1;
}

/* spawn's task body, called through a pointer by the serial baseline. */
static void mark(const struct wl_spawn_item *x)
{
    hits[x->i]++;
}

static int run_serial(int w, unsigned threads, size_t size, struct sb_result *r)
{
    (void)threads;
    if (w != SB_SPAWN && w != SB_SPAWN_OR_RUN)
        return sb_run_serial(w, size, r, &sortbuf);
    hits = sb_hits_zero(&hitbuf, size, 1);
    const struct wl_spawn_item *items = sb_items_fill(&itembuf, size);
    /* volatile: a real indirect call per task, as a scheduler makes. */
    void (*volatile fn)(const struct wl_spawn_item *) = mark;
    double t0 = sb_now();
    for (size_t i = 0; i < size; i++)
        fn(&items[i]);
    r->secs = sb_now() - t0;
    r->tasks = size;
    r->ok = wl_spawn_ok(hits, size, 1);
    return 1;
}

int main(int argc, char **argv)
{
    struct sb_opts o;
    if (argc > 1 && strcmp(argv[1], "serial") == 0) {
        sb_parse(argc - 1, argv + 1, &o);
        o.threads[0] = 1, o.nthreads = 1;
        return sb_loop(&o, SERIAL, run_serial);
    }
    sb_parse(argc, argv, &o);
    omp_set_dynamic(0); /* exactly the threads asked for */
    return sb_loop(&o, RUNTIME, run_omp);
}
