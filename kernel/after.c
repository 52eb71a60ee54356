/*
 * hive_after: a timer that spawns a task.
 *
 * The task is claimed and counted when hive_after is called, not when the
 * timer fires (sched/spawn.h's halves of hive_spawn): it is queued only in
 * the timer interrupt. So a pending hive_after keeps its run alive - a run
 * whose only work is a timer waits for it with every core parked, instead of
 * ending at once - and spawning the task again while its timer is pending
 * fails with HIVE_EBUSY, as for any queued task.
 *
 * Built as a library of its own (kernel/CMakeLists.txt), which every image
 * links: kernel/ objects are in every image whole, and only an image that
 * calls hive_after should pull in the scheduler's spawn path.
 */
#include "hive/timer.h"
#include "kernel/timer.h"
#include "sched/port.h"
#include "sched/spawn.h"

static void after_fire(union hive_timer_fn fn, void *arg)
{
    (void)fn; /* already in the task: hive_spawn_claim stored it */
    hive_spawn_queue(arg);
}

int hive_after(uint64_t ns, struct hive_task *task, void (*fn)(struct hive_task *task))
{
    int err = hive_spawn_claim(task, fn);
    if (err != HIVE_OK)
        return err;
    /* Masked: the timer fires on this core only, so it cannot queue (and
     * finish) the task before it is counted. Counted only once armed: a
     * count taken back could be the one that ends the run. */
    unsigned long irq = hive_port_irq_save();
    union hive_timer_fn f = {.task = fn};
    err = hive_timer_add(hive_deadline_after(hive_now_ns(), ns), after_fire, f, task);
    if (err == HIVE_OK)
        hive_spawn_count();
    hive_port_irq_restore(irq);
    if (err != HIVE_OK)
        hive_spawn_unclaim(task);
    return err;
}
