/*
 * Wake latency with the scheduler: from a spawn on one core to the task
 * starting on a parked core, in guest time. The spawner is a core left out
 * of the run (the last one): its timer interrupt spawns a task every
 * GAP_NS, which goes to the global queue and wakes a parked worker with a
 * doorbell. The run's first task keeps core 0 busy (and the run alive), so
 * every measured task starts on a worker that was parked. Needs 3 cores.
 */
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>

#include "harness.h"
#include "hive/hive.h"
#include "irq_util.h"
#include "sched/port.h"

int main(void) { return hive_test_main(); }

#define WAKES 10000u
#define GAP_NS 300000u  /* time for the woken worker to park again */

static struct hive_task tasks[WAKES];
static uint64_t spawned_at[WAKES];
static uint32_t latency[WAKES];
static unsigned ran_on[WAKES];
static atomic_uint next, done;

static void measured(struct hive_task *t)
{
    unsigned i = (unsigned)(t - tasks);
    latency[i] = (uint32_t)(hive_now_ns() - spawned_at[i]);
    ran_on[i] = hive_port_core_id();
    atomic_fetch_add(&done, 1);
}

/* Timer callback on the spawner core (interrupt context, not a worker). */
static void spawn_one(void *arg)
{
    (void)arg;
    unsigned i = atomic_fetch_add(&next, 1);
    spawned_at[i] = hive_now_ns();
    if (hive_spawn(&tasks[i], measured) != HIVE_OK)
        hive_panic("park_sched: spawn %u failed", i);
    if (i + 1 < WAKES && hive_after_irq(GAP_NS, spawn_one, NULL) != HIVE_OK)
        hive_panic("park_sched: no timer");
}

static void start_spawner(void *arg)
{
    (void)arg;
    if (hive_cpu_id() == hive_cpu_count() - 1 && hive_after_irq(MS(5), spawn_one, NULL) != HIVE_OK)
        hive_panic("park_sched: no timer");
}

static void keep_busy(void *arg)
{
    (void)arg;
    while (atomic_load(&done) < WAKES)
        hive_port_cpu_relax();
}

HIVE_TEST(wake_latency_spawn_to_parked_core)
{
    unsigned n = hive_cpu_count();
    if (n < 3)
        HIVE_SKIP("needs 3 cores: a spawner, a busy core 0 and a parked worker");
    watchdog_arm("wake_latency_spawn_to_parked_core", MS(100000));
    watchdog_progress = &done;
    struct hive_config cfg = {.cores = n - 1};
    hive_smp_call_all(start_spawner, NULL);
    CHECK_EQ(hive_run(keep_busy, NULL, &cfg), HIVE_OK);
    CHECK_EQ(atomic_load(&done), WAKES);
    unsigned on_core0 = 0;
    for (unsigned i = 0; i < WAKES; i++)
        on_core0 += ran_on[i] == 0;
    CHECK_EQ(on_core0, 0);
    const struct hive_stats *s = hive_stats_last();
    printf("figure: %u spawns from core %u's timer interrupt; %lu parks, %lu wakes by the "
           "spawner's notify among %u workers\n",
           WAKES, n - 1, (unsigned long)s->total.parks, (unsigned long)s->injected, s->cores);
    print_figures("wake latency (spawn to task start on a parked core)", latency, WAKES);
    watchdog_disarm();
}
