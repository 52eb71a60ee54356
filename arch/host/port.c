/*
 * The port on a hosted POSIX system: cores are pthreads.
 *
 * A host "core" is any thread that called hive_host_bind_core(). There are no
 * interrupts to mask, so irq_save/restore only count nesting for assertions.
 *
 * Parking has two phases, as on the boards (a wait for event, then a wait for
 * an interrupt): hive_port_wait first spins on the core's pending-wake flag
 * for up to HOST_SPIN_NS, then sleeps on a per-core mutex and condition
 * variable, the hosted equivalent of the doorbell interrupt. A thread that
 * sleeps is woken by the kernel, which in a virtual machine whose other CPU
 * is idle means waking that virtual CPU: 50 to 300 us here, measured, against
 * well under a microsecond for a spinning one. Every hosted runtime spins
 * before it sleeps for that reason (libgomp, libomp, oneTBB, Rayon); the spin
 * is bounded, so a core that stays idle costs a short burst of CPU per park.
 * hive_port_wake sets the flag (an exchange: a wake that finds it set is
 * done), and takes the lock and signals only when the core has gone to sleep: a Dekker handshake, `sleeping` then the flag on the
 * waiter's side, the flag then `sleeping` on the waker's, each with a seq_cst
 * fence between its store and its load, so one of them sees the other's
 * store (docs/ordering.md: the fence is explicit, as in every handshake).
 */
#define _POSIX_C_SOURCE 200809L
#include "arch/host/host.h"
#include "arch/host/backstop.h"
#include "arch/host/cores.h"

#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <string.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "sched/sched.h"

struct host_core {
    pthread_mutex_t mu;
    pthread_cond_t cv;
    /* seq_cst, both, where they meet (the handshake at the top, whose
     * fences pair with each other). */
    _Atomic bool wake_pending;
    _Atomic bool sleeping; /* set and cleared under mu */
    /* hive_host_waits_timed_out. relaxed, here and in the load: a count a
     * test only waits on; what the core did meanwhile (the scheduler's own
     * counts) is read after the run, which host_cores_wait orders. */
    _Atomic unsigned long timed_out;
    /* The thread bound to this core last (hive_port_poke's target); the
     * pokes sent to it, and of those the ones answered: a handler stores
     * the count of pokes sent that it saw as it began once it has run. A
     * signal sent while one is pending or being handled is not queued
     * twice, so a handler answers every poke sent before it began, and
     * none after; and a poke answered by a handler begun before it was
     * sent would be one whose wake (the handler's) is not yet made. */
    pthread_t thread;
    _Atomic unsigned long pokes_sent, pokes_answered;
};

static struct host_core cores[HIVE_HOST_MAX_CORES];
static pthread_once_t cores_once = PTHREAD_ONCE_INIT;
/* Threads are no core until hive_host_bind_core makes them one. */
static _Thread_local unsigned this_core = HIVE_PORT_NOT_A_CORE;
/* hive_run's default worker count on the host (0 cores = "all"); tests that
 * want another count call hive_host_set_core_count(). */
static unsigned core_count = 4;

static void cores_reset(void)
{
    pthread_condattr_t ca;
    pthread_condattr_init(&ca);
    pthread_condattr_setclock(&ca, CLOCK_MONOTONIC);
    for (unsigned i = 0; i < HIVE_HOST_MAX_CORES; i++) {
        pthread_mutex_init(&cores[i].mu, NULL);
        pthread_cond_init(&cores[i].cv, &ca);
        atomic_init(&cores[i].wake_pending, false);
        atomic_init(&cores[i].sleeping, false);
    }
    pthread_condattr_destroy(&ca);
}

static void poke_install(void);

static void cores_init(void)
{
    cores_reset();
    poke_install();
    /* A fork() from a thread of the program's own while a run goes on: the
     * child has none of the core threads, but may inherit a core's mu
     * locked by one of them, or a condition variable that records their
     * waits (a signal could go to a waiter that does not exist there). The
     * child starts from fresh ones, as cores.c's pool and backstop.c's
     * thread do. */
    if (pthread_atfork(NULL, NULL, cores_reset) != 0)
        abort();
}

