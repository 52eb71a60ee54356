/*
 * The watchdog (hive_config.watchdog_ns): a core that has been inside one
 * task for longer than the limit, or a run in which nothing has run or
 * finished for that long, stops the system with a panic line saying which.
 * A stuck task cannot be taken off its core (there is no preemption, and its
 * stack holds whatever it was doing), so the report is the end: a panic, on
 * the host port as on the boards.
 *
 * What a core is doing. Each worker has a record that it alone writes:
 *   since     when it last entered task code; 0 while it is in the scheduler
 *             (looking for work, parked, or inside a join or group wait);
 *             HIVE_WATCH_FOREVER once its task said it never returns
 *             (hive_task_runs_forever);
 *   fn        the address of that task's function (the caller's function,
 *             not the scheduler's wrapper: see run_task.c);
 *   finished  tasks it has finished in this run.
 * Every return to the scheduler is a scheduling point: a wait, and a task
 * run nested inside the task (a join taking back group tasks, a group spawn
 * that ran its task inline). When task code resumes after one, its time
 * starts again. So a task that waits while long work is done elsewhere is
 * not stuck - the core doing that work is, if that work is one task.
 *
 * Who looks. The port calls hive_watchdog_check about every quarter of the
 * limit, from somewhere that runs even while every worker is inside a task
 * that never returns (hive_port_watch: the timer interrupt of every worker
 * core on the boards, a thread of its own on the host). Every check looks at
 * every core, so a core spinning with interrupts masked is found by the
 * others; the report comes between limit and limit + a period after the task
 * began. The first check to find something reports; another that finds
 * something at the same moment stays quiet (`reported`), as the system is
 * stopping.
 *
 * Stalls. A run stalls when for the whole limit no core runs a task, none
 * finishes one, and still the run counts tasks as outstanding beyond those
 * waiting for a timer (hive_scheduler.deferred: hive_after's pending tasks,
 * spawn.c) and an open run's hold: a lost wake-up, or a wait whose work
 * will never finish - also while some timer is pending, which once turned
 * the check off. Whoever takes a count off or queues a deferred task
 * lowers `deferred` only after, and hive_stop counts itself as deferred
 * from before it clears `open` until the hold is given back: a caller held
 * up between the two (a preempted thread) never looks like a stall. Which
 * check looks at that is decided by `progress_busy`; the one that holds it
 * keeps the sum of `finished` and since when it has not changed. A core
 * running a task that said it runs forever keeps the run alive by design:
 * no stall is reported while one does.
 *
 * Reading a record, ordering. A record changes as (since = 0; fn; since = t):
 * the owner stores 0 (relaxed), then fn (release), then the new since
 * (release). A check loads since (acquire: pairs with since's release store,
 * so the fn stored before it is visible), then fn (relaxed), then an acquire
 * fence, then since again (relaxed). If the fn it read is a later task's,
 * the fence pairs with that fn's release store, which came after a store of
 * 0 to since, so the second load cannot return the first one's value: the
 * check sees that the core moved on, and skips it (it is not stuck). Equal
 * loads mean fn belongs to that since. `finished` is owner-written and
 * summed with relaxed loads: only whether the sum changed matters.
 */
#include <inttypes.h>
#include <stdio.h>

#include "sched/sched_internal.h"

struct watch_record {
    _Alignas(HIVE_CACHE_LINE) _Atomic uint64_t since;
    _Atomic uintptr_t fn;
    _Atomic uint64_t finished;
};

static struct watch_record records[HIVE_SCHED_MAX_CORES];

static atomic_flag reported = ATOMIC_FLAG_INIT;
static atomic_flag progress_busy = ATOMIC_FLAG_INIT;
/* Under progress_busy. */
static uint64_t progress_finished, progress_since;

/* The owner's own record, read back: only it writes the record. */
static struct hive_watch_mark own(unsigned core)
{
    struct watch_record *r = &records[core];
    /* relaxed (both): the owner reads its own stores. */
    return (struct hive_watch_mark){atomic_load_explicit(&r->since, memory_order_relaxed),
                                    atomic_load_explicit(&r->fn, memory_order_relaxed)};
}

