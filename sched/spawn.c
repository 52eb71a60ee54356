/*
 * hive_spawn and hive_spawn_fn: where a new task goes.
 *
 * In task context (a worker core, not in an interrupt handler) the task goes
 * into the core's LIFO slot; the slot's previous task moves to the core's run
 * queue, and that makes work stealable, so it is followed by the notify of
 * sched/idle.c (rule 1). From anywhere else - the boot code before or after a
 * run, a core or thread that is not a worker, an interrupt handler - it goes
 * to the global injection queue, which is interrupt-safe; an interrupt handler
 * never touches the interrupted core's ring or LIFO slot.
 *
 * A task's state word makes a second spawn of a still-queued task fail with
 * HIVE_EBUSY before anything is touched: IDLE -> QUEUED is one CAS, and the
 * worker stores IDLE again just before calling fn.
 */
#include "sched/sched_internal.h"

static void spawn_counted(struct hive_task *t)
{
    hive_outstanding_add();
    struct hive_worker *w = hive_self();
    if (w)
        hive_worker_push_local(w, t);
    else
        hive_worker_push_global(t);
}

int hive_spawn(struct hive_task *task, void (*fn)(struct hive_task *task))
{
    if (!task || !fn)
        return HIVE_EINVAL;
    unsigned idle = HIVE_TASK_IDLE;
    /* acquire: pairs with the release store of IDLE when the task last ran,
     * so that run's reads of fn and group happen before our writes. relaxed
     * on failure: we only refuse. */
    if (!atomic_compare_exchange_strong_explicit(&task->state, &idle, HIVE_TASK_QUEUED,
                                                 memory_order_acquire, memory_order_relaxed))
        return HIVE_EBUSY;
    task->fn = fn;
    task->group = NULL;
    spawn_counted(task);
    return HIVE_OK;
}

int hive_spawn_fn(void (*fn)(void *arg), void *arg)
{
    if (!fn)
        return HIVE_EINVAL;
    struct hive_task *t = hive_pool_get(fn, arg);
    if (!t)
        return HIVE_ENOMEM;
    spawn_counted(t);
    return HIVE_OK;
}