/* The poke (hive_port_poke): a signal the program is unlikely to use for
 * itself; SA_RESTART, so that a system call the core's task was in goes on. */
#define HOST_POKE_SIGNAL SIGURG
/* What a poke runs (one scheduler, so one function). */
static void (*_Atomic poke_fn)(void);
/* Inside the poke's handler: the host's one interrupt of a core, which the
 * scheduler's debug checks must see as the boards' timer interrupt. */
static _Thread_local volatile sig_atomic_t in_poke;

static void poke_handler(int sig)
{
    (void)sig;
    int saved = errno;
    unsigned id = this_core;
    /* acquire: pairs with the poker's release store of the function. */
    void (*fn)(void) = atomic_load_explicit(&poke_fn, memory_order_acquire);
    if (id < HIVE_HOST_MAX_CORES && fn) {
        /* acquire: pairs with the poker's release increment, as poke_fn's
         * load does. */
        unsigned long seen = atomic_load_explicit(&cores[id].pokes_sent, memory_order_acquire);
        in_poke = 1;
        fn();
        in_poke = 0;
        /* release: pairs with the poker's and hive_port_poke_pending's
         * acquire loads: what the handler published is visible to them.
         * Handlers of one thread never overlap (the signal is blocked in
         * its own handler), so the answers only grow. */
        atomic_store_explicit(&cores[id].pokes_answered, seen, memory_order_release);
    }
    errno = saved;
}

static void poke_install(void)
{
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = poke_handler;
    sigemptyset(&sa.sa_mask);
    sa.sa_flags = SA_RESTART;
    if (sigaction(HOST_POKE_SIGNAL, &sa, NULL) != 0)
        abort();
}

void hive_host_bind_core(unsigned id)
{
    pthread_once(&cores_once, cores_init);
    this_core = id;
    if (id < HIVE_HOST_MAX_CORES)
        cores[id].thread = pthread_self();
}

/* Block or unblock the poke's signal alone in the calling thread. */
static void poke_mask(int how, sigset_t *old)
{
    sigset_t set;
    sigemptyset(&set);
    sigaddset(&set, HOST_POKE_SIGNAL);
    pthread_sigmask(how, &set, old);
}

void hive_host_poke_unblock(sigset_t *old) { poke_mask(SIG_UNBLOCK, old); }

/* hive_run's calling thread while it runs core 0 (hive_port_run_on_cores),
 * whether it unblocked the poke's signal in this run, and its mask before. */
static _Thread_local bool run_caller, caller_unblocked;
static _Thread_local sigset_t caller_mask;

void hive_port_poke_ready(void)
{
    /* The cores' own threads have it unblocked from their start. */
    if (!run_caller || caller_unblocked)
        return;
    hive_host_poke_unblock(&caller_mask);
    caller_unblocked = true;
}

/* A polling core releases held-back checks as a sleeping one does
 * (backstop.c). */
void hive_port_poll_begin(void) { host_backstop_wait_begin(); }
void hive_port_poll_end(void) { host_backstop_wait_end(); }

/* Has the handler of poke number `mine` of core c run (answered wraps with
 * sent, so compared as a difference)? acquire: pairs with the handler's
 * release store. */
static bool poke_answered(struct host_core *c, unsigned long mine)
{
    return (long)(atomic_load_explicit(&c->pokes_answered, memory_order_acquire) - mine) >= 0;
}

