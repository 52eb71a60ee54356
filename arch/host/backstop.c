/*
 * The host port's backstop (hive_port_backstop, sched/port.h): a core's
 * check, called about delay_ns after the core asked for it.
 *
 * A board calls it from the core's own timer interrupt. A host thread cannot
 * be interrupted both cheaply and safely (a signal handler could not take
 * the locks hive_port_wake takes), so one thread of the port's calls every
 * check, and hive_port_backstop_fence is membarrier(PRIVATE_EXPEDITED): the
 * kernel runs a full memory barrier on every thread of the process that is
 * running, and one that is not has passed through a context switch, itself
 * a full barrier. So each core thread has a point - its barrier - before
 * which what it stored is visible to the check's loads that follow, and
 * after which its loads see what the check stored before: what a fence on
 * the core itself would give the check, which is what sched/publish.c's
 * argument needs.
 *
 * Where the kernel lacks membarrier (before Linux 4.14, or a sandbox that
 * refuses it) the fence is a plain one, on this thread only. That covers the
 * pushes a core made a period before the check (every host CPU drains its
 * store buffer in well under a microsecond, though C11 does not promise
 * it), not one made at the same time: the check clears the core's flag,
 * fences and finds the ring empty while the push still sits in the core's
 * store buffer and its unfenced load still reads the flag set - neither
 * side arms another check. So without membarrier every check asks again,
 * whatever it found: the next period's check sees that push, a period old.
 * (The price, only there: a wake-up of this thread per period while a core
 * waits.)
 *
 * The registration that membarrier needs is done once, before the first
 * run of more than one core starts its threads (host_backstop_prepare): in
 * a process with several threads the kernel waits a whole RCU grace period
 * for it (12-24 ms measured here), which a first push's notify would
 * otherwise spend in the middle of a task.
 *
 * A check waits while no core thread sleeps in hive_port_wait or polls
 * (hive_port_poll_begin: sched/port.h allows it): a check acts only on a
 * parked core or on a waiter's ask - a waiter that can sleep sleeps only
 * there, and one that cannot polls (it counts as one that sleeps, below).
 * While every core is busy the check would only look at the idle state and
 * ask again, a wake-up of this thread per period and pushing core - a
 * context switch on a machine whose CPUs the workers fill (2% of UTS at 2
 * workers here). So a pending check is held (`held_back`): the thread does
 * not even time it, and a core that asks for one does not wake the thread
 * to tell it; the first core to sleep or to poll (host_backstop_wait_begin)
 * signals the thread, which from then runs the check when it is due (at
 * once if it is already), whether or not that core still waits by then. A
 * core that parks counts only once its spin is over (port.c): about to
 * sleep, or with its park's timeout passed. Signalled as it began to spin,
 * the thread took the CPU of that core or of a busy one, while most parks
 * end within the spin, at a wake from the core that offers the work.
 * (N-Queens at 2 workers on a 2-CPU host, 4 ms a run: the thread ran 3-4
 * times a run, for 3-60 us each - a membarrier's interrupts in a virtual
 * machine - and core 0's thread was switched out as often; held until a
 * core sleeps, the thread ran about once in 10 runs, and the runs took
 * 2.5% less time.)
 *
 * The handshake is Dekker's: the thread (or a core asking for a check)
 * sets held_back then reads `waiters`, a core adds itself to `waiters` then
 * reads held_back, a seq_cst fence between each store and load. Both set
 * held_back under the mutex, and the core takes it to signal: the thread
 * holds it from its store until its condition wait releases it, and is,
 * when a core asking for a check holds it, in a wait already or about to
 * look at everything again (after a pass of checks, which it makes
 * unlocked), so no signal comes too early to wake it or too late to count.
 *
 * The thread is created at the first call and kept, like the core threads
 * (cores.c): a run that never asks for a check costs nothing, and one that
 * does costs a mutex and a condition variable signal per check, not a
 * thread. host_backstop_drop, at the end of every hive_port_run_on_cores,
 * drops what is pending and waits for a check in progress, so none runs
 * between runs (after a run that asked for none, it does nothing). fork(): as in cores.c, the child starts with no thread.
 */
#define _GNU_SOURCE
#include "arch/host/backstop.h"

#include <linux/membarrier.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include "arch/host/host.h"
#include "sched/port.h"

#define NONE UINT64_MAX

static struct {
    pthread_mutex_t mu;
    pthread_cond_t wake;  /* the thread: an earlier deadline than it waits for */
    pthread_cond_t quiet; /* host_backstop_drop: the thread left its checks */
    uint64_t due[HIVE_HOST_MAX_CORES];
    uint64_t delay[HIVE_HOST_MAX_CORES]; /* core i's period, for a check that asks again */
    unsigned cores;       /* due[cores..] are all NONE */
    uint64_t next;        /* the earliest due, what the thread sleeps until */
    bool (*check)(unsigned core);
    bool checking;        /* the thread is calling checks, unlocked */
    bool held;            /* hive_host_backstop_hold */
    bool started;
    bool asked;           /* a check was asked for since the last drop */
    bool membarrier;      /* registered: MEMBARRIER_CMD_PRIVATE_EXPEDITED works */
    /* The handshake at the top. seq_cst, both, with the fences. */
    _Atomic bool held_back; /* a pending check waits for a core to wait; set under mu */
    _Atomic unsigned waiters; /* core threads past their spin in hive_port_wait, or polling */
} backstop = {.mu = PTHREAD_MUTEX_INITIALIZER};