static void set(unsigned core, uint64_t since, uintptr_t fn)
{
    struct watch_record *r = &records[core];
    /* The order a check relies on (see the top): 0, then fn, then since. */
    atomic_store_explicit(&r->since, 0, memory_order_relaxed);
    atomic_store_explicit(&r->fn, fn, memory_order_release);
    atomic_store_explicit(&r->since, since, memory_order_release);
}

/* Now, as a since: never 0, which means "in the scheduler". */
static uint64_t now_since(void)
{
    uint64_t now = hive_port_now_ns();
    return now && now != HIVE_WATCH_FOREVER ? now : 1;
}

/* What task code resumes with after a scheduling point: its time starts
 * again, unless it runs forever (or there was no task: the scheduler). */
static uint64_t resumed(uint64_t since)
{
    return since == 0 || since == HIVE_WATCH_FOREVER ? since : now_since();
}

void hive_watchdog_setup(unsigned workers, uint64_t now)
{
    for (unsigned i = 0; i < workers; i++) {
        /* relaxed: published with the run (hive_run's seq_cst store of
         * RUNNING, and the port starting its cores and its checks). */
        atomic_store_explicit(&records[i].since, 0, memory_order_relaxed);
        atomic_store_explicit(&records[i].fn, 0, memory_order_relaxed);
        atomic_store_explicit(&records[i].finished, 0, memory_order_relaxed);
    }
    progress_finished = 0;
    progress_since = now;
}

struct hive_watch_mark hive_watch_enter(unsigned core, uintptr_t fn)
{
    struct hive_watch_mark prior = own(core);
    set(core, now_since(), fn);
    return prior;
}

void hive_watch_leave(unsigned core, struct hive_watch_mark prior)
{
    struct watch_record *r = &records[core];
    /* relaxed: owner-written; a check only wants to see it change. */
    atomic_store_explicit(&r->finished,
                          atomic_load_explicit(&r->finished, memory_order_relaxed) + 1,
                          memory_order_relaxed);
    if (prior.since)
        set(core, resumed(prior.since), prior.fn); /* a nested run: back to its task */
    else
        atomic_store_explicit(&r->since, 0, memory_order_relaxed); /* see the top */
}

struct hive_watch_mark hive_watch_suspend(unsigned core)
{
    struct hive_watch_mark mark = own(core);
    /* relaxed: a store of 0 needs no order (see the top). */
    atomic_store_explicit(&records[core].since, 0, memory_order_relaxed);
    return mark;
}

void hive_watch_resume(unsigned core, struct hive_watch_mark mark)
{
    if (mark.since)
        set(core, resumed(mark.since), mark.fn);
}

void hive_watch_restart(unsigned core)
{
    hive_watch_resume(core, hive_watch_suspend(core));
}

int hive_task_runs_forever(void)
{
    struct hive_worker *w = hive_self();
    if (!w)
        return HIVE_ESTATE;
    if (w->watch)
        set(w->id, HIVE_WATCH_FOREVER, own(w->id).fn);
    return HIVE_OK;
}

static uint64_t ms(uint64_t ns)
{
    return ns / 1000000u;
}

/* "; seen by core N" when another core found the fault; nothing when the
 * faulty core found it itself, or from outside the cores (the host's thread). */
static void seen_by(char *buf, size_t size, unsigned core)
{
    unsigned self = hive_port_core_id();
    if (self == HIVE_PORT_NOT_A_CORE || self == core)
        buf[0] = '\0';
    else
        snprintf(buf, size, "; seen by core %u", self);
}

static void report_stuck(unsigned core, uintptr_t fn, uint64_t ran_ns, uint64_t limit)
{
    if (atomic_flag_test_and_set(&reported))
        return; /* another check is reporting; the system is stopping */
    char by[32], msg[200];
    seen_by(by, sizeof by, core);
    snprintf(msg, sizeof msg,
             "task 0x%" PRIxPTR " has run for %" PRIu64 " ms (watchdog limit %" PRIu64 " ms)%s",
             fn, ms(ran_ns), ms(limit), by);
    hive_port_panic_core(core, msg);
}

