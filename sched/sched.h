/*
 * The scheduler as the layers built on it see it - kernel/ on the boards,
 * arch/host on a hosted system. They include this header and no other of
 * sched/: it is the whole boundary, in both directions.
 *
 * Downward, the port (sched/port.h): what the scheduler needs from the
 * machine, which those layers implement.
 *
 * Upward, hive_spawn in halves, for a spawn that is promised now and queued
 * later (kernel/after.c, whose timer queues the task from its interrupt);
 * hive_spawn itself does what these halves do in one go (less the deferred
 * count below):
 *
 *   hive_spawn_claim(task, fn)  hive_spawn's checks and its claim of the task:
 *                               HIVE_OK, HIVE_EINVAL or HIVE_EBUSY. Once
 *                               claimed, a second spawn fails with HIVE_EBUSY.
 *   then either
 *     hive_spawn_unclaim(task)  the spawn is off: the task is idle again
 *                               (HIVE_OK) - unless a hive_spawn of it was
 *                               refused meanwhile, which was promised a run:
 *                               then it is counted and queued as hive_spawn
 *                               does (HIVE_EBUSY);
 *   or
 *     hive_spawn_count()        the run (or the next, outside a run) now lasts
 *                               until the task has run; and later, once,
 *     hive_spawn_queue(task)    queue it, from any context (outside task
 *                               context: the global queue, notifying a parked
 *                               core);
 *     or, instead of queueing it, if the spawn is called off:
 *       hive_spawn_cancel(task) the task is idle again and its count given
 *                               back as if it had run - if it was the last,
 *                               the run ends (HIVE_OK); or, if a hive_spawn
 *                               of it was refused meanwhile, it is queued on
 *                               its count as hive_spawn_queue does
 *                               (HIVE_EBUSY).
 *
 * Count before the task can be queued: a task that runs and finishes before
 * it was counted would end the run early. From hive_spawn_count until it is
 * queued or uncounted the task is also counted as deferred: a run that waits
 * for it is waiting for a timer, not stalled (the watchdog, sched/watchdog.c).
 */
#ifndef HIVE_SCHED_SCHED_H
#define HIVE_SCHED_SCHED_H

#include "hive/hive.h"
#include "sched/latent_gate.h" /* the interrupt hooks below */
#include "sched/port.h"
#include "sched/trace.h" /* trace points of the kernel's interrupts and timers */

int hive_spawn_claim(struct hive_task *task, void (*fn)(struct hive_task *task));
int hive_spawn_unclaim(struct hive_task *task);
void hive_spawn_count(void);
int hive_spawn_cancel(struct hive_task *task);
void hive_spawn_queue(struct hive_task *task);

/* hive_port_poke's work, on the core poked, as an interrupt of it: make the
 * core's private group tasks stealable (sched/publish.c, "The heartbeat"). */
void hive_sched_poked(void);

/* The worker of this core while it is in task context (a worker's loop and
 * the tasks it runs), NULL everywhere else - in an interrupt handler too,
 * which the hooks below hide it from: hive_self (sched_internal.h) is a
 * load of it, not a call into the port at every spawn to ask whether this
 * is an interrupt. _Atomic, relaxed: this core's own, written by its
 * interrupt handlers (a signal handler on the host: a lock-free atomic is
 * what C defines for one), each of which puts back what it found before the
 * code it interrupted runs on. */
struct hive_worker;
extern _Thread_local _Atomic(struct hive_worker *) hive_tls_task_worker;

/* What hive_sched_interrupt_enter took from the interrupted code, for
 * hive_sched_interrupt_exit to give back. */
struct hive_sched_interrupted {
    struct hive_latent_stack *gate;
    struct hive_worker *task_worker;
};

/* An interrupt handler begins on this core: returns what to give back to
 * hive_sched_interrupt_exit when it ends. While it runs, the calling core is
 * out of task context for the scheduler (hive_self is NULL: a spawn goes to
 * the global queue, a join or a wait is refused) and for its inline paths
 * too (hive_join's, hive/join_inline.h): its joins go where they are
 * refused. Every interrupt passes here (the host's one, the poke, in
 * hive_sched_poked; passing twice changes nothing): entering is two
 * accesses each to two thread-locals (the gate, sched/latent_gate.c, and
 * the task worker), leaving is one store, and the gate's reopening where it
 * was open. */
static inline struct hive_sched_interrupted hive_sched_interrupt_enter(void)
{
    /* relaxed (all): this core's own gate (latent_gate.c) and task worker
     * (above). */
    struct hive_sched_interrupted saved = {
        atomic_load_explicit(&hive_latent_here, memory_order_relaxed),
        atomic_load_explicit(&hive_tls_task_worker, memory_order_relaxed),
    };
    atomic_store_explicit(&hive_latent_here, NULL, memory_order_relaxed);
    atomic_store_explicit(&hive_tls_task_worker, NULL, memory_order_relaxed);
    return saved;
}
static inline void hive_sched_interrupt_exit(struct hive_sched_interrupted saved)
{
    /* relaxed: this core's own task worker, as at enter. */
    atomic_store_explicit(&hive_tls_task_worker, saved.task_worker, memory_order_relaxed);
    /* Reopened only if no core has started to want work meanwhile. */
    if (saved.gate)
        hive_latent_gate_reopen(saved.gate);
}

#endif
