/*
 * Scheduler benchmark, hive's side (and the serial baselines):
 *   sched_bench [serial] [options of sched_bench.h] [--smoke] [--stats]
 *   sched_bench capacity   cores free for this run (see capacity())
 *   sched_bench pairs [options]   1 against 2 workers, run by run (see pairs())
 *   sched_bench queued|queued-claim [options]   spawn's floor for a runtime
 *                  that queues every task (spawn_queued.c)
 * (--stats, last: hive's statistics table after every run, for a look at
 * steals, overflows and parks; not for timing.)
 * The workloads are hive's versions in tests/workloads/, the ones the
 * scheduler tests and apps/demo run: hive_join per fib call and per sort
 * split, a hive_group per N-Queens position (coarser here than in the tests:
 * tasks in the first WL_QUEENS_TASK_ROWS rows only), hive_spawn for the
 * independent tasks (hive_spawn_or_run for spawn-or-run), and
 * (bench/uts_hive.c, bench/skynet_hive.c) a hive_group per UTS node and per
 * skynet node. A timed run is one whole
 * hive_run(), so it includes starting and joining the worker threads; the
 * `empty` row says how much that is. After each timed run an S line gives the
 * run's totals from hive_stats_last(): steals, stolen tasks, parks.
 */
#define _POSIX_C_SOURCE 200809L /* clock_gettime, under -std=c11 */

#include "sched_bench.h"

#include <pthread.h>

#include "spawn_queued.h"

#include "arch/host/host.h"
#include "hive/hive.h"

static int run_ok = 1; /* cleared when hive_run refuses (a workload reports its own refusals) */
static int print_stats; /* --stats: hive's per-core table after each run */

static void run_hive(void (*entry)(void *), void *arg, unsigned threads, struct sb_result *r)
{
    struct hive_config c = {0};
    c.cores = threads;
    double t0 = sb_now();
    int rc = hive_run(entry, arg, &c);
    r->secs = sb_now() - t0;
    if (rc != HIVE_OK) {
        fprintf(stderr, "sched_bench: hive_run: %s\n", hive_strerror(rc));
        run_ok = 0;
    }
    const struct hive_core_stats *t = &hive_stats_last()->total;
    snprintf(r->stats, sizeof r->stats,
             "tasks_run %llu steal_attempts %llu steals %llu stolen_tasks %llu parks %llu "
             "wait_parks %llu wakes %llu global_pulls %llu overflows %llu run_at_spawn %llu",
             (unsigned long long)t->tasks_run, (unsigned long long)t->steal_attempts,
             (unsigned long long)t->steals, (unsigned long long)t->stolen_tasks,
             (unsigned long long)t->parks, (unsigned long long)t->wait_parks,
             (unsigned long long)t->wakes, (unsigned long long)t->global_pulls,
             (unsigned long long)t->overflows, (unsigned long long)t->run_at_spawn);
    if (print_stats)
        hive_stats_print(hive_stats_last());
}

static void nop(void *p) { (void)p; }

/* ---- the workloads' buffers, filled outside the timing ------------------------ */

static struct sb_sortbuf sortbuf;
static struct wl_spawn spawns;

static void spawn_prepare(size_t n, unsigned threads)
{
    if (wl_spawn_prepare(&spawns, n, threads) != 0) {
        fprintf(stderr, "sched_bench: out of memory\n");
        exit(1);
    }
}

/* ---- how many cores this run can have ------------------------------------------ */

/* The same busy loop on one thread, then on two at once, then on one again:
 * 2 * t1 / t2, with t1 the mean of the two one-thread loops (so that a load
 * change during the probe does not tilt it one way), is about 2 when both
 * cores are free and about 1 when other work holds one. bench/run probes
 * right before each program; the probe lasts a few tenths of a second and
 * says how free the machine was then, no more: under heavy load it swings
 * from run to run, below 1 when other work took more during the two-thread
 * loop than during the others. */
static void *spin(void *arg)
{
    volatile uint64_t x = 0;
    for (uint64_t i = 0; i < 20000000; i++)
        x += i;
    (void)arg;
    return NULL;
}