static pthread_once_t backstop_once = PTHREAD_ONCE_INIT;

static void conds_init(void)
{
    pthread_condattr_t ca;
    pthread_condattr_init(&ca);
    pthread_condattr_setclock(&ca, CLOCK_MONOTONIC);
    pthread_cond_init(&backstop.wake, &ca);
    pthread_condattr_destroy(&ca);
    pthread_cond_init(&backstop.quiet, NULL);
}

static void before_fork(void) { pthread_mutex_lock(&backstop.mu); }
static void after_fork_parent(void) { pthread_mutex_unlock(&backstop.mu); }

static void after_fork_child(void)
{
    /* The thread is the parent's. Fresh locks, nothing pending. */
    pthread_mutex_init(&backstop.mu, NULL);
    conds_init();
    for (unsigned i = 0; i < backstop.cores; i++)
        backstop.due[i] = NONE;
    backstop.cores = 0;
    backstop.next = NONE;
    backstop.checking = false;
    backstop.held = false;
    backstop.started = false;
    backstop.asked = false;
    atomic_store(&backstop.held_back, false);
    atomic_store(&backstop.waiters, 0); /* the child's one thread waits in no park */
}

static void once_init(void)
{
    conds_init();
    for (unsigned i = 0; i < HIVE_HOST_MAX_CORES; i++)
        backstop.due[i] = NONE;
    backstop.next = NONE;
    backstop.membarrier =
        syscall(SYS_membarrier, MEMBARRIER_CMD_REGISTER_PRIVATE_EXPEDITED, 0, 0) == 0;
    if (pthread_atfork(before_fork, after_fork_parent, after_fork_child) != 0)
        abort();
}

void hive_port_backstop_fence(void)
{
    if (backstop.membarrier)
        syscall(SYS_membarrier, MEMBARRIER_CMD_PRIVATE_EXPEDITED, 0, 0);
    /* The C11 side of it, for this thread's own accesses (and all there is
     * without membarrier). */
    atomic_thread_fence(memory_order_seq_cst);
}

/* Under mu. Is a core waiting? If not, the pending checks stay held back,
 * and the first core to wait signals (the handshake at the top: our store, a
 * fence, our load of `waiters`): true, and the caller leaves the thread
 * asleep. If one waits, nothing is held back: false. */
static bool hold_back_unless_waiting(void)
{
    atomic_store(&backstop.held_back, true);
    atomic_thread_fence(memory_order_seq_cst); /* pairs with host_backstop_wait_begin's */
    if (atomic_load(&backstop.waiters) == 0)
        return true;
    atomic_store(&backstop.held_back, false);
    return false;
}

/* Under mu: wait for a signal, and say whether it released the pending
 * checks - held_back clear: a core that began to wait cleared it, or an arm
 * that found one waiting did (or a drop, which left nothing pending); a
 * spurious return or another change leaves it as it was. Clears it: the
 * thread's next look (hold_back_unless_waiting) sets it again if need be. */
static bool wait_released(void)
{
    pthread_cond_wait(&backstop.wake, &backstop.mu);
    bool released = !atomic_load(&backstop.held_back);
    atomic_store(&backstop.held_back, false);
    return released;
}

static void *backstop_thread(void *unused)
{
    (void)unused;
    unsigned due_cores[HIVE_HOST_MAX_CORES];
    pthread_mutex_lock(&backstop.mu);
    /* A core has waited since the pending checks were last held back: they
     * run when due, whether or not that core still waits then (a park with
     * a short timeout counts for a moment only; looking again for a waiter
     * once it had signalled would hold its checks back for good). */
    bool released = false;
    for (;;) {
        if (backstop.next == NONE || backstop.held) {
            /* A check asked for meanwhile stored held_back, and a core that
             * waited since cleared it: released, as after the wait below. */
            released = wait_released() && backstop.next != NONE && !backstop.held;
            continue;
        }
        if (!released) {
            /* Pending, and no core has waited since: held back until one
             * does (the top), due or not - not even timed meanwhile. */
            if (hold_back_unless_waiting()) {
                released = wait_released();
                continue;
            }
            released = true;
        }
        uint64_t now = hive_port_now_ns();
        if (now < backstop.next) {
            struct timespec ts = {(time_t)(backstop.next / 1000000000u),
                                  (long)(backstop.next % 1000000000u)};
            pthread_cond_timedwait(&backstop.wake, &backstop.mu, &ts);
            continue; /* due, an earlier one, a drop, or a spurious return */
        }
        /* Due, and released: run it (a check may run at any time; holding
         * it back only spares this thread's wake-ups while every core is
         * busy). What it asks again for is held back again. */
        released = false;
        unsigned n = 0;
        uint64_t next = NONE;
        for (unsigned i = 0; i < backstop.cores; i++) {
            if (backstop.due[i] <= now) {
                backstop.due[i] = NONE;
                due_cores[n++] = i;
            } else if (backstop.due[i] < next) {
                next = backstop.due[i];
            }
        }
        backstop.next = next;
        bool (*check)(unsigned) = backstop.check;
        backstop.checking = true;
        pthread_mutex_unlock(&backstop.mu);
        unsigned again = 0;
        for (unsigned k = 0; k < n; k++)
            if (check(due_cores[k]) || !backstop.membarrier) /* the top */
                due_cores[again++] = due_cores[k];
        pthread_mutex_lock(&backstop.mu);
        backstop.checking = false;
        /* Asked again, unless the run ended meanwhile (host_backstop_drop
         * cleared cores: it waits for this pass, and nothing of it may
         * outlive the run). */
        now = hive_port_now_ns();
        for (unsigned k = 0; k < again; k++) {
            unsigned c = due_cores[k];
            if (c >= backstop.cores || backstop.due[c] != NONE)
                continue;
            backstop.due[c] = now + backstop.delay[c];
            if (backstop.due[c] < backstop.next)
                backstop.next = backstop.due[c];
        }
        pthread_cond_broadcast(&backstop.quiet);
    }
    return NULL;
}