static void report_stall(uint64_t still_ns, uint64_t limit)
{
    if (atomic_flag_test_and_set(&reported))
        return;
    char by[32], msg[300];
    seen_by(by, sizeof by, 0);
    /* relaxed: a figure for the report. */
    unsigned long outstanding =
        atomic_load_explicit(&hive_scheduler.outstanding, memory_order_relaxed);
    unsigned long deferred = atomic_load_explicit(&hive_scheduler.deferred, memory_order_relaxed);
    snprintf(msg, sizeof msg,
             "run stalled: no task has run or finished on any core for %" PRIu64
             " ms (watchdog limit %" PRIu64 " ms) while %lu counted tasks are outstanding"
             " (or held as credits by awake cores), %lu of them waiting for timers:"
             " a lost wake-up, or a wait whose work never ends%s",
             ms(still_ns), ms(limit), outstanding, deferred, by);
    /* The run is the boot core's: it called hive_run and waits for it. */
    hive_port_panic_core(0, msg);
}

/* The stall check, by one check at a time. */
static void check_progress(uint64_t now, uint64_t limit, bool running, uint64_t finished)
{
    /* acquire/release: pair with each other, so each holder sees the last
     * holder's progress_finished and progress_since. */
    if (atomic_flag_test_and_set_explicit(&progress_busy, memory_order_acquire))
        return;
    /* relaxed, both: a pending timer or an outstanding task must be there
     * for a whole limit, over several checks, before they matter. */
    unsigned long deferred = atomic_load_explicit(&hive_scheduler.deferred, memory_order_relaxed);
    /* An open run's hold is no work: an open run with nothing else to do is
     * idle, waiting for its events, not stalled. */
    unsigned long hold = atomic_load_explicit(&hive_scheduler.open, memory_order_relaxed) ? 1 : 0;
    bool has_work = atomic_load_explicit(&hive_scheduler.outstanding, memory_order_relaxed) > hold + deferred;
    if (running || !has_work || finished != progress_finished) {
        progress_finished = finished;
        if (now > progress_since)
            progress_since = now;
    } else if (now > progress_since && now - progress_since >= limit &&
               hive_run_done() == false) {
        report_stall(now - progress_since, limit);
    }
    atomic_flag_clear_explicit(&progress_busy, memory_order_release);
}

void hive_watchdog_check(void)
{
    /* acquire: pairs with hive_run's seq_cst store of RUNNING; the limit,
     * the worker count and the reset records are visible. The port calls
     * this only while hive_port_run_on_cores runs, so they stay put. */
    if (atomic_load_explicit(&hive_scheduler.phase, memory_order_acquire) != HIVE_PHASE_RUNNING)
        return;
    uint64_t limit = hive_scheduler.watchdog_ns;
    if (!limit)
        return;
    uint64_t now = hive_port_now_ns();
    bool running = false;
    uint64_t finished = 0;
    for (unsigned i = 0; i < hive_scheduler.workers; i++) {
        struct watch_record *r = &records[i];
        /* Ordering: see the top. */
        uint64_t since = atomic_load_explicit(&r->since, memory_order_acquire);
        finished += atomic_load_explicit(&r->finished, memory_order_relaxed);
        if (since == 0)
            continue;
        running = true;
        if (since == HIVE_WATCH_FOREVER || now <= since || now - since < limit)
            continue;
        uintptr_t fn = atomic_load_explicit(&r->fn, memory_order_relaxed);
        atomic_thread_fence(memory_order_acquire);
        if (atomic_load_explicit(&r->since, memory_order_relaxed) != since)
            continue; /* it moved on */
        report_stuck(i, fn, now - since, limit);
    }
    check_progress(now, limit, running, finished);
}