/* The probe's figure, or a negative number if no thread could be started. */
static double capacity_now(void)
{
    pthread_t th[2];
    spin(NULL); /* warm: frequency and page faults */
    double t0 = sb_now();
    spin(NULL);
    double t1 = sb_now() - t0;
    t0 = sb_now();
    for (int i = 0; i < 2; i++)
        if (pthread_create(&th[i], NULL, spin, NULL) != 0)
            return -1;
    for (int i = 0; i < 2; i++)
        pthread_join(th[i], NULL);
    double t2 = sb_now() - t0;
    t0 = sb_now();
    spin(NULL);
    t1 = (t1 + sb_now() - t0) / 2;
    return 2 * t1 / t2;
}

static int capacity(void)
{
    double c = capacity_now();
    if (c < 0)
        return 1;
    printf("M capacity %.3f\n", c);
    return 0;
}

/* ---- the two runtimes of this program ---------------------------------------- */

static int run_hive_wl(int w, unsigned threads, size_t size, struct sb_result *r)
{
    run_ok = 1;
    switch (w) {
    case SB_EMPTY:
        run_hive(nop, NULL, threads, r);
        break;
    case SB_FIB: {
        struct wl_fib f = {(unsigned)size, 0};
        run_hive(wl_fib_task, &f, threads, r);
        r->tasks = wl_fib_forks(f.n);
        run_ok &= wl_fib_ok(&f);
        break;
    }
    case SB_SORT: {
        sb_sort_fill(&sortbuf, size);
        struct wl_msort s = {sortbuf.a, sortbuf.tmp, size};
        run_hive(wl_msort_task, &s, threads, r);
        r->tasks = wl_msort_forks(size);
        run_ok &= sb_sort_ok(&sortbuf);
        break;
    }
    case SB_QUEENS: {
        struct wl_queens q = {(unsigned)size, WL_QUEENS_TASK_ROWS, 0, HIVE_OK};
        run_hive(wl_queens_task, &q, threads, r);
        r->tasks = sb_queens_tasks(q.n);
        run_ok &= wl_queens_ok(&q);
        break;
    }
    case SB_SPAWN:
    case SB_SPAWN_OR_RUN:
        spawn_prepare(size, threads);
        spawns.or_run = w == SB_SPAWN_OR_RUN;
        run_hive(wl_spawn_entry, &spawns, threads, r);
        r->tasks = size;
        run_ok &= wl_spawn_run_ok(&spawns);
        break;
    case SB_UTS_T1:
    case SB_UTS_T3: {
        struct uts_run u;
        memset(&u, 0, sizeof u);
        u.tree = w == SB_UTS_T1 ? uts_t1((unsigned)size) : uts_t3((unsigned)size);
        run_hive(uts_task, &u, threads, r);
        r->tasks = u.nodes;
        run_ok &= u.err == HIVE_OK && u.nodes == uts_expect(&u.tree);
        break;
    }
    case SB_SKYNET: {
        struct skynet_run k = {size, 0, HIVE_OK};
        run_hive(skynet_task, &k, threads, r);
        r->tasks = skynet_nodes(size) - 1;
        run_ok &= k.err == HIVE_OK && k.sum == skynet_expect(size);
        break;
    }
    default:
        return 0;
    }
    r->ok = run_ok;
    return 1;
}

/* The serial baselines: sched_bench.h's, and spawn's task bodies of
 * workloads/spawn.c called through a pointer, as hive runs them. */
static int run_serial_wl(int w, unsigned threads, size_t size, struct sb_result *r)
{
    (void)threads;
    if (w != SB_SPAWN && w != SB_SPAWN_OR_RUN)
        return sb_run_serial(w, size, r, &sortbuf);
    spawn_prepare(size, 1);
    double t0 = sb_now();
    wl_spawn_serial(&spawns);
    r->secs = sb_now() - t0;
    r->tasks = size;
    r->ok = wl_spawn_run_ok(&spawns);
    return 1;
}

static int run_queued(int w, unsigned threads, size_t size, struct sb_result *r)
{
    (void)threads;
    return sb_run_queued(w, 0, size, r);
}

static int run_queued_claim(int w, unsigned threads, size_t size, struct sb_result *r)
{
    (void)threads;
    return sb_run_queued(w, 1, size, r);
}

/* ---- more workers against fewer, in pairs --------------------------------------- */

