/*
 * The per-core timer queue (kernel/timer.c): what hive_after and the park
 * timeout are built on.
 */
#ifndef HIVE_KERNEL_TIMER_H
#define HIVE_KERNEL_TIMER_H

#include <stdint.h>

#include "hive/hive.h"

/* What a timer does when it fires: fire(fn, arg), in the timer interrupt.
 * The union lets one queue entry carry either kind of callback without
 * casting function pointers to data pointers. */
union hive_timer_fn {
    void (*call)(void *arg);
    void (*task)(struct hive_task *task);
};
typedef void hive_timer_fire(union hive_timer_fn fn, void *arg);

/*
 * Queue fire(fn, arg) on the calling core for when hive_now_ns() >=
 * deadline_ns. HIVE_OK, HIVE_EINVAL (fire is NULL) or HIVE_ENOMEM (this
 * core's HIVE_TIMERS_PER_CORE entries are all in use). Any context.
 */
int hive_timer_add(uint64_t deadline_ns, hive_timer_fire *fire, union hive_timer_fn fn, void *arg);

/*
 * hive_timer_add, and also() (if not NULL) under the queue's lock once the
 * timer is in, with interrupts masked: a cancel from any core, or the timer
 * itself, then sees the timer and what also() did together or neither.
 */
int hive_timer_add_and(uint64_t deadline_ns, hive_timer_fire *fire, union hive_timer_fn fn,
                       void *arg, void (*also)(void));

/*
 * Take out one pending timer added with these fire, fn and arg, before it
 * fires: of the calling core's, the one that would fire first; if it has
 * none, another core's. HIVE_OK, or HIVE_ESTATE if none is pending (it has
 * fired - its fire may still be running - or was never added, or was
 * cancelled). Any context, any core. O(pending timers).
 */
int hive_timer_cancel(hive_timer_fire *fire, union hive_timer_fn fn, void *arg);

/*
 * The calling core's park deadline: the timer also fires at deadline_ns
 * (UINT64_MAX: none), ending a deep sleep. Its interrupt runs no callback.
 */
void hive_timer_park_until(uint64_t deadline_ns);
/*
 * The same, and the hardware timer reprogrammed even when what is now due is
 * later than what it holds. hive_timer_park_until leaves an earlier deadline
 * armed (one spurious interrupt at most, and no write to the timer on most
 * parks); this is for lifting a short deadline whose interrupt would
 * otherwise surely come for nothing: the end of phase 1 of parking
 * (kernel/port.c), once the phase is over.
 */
void hive_timer_park_until_rearmed(uint64_t deadline_ns);

/*
 * The calling core's periodic watch: from its timer interrupt, call fn()
 * every period_ns from now on (period_ns 0: stop). It takes no slot of the
 * timer pool, so it cannot fail. The watchdog's clock (kernel/port.c).
 */
void hive_timer_watch(uint64_t period_ns, void (*fn)(void));

/*
 * The calling core's backstop check (sched/port.h, hive_port_backstop): from
 * its timer interrupt, call fn(core) period_ns from now, and again a period
 * after each call that returns true - unless one is pending already, which
 * stays as it is. fn NULL: drop a pending one. Like the watch it takes no
 * slot of the timer pool, so it cannot fail.
 */
void hive_timer_backstop(uint64_t period_ns, bool (*fn)(unsigned core));

/* now + ns, saturating: a sum past 64 bits is UINT64_MAX, "never", rather
 * than a wrapped deadline that has already passed. Every deadline in kernel/
 * is made with it (in ns, or in counter ticks). */
static inline uint64_t hive_deadline_after(uint64_t now, uint64_t ns)
{
    return ns > UINT64_MAX - now ? UINT64_MAX : now + ns;
}

/* kernel/irq.c: set-up of this core's queue, and its timer interrupt. */
void hive_timer_cpu_init(void);
void hive_timer_irq(void);

#endif
