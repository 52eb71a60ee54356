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
 *
 * EBUSY promises the caller that the queued run will see what it wrote
 * before the spawn (one task drains all that came: hive/irq.h, the guide).
 * That is a store-then-load handshake - the spawner writes its data, then
 * reads the state; the worker writes IDLE, then fn reads the data - and
 * without a fence on each side both can miss (the store-buffering outcome:
 * the spawner sees QUEUED, fn sees the old data, and the event waits for
 * the next one, which may never come; seen on the host, a few times in 10^6
 * refused spawns). So a refusal is a seq_cst fence and a second look at
 * the state, and the worker fences after its store of IDLE (run_task.c):
 * either the look sees IDLE (the spawn then queues the task again) or fn's
 * reads come after the caller's writes (docs/ordering.md).
 */
#include "sched/sched.h"

#include "sched/sched_internal.h"

int hive_spawn_claim(struct hive_task *task, void (*fn)(struct hive_task *task))
{
    if (!task || !fn)
        return HIVE_EINVAL;
    unsigned state = HIVE_TASK_IDLE;
    /* acquire: pairs with the release store of IDLE when the task last ran
     * (run_task.c) or was unclaimed, so that run's reads of fn and group
     * happen before our writes. relaxed on failure: the refusal's look
     * below decides. */
    while (!atomic_compare_exchange_strong_explicit(&task->state, &state, HIVE_TASK_QUEUED,
                                                    memory_order_acquire, memory_order_relaxed)) {
        /* Still queued, it seems: the refusal's half of the handshake (the
         * top), a fence and a look. If the run has given the task back
         * meanwhile, claim it again. */
        atomic_thread_fence(memory_order_seq_cst);
        state = atomic_load(&task->state);
        if (state != HIVE_TASK_IDLE)
            return HIVE_EBUSY;
    }
    task->fn = fn;
    task->group = NULL;
    task->kind = HIVE_TASK_COUNTED;
    return HIVE_OK;
}

void hive_spawn_unclaim(struct hive_task *task)
{
    /* release: pairs with the acquire CAS of the task's next claimer. */
    atomic_store_explicit(&task->state, HIVE_TASK_IDLE, memory_order_release);
}

/*
 * The halves of sched/sched.h are for a task promised now and queued later
 * (hive_after): between hive_spawn_count and hive_spawn_queue (or the
 * uncount that calls it off) it is also counted as deferred, so that the
 * watchdog can tell a run that waits for a timer from a stalled one.
 * relaxed (all three): the watchdog needs the count to hold for a whole
 * limit, over several checks, not any order against the task itself.
 */
void hive_spawn_count(void)
{
    hive_outstanding_add(NULL);
    atomic_fetch_add_explicit(&hive_scheduler.deferred, 1, memory_order_relaxed);
}

void hive_spawn_uncount(void)
{
    atomic_fetch_sub_explicit(&hive_scheduler.deferred, 1, memory_order_relaxed);
    hive_outstanding_sub_anywhere(1);
}

/* Make a counted task visible to the cores that may run it. */
static void publish(struct hive_worker *w, struct hive_task *task)
{
    if (w)
        hive_publish_spawn(w, task);
    else
        hive_publish_global(task);
}

/* Count the task, then publish it: counted before any core can run it and
 * count it off. From outside the run's workers the two are also counted as
 * deferred, as a promised hive_after is: a thread can be held up between
 * them (preempted, on the host) while every core is parked, the count above
 * zero and nothing queued - which the watchdog would take for a stall.
 * relaxed (both): the watchdog needs the count to hold for a whole limit,
 * over several checks, not any order against the task. */
static void queue(struct hive_task *task)
{
    struct hive_worker *w = hive_self();
    if (w) {
        hive_outstanding_add(w);
        hive_publish_spawn(w, task);
        return;
    }
    atomic_fetch_add_explicit(&hive_scheduler.deferred, 1, memory_order_relaxed);
    hive_outstanding_add(NULL);
    hive_publish_global(task);
    atomic_fetch_sub_explicit(&hive_scheduler.deferred, 1, memory_order_relaxed);
}

void hive_spawn_queue(struct hive_task *task)
{
    atomic_fetch_sub_explicit(&hive_scheduler.deferred, 1, memory_order_relaxed);
    publish(hive_self(), task);
}

int hive_spawn(struct hive_task *task, void (*fn)(struct hive_task *task))
{
    int err = hive_spawn_claim(task, fn);
    if (err != HIVE_OK)
        return err;
    queue(task);
    return HIVE_OK;
}

int hive_spawn_fn(void (*fn)(void *arg), void *arg)
{
    if (!fn)
        return HIVE_EINVAL;
    struct hive_task *t = hive_pool_get(fn, arg);
    if (!t)
        return HIVE_ENOMEM;
    queue(t);
    return HIVE_OK;
}