/*
 * sched_bench pairs [options]: for each workload asked, --reps pairs of runs
 * at the first two thread counts (default 1 and 2), back to back: the
 * cores-free probe, then the best of PAIR_RUNS runs at each count, which
 * goes first alternating from pair to pair. One line a pair:
 *   P hive WORKLOAD LO HI PROBE SECS_LO SECS_HI ok|FAILED
 * Why: on a machine shared with other work, a whole repetition's runs at 1
 * and at 2 threads lie seconds apart, each under whatever load came then, so
 * their medians mix the scheduler's scaling with the load's drift. A pair's
 * runs lie within a few hundred milliseconds of each other and of their
 * probe: its ratio says what two cores did against one at that moment, and
 * the probe says whether two were there to be had. Every run is checked.
 */
#define PAIR_RUNS 3 /* sched_report.py has it too (PAIR_RUNS) */

static double best_of(int w, unsigned threads, size_t size, int *ok)
{
    double best = 0;
    for (int k = 0; k < PAIR_RUNS; k++) {
        struct sb_result r;
        memset(&r, 0, sizeof r);
        run_hive_wl(w, threads, size, &r);
        *ok &= r.ok;
        if (k == 0 || r.secs < best)
            best = r.secs;
    }
    return best;
}

static int pairs(const struct sb_opts *o)
{
    if (o->nthreads < 2)
        return 0; /* nothing to pair */
    unsigned lo = o->threads[0], hi = o->threads[1];
    int failed = 0;
    for (int w = 0; w < SB_NWL; w++) {
        if (!o->size[w] || w == SB_EMPTY)
            continue;
        /* One untimed run first, which also says whether hive has it. */
        struct sb_result r;
        memset(&r, 0, sizeof r);
        if (!run_hive_wl(w, lo, sb_warm_size(w, o->size[w]), &r))
            continue;
        failed |= !r.ok;
        for (int k = 0; o->warm && k < 2; k++) {
            run_hive_wl(w, lo, sb_warm_size(w, o->size[w]), &r);
            failed |= !r.ok;
            run_hive_wl(w, hi, sb_warm_size(w, o->size[w]), &r);
            failed |= !r.ok;
        }
        for (unsigned p = 0; p < o->reps; p++) {
            double cap = capacity_now();
            int ok = 1;
            double t_lo, t_hi;
            if (p % 2 == 0) {
                t_lo = best_of(w, lo, o->size[w], &ok);
                t_hi = best_of(w, hi, o->size[w], &ok);
            } else {
                t_hi = best_of(w, hi, o->size[w], &ok);
                t_lo = best_of(w, lo, o->size[w], &ok);
            }
            printf("P hive %s %u %u %.3f %.9f %.9f %s\n", sb_wl_name[w], lo, hi, cap, t_lo, t_hi,
                   ok ? "ok" : "FAILED");
            fflush(stdout);
            failed |= !ok;
        }
    }
    if (failed)
        fprintf(stderr, "hive: FAILED: a run computed a wrong result\n");
    return failed;
}

int main(int argc, char **argv)
{
    if (argc > 1 && strcmp(argv[1], "capacity") == 0)
        return capacity();
    if (argc > 1 && strcmp(argv[1], "pairs") == 0) {
        struct sb_opts o;
        sb_parse(argc - 1, argv + 1, &o);
        hive_host_set_core_count(o.threads[0] > o.threads[1] ? o.threads[0] : o.threads[1]);
        return pairs(&o);
    }
    if (argc > 1 && strcmp(argv[argc - 1], "--stats") == 0)
        print_stats = 1, argc--;
    /* The one-thread programs: the serial baselines, spawn's queued floors. */
    static const struct {
        const char *name;
        int (*run)(int w, unsigned threads, size_t size, struct sb_result *r);
    } alone[] = {{"serial", run_serial_wl},
                 {"queued", run_queued},
                 {"queued-claim", run_queued_claim}};
    for (size_t k = 0; argc > 1 && k < sizeof alone / sizeof alone[0]; k++) {
        if (strcmp(argv[1], alone[k].name) != 0)
            continue;
        struct sb_opts o;
        sb_parse(argc - 1, argv + 1, &o);
        o.threads[0] = 1, o.nthreads = 1;
        return sb_loop(&o, alone[k].name, alone[k].run);
    }
    struct sb_opts o;
    sb_parse(argc, argv, &o);
    unsigned most = 1;
    for (unsigned i = 0; i < o.nthreads; i++)
        most = o.threads[i] > most ? o.threads[i] : most;
    /* The host port offers 4 cores unless told: allow what was asked. */
    hive_host_set_core_count(most);
    return sb_loop(&o, "hive", run_hive_wl);
}
