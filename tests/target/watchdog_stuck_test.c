/*
 * The watchdog (hive_config.watchdog_ns) must stop a run whose task never
 * returns, with a panic naming the stuck core, the task's function and how
 * long it has run; tools/run-image prints that line again with the function
 * symbolised, which is what ctest matches (EXPECT_FAIL). Without a watchdog
 * this image would hang until its timeout.
 *
 * STUCK_MASKED: the stuck task is the stolen half of a join, on a core other
 * than the boot core, and masks interrupts before it spins, so its own timer
 * interrupt never comes: only another core's check can find it.
 */
#include <stdatomic.h>
#include <stdio.h>

#include "harness.h"
#include "hive/hive.h"
#include "sched/port.h"

int main(void) { return hive_test_main(); }

/* 1 s: a virtual core that a loaded host deschedules for a while before
 * the stuck task starts is not taken for a stall. */
#define LIMIT_NS 1000000000ull

static atomic_bool started;

static void stuck_task(void *arg)
{
    (void)arg;
#ifdef STUCK_MASKED
    printf("core %d: stuck_task spins for ever with interrupts masked\n", hive_worker_id());
    hive_port_irq_save();
#else
    printf("core %d: stuck_task spins for ever\n", hive_worker_id());
#endif
    atomic_store(&started, true);
    for (;;)
        hive_port_cpu_relax();
}

#ifdef STUCK_MASKED
/* Until another core has taken stuck_task; waiting at a scheduling point (an
 * empty group's wait), so that this task is not the one found stuck. */
static void until_started(void *arg)
{
    (void)arg;
    struct hive_group none = HIVE_GROUP_INIT;
    while (!atomic_load(&started))
        CHECK(hive_group_wait(&none) == HIVE_OK);
}

static void entry(void *arg)
{
    (void)arg;
    CHECK(hive_join(until_started, NULL, stuck_task, NULL) == HIVE_OK);
}
#else
static void entry(void *arg)
{
    (void)arg;
    CHECK_EQ(hive_spawn_fn(stuck_task, NULL), HIVE_OK);
}
#endif

HIVE_TEST(stuck_task_is_reported)
{
    struct hive_config c = {0};
    c.watchdog_ns = LIMIT_NS;
    int rc = hive_run(entry, NULL, &c);
    printf("hive_run returned %d\n", rc);
    CHECK(!"hive_run returned: the stuck task was not reported");
}
