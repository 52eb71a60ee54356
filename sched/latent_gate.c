/*
 * The gate of hive_join's inline path: hive_latent_here, the calling core's
 * latent list while its joins may take that path, else NULL
 * (hive/join_inline.h). One pointer test at the top of the inline join
 * stands for every condition the path needs; whoever changes such a
 * condition opens or closes the gate here:
 *   - a worker runs tasks: the gate may open from its loop's start to its
 *     end (worker.c), unless the scheduler is built with tracing: every
 *     join then goes out of line, where it is recorded;
 *   - the running task has a join of its own in progress on this core (the
 *     list's newest frame is above its floor): a task's first join goes out
 *     of line, where it is offered at once (join.c), and opens the gate for
 *     the joins nested in it; it closes it again when it ends, as does a
 *     wait (its floor rises to the newest frame) until the wait is over;
 *   - no core wants work (the idle word says every core is awake and none
 *     searches): while one does, every join goes out of line and may share
 *     a frame. The core whose RMW takes the word from all-busy to wanting -
 *     it starts to search, or parks - closes every other core's gate
 *     (hive_latent_want); cores that start to want after it need not, as
 *     no gate opens while the word stays so (below);
 *   - an interrupt handler is no task context: closed while one runs
 *     (kernel/irq.c, and the host's poke in hive_sched_poked, through
 *     sched/sched.h's hooks), so a join there
 *     reaches the out-of-line check that refuses it with HIVE_ESTATE;
 *   - a build that checks the ownership rules (HIVE_DEBUG_CHECKS) closes it
 *     while a spinlock is held (spinlock.c tells), so a join under a lock
 *     always reaches the check that panics, not only when it happens to
 *     wait.
 * Interrupt handlers and spinlocks nest, so each saves what it found and
 * reopens only what it closed, and only if no core wants work by then.
 *
 * Why no want is missed for long. Only the owner opens its gate, and only
 * through hive_latent_gate_reopen: it stores the gate, then a seq_cst fence,
 * then loads the idle word, and closes the gate again if some core wants
 * work. The first core to want work changes the idle word (a seq_cst RMW),
 * then issues a seq_cst fence (hive_latent_want), then loads each other
 * core's gate and stores NULL where it finds one open. The two fences are
 * ordered one way or the other: if the owner's comes first, the wanting
 * core's load of the gate sees the owner's store (or a later one) and
 * closes it, after it in the gate's modification order; if the wanting
 * core's comes first, the owner's load of the idle word sees the change
 * (or a later one) and the owner closes the gate itself - unless the word
 * said all-busy again by then, when the gate may be open. So once the first
 * wanter's pass is over, every gate is closed and stays so for as long as
 * the word says some core wants work, whoever else starts to want; the
 * owner's next join goes out of line and shares a frame. What stays latent
 * meanwhile is never queued work: it is part of a running task, whose core
 * runs it (join.c, "Why nothing is lost"). model/latent_gate.pml checks this
 * with interrupts in between.
 *
 * Also part of the queue sources (sched/CMakeLists.txt): spinlock.c, which
 * they include, calls the lock hooks.
 */
#include "hive/join_inline.h"

#include <stdbool.h>
#include <stddef.h>

#include "sched/latent_gate.h"
#include "sched/port.h"
#include "sched/sched.h" /* hive_tls_task_worker */

_Thread_local _Atomic(struct hive_latent_stack *) hive_latent_here;

/* The other per-core pointer the interrupt hooks hide (sched/sched.h): here,
 * where hive_latent_here is, because kernel/irq.c's hooks reference both in
 * every board image, one that runs no scheduler too, and this object comes
 * with them (in run.c it would pull the scheduler's run into kernel-only
 * images, for the linker's section garbage collection to trim again). */
_Thread_local _Atomic(struct hive_worker *) hive_tls_task_worker;

static void gate_close(void)
{
    /* relaxed: this core's own gate; see the top for why closing needs no
     * order. */
    atomic_store_explicit(&hive_latent_here, NULL, memory_order_relaxed);
}

static bool wanted(const struct hive_latent_stack *stack)
{
    /* relaxed: the fence before it in hive_latent_gate_reopen orders it where it
     * matters (the top); the first, unfenced look is only a shortcut. */
    return atomic_load_explicit(stack->idle_state, memory_order_relaxed) != stack->all_busy;
}

/* The only way the gate opens (see the top). */
void hive_latent_gate_reopen(struct hive_latent_stack *stack)
{
    if (wanted(stack)) {
        gate_close();
        return;
    }
    /* relaxed: the fence below orders it before the load of the idle word. */
    atomic_store_explicit(&hive_latent_here, stack, memory_order_relaxed);
    /* Pairs with the fence in hive_latent_want (the top). */
    atomic_thread_fence(memory_order_seq_cst);
    if (wanted(stack))
        gate_close();
}

void hive_latent_gate_update(struct hive_latent_stack *stack)
{
    if (stack->may_open && stack->newest != stack->floor)
        hive_latent_gate_reopen(stack);
    else
        gate_close();
}

#ifdef HIVE_DEBUG_CHECKS
/* Per core (only that core touches its entries, as with spinlock.c's
 * counts): whether its gate may be open (a worker runs there), the list a
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
    if (!worker_here[core])
        return;
    /* relaxed: this core's own gate. */
    struct hive_latent_stack *open = atomic_load_explicit(&hive_latent_here, memory_order_relaxed);
    if (!open)
        return;
    closed_by_lock[core] = open;
    closed_at[core] = held_before;
    gate_close();
}

void hive_latent_gate_lock_released(unsigned core, unsigned held_after)
{
    struct hive_latent_stack *closed = closed_by_lock[core];
    if (closed && held_after == closed_at[core]) {
        /* Forgotten before the reopen: an interrupt in between whose
         * handler takes and releases a lock must not reopen the gate
         * inside the handler. */
        closed_by_lock[core] = NULL;
        hive_latent_gate_reopen(closed);
    }
}
#else
#define worker_begins_or_ends(begins) ((void)0)
#endif

void hive_latent_gate_begin(struct hive_latent_stack *stack)
{
    worker_begins_or_ends(true);
#ifdef HIVE_TRACE
    stack->may_open = false;
#else
    stack->may_open = true;
#endif
    /* Closed: no join of a task is in progress yet (newest == floor). */
    gate_close();
    /* release: pairs with the acquire load in hive_latent_want, so a core
     * that reaches this core's gate through it finds the gate's initial
     * value (this thread's thread-local block) written. The gate itself
     * lives as long as this core's thread, which outlives the run. */
    atomic_store_explicit(&stack->gate, &hive_latent_here, memory_order_release);
}

void hive_latent_gate_end(struct hive_latent_stack *stack)
{
    stack->may_open = false;
    /* relaxed: as in begin. A core that loaded the old value may still
     * store NULL into this core's gate: closed anyway. */
    atomic_store_explicit(&stack->gate, NULL, memory_order_relaxed);
    gate_close();
    worker_begins_or_ends(false);
}
