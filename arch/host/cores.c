/*
 * The host port's cores 1..n-1: threads that outlive a run.
 *
 * Each is created the first time a run needs that many cores and then waits
 * between runs, so a short run costs what its tasks cost and not a
 * pthread_create and pthread_join per core (0.2-0.6 ms at 2 cores here). Core
 * 0 is always the thread that called hive_run.
 *
 * One mutex guards the hand-over. A run bumps `gen`, sets what to run and for
 * how many cores, and signals each core that takes part on its own condition
 * variable (a broadcast would wake every thread an earlier, bigger run
 * created); each core runs the new generation once, and the last to finish
 * signals the caller. The mutex orders what the caller wrote before the run
 * with what the cores read, and what the cores did with what the caller reads
 * after host_cores_wait - what pthread_create and pthread_join did before.
 *
 * A core that has not taken its run by the time core 0 has finished it is
 * not waited for: host_cores_wait withdraws it (the port's contract allows
 * it, sched/port.h: hive's run has ended, and a worker that began now would
 * find nothing to do), and the thread skips that run when it wakes. So a
 * run shorter than a thread's wake-up (tens of microseconds on a busy host)
 * does not wait for one; the cores that did take part are waited for, as
 * before.
 *
 * fork(): the child has only the thread that forked. The atfork handlers
 * hold the mutex across the fork (so the child never inherits it locked by a
 * thread that does not exist there) and make the child start from no
 * threads, so a run in the child creates its own.
 */
#define _POSIX_C_SOURCE 200809L
#include "arch/host/cores.h"

#include <pthread.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdlib.h>

#include "arch/host/host.h"
#include "sched/port.h"

static struct {
    pthread_mutex_t mu;
    pthread_cond_t start[HIVE_HOST_MAX_CORES]; /* core i: a new run for it */
    pthread_cond_t done;                       /* the caller: the last core returned */
    /* Runs handed out so far, and cores 1.. still inside fn: changed under
     * mu, and also read without it by a spin that then takes mu (see
     * spin_until_changed), so atomic. */
    _Atomic unsigned long gen;
    unsigned cores;                            /* the current run's cores */
    void (*fn)(void *);
    void *arg;
    _Atomic unsigned long running;
    /* The last run core i took, or that was withdrawn from it. */
    unsigned long taken[HIVE_HOST_MAX_CORES];
    unsigned threads;                          /* cores 1..threads exist */
} pool = {.mu = PTHREAD_MUTEX_INITIALIZER};

static pthread_once_t pool_once = PTHREAD_ONCE_INIT;

static void pool_init_conds(void)
{
    for (unsigned i = 0; i < HIVE_HOST_MAX_CORES; i++)
        pthread_cond_init(&pool.start[i], NULL);
    pthread_cond_init(&pool.done, NULL);
}

static void before_fork(void) { pthread_mutex_lock(&pool.mu); }
static void after_fork_parent(void) { pthread_mutex_unlock(&pool.mu); }

static void after_fork_child(void)
{
    /* The threads are the parent's; none exists here. Fresh locks and
     * condition variables: waiters that exist only in the parent may be
     * recorded in the old ones. */
    pthread_mutex_init(&pool.mu, NULL);
    pool_init_conds();
    pool.threads = 0;
    pool.running = 0;
}

static void pool_init(void)
{
    pool_init_conds();
    if (pthread_atfork(before_fork, after_fork_parent, after_fork_child) != 0)
        abort();
}

/*
 * Before a wait on a condition variable: spin, unlocked, for up to
 * HOST_SPIN_NS while *word == value, and return with mu held again, so the
 * caller's loop decides under the lock as before - the spin only saves the
 * sleep, and the kernel's wake-up, when the change comes soon (a sleeping
 * thread's wake-up costs 50 to 300 us in a virtual machine: port.c). relaxed:
 * what the change publishes is read under mu, which orders it.
 */
static void spin_until_changed(const _Atomic unsigned long *word, unsigned long value)
{
    pthread_mutex_unlock(&pool.mu);
    uint64_t end = hive_port_now_ns() + HOST_SPIN_NS;
    for (unsigned i = 1; atomic_load_explicit(word, memory_order_relaxed) == value; i++) {
        if (host_spin_over(i, end))
            break;
        hive_port_cpu_relax();
    }
    pthread_mutex_lock(&pool.mu);
}

struct core_start {
    unsigned id;
    unsigned long gen; /* the run it was created for */
};

static void *core_thread(void *p)
{
    struct core_start start = *(struct core_start *)p;
    free(p);
    unsigned id = start.id;
    hive_host_bind_core(id);
    /* Threads inherit the creator's mask: the poke must get through. */
    hive_host_poke_unblock(NULL);
    /* Created during run `gen`, for it: take part in it first. */
    unsigned long seen = start.gen - 1;
    pthread_mutex_lock(&pool.mu);
    for (;;) {
        if (pool.gen == seen)
            spin_until_changed(&pool.gen, seen);
        while (pool.gen == seen || id >= pool.cores || pool.taken[id] == pool.gen) {
            /* A run this core is not part of, or one withdrawn from it:
             * skip it. */
            seen = pool.gen;
            pthread_cond_wait(&pool.start[id], &pool.mu);
        }
        seen = pool.gen;
        pool.taken[id] = seen;
        void (*fn)(void *) = pool.fn;
        void *arg = pool.arg;
        pthread_mutex_unlock(&pool.mu);
        fn(arg);
        pthread_mutex_lock(&pool.mu);
        if (--pool.running == 0)
            pthread_cond_signal(&pool.done);
    }
    return NULL;
}

void host_cores_start(unsigned ncores, void (*fn)(void *arg), void *arg)
{
    pthread_once(&pool_once, pool_init);
    pthread_mutex_lock(&pool.mu);
    pool.gen++;
    pool.cores = ncores;
    pool.fn = fn;
    pool.arg = arg;
    pool.running = ncores - 1;
    for (unsigned i = 1; i < ncores; i++) {
        if (i > pool.threads) {
            /* Detached: it lives as long as the process (or until a fork's
             * child, which never sees it). */
            struct core_start *s = malloc(sizeof *s);
            pthread_t t;
            pthread_attr_t attr;
            if (!s || pthread_attr_init(&attr) != 0)
                abort();
            *s = (struct core_start){i, pool.gen};
            pthread_attr_setdetachstate(&attr, PTHREAD_CREATE_DETACHED);
            if (pthread_create(&t, &attr, core_thread, s) != 0)
                abort();
            pthread_attr_destroy(&attr);
            pool.threads = i;
        } else {
            pthread_cond_signal(&pool.start[i]);
        }
    }
    pthread_mutex_unlock(&pool.mu);
}

void host_cores_wait(void)
{
    pthread_mutex_lock(&pool.mu);
    for (unsigned i = 1; i < pool.cores; i++) {
        if (pool.taken[i] != pool.gen) {
            pool.taken[i] = pool.gen; /* withdrawn: see the top */
            pool.running--;
        }
    }
    unsigned long left;
    while ((left = pool.running) != 0) {
        spin_until_changed(&pool.running, left);
        if (pool.running == left)
            pthread_cond_wait(&pool.done, &pool.mu);
    }
    pthread_mutex_unlock(&pool.mu);
}
