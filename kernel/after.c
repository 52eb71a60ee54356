/*
 * hive_after: a timer that spawns a task.
 *
 * The task is claimed and counted when hive_after is called, not when the
 * timer fires (the halves of hive_spawn in sched/sched.h): it is queued only in
 * the timer interrupt. So a pending hive_after keeps its run alive - a run
 * whose only work is a timer waits for it with every core parked, instead of
 * ending at once - and spawning the task again while its timer is pending
 * fails with HIVE_EBUSY, as for any queued task.
 *
 * hive_after_cancel undoes both halves: the task is idle again and the run
 * no longer waits for it (if it was all the run waited for, the run ends).
 * The count is taken under the timer queue's lock (hive_timer_add_and), so a
 * cancel - from any core - finds a timer only once it is counted. A spawn
 * refused while the timer was pending was promised a run: then the cancel
 * queues the task now instead, on the timer's count (hive_spawn_cancel), and
 * says so. Likewise a hive_after that finds no timer slot.
 *
 * Built as a library of its own (kernel/CMakeLists.txt), which every image
 * links: kernel/ objects are in every image whole, and only an image that
 * calls hive_after should pull in the scheduler's spawn path.
 */
#include "hive/timer.h"
#include "kernel/timer.h"
#include "sched/sched.h"

/* The task's fn is in the task already (hive_spawn_claim stored it): the
 * timer carries no fn, and a cancel finds it by its task alone. */
static const union hive_timer_fn no_fn = {.task = NULL};

static void after_fire(union hive_timer_fn fn, void *arg)
{
    (void)fn;
    struct hive_task *task = arg;
    /* The task's own function, as the trace names a timer's (timer.c);
     * claimed, the task holds it until it runs. */
    HIVE_TRACE_EVENT(HIVE_TRACE_TIMER, task->fn, task);
    hive_spawn_queue(task);
}

int hive_after(uint64_t ns, struct hive_task *task, void (*fn)(struct hive_task *task))
{
    int err = hive_spawn_claim(task, fn);
    if (err != HIVE_OK)
        return err;
    /* Counted under the queue's lock, interrupts masked: the timer fires on
     * this core only, so it cannot queue (and finish) the task before it is
     * counted. Counted only once armed: a count taken back could be the one
     * that ends the run. */
    err = hive_timer_add_and(hive_deadline_after(hive_now_ns(), ns), after_fire, no_fn, task,
                             hive_spawn_count);
    if (err != HIVE_OK)
        (void)hive_spawn_unclaim(task); /* queued after all if a spawn was refused */
    return err;
}

int hive_after_cancel(struct hive_task *task)
{
    if (!task)
        return HIVE_EINVAL;
    int err = hive_timer_cancel(after_fire, no_fn, task);
    if (err != HIVE_OK)
        return err;
    /* The timer that would have queued the task is gone: nobody else holds
     * it. HIVE_EBUSY: a spawn was refused meanwhile, and the task is queued. */
    return hive_spawn_cancel(task);
}
