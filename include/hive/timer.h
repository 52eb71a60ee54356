/*
 * Time and one-shot timers (bare-metal boards only).
 *
 * Each core keeps its own timers: a timer lives on the core that set it and
 * fires in that core's timer interrupt, whatever the core is doing (running
 * a task, parked in a deep sleep). The timers of one core fire in deadline
 * order, equal deadlines in the order they were set; none fires before its
 * deadline by hive_now_ns(). Each core holds at most HIVE_TIMERS_PER_CORE
 * pending timers (a static pool; a full pool is an error, never a drop).
 *
 * Deadlines are relative (ns from the call) and saturate: a deadline that
 * now + ns cannot reach in 64 bits of nanoseconds (about 584 years of
 * uptime), UINT64_MAX among them, is "never". Such a timer never fires; it
 * holds its pool slot, and a hive_after keeps its run from ending, until it
 * is cancelled. A pending timer is cancelled with hive_after_cancel or
 * hive_after_irq_cancel, from any core and any context; one that has fired
 * cannot be, and is not pending any more.
 */
#ifndef HIVE_TIMER_H
#define HIVE_TIMER_H

#include <stdint.h>

#include "hive/hive.h"

/* HIVE_TIMERS_PER_CORE, a build option of hive, is in hive/limits.h. */

/* Monotonic nanoseconds, the same clock on every core. */
uint64_t hive_now_ns(void);

/*
 * Spawn task (to run fn(task)) in ns nanoseconds: from the timer interrupt
 * of the calling core it goes to the global queue, like any spawn from
 * outside a task, and wakes a parked core. The task counts as spawned from
 * the call on: it is queued (a second spawn fails with HIVE_EBUSY) and the
 * current run - or the next, outside a run - lasts until it has run.
 *   HIVE_EINVAL  task or fn is NULL.
 *   HIVE_EBUSY   task is still queued (spawned, or its hive_after pending).
 *   HIVE_ENOMEM  the calling core already holds HIVE_TIMERS_PER_CORE timers
 *                (a build option of hive: hive/limits.h, docs/limits.md).
 *                The task is left idle - unless a hive_spawn of it was
 *                refused in the moment hive_after held it: then it is
 *                queued for that spawn, as hive_after_cancel does.
 */
HIVE_MUST_CHECK int hive_after(uint64_t ns, struct hive_task *task, void (*fn)(struct hive_task *task));

/*
 * Call off task's pending hive_after (a task has one at most): its fn will
 * not run from it, the task is idle again (it may be spawned or set again at
 * once), and the run no longer waits for it - if it was all the run waited
 * for, the run ends.
 *   HIVE_EBUSY   the timer is called off, but a hive_spawn of task was
 *                refused with HIVE_EBUSY while it was pending, and that
 *                refusal promised a run: task is queued now instead, as
 *                hive_spawn queues it (the run waits for it; it is not idle
 *                until fn is called). A refused hive_after promised none:
 *                it does not make a cancel run the task.
 *   HIVE_EINVAL  task is NULL.
 *   HIVE_ESTATE  task has no pending hive_after: its timer has fired (the
 *                task is queued, running or done), or it was cancelled, or
 *                it was never set (a task queued by hive_spawn is left alone).
 */
HIVE_MUST_CHECK int hive_after_cancel(struct hive_task *task);

/*
 * In ns nanoseconds, fn(arg) itself in the timer interrupt of the calling
 * core (interrupt context: see hive/irq.h for what it may do).
 *   HIVE_EINVAL  fn is NULL.
 *   HIVE_ENOMEM  as for hive_after.
 */
HIVE_MUST_CHECK int hive_after_irq(uint64_t ns, void (*fn)(void *arg), void *arg);

/*
 * Call off one pending hive_after_irq(ns, fn, arg) with this fn and arg: of
 * the calling core's, the one due first; if it has none, one of another
 * core's. Its fn will not be called from it.
 *   HIVE_EINVAL  fn is NULL.
 *   HIVE_ESTATE  no such timer is pending: it has fired (fn has been called
 *                or is being called), or it was cancelled, or never set.
 */
HIVE_MUST_CHECK int hive_after_irq_cancel(void (*fn)(void *arg), void *arg);

#endif
