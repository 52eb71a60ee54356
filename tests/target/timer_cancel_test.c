/*
 * Cancelling timers (hive_after_cancel, hive_after_irq_cancel) and deadlines
 * beyond any run: a cancelled timer never fires and gives its pool slot back;
 * a cancelled hive_after leaves its task idle and no longer holds its run
 * open - a run whose only work was a never-firing hive_after ends once that
 * is cancelled - unless a hive_spawn of the task was refused meanwhile: then
 * the task is queued instead; a timer that has fired, or a task queued by
 * hive_spawn, is not pending and is left alone.
 *
 * Where a cancel must win against a deadline, the core that set the timer
 * keeps interrupts masked until the cancel is done, so a slow host cannot
 * let the timer fire first. Where a test must see that a cancelled timer did
 * not fire, it waits for a sentinel timer set on the same core with a later
 * deadline (timers of one core fire in deadline order), so a slow host cannot
 * make it look too early either.
 */
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>

#include "harness.h"
#include "hive/hive.h"
#include "kernel/kernel.h"
#include "sched/port.h"

int main(void) { return hive_test_main(); }

#define MS(n) ((uint64_t)(n) * 1000000u)

static void spin_ns(uint64_t ns)
{
    uint64_t end = hive_now_ns() + ns;
    while (hive_now_ns() < end)
        hive_port_cpu_relax();
}

/* A case that waits on the scheduler fails with a panic, not a hang. */
static void deadline_passed(void *what)
{
    hive_panic("%s: deadline passed", (const char *)what);
}

static void watchdog_arm(const char *what)
{
    if (hive_after_irq(MS(10000), deadline_passed, (void *)what) != HIVE_OK)
        hive_panic("%s: could not arm the watchdog", what);
}

static void watchdog_disarm(const char *what)
{
    /* Cancelled, not left queued: this is a cancel test too. */
    CHECK_EQ(hive_after_irq_cancel(deadline_passed, (void *)what), HIVE_OK);
}

/* ---- hive_after_irq ---- */

static atomic_uint fired[4];

static void on_fire(void *arg)
{
    atomic_fetch_add(&fired[(uintptr_t)arg], 1);
}

static void reset_fired(void)
{
    for (unsigned i = 0; i < 4; i++)
        atomic_store(&fired[i], 0);
}

/* Until timer i has fired (bounded: a timer that never comes is a failure
 * of the case, not a hang). */
static void wait_fired(uintptr_t i)
{
    uint64_t end = hive_now_ns() + MS(10000);
    while (!atomic_load(&fired[i]) && hive_now_ns() < end)
        hive_port_cpu_relax();
    CHECK_EQ(atomic_load(&fired[i]), 1);
}

HIVE_TEST(irq_timer_cancelled_never_fires)
{
    reset_fired();
    unsigned long irq = hive_port_irq_save();
    for (uintptr_t i = 0; i < 3; i++)
        CHECK_EQ(hive_after_irq(MS(1), on_fire, (void *)i), HIVE_OK);
    CHECK_EQ(hive_after_irq_cancel(on_fire, (void *)1), HIVE_OK);
    CHECK_EQ(hive_after_irq_cancel(on_fire, (void *)1), HIVE_ESTATE);
    CHECK_EQ(hive_after_irq_cancel(on_fire, (void *)3), HIVE_ESTATE);   /* never set */
    CHECK_EQ(hive_after_irq_cancel(NULL, NULL), HIVE_EINVAL);
    hive_port_irq_restore(irq);
    wait_fired(2);      /* set after 1, due no earlier: 1 would have fired */
    CHECK_EQ(atomic_load(&fired[0]), 1);
    CHECK_EQ(atomic_load(&fired[1]), 0);
    /* Fired: not pending any more. */
    CHECK_EQ(hive_after_irq_cancel(on_fire, (void *)0), HIVE_ESTATE);
}

