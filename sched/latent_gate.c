/*
 * The gate of hive_join's inline path: hive_latent_here, the calling core's
 * latent stack while its joins may take that path, else NULL
 * (hive/join_inline.h). One pointer test at the top of the inline join
 * stands for every condition the path needs that does not change from one
 * join to the next; whoever changes such a condition opens or closes the
 * gate here:
 *   - a worker runs tasks: open from its loop's start to its end (worker.c),
 *     unless the scheduler is built with tracing: every join then goes out
 *     of line, where it is recorded;
 *   - an interrupt handler is no task context: closed while one runs
 *     (kernel/irq.c, through sched/sched.h's inline hooks), so a join there
 *     reaches the out-of-line check that refuses it with HIVE_ESTATE;
 *   - a build that checks the ownership rules (HIVE_DEBUG_CHECKS) closes it
 *     while a spinlock is held (spinlock.c tells), so a join under a lock
 *     always reaches the check that panics, not only when it happens to
 *     wait.
 * Interrupt handlers and spinlocks nest, so each saves what it found and
 * puts it back, never opens what it did not close.
 *
 * Also part of the queue sources (sched/CMakeLists.txt): spinlock.c, which
 * they include, calls the lock hooks.
 */
#include "hive/join_inline.h"

#include <stddef.h>

#include "sched/latent_gate.h"
#include "sched/port.h"

_Thread_local struct hive_latent_stack *hive_latent_here;

#ifdef HIVE_DEBUG_CHECKS
/* Per core (only that core touches its entries, as with spinlock.c's
 * counts): whether its gate may be open (a worker runs there), the stack a
 * lock closed the gate on, and how many locks the core held before that
 * one. Arrays, not thread-locals: a core may take a lock before its
 * thread-local block is set up, and its gate is closed then anyway. */
static bool worker_here[HIVE_MAX_CORES];
static struct hive_latent_stack *closed_by_lock[HIVE_MAX_CORES];
static unsigned closed_at[HIVE_MAX_CORES];

static void worker_begins_or_ends(bool begins)
{
    unsigned core = hive_port_core_id();
    if (core < HIVE_MAX_CORES) {
        worker_here[core] = begins;
        closed_by_lock[core] = NULL;
    }
}

void hive_latent_gate_lock_taken(unsigned core, unsigned held_before)
{
    if (!worker_here[core] || !hive_latent_here)
        return;
    closed_by_lock[core] = hive_latent_here;
    closed_at[core] = held_before;
    hive_latent_here = NULL;
}

void hive_latent_gate_lock_released(unsigned core, unsigned held_after)
{
    if (closed_by_lock[core] && held_after == closed_at[core]) {
        hive_latent_here = closed_by_lock[core];
        closed_by_lock[core] = NULL;
    }
}
#else
#define worker_begins_or_ends(begins) ((void)0)
#endif

void hive_latent_gate_begin(struct hive_latent_stack *stack)
{
    worker_begins_or_ends(true);
#ifdef HIVE_TRACE
    (void)stack;
#else
    hive_latent_here = stack;
#endif
}

void hive_latent_gate_end(void)
{
    hive_latent_here = NULL;
    worker_begins_or_ends(false);
}
