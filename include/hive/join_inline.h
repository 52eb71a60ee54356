/*
 * hive_join's inline part (hive/hive.h includes this; use hive_join only).
 *
 * Not API: the structs and the two out-of-line calls below are how the
 * inline join reaches the scheduler, and may change with any release. They
 * are public only because a join that costs about a function call must be
 * compiled into its caller: there fa and fb are known functions, the frame
 * is two stores into the caller's own stack frame, and nothing is called
 * that the work itself does not call.
 *
 * A join's second half starts latent: recorded on its core's latent stack
 * (struct hive_latent_stack) with plain stores, private to the core, and
 * made stealable only when some core wants work (sched/join.c, "Latent
 * frames", has the whole design and why nothing is lost). The inline path
 * below is that design's common case and nothing else: a join nested in
 * another join of the same task, on a core in task context, while no core
 * wants work. It records the frame, runs fa, and runs fb itself if the frame
 * is still latent. Everything else - a task's first join (offered at once),
 * a core wanting work, a stack HIVE_LATENT_CAP deep, a frame that was shared
 * meanwhile, a call from an interrupt handler or outside a run, bad
 * arguments - goes out of line to the same code the inline path is a part
 * of (sched/join.c).
 *
 * The gate is the calling core's hive_latent_here: NULL whenever the inline
 * path must not run. It is set while a worker runs tasks, and NULL in an
 * interrupt handler, outside a run, in a build that traces the scheduler
 * (every join is then recorded out of line), and, where the library checks
 * its ownership rules, while a spinlock is held (so a join under a lock
 * always reaches the check that refuses it). sched/latent_gate.c keeps it.
 */
#ifndef HIVE_JOIN_INLINE_H
#define HIVE_JOIN_INLINE_H

#include <stdatomic.h>
#include <stdint.h>

#include "hive/attributes.h"
#include "hive/task.h"

/* A join's second half, on the joiner's stack. */
struct hive_join_frame {
    void (*fn)(void *);
    void *arg;
    /* From here on, set only when the frame is shared (pushed to the core's
     * fork-join deque): a latent frame is just fn and arg. */
    struct hive_task task;
    uint32_t deque_index; /* where in its core's deque it was pushed */
    _Atomic int thief;    /* core that took the frame, or -1 */
    /* 1 until a thief has run fn, then 0; the joiner may sleep on it. */
    _Atomic unsigned long remaining;
};

/* Joins nested on one core's stack that can stay latent; a deeper join runs
 * both halves inline. */
#define HIVE_LATENT_CAP 128u

/* One core's latent join stack. Only its core reads or writes it. */
struct hive_latent_stack {
    /* frames[0..top) are the joins running on this core's stack, oldest
     * first; [0..shared) of them have been pushed to the deque; those under
     * `floor` belong to tasks this core's waits are nested in. */
    uint32_t top, shared, floor;
    /* The inline path may record at slot `top` when top - fast_from <
     * fast_span, that is floor < top < HIVE_LATENT_CAP: kept beside floor
     * so the test is one subtraction and one comparison. */
    uint32_t fast_from, fast_span;
    /* The idle state's word, and its value while every core is awake and
     * none searches: any other value means some core wants work. */
    const _Atomic uint64_t *idle_state;
    uint64_t all_busy;
    /* Joins the inline path ran wholly here (counted into the statistics'
     * tasks_run and joins_inline when the run ends). */
    uint64_t inline_joins;
    struct hive_join_frame *frames[HIVE_LATENT_CAP];
};

/* The calling core's latent stack while the inline path may use it, else
 * NULL (see the top). */
extern _Thread_local struct hive_latent_stack *hive_latent_here;

/* The whole join, out of line: every case the inline path leaves. */
HIVE_MUST_CHECK int hive_join_full(void (*fa)(void *a), void *a, void (*fb)(void *b), void *b);
/* An inline join whose frame f, at `slot`, was shared while fa ran: take
 * it back and run it, or wait for the core that took it. */
HIVE_MUST_CHECK int hive_join_shared(struct hive_latent_stack *stack, struct hive_join_frame *f,
                                     uint32_t slot);

HIVE_MUST_CHECK static inline int hive_join(void (*fa)(void *a), void *a,
                                            void (*fb)(void *b), void *b)
{
    struct hive_latent_stack *stack = hive_latent_here;
    if (stack && fa && fb) {
        uint32_t slot = stack->top;
        /* relaxed: a hint; sched/idle.h (hive_idle_wanted) says why a stale
         * value loses nothing. */
        if (slot - stack->fast_from < stack->fast_span &&
            atomic_load_explicit(stack->idle_state, memory_order_relaxed) == stack->all_busy) {
            struct hive_join_frame f;
            f.fn = fb;
            f.arg = b;
            stack->frames[slot] = &f;
            stack->top = slot + 1;
            fa(a);
            /* Everything fa joined has been joined: the stack is back at
             * our frame. */
            stack->top = slot;
            if (slot >= stack->shared) {
                /* Still latent: nobody else ever saw it. */
                stack->inline_joins++;
                fb(b);
                return 0; /* HIVE_OK */
            }
            return hive_join_shared(stack, &f, slot);
        }
    }
    return hive_join_full(fa, a, fb, b);
}

#endif
