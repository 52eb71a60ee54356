/*
 * Scheduler benchmark, oneTBB's side (Debian's libtbb-dev). The same
 * workloads as sched_bench.c, with the same leaf code (the serial kernels,
 * grain rules and checkers of tests/workloads/, which compile as C++; see
 * sched_bench.h), and TBB's nearest equivalents for the forks and waits:
 *   hive_join         -> tbb::parallel_invoke (fib, sort)
 *   (fib again)       -> tbb::task_group run + wait ("fib-tg")
 *   hive_group        -> tbb::task_group (queens)
 *   hive_spawn        -> tbb::task_group::run from one task, then wait (spawn)
 *   hive_group        -> tbb::task_group per node (uts-t1, uts-t3, skynet)
 *   hive_spawn_or_run -> none: task_group::run always queues (spawn-or-run
 *                        is skipped)
 * A timed run is one task_arena::execute() on an arena of exactly `threads`
 * slots (the caller's plus threads-1 workers), made once and kept, as an
 * application would.
 */
#include "sched_bench.h"

#include <tbb/global_control.h>
#include <tbb/parallel_invoke.h>
#include <tbb/task_arena.h>
#include <tbb/task_group.h>

#include <memory>

static uint64_t fib_invoke(unsigned n)
{
    if (n < 2)
        return n;
    uint64_t x, y;
    tbb::parallel_invoke([&] { x = fib_invoke(n - 1); }, [&] { y = fib_invoke(n - 2); });
    return x + y;
}

static uint64_t fib_tg(unsigned n)
{
    if (n < 2)
        return n;
    uint64_t y;
    tbb::task_group g;
    g.run([&] { y = fib_tg(n - 2); }); /* forked, as in hive's join */
    uint64_t x = fib_tg(n - 1);
    g.wait();
    return x + y;
}

static void sort_tbb(uint32_t *a, uint32_t *tmp, size_t n)
{
    if (n <= WL_MSORT_LEAF) {
        wl_insertion_sort(a, n);
        return;
    }
    size_t h = n / 2;
    tbb::parallel_invoke([=] { sort_tbb(a, tmp, h); }, [=] { sort_tbb(a + h, tmp + h, n - h); });
    wl_merge(a, tmp, n, h);
}

static uint64_t queens_tbb(unsigned n, unsigned row, struct wl_queens_pos p)
{
    if (wl_queens_leaf(n, WL_QUEENS_TASK_ROWS, row))
        return wl_queens_serial(n, row, p);
    uint64_t count[WL_QUEENS_MAX];
    unsigned k = 0;
    tbb::task_group g;
    for (uint32_t s = wl_queens_safe(n, p); s; s &= s - 1) {
        uint64_t *c = &count[k++];
        struct wl_queens_pos next = wl_queens_place(p, wl_queens_lowest(s));
        g.run([=] { *c = queens_tbb(n, row + 1, next); });
    }
    g.wait();
    uint64_t sum = 0;
    for (unsigned i = 0; i < k; i++)
        sum += count[i];
    return sum;
}

static uint64_t uts_tbb(const struct uts_tree *t, const struct uts_node *n)
{
    unsigned k = uts_num_children(t, n);
    if (k == 0)
        return 1;
    uint64_t inline_counts[UTS_INLINE_CHILDREN];
    std::unique_ptr<uint64_t[]> heap;
    uint64_t *count = inline_counts;
    if (k > UTS_INLINE_CHILDREN) {
        heap.reset(new uint64_t[k]);
        count = heap.get();
    }
    tbb::task_group g;
    for (unsigned i = 0; i < k; i++) {
        uint64_t *c = &count[i];
        g.run([=] {
            struct uts_node child;
            uts_child(n, i, &child);
            *c = uts_tbb(t, &child);
        });
    }
    g.wait();
    uint64_t sum = 1;
    for (unsigned i = 0; i < k; i++)
        sum += count[i];
    return sum;
}

static uint64_t skynet_tbb(uint64_t num, uint64_t size)
{
    if (size == 1)
        return num;
    uint64_t sum[SKYNET_FANOUT], sub = size / SKYNET_FANOUT;
    tbb::task_group g;
    for (unsigned i = 0; i < SKYNET_FANOUT; i++) {
        uint64_t *s = &sum[i];
        g.run([=] { *s = skynet_tbb(num + i * sub, sub); });
    }
    g.wait();
    uint64_t total = 0;
    for (unsigned i = 0; i < SKYNET_FANOUT; i++)
        total += sum[i];
    return total;
}

