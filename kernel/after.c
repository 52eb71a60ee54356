/*
 * hive_after: a timer whose callback spawns a task. Apart from the timer
 * queue because it needs the scheduler's hive_spawn: it is built as a static
 * library of its own (kernel/CMakeLists.txt), linked by the images that use
 * it, so the kernel objects never depend on the scheduler.
 */
#include "hive/timer.h"
#include "kernel/kernel.h"
#include "kernel/timer.h"

static void spawn_fire(union hive_timer_fn fn, void *arg)
{
    /* In the timer interrupt: hive_spawn puts the task on the global queue
     * and wakes a parked core if nobody is searching. */
    int err = hive_spawn(arg, fn.task);
    if (err != HIVE_OK)
        hive_panic("hive_after: its task could not be spawned (%s); was it spawned twice?",
                   hive_strerror(err));
}

int hive_after(uint64_t ns, struct hive_task *task, void (*fn)(struct hive_task *task))
{
    if (!task || !fn)
        return HIVE_EINVAL;
    union hive_timer_fn f = {.task = fn};
    return hive_timer_add(hive_deadline_after(hive_now_ns(), ns), spawn_fire, f, task);
}
