/*
 * Host tests of the scheduler (sched/): the bodies in
 * sched_workloads.h at 1, 2, 4 and 8 workers (pthreads bound as cores; the
 * machine may have fewer CPUs, which exercises parking all the more).
 * Built twice: plain, and with ThreadSanitizer (SCHED_TEST_TSAN: smaller).
 */
#define _POSIX_C_SOURCE 200809L /* clock_gettime, CLOCK_THREAD_CPUTIME_ID */
#include <pthread.h>
#include <time.h>

#include "arch/host/host.h"
#include "host/sched_workloads.h"

#ifdef SCHED_TEST_TSAN
#define SCALE 5u
#else
#define SCALE 1u
#endif

static const unsigned core_counts[] = {1, 2, 4, 8};
#define FOR_CORES(n) for (unsigned ci_ = 0, n; ci_ < 4 && ((n = core_counts[ci_]), 1); ci_++)

int main(void)
{
    hive_host_set_core_count(8);
    setvbuf(stdout, NULL, _IOLBF, 0);
    return hive_test_main();
}

HIVE_TEST(errors)
{
    sched_case_errors();
}

HIVE_TEST(run_return_run_again)
{
    FOR_CORES(n)
        sched_case_run_again(n, 5);
    /* Default core count (4 on the host unless configured): 0 = all. */
    hive_host_set_core_count(4);
    sched_case_run_again(0, 2);
    hive_host_set_core_count(8);
}

HIVE_TEST(fib)
{
    FOR_CORES(n)
        sched_case_fib(n, SCALE > 1 ? 18 : 25);
}

HIVE_TEST(nqueens)
{
    FOR_CORES(n)
        sched_case_nqueens(n, SCALE > 1 ? 8 : 10);
}

HIVE_TEST(merge_sort)
{
    FOR_CORES(n)
        sched_case_msort(n, 1000000 / SCALE);
}

HIVE_TEST(spawn)
{
    FOR_CORES(n)
        sched_case_spawn(n, 200000 / SCALE);
}

HIVE_TEST(parallel_for_covers_once)
{
    FOR_CORES(n)
        sched_case_parallel_for(n, 200000 / SCALE);
}

HIVE_TEST(group_covers_once)
{
    FOR_CORES(n)
        sched_case_group(n, 100000 / SCALE);
}

HIVE_TEST(unwaited_group_is_reported)
{
    FOR_CORES(n)
        sched_case_unwaited_group(n);
}

HIVE_TEST(exactly_once)
{
    FOR_CORES(n)
        sched_case_exactly_once(n, 1000000 / SCALE);
}

HIVE_TEST(no_lost_wakeup)
{
    /* 10^4 rounds in all; 5 s per wait before it counts as lost. */
    sched_case_no_lost_wakeup(2, 4000 / SCALE, 5000000000ull);
    sched_case_no_lost_wakeup(4, 3000 / SCALE, 5000000000ull);
    sched_case_no_lost_wakeup(8, 3000 / SCALE, 5000000000ull);
}

HIVE_TEST(deep_wait_runs_own_deque)
{
    /* 2 workers by construction; 2 s per spin before it counts as stuck. */
    sched_case_deep_wait_own_deque(200 / SCALE, 2000000000ull);
}

/* The calling thread's CPU time: the waiting core's, in the case below. */
static uint64_t thread_cpu_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
    return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

HIVE_TEST(waiter_parks_and_wakes)
{
    /* The other half runs 200 ms; at 2 workers and at 4. */
    sched_case_waiter_parks(2, 200000000ull, thread_cpu_ns);
    sched_case_waiter_parks(4, 200000000ull, thread_cpu_ns);
}

/* ---- host only: spawns from threads that are not workers, during a run ---------- */

#define EXT_THREADS 3
static atomic_uint ext_hits;
static atomic_bool ext_go;
static struct hive_task ext_anchor;

static void ext_fn(void *p)
{
    (void)p;
    atomic_fetch_add(&ext_hits, 1);
}

static void *ext_thread(void *p)
{
    unsigned n = *(unsigned *)p;
    while (!atomic_load(&ext_go))
        sched_yield();
    for (unsigned i = 0; i < n; i++) {
        int rc;
        while ((rc = hive_spawn_fn(ext_fn, NULL)) == HIVE_ENOMEM)
            sched_yield(); /* the pool refills as tasks run */
        if (rc != HIVE_OK)
            CHECK_EQ(rc, HIVE_OK);
        if (i % 64 == 0)
            sched_yield();
    }
    return NULL;
}

/* The run stays alive until the outside threads are done: a poller task that
 * respawns itself (without ever blocking its core) while they work. */
static atomic_uint ext_threads_done;
static void ext_poll(struct hive_task *t)
{
    if (atomic_load(&ext_threads_done) < EXT_THREADS)
        CHECK_EQ(hive_spawn(t, ext_poll), HIVE_OK);
}

static void ext_entry(void *p)
{
    (void)p;
    memset(&ext_anchor, 0, sizeof ext_anchor);
    atomic_store(&ext_go, true);
    CHECK_EQ(hive_spawn(&ext_anchor, ext_poll), HIVE_OK);
}

static void *ext_joiner(void *p)
{
    pthread_t *t = p;
    for (unsigned i = 0; i < EXT_THREADS; i++) {
        pthread_join(t[i], NULL);
        atomic_fetch_add(&ext_threads_done, 1);
    }
    return NULL;
}

