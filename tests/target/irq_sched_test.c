/*
 * A device interrupt handler that spawns tasks at a high rate while every
 * core is stealing: the board's test line fires again and again on the core
 * of the run's first task; each interrupt spawns PER_IRQ tasks (to the global
 * queue, from interrupt context) and each of those forks more through the
 * workers' own queues, so cores pull and steal the whole time. Every task
 * runs exactly once.
 */
#include <stdatomic.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "harness.h"
#include "hive/hive.h"
#include "irq_util.h"
#include "sched/port.h"

int main(void) { return hive_test_main(); }

#define IRQS 5000u
#define PER_IRQ 4u
#define TASKS (IRQS * PER_IRQ)
#define FORKS 3u   /* children per task: stealable local work */

struct item {
    struct hive_task task;
    struct hive_task child[FORKS];
};

static struct item items[TASKS];
static atomic_uchar ran[TASKS];
static atomic_uchar child_ran[TASKS][FORKS];
static atomic_uint spawned, handled, spawn_errors, fork_errors;
static atomic_bool storm_over;

static void burn(unsigned ns)
{
    for (uint64_t t = hive_now_ns(); hive_now_ns() - t < ns;)
        hive_port_cpu_relax();
}

static void child_fn(struct hive_task *t)
{
    /* Which item and which of its children: from the offset in items[]. */
    size_t off = (size_t)((char *)t - (char *)items);
    size_t i = off / sizeof(struct item);
    size_t k = (off % sizeof(struct item) - offsetof(struct item, child)) / sizeof(struct hive_task);
    atomic_fetch_add(&child_ran[i][k], 1);
    burn(2000);
}

static void item_fn(struct hive_task *t)
{
    struct item *it = HIVE_CONTAINER_OF(t, struct item, task);
    atomic_fetch_add(&ran[it - items], 1);
    for (unsigned k = 0; k < FORKS; k++)
        if (hive_spawn(&it->child[k], child_fn) != HIVE_OK)
            atomic_fetch_add(&fork_errors, 1);
    burn(2000);
}

static void on_irq(unsigned irq, void *arg)
{
    (void)irq, (void)arg;
    board_test_irq_ack();
    for (unsigned k = 0; k < PER_IRQ; k++) {
        unsigned i = atomic_fetch_add(&spawned, 1);
        if (hive_spawn(&items[i].task, item_fn) != HIVE_OK)
            atomic_fetch_add(&spawn_errors, 1);
    }
    if (atomic_fetch_add(&handled, 1) + 1 < IRQS)
        board_test_irq_raise();
    else
        atomic_store(&storm_over, true);
}

static void entry(void *arg)
{
    (void)arg;
    int line = board_test_irq();
    /* Routed to this core: the storm interrupts this very task. */
    CHECK_EQ(hive_irq_attach((unsigned)line, on_irq, NULL), HIVE_OK);
    board_test_irq_raise();
    /* Busy until the last interrupt (the run then lasts until every
     * spawned task has run: they are counted). */
    while (!atomic_load(&storm_over))
        hive_port_cpu_relax();
    CHECK_EQ(hive_irq_detach((unsigned)line), HIVE_OK);
}

HIVE_TEST(device_irq_spawns_every_task_runs_once)
{
    if (board_test_irq() < 0)
        HIVE_SKIP("the board has no test interrupt line");
    watchdog_arm("device_irq_spawns_every_task_runs_once", MS(100000));
    watchdog_progress = &handled;
    uint64_t t0 = hive_now_ns();
    CHECK_EQ(hive_run(entry, NULL, NULL), HIVE_OK);
    uint64_t took = hive_now_ns() - t0;
    CHECK_EQ(atomic_load(&handled), IRQS);
    CHECK_EQ(atomic_load(&spawned), TASKS);
    CHECK_EQ(atomic_load(&spawn_errors), 0);
    CHECK_EQ(atomic_load(&fork_errors), 0);
    unsigned wrong = 0;
    for (unsigned i = 0; i < TASKS; i++) {
        wrong += atomic_load(&ran[i]) != 1;
        for (unsigned k = 0; k < FORKS; k++)
            wrong += atomic_load(&child_ran[i][k]) != 1;
    }
    CHECK_EQ(wrong, 0);
    const struct hive_stats *s = hive_stats_last();
    CHECK_EQ(s->injected, TASKS);
    printf("figure: %u interrupts spawned %u tasks (+%u forks) in %lu ms; %lu steals, %lu "
           "global pulls over %u cores\n",
           IRQS, TASKS, TASKS * FORKS, (unsigned long)(took / MS(1)),
           (unsigned long)s->total.steals, (unsigned long)s->total.global_pulls, s->cores);
    watchdog_disarm();
}
