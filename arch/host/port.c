/*
 * The port on a hosted POSIX system: cores are pthreads.
 *
 * A host "core" is any thread that called hive_host_bind_core(). There are no
 * interrupts to mask, so irq_save/restore only count nesting for assertions.
 * Parking is a per-core mutex+condvar with a pending-wake flag, the hosted
 * equivalent of the doorbell interrupt that the bare-metal ports use.
 */
#define _POSIX_C_SOURCE 200809L
#include "arch/host/host.h"

#include <errno.h>
#include <pthread.h>
#include <sched.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "sched/sched.h"

struct host_core {
    pthread_mutex_t mu;
    pthread_cond_t cv;
    bool wake_pending;
};

static struct host_core cores[HIVE_HOST_MAX_CORES];
static pthread_once_t cores_once = PTHREAD_ONCE_INIT;
/* Threads are no core until hive_host_bind_core makes them one. */
static _Thread_local unsigned this_core = HIVE_PORT_NOT_A_CORE;
/* hive_run's default worker count on the host (0 cores = "all"); tests that
 * want another count call hive_host_set_core_count(). */
static unsigned core_count = 4;

static void cores_init(void)
{
    pthread_condattr_t ca;
    pthread_condattr_init(&ca);
    pthread_condattr_setclock(&ca, CLOCK_MONOTONIC);
    for (unsigned i = 0; i < HIVE_HOST_MAX_CORES; i++) {
        pthread_mutex_init(&cores[i].mu, NULL);
        pthread_cond_init(&cores[i].cv, &ca);
        cores[i].wake_pending = false;
    }
    pthread_condattr_destroy(&ca);
}

void hive_host_bind_core(unsigned id)
{
    pthread_once(&cores_once, cores_init);
    this_core = id;
}

void hive_host_set_core_count(unsigned n)
{
    pthread_once(&cores_once, cores_init);
    core_count = n;
}

unsigned hive_port_core_id(void) { return this_core; }
unsigned hive_port_core_count(void) { return core_count; }

unsigned long hive_port_irq_save(void) { return 0; }
void hive_port_irq_restore(unsigned long state) { (void)state; }

void hive_port_cpu_relax(void)
{
#if defined(__x86_64__) || defined(__i386__)
    __builtin_ia32_pause();
#else
    sched_yield();
#endif
}

uint64_t hive_port_now_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

void hive_port_wait(uint64_t timeout_ns)
{
    struct host_core *c = &cores[this_core];
    pthread_mutex_lock(&c->mu);
    if (!c->wake_pending) {
        uint64_t now = hive_port_now_ns();
        /* A deadline past the clock's range is no deadline: adding would
         * wrap to one in the past, and every wait would return at once - a
         * busy spin where the caller asked for a long sleep. */
        if (timeout_ns == 0 || timeout_ns > UINT64_MAX - now) {
            while (!c->wake_pending)
                pthread_cond_wait(&c->cv, &c->mu);
        } else {
            uint64_t deadline = now + timeout_ns;
            struct timespec ts = {(time_t)(deadline / 1000000000u),
                                  (long)(deadline % 1000000000u)};
            while (!c->wake_pending)
                if (pthread_cond_timedwait(&c->cv, &c->mu, &ts) == ETIMEDOUT)
                    break;
        }
    }
    c->wake_pending = false;
    pthread_mutex_unlock(&c->mu);
}

void hive_port_wake(unsigned core)
{
    struct host_core *c = &cores[core];
    pthread_mutex_lock(&c->mu);
    c->wake_pending = true;
    pthread_cond_signal(&c->cv);
    pthread_mutex_unlock(&c->mu);
}

/* No interrupts on the host. */
bool hive_port_in_interrupt(void) { return false; }

struct host_run {
    void (*fn)(void *);
    void *arg;
    unsigned id;
};

static void *host_run_thread(void *p)
{
    struct host_run *r = p;
    hive_host_bind_core(r->id);
    r->fn(r->arg);
    return NULL;
}

/*
 * The watchdog's clock: a thread of its own, no core, which calls the check
 * every period while hive_port_run_on_cores runs - it keeps going whatever
 * the core threads are stuck in. Started and stopped (and joined) inside
 * hive_port_run_on_cores, so no check runs outside it.
 */
static struct {
    uint64_t period;
    void (*check)(void);
    pthread_mutex_t mu;
    pthread_cond_t cv;
    bool stop;            /* under mu */
    pthread_t thread;
} watch = {.mu = PTHREAD_MUTEX_INITIALIZER};

void hive_port_watch(uint64_t period_ns, void (*check)(void))
{
    /* Read by the thread that hive_port_run_on_cores starts, which
     * pthread_create orders after this. */
    watch.period = period_ns;
    watch.check = check;
}

static void *watch_thread(void *unused)
{
    (void)unused;
    pthread_mutex_lock(&watch.mu);
    uint64_t next = hive_port_now_ns() + watch.period;
    while (!watch.stop) {
        struct timespec ts = {(time_t)(next / 1000000000u), (long)(next % 1000000000u)};
        if (pthread_cond_timedwait(&watch.cv, &watch.mu, &ts) != ETIMEDOUT)
            continue; /* told to stop, or a spurious wake-up */
        pthread_mutex_unlock(&watch.mu);
        watch.check();
        next += watch.period;
        pthread_mutex_lock(&watch.mu);
    }
    pthread_mutex_unlock(&watch.mu);
    return NULL;
}

static void watch_start(void)
{
    if (!watch.period)
        return;
    pthread_condattr_t ca;
    pthread_condattr_init(&ca);
    pthread_condattr_setclock(&ca, CLOCK_MONOTONIC);
    pthread_cond_init(&watch.cv, &ca);
    pthread_condattr_destroy(&ca);
    watch.stop = false;
    if (pthread_create(&watch.thread, NULL, watch_thread, NULL) != 0)
        abort();
}

static void watch_stop(void)
{
    if (!watch.period)
        return;
    pthread_mutex_lock(&watch.mu);
    watch.stop = true;
    pthread_cond_signal(&watch.cv);
    pthread_mutex_unlock(&watch.mu);
    pthread_join(watch.thread, NULL);
    pthread_cond_destroy(&watch.cv);
}

void hive_port_run_on_cores(unsigned ncores, void (*fn)(void *arg), void *arg)
{
    static pthread_t threads[HIVE_HOST_MAX_CORES];
    static struct host_run runs[HIVE_HOST_MAX_CORES];
    unsigned prev = this_core;
    if (ncores > HIVE_HOST_MAX_CORES)
        ncores = HIVE_HOST_MAX_CORES;
    /* pthread_create and pthread_join order everything the caller did before
     * and every core did inside fn with what follows. */
    for (unsigned i = 1; i < ncores; i++) {
        runs[i] = (struct host_run){fn, arg, i};
        if (pthread_create(&threads[i], NULL, host_run_thread, &runs[i]) != 0)
            abort();
    }
    watch_start();
    hive_host_bind_core(0);
    fn(arg);
    for (unsigned i = 1; i < ncores; i++)
        pthread_join(threads[i], NULL);
    watch_stop();
    hive_host_bind_core(prev);
}

_Noreturn void hive_port_panic_core(unsigned core, const char *msg)
{
    fprintf(stderr, "hive: panic: core %u: %s\n", core, msg);
    abort();
}

_Noreturn void hive_port_panic(const char *msg)
{
    if (this_core == HIVE_PORT_NOT_A_CORE)
        fprintf(stderr, "hive: panic: outside thread: %s\n", msg);
    else
        fprintf(stderr, "hive: panic: core %u: %s\n", this_core, msg);
    abort();
}
