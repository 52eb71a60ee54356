/*
 * Time and one-shot timers (bare-metal boards only).
 *
 * Each core keeps its own timers: a timer lives on the core that set it and
 * fires in that core's timer interrupt, whatever the core is doing (running
 * a task, parked in a deep sleep). The timers of one core fire in deadline
 * order, equal deadlines in the order they were set; none fires before its
 * deadline by hive_now_ns(). Each core holds at most HIVE_TIMERS_PER_CORE
 * pending timers (a static pool; a full pool is an error, never a drop).
 */
#ifndef HIVE_TIMER_H
#define HIVE_TIMER_H

#include <stdint.h>

#include "hive/hive.h"

#define HIVE_TIMERS_PER_CORE 256

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
 *   HIVE_ENOMEM  the calling core already holds HIVE_TIMERS_PER_CORE timers.
 */
int hive_after(uint64_t ns, struct hive_task *task, void (*fn)(struct hive_task *task));

/*
 * In ns nanoseconds, fn(arg) itself in the timer interrupt of the calling
 * core (interrupt context: see hive/irq.h for what it may do).
 *   HIVE_EINVAL  fn is NULL.
 *   HIVE_ENOMEM  as for hive_after.
 */
int hive_after_irq(uint64_t ns, void (*fn)(void *arg), void *arg);

#endif