HIVE_TEST(irq_cancel_takes_the_one_due_first)
{
    reset_fired();
    unsigned long irq = hive_port_irq_save();
    CHECK_EQ(hive_after_irq(UINT64_MAX, on_fire, (void *)0), HIVE_OK);
    CHECK_EQ(hive_after_irq(MS(1), on_fire, (void *)0), HIVE_OK);
    CHECK_EQ(hive_after_irq_cancel(on_fire, (void *)0), HIVE_OK);   /* the 1 ms one */
    CHECK_EQ(hive_after_irq(MS(1), on_fire, (void *)1), HIVE_OK);   /* sentinel */
    hive_port_irq_restore(irq);
    wait_fired(1);
    CHECK_EQ(atomic_load(&fired[0]), 0);
    CHECK_EQ(hive_after_irq_cancel(on_fire, (void *)0), HIVE_OK);   /* the never one */
    CHECK_EQ(hive_after_irq_cancel(on_fire, (void *)0), HIVE_ESTATE);
}

/* Deadlines past 64 bits of ns saturate to never: they do not wrap into the
 * past (and fire at once); they hold their slot until cancelled. */
static unsigned slots[HIVE_TIMERS_PER_CORE];
static atomic_uint never_fired;

static void on_never(void *arg)
{
    (void)arg;
    atomic_fetch_add(&never_fired, 1);
}

HIVE_TEST(never_timers_give_their_pool_back_when_cancelled)
{
    reset_fired();
    unsigned set = 0;
    while (set < HIVE_TIMERS_PER_CORE &&
           hive_after_irq(UINT64_MAX - set, on_never, &slots[set]) == HIVE_OK)
        set++;
    CHECK_EQ(set, HIVE_TIMERS_PER_CORE);
    CHECK_EQ(hive_after_irq(1, on_fire, (void *)2), HIVE_ENOMEM);
    spin_ns(MS(5));     /* a deadline that wrapped into the past would fire now */
    for (unsigned i = 0; i < set; i++)
        CHECK_EQ(hive_after_irq_cancel(on_never, &slots[i]), HIVE_OK);
    CHECK_EQ(hive_after_irq_cancel(on_never, &slots[0]), HIVE_ESTATE);
    CHECK_EQ(atomic_load(&never_fired), 0);
    /* The pool is whole again. */
    CHECK_EQ(hive_after_irq(1, on_fire, (void *)2), HIVE_OK);
    wait_fired(2);
    for (unsigned i = 0; i < 4; i++)
        CHECK_EQ(atomic_load(&fired[i]), i == 2);
    printf("%u never-firing timers filled the pool; cancelled, the pool took a timer again\n", set);
}

/* hive_after's refusals through the public call: a NULL task or fn, and a
 * full pool, which must leave the task idle - a claim not given back would
 * make the next hive_after of it HIVE_EBUSY for ever. */
static struct hive_task refused_task;

static void refused_fn(struct hive_task *t) { (void)t; }

HIVE_TEST(after_refused_leaves_the_task_idle)
{
    CHECK_EQ(hive_after(1, NULL, refused_fn), HIVE_EINVAL);
    CHECK_EQ(hive_after(1, &refused_task, NULL), HIVE_EINVAL);
    unsigned set = 0;
    while (set < HIVE_TIMERS_PER_CORE &&
           hive_after_irq(UINT64_MAX - set, on_never, &slots[set]) == HIVE_OK)
        set++;
    CHECK_EQ(set, HIVE_TIMERS_PER_CORE);
    CHECK_EQ(hive_after(1, &refused_task, refused_fn), HIVE_ENOMEM);
    CHECK_EQ(hive_after_cancel(&refused_task), HIVE_ESTATE); /* nothing pending */
    for (unsigned i = 0; i < set; i++)
        CHECK_EQ(hive_after_irq_cancel(on_never, &slots[i]), HIVE_OK);
    /* Idle: it may be set again, and cancelled (outside a run, so it never
     * runs and no run waits for it). */
    CHECK_EQ(hive_after(UINT64_MAX, &refused_task, refused_fn), HIVE_OK);
    CHECK_EQ(hive_after_cancel(&refused_task), HIVE_OK);
}

