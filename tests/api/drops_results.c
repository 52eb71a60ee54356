/*
 * Every HIVE_MUST_CHECK call of the public API, its result dropped - never
 * built into anything: tests/api/must_check.sh compiles it and expects one
 * "ignoring return value" warning per call, naming the call.
 */
#include <stdio.h>

#include "hive/hive.h"

static void fn(void *arg) { (void)arg; }
static void task_fn(struct hive_task *t) { (void)t; }
static void range_fn(size_t lo, size_t hi, void *ctx) { (void)lo; (void)hi; (void)ctx; }
static void irq_fn(unsigned irq, void *arg) { (void)irq; (void)arg; }

void drop_every_result(void);
void drop_every_result(void)
{
    static struct hive_task t;
    static struct hive_group g;
    static struct hive_spinlock lock;
    unsigned long irq;

    hive_run(fn, NULL, NULL);
    hive_spawn(&t, task_fn);
    hive_spawn_or_run(&t, task_fn);
    hive_spawn_fn(fn, NULL);
    hive_join(fn, NULL, fn, NULL);
    hive_parallel_for(0, 1, 1, range_fn, NULL);
    hive_group_spawn(&g, &t, task_fn);
    hive_group_spawn_fn(&g, fn, NULL);
    hive_group_wait(&g);
    hive_after(1, &t, task_fn);
    hive_after_cancel(&t);
    hive_after_irq(1, fn, NULL);
    hive_after_irq_cancel(fn, NULL);
    hive_irq_attach(1, irq_fn, NULL);
    hive_irq_detach(1);
    hive_spin_lock(&lock);
    hive_spin_trylock(&lock, &irq);
    hive_spin_trylock_raw(&lock);
    hive_trace_dump(stdout);
    hive_stop();
    hive_task_runs_forever();
}