void host_backstop_prepare(void)
{
    pthread_once(&backstop_once, once_init);
}

void hive_port_backstop(uint64_t delay_ns, bool (*check)(unsigned core))
{
    unsigned core = hive_port_core_id();
    if (core >= HIVE_HOST_MAX_CORES)
        hive_port_panic("hive_port_backstop: not a core");
    pthread_once(&backstop_once, once_init);
    uint64_t now = hive_port_now_ns();
    /* Both kept below NONE, so a deadline and a re-arm never mean "none". */
    if (delay_ns > UINT64_MAX / 4)
        delay_ns = UINT64_MAX / 4;
    uint64_t due = now + delay_ns;
    pthread_mutex_lock(&backstop.mu);
    backstop.asked = true;
    if (!backstop.started) {
        pthread_t t;
        pthread_attr_t attr;
        if (pthread_attr_init(&attr) != 0)
            abort();
        pthread_attr_setdetachstate(&attr, PTHREAD_CREATE_DETACHED);
        if (pthread_create(&t, &attr, backstop_thread, NULL) != 0)
            abort();
        pthread_attr_destroy(&attr);
        backstop.started = true;
    }
    if (backstop.due[core] == NONE) {
        backstop.due[core] = due;
        backstop.delay[core] = delay_ns;
        backstop.check = check;
        if (core >= backstop.cores)
            backstop.cores = core + 1;
        if (due < backstop.next) {
            backstop.next = due;
            /* The thread times it only once a core has waited (the top): if
             * none waits now, the first that does will signal it. */
            if (!hold_back_unless_waiting())
                pthread_cond_signal(&backstop.wake);
        }
    }
    pthread_mutex_unlock(&backstop.mu);
}

void host_backstop_wait_begin(void)
{
    atomic_fetch_add(&backstop.waiters, 1);
    atomic_thread_fence(memory_order_seq_cst); /* pairs with the thread's */
    if (!atomic_load(&backstop.held_back))
        return;
    /* The thread holds mu until its condition wait releases it. */
    pthread_mutex_lock(&backstop.mu);
    atomic_store(&backstop.held_back, false);
    pthread_cond_signal(&backstop.wake);
    pthread_mutex_unlock(&backstop.mu);
}

void host_backstop_wait_end(void)
{
    atomic_fetch_sub(&backstop.waiters, 1);
}

void hive_host_backstop_hold(bool hold)
{
    pthread_once(&backstop_once, once_init);
    pthread_mutex_lock(&backstop.mu);
    backstop.held = hold;
    pthread_cond_signal(&backstop.wake);
    /* Held from our return on: a pass that began before waits out, as in
     * host_backstop_drop. */
    while (hold && backstop.checking)
        pthread_cond_wait(&backstop.quiet, &backstop.mu);
    pthread_mutex_unlock(&backstop.mu);
}

void host_backstop_drop(void)
{
    /* A run that asked for no check has nothing pending and none in
     * progress (the last drop waited for those): nothing to take, not even
     * the lock. Unlocked: set under the lock by a core thread that
     * host_cores_wait has waited for (its mutex orders that set before this
     * read), or by this thread; the backstop thread only re-arms cores that
     * asked. */
    if (!backstop.asked)
        return;
    pthread_mutex_lock(&backstop.mu);
    backstop.asked = false;
    for (unsigned i = 0; i < backstop.cores; i++)
        backstop.due[i] = NONE;
    backstop.cores = 0;
    backstop.next = NONE;
    atomic_store(&backstop.held_back, false); /* nothing is due any more */
    while (backstop.checking)
        pthread_cond_wait(&backstop.quiet, &backstop.mu);
    pthread_mutex_unlock(&backstop.mu);
}