/* The highest core sets a timer and keeps interrupts masked until core 0
 * (itself, on one core) has cancelled it; then it sets a sentinel due later
 * and waits for it. */
static atomic_uint remote_set, remote_cancelled;
static atomic_int remote_err;

static void cancel_across_cores(void *arg)
{
    (void)arg;
    unsigned id = hive_cpu_id(), last = hive_cpu_count() - 1;
    unsigned long irq = 0;
    if (id == last) {
        irq = hive_port_irq_save();
        CHECK_EQ(hive_after_irq(MS(1), on_fire, (void *)3), HIVE_OK);
        atomic_store(&remote_set, 1);
    }
    if (id == 0) {
        while (!atomic_load(&remote_set))
            hive_port_cpu_relax();
        atomic_store(&remote_err, hive_after_irq_cancel(on_fire, (void *)3));
        atomic_store(&remote_cancelled, 1);
    }
    if (id == last) {
        while (!atomic_load(&remote_cancelled))
            hive_port_cpu_relax();
        CHECK_EQ(hive_after_irq(MS(1), on_fire, (void *)2), HIVE_OK);
        hive_port_irq_restore(irq);
        wait_fired(2);
    }
}

HIVE_TEST(irq_timer_cancelled_from_another_core)
{
    reset_fired();
    hive_smp_call_all(cancel_across_cores, NULL);
    CHECK_EQ(atomic_load(&remote_err), HIVE_OK);
    CHECK_EQ(atomic_load(&fired[3]), 0);
}

/* ---- hive_after ---- */

static struct hive_task task;
static atomic_uint never_ran, ran;
static atomic_int cancel_err;

static void never_fn(struct hive_task *t)
{
    (void)t;
    atomic_fetch_add(&never_ran, 1);
}

static void ran_fn(struct hive_task *t)
{
    (void)t;
    atomic_fetch_add(&ran, 1);
}

static void nothing(void *arg)
{
    (void)arg;
}

static void cancel_task_from_irq(void *arg)
{
    (void)arg;
    atomic_store(&cancel_err, hive_after_cancel(&task));
}

/* The run's only work left is a hive_after that never fires: the run waits
 * for it, every core parked, until an interrupt cancels it. */
static void entry_with_a_never_timer(void *arg)
{
    (void)arg;
    CHECK_EQ(hive_after(UINT64_MAX, &task, never_fn), HIVE_OK);
    /* Refused, and no promise of a run: the cancel below leaves it idle. */
    CHECK_EQ(hive_after(1, &task, never_fn), HIVE_EBUSY);
    CHECK_EQ(hive_after_irq(MS(2), cancel_task_from_irq, NULL), HIVE_OK);
}

HIVE_TEST(cancelled_after_ends_its_run)
{
    atomic_store(&cancel_err, 1);
    watchdog_arm("cancelled_after_ends_its_run");
    CHECK_EQ(hive_run(entry_with_a_never_timer, NULL, NULL), HIVE_OK);
    watchdog_disarm("cancelled_after_ends_its_run");
    CHECK_EQ(atomic_load(&cancel_err), HIVE_OK);
    CHECK_EQ(atomic_load(&never_ran), 0);
    CHECK_EQ(hive_after_cancel(&task), HIVE_ESTATE);
    CHECK_EQ(hive_after_cancel(NULL), HIVE_EINVAL);
    /* Idle again: it can be spawned, and runs in the next run. */
    atomic_store(&ran, 0);
    CHECK_EQ(hive_spawn(&task, ran_fn), HIVE_OK);
    CHECK_EQ(hive_run(nothing, NULL, NULL), HIVE_OK);
    CHECK_EQ(atomic_load(&ran), 1);
}

