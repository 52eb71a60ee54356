/*
 * Runs with a watchdog (hive_config.watchdog_ns) that look like faults and
 * are not, on real cores with the watchdog's checks in every core's timer
 * interrupt: each must end normally. (The faults it must catch are the
 * expect-fail images watchdog_stuck, watchdog_masked and watchdog_stall.)
 *   - a group wait that lasts longer than the limit while many short tasks
 *     (each asleep until a timer, as one waiting for a device) run, some of
 *     them nested in the wait;
 *   - a join whose stolen half runs longer than the limit, passing a
 *     scheduling point (a wait) now and then, while the joiner has nothing to
 *     help with and parks;
 *   - a main loop that said it runs forever (hive_task_runs_forever);
 *   - a run whose only work is a hive_after longer than the limit: every
 *     core parks, nothing runs or finishes, and it is not a stall.
 * The limit is wall time and QEMU's clock is the host's: it is set well
 * above how long a loaded host has been seen to deschedule a virtual core.
 */
#include <stdatomic.h>
#include <stdint.h>

#include "harness.h"
#include "hive/hive.h"
#include "kernel/kernel.h"
#include "kernel/platform.h"

int main(void) { return hive_test_main(); }

#define MS(n) ((uint64_t)(n) * 1000000u)
#define LIMIT MS(2000)
#define LONG_WAIT MS(2500) /* longer than the limit */
#define SHORT_TASK MS(100) /* well under the limit */

static void spin_ns(uint64_t ns)
{
    uint64_t end = hive_now_ns() + ns;
    while (hive_now_ns() < end)
        ;
}

static int run(void (*entry)(void *), void *arg)
{
    struct hive_config c = {0};
    c.watchdog_ns = LIMIT;
    return hive_run(entry, arg, &c);
}

/* ---- a long group wait over many short tasks ---------------------------------- */

/* Enough for LONG_WAIT of wall time at every core count. */
#define GROUP_TASKS (LONG_WAIT / SHORT_TASK * HIVE_MAX_CORES)
static struct hive_task group_tasks[GROUP_TASKS];

/* A task that waits for its device: asleep in WFI until a timer interrupt
 * says it is done. Its time passes without taking a host CPU from QEMU's
 * other virtual cores, which a loaded host would otherwise deschedule for
 * longer than the limit. */
static void set_flag(void *flag)
{
    atomic_store((atomic_bool *)flag, true);
}

static void sleep_ns(uint64_t ns)
{
    atomic_bool done = false;
    CHECK_EQ(hive_after_irq(ns, set_flag, &done), HIVE_OK);
    while (!atomic_load(&done)) {
        /* Masked, so the interrupt cannot come between the check and the
         * WFI; a pending one still ends the WFI. */
        unsigned long irq = arch_irq_save();
        if (!atomic_load(&done))
            arch_park_deep();
        arch_irq_restore(irq);
    }
}

static void short_task(struct hive_task *t)
{
    (void)t;
    sleep_ns(SHORT_TASK);
}

static void long_group_wait(void *arg)
{
    uint64_t *waited = arg;
    unsigned n = (unsigned)(LONG_WAIT / SHORT_TASK) * hive_worker_count();
    struct hive_group g = HIVE_GROUP_INIT;
    uint64_t t0 = hive_now_ns();
    for (unsigned i = 0; i < n; i++)
        CHECK_EQ(hive_group_spawn(&g, &group_tasks[i], short_task), HIVE_OK);
    CHECK_EQ(hive_group_wait(&g), HIVE_OK);
    *waited = hive_now_ns() - t0;
}

HIVE_TEST(long_group_wait_is_not_stuck)
{
    uint64_t waited = 0;
    CHECK_EQ(run(long_group_wait, &waited), HIVE_OK);
    CHECK(waited > LIMIT);
    printf("  waited %llu ms\n", (unsigned long long)(waited / 1000000));
}

/* ---- a long join wait ---------------------------------------------------------- */

static atomic_bool half_started;

static void long_half(void *arg)
{
    (void)arg;
    atomic_store(&half_started, true);
    struct hive_group none = HIVE_GROUP_INIT;
    for (unsigned i = 0; i < 25; i++) {
        spin_ns(LONG_WAIT / 25);
        CHECK_EQ(hive_group_wait(&none), HIVE_OK);
    }
}

static void until_half_started(void *arg)
{
    (void)arg;
    struct hive_group none = HIVE_GROUP_INIT;
    while (!atomic_load(&half_started))
        CHECK(hive_group_wait(&none) == HIVE_OK);
}

static void long_join_wait(void *arg)
{
    uint64_t *waited = arg;
    uint64_t t0 = hive_now_ns();
    CHECK_EQ(hive_join(until_half_started, NULL, long_half, NULL), HIVE_OK);
    *waited = hive_now_ns() - t0;
}

HIVE_TEST(long_join_wait_is_not_stuck)
{
    /* One core takes its half back itself: nothing to show there. */
    if (hive_cpu_count() < 2)
        HIVE_SKIP("needs 2 cores");
    uint64_t waited = 0;
    atomic_store(&half_started, false);
    CHECK_EQ(run(long_join_wait, &waited), HIVE_OK);
    CHECK(waited > LIMIT);
}

/* ---- a main loop that runs forever (here: longer than the limit) ------------------- */

static void main_loop(void *arg)
{
    (void)arg;
    CHECK_EQ(hive_task_runs_forever(), HIVE_OK);
    spin_ns(LONG_WAIT);
}

HIVE_TEST(forever_task_is_not_stuck)
{
    CHECK_EQ(run(main_loop, NULL), HIVE_OK);
}

/* ---- a run waiting for a timer is idle, not stalled ------------------------------- */

static struct hive_task later;
static atomic_bool later_ran;
static uint64_t later_set_at, later_ran_at;

static void later_fn(struct hive_task *t)
{
    (void)t;
    later_ran_at = hive_now_ns();
    atomic_store(&later_ran, true);
}

static void set_later(void *arg)
{
    (void)arg;
    later_set_at = hive_now_ns();
    CHECK_EQ(hive_after(LONG_WAIT, &later, later_fn), HIVE_OK);
}

HIVE_TEST(run_waiting_for_a_timer_is_not_stalled)
{
    CHECK_EQ(run(set_later, NULL), HIVE_OK);
    CHECK(atomic_load(&later_ran));
    CHECK(later_ran_at - later_set_at >= LONG_WAIT);
}