static struct sb_sortbuf sortbuf;
static struct sb_hits hitbuf;
static struct sb_items itembuf;
static std::unique_ptr<tbb::task_arena> arenas[SB_MAX_THREADS + 1];

static int run_tbb(int w, unsigned threads, size_t size, struct sb_result *r)
{
    if (w >= SB_NWL)
        return 0;
    tbb::task_arena &arena = *arenas[threads];
    uint64_t v = 0;
    double t0 = 0;
    switch (w) {
    case SB_EMPTY:
        t0 = sb_now();
        arena.execute([] {});
        r->secs = sb_now() - t0;
        r->ok = 1;
        return 1;
    case SB_FIB:
    case SB_FIB_TG: {
        unsigned n = (unsigned)size;
        t0 = sb_now();
        arena.execute([&] { v = w == SB_FIB ? fib_invoke(n) : fib_tg(n); });
        r->secs = sb_now() - t0;
        r->tasks = wl_fib_forks(n);
        r->ok = v == wl_fib_ref(n);
        return 1;
    }
    case SB_SORT:
        sb_sort_fill(&sortbuf, size);
        t0 = sb_now();
        arena.execute([&] { sort_tbb(sortbuf.a, sortbuf.tmp, size); });
        r->secs = sb_now() - t0;
        r->tasks = wl_msort_forks(size);
        r->ok = sb_sort_ok(&sortbuf);
        return 1;
    case SB_QUEENS: {
        unsigned n = (unsigned)size;
        t0 = sb_now();
        arena.execute([&] { v = queens_tbb(n, 0, wl_queens_empty()); });
        r->secs = sb_now() - t0;
        r->tasks = sb_queens_tasks(n);
        r->ok = v == wl_queens_expect(n);
        return 1;
    }
    case SB_SPAWN: {
        unsigned char *hit = sb_hits_zero(&hitbuf, size, threads);
        const struct wl_spawn_item *items = sb_items_fill(&itembuf, size);
        size_t stride = wl_spawn_stride(size);
        t0 = sb_now();
        arena.execute([&] {
            tbb::task_group g;
            for (size_t i = 0; i < size; i++) {
                const struct wl_spawn_item *x = &items[i]; // the task's record
                g.run([hit, stride, threads, x] {
                    // The thread's slot in this arena, 0 .. threads - 1;
                    // any other marks nothing, and the check fails.
                    int t = tbb::this_task_arena::current_thread_index();
                    if (t >= 0 && (unsigned)t < threads)
                        hit[(size_t)t * stride + x->i]++;
                });
            }
            g.wait();
        });
        r->secs = sb_now() - t0;
        r->tasks = size;
        r->ok = wl_spawn_ok(hit, size, threads);
        return 1;
    }
    case SB_UTS_T1:
    case SB_UTS_T3: {
        struct uts_tree t = w == SB_UTS_T1 ? uts_t1((unsigned)size) : uts_t3((unsigned)size);
        uint64_t expect = uts_expect(&t); /* before the clock: it may count serially */
        t0 = sb_now();
        arena.execute([&] {
            struct uts_node root;
            uts_root(&t, &root);
            v = uts_tbb(&t, &root);
        });
        r->secs = sb_now() - t0;
        r->tasks = v;
        r->ok = v == expect;
        return 1;
    }
    case SB_SKYNET:
        t0 = sb_now();
        arena.execute([&] { v = skynet_tbb(0, size); });
        r->secs = sb_now() - t0;
        r->tasks = skynet_nodes(size) - 1;
        r->ok = v == skynet_expect(size);
        return 1;
    }
    return 0;
}

int main(int argc, char **argv)
{
    struct sb_opts o;
    sb_parse(argc, argv, &o);
    unsigned most = 1;
    for (unsigned i = 0; i < o.nthreads; i++)
        most = o.threads[i] > most ? o.threads[i] : most;
    /* TBB caps its workers at the hardware's threads - 1 unless told. */
    tbb::global_control gc(tbb::global_control::max_allowed_parallelism, most);
    for (unsigned i = 0; i < o.nthreads; i++) {
        unsigned t = o.threads[i];
        if (!arenas[t]) {
            /* reserved slot 1: the calling thread is one of the t. */
            arenas[t].reset(new tbb::task_arena((int)t, 1));
            arenas[t]->initialize();
        }
    }
    return sb_loop(&o, "tbb", run_tbb);
}