HIVE_TEST(after_cancelled_between_runs_is_not_waited_for)
{
    atomic_store(&never_ran, 0);
    CHECK_EQ(hive_after(MS(60000), &task, never_fn), HIVE_OK);
    CHECK_EQ(hive_after_cancel(&task), HIVE_OK);
    /* Had the cancel kept the count, this run would never end (the timer is
     * gone): the watchdog's panic after 10 s says so. */
    watchdog_arm("after_cancelled_between_runs_is_not_waited_for");
    CHECK_EQ(hive_run(nothing, NULL, NULL), HIVE_OK);
    watchdog_disarm("after_cancelled_between_runs_is_not_waited_for");
    CHECK_EQ(atomic_load(&never_ran), 0);
}

HIVE_TEST(fired_after_and_spawned_task_are_not_cancelled)
{
    atomic_store(&ran, 0);
    /* Fired: the task has run, nothing is pending. */
    CHECK_EQ(hive_after(MS(1), &task, ran_fn), HIVE_OK);
    watchdog_arm("fired_after_and_spawned_task_are_not_cancelled");
    CHECK_EQ(hive_run(nothing, NULL, NULL), HIVE_OK);
    CHECK_EQ(atomic_load(&ran), 1);
    CHECK_EQ(hive_after_cancel(&task), HIVE_ESTATE);
    /* Queued by hive_spawn: not a timer; the cancel leaves it queued. */
    CHECK_EQ(hive_spawn(&task, ran_fn), HIVE_OK);
    CHECK_EQ(hive_after_cancel(&task), HIVE_ESTATE);
    CHECK_EQ(hive_run(nothing, NULL, NULL), HIVE_OK);
    watchdog_disarm("fired_after_and_spawned_task_are_not_cancelled");
    CHECK_EQ(atomic_load(&ran), 2);
}

/* A hive_spawn refused while a hive_after is pending was promised a run: a
 * cancel then queues the task at once instead of dropping that run, and
 * says so. One run however many were refused (a refused hive_after among
 * them, which alone would promise none: cancelled_after_ends_its_run). */
static atomic_int refused_rc[4];

static void entry_refused_then_cancelled(void *arg)
{
    (void)arg;
    atomic_store(&refused_rc[0], hive_after(UINT64_MAX, &task, ran_fn));
    atomic_store(&refused_rc[1], hive_spawn(&task, ran_fn));
    atomic_store(&refused_rc[2], hive_after(1, &task, ran_fn));
    atomic_store(&refused_rc[3], hive_after_cancel(&task));
}

HIVE_TEST(cancel_queues_a_task_whose_spawn_was_refused)
{
    atomic_store(&ran, 0);
    watchdog_arm("cancel_queues_a_task_whose_spawn_was_refused");
    CHECK_EQ(hive_run(entry_refused_then_cancelled, NULL, NULL), HIVE_OK);
    watchdog_disarm("cancel_queues_a_task_whose_spawn_was_refused");
    CHECK_EQ(atomic_load(&refused_rc[0]), HIVE_OK);
    CHECK_EQ(atomic_load(&refused_rc[1]), HIVE_EBUSY);
    CHECK_EQ(atomic_load(&refused_rc[2]), HIVE_EBUSY);
    CHECK_EQ(atomic_load(&refused_rc[3]), HIVE_EBUSY);
    CHECK_EQ(atomic_load(&ran), 1);
    /* It ran: nothing pending, and idle again. */
    CHECK_EQ(hive_after_cancel(&task), HIVE_ESTATE);
    CHECK_EQ(hive_spawn(&task, ran_fn), HIVE_OK);
    CHECK_EQ(hive_run(nothing, NULL, NULL), HIVE_OK);
    CHECK_EQ(atomic_load(&ran), 2);
}

