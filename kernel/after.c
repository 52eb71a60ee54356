/*
 * hive_after: a timer that spawns a task.
 *
 * The task is claimed and counted when hive_after is called, not when the
 * timer fires: hive_spawn's first half (state IDLE -> QUEUED, one more
 * outstanding task) happens now, its second half (onto the global queue,
 * notify a parked core) in the timer interrupt. So a pending hive_after keeps
 * its run alive - a run whose only work is a timer waits for it with every
 * core parked, instead of ending at once - and spawning the task again while
 * its timer is pending fails with HIVE_EBUSY, as for any queued task.
 *
 * That needs the scheduler's internals (sched/sched_internal.h), so this
 * file is built as a library of its own (kernel/CMakeLists.txt) that only the
 * images using hive_after link; it belongs with sched/ (spawn.c) if sched/
 * ever grows a "claim now, queue later" spawn of its own.
 */
#include "hive/timer.h"
#include "kernel/timer.h"
#include "sched/sched_internal.h"

static void after_fire(union hive_timer_fn fn, void *arg)
{
    (void)fn;   /* already in the task: hive_after stored it */
    /* Interrupt context: the global queue is interrupt-safe, and the push
     * notifies a parked core if the run is on. */
    hive_worker_push_global(arg);
}

int hive_after(uint64_t ns, struct hive_task *task, void (*fn)(struct hive_task *task))
{
    if (!task || !fn)
        return HIVE_EINVAL;
    unsigned idle = HIVE_TASK_IDLE;
    /* acquire: pairs with the release store of IDLE when the task last ran,
     * as in hive_spawn. relaxed on failure: we only refuse. */
    if (!atomic_compare_exchange_strong_explicit(&task->state, &idle, HIVE_TASK_QUEUED,
                                                 memory_order_acquire, memory_order_relaxed))
        return HIVE_EBUSY;
    task->fn = fn;
    task->group = NULL;
    /* Masked: the timer fires on this core only, so it cannot push (and
     * finish) the task before it is counted. */
    unsigned long irq = hive_port_irq_save();
    union hive_timer_fn f = {.task = fn};
    int err = hive_timer_add(hive_deadline_after(hive_now_ns(), ns), after_fire, f, task);
    if (err == HIVE_OK)
        hive_outstanding_add();
    hive_port_irq_restore(irq);
    if (err != HIVE_OK)
        /* release: pairs with the acquire CAS of the task's next spawner. */
        atomic_store_explicit(&task->state, HIVE_TASK_IDLE, memory_order_release);
    return err;
}