HIVE_TEST(spawn_from_outside_threads)
{
    unsigned per = 20000 / SCALE;
    FOR_CORES(n) {
        pthread_t t[EXT_THREADS], j;
        atomic_store(&ext_hits, 0);
        atomic_store(&ext_go, false);
        atomic_store(&ext_threads_done, 0);
        for (unsigned i = 0; i < EXT_THREADS; i++)
            pthread_create(&t[i], NULL, ext_thread, &per);
        pthread_create(&j, NULL, ext_joiner, t);
        struct hive_config c = sw_cfg(n);
        CHECK_EQ(hive_run(ext_entry, NULL, &c), HIVE_OK);
        pthread_join(j, NULL);
        /* Whatever the run did not get to runs in the next one. */
        c.cores = 1;
        CHECK_EQ(hive_run(ext_fn, NULL, &c), HIVE_OK);
        CHECK_EQ(atomic_load(&ext_hits), EXT_THREADS * per + 1);
    }
}

/* A thread that is not a worker takes its hive_spawn_fn headers from a pool
 * of its own: it can exhaust that pool, and the worker's own stays whole. */
#define OWN_POOL 8
static atomic_bool own_pool_outside_full;
static atomic_bool own_pool_worker_done;
static atomic_uint own_pool_runs;

static void own_pool_fn(void *p)
{
    (void)p;
    atomic_fetch_add(&own_pool_runs, 1);
}

static void *own_pool_thread(void *p)
{
    unsigned *got = p;
    while (hive_spawn_fn(own_pool_fn, NULL) == HIVE_OK)
        ++*got;
    atomic_store(&own_pool_outside_full, true);
    return NULL;
}

static void own_pool_entry(void *p)
{
    (void)p;
    pthread_t t;
    static unsigned outside_got;
    outside_got = 0;
    pthread_create(&t, NULL, own_pool_thread, &outside_got);
    /* The only worker is busy here, so nothing the thread queued can run and
     * give its header back: the thread fills its pool and stops. */
    while (!atomic_load(&own_pool_outside_full))
        sched_yield();
    pthread_join(t, NULL);
    CHECK_EQ(outside_got, OWN_POOL);
    unsigned mine = 0;
    while (mine < OWN_POOL + 1 && hive_spawn_fn(own_pool_fn, NULL) == HIVE_OK)
        mine++;
    CHECK_EQ(mine, OWN_POOL); /* the worker's pool, untouched by the thread */
    atomic_store(&own_pool_worker_done, true);
}

HIVE_TEST(outside_threads_have_their_own_pool)
{
    atomic_store(&own_pool_outside_full, false);
    atomic_store(&own_pool_runs, 0);
    struct hive_config c = sw_cfg(1);
    c.pool_size = OWN_POOL;
    CHECK_EQ(hive_run(own_pool_entry, NULL, &c), HIVE_OK);
    CHECK(atomic_load(&own_pool_worker_done));
    CHECK_EQ(atomic_load(&own_pool_runs), 2 * OWN_POOL);
}

/* A park timeout near UINT64_MAX is a long sleep, not a deadline that wraps
 * into the past and makes every park return at once (a busy spin). */
static void huge_timeout_entry(void *p)
{
    (void)p;
    /* The other worker finds nothing to do meanwhile and parks. */
    uint64_t t0 = hive_port_now_ns();
    while (hive_port_now_ns() - t0 < 200u * 1000 * 1000)
        sched_yield();
}

HIVE_TEST(huge_park_timeout_sleeps)
{
    struct hive_config c = sw_cfg(2);
    c.park_timeout_ns = UINT64_MAX - 1;
    CHECK_EQ(hive_run(huge_timeout_entry, NULL, &c), HIVE_OK);
    /* Each park ends only when it is woken: a handful in 200 ms. A wrapped
     * deadline made it hundreds of thousands. */
    CHECK(hive_stats_last()->total.parks < 100);
    CHECK_EQ(hive_stats_last()->total.park_timeouts, 0);
}

/* A short park timeout ends the idle worker's sleeps, and each such end is
 * counted as a timeout, on the core that slept. */
HIVE_TEST(park_timeouts_are_counted)
{
    struct hive_config c = sw_cfg(2);
    c.park_timeout_ns = 1000000; /* 1 ms, in 200 ms of nothing to do */
    CHECK_EQ(hive_run(huge_timeout_entry, NULL, &c), HIVE_OK);
    const struct hive_stats *st = hive_stats_last();
    CHECK(st->total.park_timeouts >= 1);
    CHECK(st->total.park_timeouts <= st->total.parks + st->total.wait_parks);
    for (unsigned i = 0; i < st->cores; i++)
        CHECK(st->core[i].park_timeouts <= st->core[i].parks + st->core[i].wait_parks);
}

/* More workers than one bitmap word holds: the idle bitmap's later words. */
HIVE_TEST(many_workers)
{
    hive_host_set_core_count(HIVE_MAX_WORKERS);
    sched_case_fib(130, 18);
    sched_case_exactly_once(130, 20000);
    sched_case_no_lost_wakeup(130, 50 / (SCALE > 1 ? 5 : 1), 10000000000ull);
    sched_case_run_again(HIVE_MAX_WORKERS, 1);
    hive_host_set_core_count(8);
}