bool hive_port_poke(unsigned core, void (*fn)(void))
{
    struct host_core *c = &cores[core];
    /* release: pairs with the handler's acquire load. */
    atomic_store_explicit(&poke_fn, fn, memory_order_release);
    /* release: pairs with the handler's acquire load of the count. Only the
     * backstop's thread pokes. */
    unsigned long mine = atomic_fetch_add_explicit(&c->pokes_sent, 1, memory_order_release) + 1;
    /* Fails only for a thread that is gone, which a core's is not during a
     * run; the poke then stays pending, and the check looks again each
     * period until the run ends. */
    if (pthread_kill(c->thread, HOST_POKE_SIGNAL) != 0)
        return false;
    /* The handler runs when the thread next runs: at most a few time
     * slices on a loaded machine. Its own handler: one that began before
     * it was sent (say, of a poke given up) may have found the core under
     * the private mark and done nothing yet. */
    uint64_t end = hive_port_now_ns() + 20000000u;
    while (!poke_answered(c, mine)) {
        if (hive_port_now_ns() >= end)
            return false;
        sched_yield();
    }
    return true;
}

bool hive_port_poke_pending(unsigned core)
{
    struct host_core *c = &cores[core];
    /* relaxed: only the backstop's thread sends, and this is it. */
    return !poke_answered(c, atomic_load_explicit(&c->pokes_sent, memory_order_relaxed));
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

/* The host's cheapest portable clock is the same one, in nanoseconds. */
uint64_t hive_port_ticks(void) { return hive_port_now_ns(); }
uint64_t hive_port_ticks_hz(void) { return 1000000000u; }

FILE *hive_port_trace_open(void)
{
    const char *path = getenv("HIVE_TRACE_FILE");
    FILE *f = path && *path ? fopen(path, "a") : NULL;
    return f ? f : stdout;
}

void hive_port_trace_close(FILE *f)
{
    if (f != stdout)
        fclose(f);
    else
        fflush(f);
}

/* The deadline of a wait of timeout_ns from now: 0 for none, and none also
 * for one past the clock's range (adding would wrap to a deadline in the
 * past, and every wait would return at once: a busy spin where the caller
 * asked for a long sleep). */
static uint64_t deadline_of(uint64_t timeout_ns, uint64_t now)
{
    return timeout_ns == 0 || timeout_ns > UINT64_MAX - now ? 0 : now + timeout_ns;
}

void hive_port_wait(uint64_t timeout_ns)
{
    struct host_core *c = &cores[this_core];
    uint64_t now = hive_port_now_ns();
    uint64_t deadline = deadline_of(timeout_ns, now);
    /* Phase one: spin (host_spin_over, cores.h). */
    uint64_t spin_end = now + HOST_SPIN_NS;
    if (deadline && deadline < spin_end)
        spin_end = deadline;
    for (unsigned i = 1;; i++) {
        /* relaxed: only a look, so the spin writes nothing; the exchange
         * takes the wake and reads the latest waker's exchange (acquire:
         * what every waker did before its wake is visible after it - the
         * wakes are RMWs, one release sequence). */
        if (atomic_load_explicit(&c->wake_pending, memory_order_relaxed) &&
            atomic_exchange(&c->wake_pending, false))
            return;
        if (host_spin_over(i, spin_end))
            break;
        hive_port_cpu_relax();
    }
    /* Spun out with no wake: from here the core counts as waiting to the
     * backstop (backstop.c), whose held-back checks now run when due - on
     * the CPU this core leaves, if it sleeps. Not while it spins: a check
     * run then took that spinning core's CPU, or a busy one's, for tens of
     * microseconds (a membarrier's interrupts in a virtual machine), while
     * most parks end within the spin - a wake from a core that offers
     * work. Counted on a timeout too, if only for a moment: the thread,
     * once signalled, runs the checks all the same. */
    host_backstop_wait_begin();
    if (deadline && hive_port_now_ns() >= deadline) {
        atomic_fetch_add_explicit(&c->timed_out, 1, memory_order_relaxed);
        host_backstop_wait_end();
        return;
    }
    /* Phase two: sleep, unless a wake came meanwhile (the handshake). */
    pthread_mutex_lock(&c->mu);
    atomic_store(&c->sleeping, true);
    atomic_thread_fence(memory_order_seq_cst); /* pairs with hive_port_wake's */
    if (!deadline) {
        while (!atomic_load(&c->wake_pending))
            pthread_cond_wait(&c->cv, &c->mu);
    } else {
        struct timespec ts = {(time_t)(deadline / 1000000000u), (long)(deadline % 1000000000u)};
        while (!atomic_load(&c->wake_pending))
            if (pthread_cond_timedwait(&c->cv, &c->mu, &ts) == ETIMEDOUT) {
                atomic_fetch_add_explicit(&c->timed_out, 1, memory_order_relaxed);
                break;
            }
    }
    atomic_store(&c->sleeping, false);
    /* An exchange, not a store: it reads the latest wake in the flag's
     * order, so it synchronizes with every wake it takes - one that landed
     * after the loop's load too. A plain store could erase that later wake
     * unread, and what its waker did before it (the end of the run, a
     * claim) need not be visible to the caller's re-check, which would then
     * wait again with the wake gone. */
    (void)atomic_exchange(&c->wake_pending, false);
    pthread_mutex_unlock(&c->mu);
    host_backstop_wait_end();
}

bool hive_host_sleeping(unsigned id)
{
    /* seq_cst, as every access of it (the top); a hint here all the same. */
    return atomic_load(&cores[id].sleeping);
}

unsigned long hive_host_waits_timed_out(unsigned id)
{
    return atomic_load_explicit(&cores[id].timed_out, memory_order_relaxed);
}

void hive_port_wake(unsigned core)
{
    struct host_core *c = &cores[core];
    /* An exchange: wakes are read-modify-writes, so every one continues the
     * release sequence of the first, and the waiter's exchange that takes
     * the flag synchronizes with all of them. A wake that finds the flag
     * set is done: the waker that set it signals (below) if need be. */
    if (atomic_exchange(&c->wake_pending, true))
        return;
    atomic_thread_fence(memory_order_seq_cst); /* pairs with hive_port_wait's */
    /* A core still spinning sees the flag; one that sleeps, or is about to
     * (it holds mu from before its store of `sleeping` until the condition
     * variable releases it), gets the signal. */
    if (atomic_load(&c->sleeping)) {
        pthread_mutex_lock(&c->mu);
        pthread_cond_signal(&c->cv);
        pthread_mutex_unlock(&c->mu);
    }
}

/* The host's one interrupt: the poke's handler (above). */
bool hive_port_in_interrupt(void) { return in_poke != 0; }

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
    unsigned prev = this_core;
    if (ncores > HIVE_HOST_MAX_CORES)
        ncores = HIVE_HOST_MAX_CORES;
    /* The hand-over and the wait order everything the caller did before with
     * what every core does inside fn, and that with what follows (cores.c).
     * A run on core 0 alone is this thread's: no other to hand over to or
     * wait for (the last run's cores were waited for or withdrawn). */
    if (ncores > 1) {
        host_backstop_prepare(); /* before the threads it would cost */
        host_cores_start(ncores, fn, arg);
    }
    watch_start();
    hive_host_bind_core(0);
    /* A program that blocks signals in the thread that runs hive (a
     * signalfd loop, say) would hold core 0's pokes back: unblocked for the
     * rest of the run once core 0 first holds private tasks
     * (hive_port_poke_ready), not for every run - the two system calls were
     * most of an empty run's cost (0.21 -> 0.48 us at one worker, 0.30 ->
     * 0.60 at two). Blocked again after, if it was; nothing else of the
     * thread's mask is touched. */
    run_caller = true;
    fn(arg);
    run_caller = false;
    if (caller_unblocked) {
        caller_unblocked = false;
        if (sigismember(&caller_mask, HOST_POKE_SIGNAL) == 1)
            poke_mask(SIG_BLOCK, NULL);
    }
    if (ncores > 1)
        host_cores_wait();
    host_backstop_drop();
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
