/*
 * hive_join's inline part (hive/hive.h includes this; use hive_join only).
 *
 * Not API: the structs and the out-of-line calls below are how the inline
 * join reaches the scheduler, and may change with any release. They are
 * public only because a join that costs about a function call must be
 * compiled into its caller: there fa and fb are known functions, the frame
 * is three stores into the caller's own stack frame, and nothing is called
 * that the work itself does not call.
 *
 * A join's second half starts latent: linked onto its core's latent list
 * (struct hive_latent_stack) with plain stores, private to the core, and
 * made stealable only when some core wants work (sched/join.c, "Latent
 * frames", has the whole design and why nothing is lost). The inline path
 * below is that design's common case and nothing else: a join nested in
 * another join of the same task, on a core in task context, while no core
 * wants work. It links the frame, runs fa, unlinks it and runs fb itself if
 * the frame is still latent. It tests nothing else: every other case - a
 * task's first join (offered at once), a core wanting work, a call from an
 * interrupt handler or outside a run, bad arguments - finds the gate closed
 * and goes out of line to the same code the inline path is a part of
 * (sched/join.c).
 *
 * The gate is the calling core's hive_latent_here: NULL whenever the inline
 * path must not run. It is open (the core's latent list) while a worker runs
 * a task that has a join of its own in progress on this core and no core
 * wants work; it is closed in an interrupt handler, outside a run, in a
 * build that traces the scheduler (every join is then recorded out of
 * line), and, where the library checks its ownership rules, while a
 * spinlock is held (so a join under a lock always reaches the check that
 * refuses it). A core that starts to want work closes every other core's
 * gate (sched/latent_gate.c keeps it and says why no want is missed).
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
    /* The frame recorded before this one on the same core (older, further
     * up the stack), or 0; bit 0 set once this frame has been shared. */
    uintptr_t below;
    /* From here on, set only when the frame is shared (pushed to the core's
     * fork-join deque): a latent frame is fn, arg and below. */
    struct hive_task task;
    uint32_t deque_index; /* where in its core's deque it was pushed */
    _Atomic int thief;    /* core that took the frame, or -1 */
    /* 1 until a thief has run fn, then 0; the joiner may sleep on it. */
    _Atomic unsigned long remaining;
};

/* Bit 0 of a frame's `below`: the frame has been pushed to the deque. */
#define HIVE_JOIN_FRAME_SHARED ((uintptr_t)1)

/* One core's latent list. Only its core reads or writes it. */
struct hive_latent_stack {
    /* The newest join frame in progress on this core (NULL: none); the
     * others follow through `below`, newest first. Those at and below
     * `floor` belong to the tasks this core's waits are nested in. */
    struct hive_join_frame *newest, *floor;
    /* Joins the inline path ran wholly here (counted into the statistics'
     * tasks_run and joins_inline when the run ends). */
    uint64_t inline_joins;
    /* The rest is the out-of-line code's (sched/latent_gate.c). */
    /* The owner's hive_latent_here while a worker runs there, else NULL:
     * where a core that starts to want work closes the gate. */
    _Atomic(_Atomic(struct hive_latent_stack *) *) gate;
    /* The idle state's word, and its value while every core is awake and
     * none searches: any other value means some core wants work. */
    const _Atomic uint64_t *idle_state;
    uint64_t all_busy;
    _Bool may_open; /* a worker runs here, in a build that does not trace */
};

/* The calling core's latent list while the inline path may use it, else
 * NULL (see the top). Other cores may close it (store NULL). */
extern _Thread_local _Atomic(struct hive_latent_stack *) hive_latent_here;

/* The whole join, out of line: every case the inline path leaves. */
HIVE_MUST_CHECK int hive_join_full(void (*fa)(void *a), void *a, void (*fb)(void *b), void *b);
/* An inline join whose frame was shared while fa ran - the stack's newest
 * frame once fa has returned: unlink it, take it back and run it, or wait
 * for the core that took it. */
HIVE_MUST_CHECK int hive_join_shared(struct hive_latent_stack *stack);

HIVE_MUST_CHECK static inline int hive_join(void (*fa)(void *a), void *a,
                                            void (*fb)(void *b), void *b)
{
    /* relaxed: the gate is this core's; another core only ever closes it,
     * and a join that still finds it open loses nothing (latent_gate.c). */
    struct hive_latent_stack *stack = atomic_load_explicit(&hive_latent_here, memory_order_relaxed);
    if (stack && fa && fb) {
        struct hive_join_frame f;
        f.fn = fb;
        f.arg = b;
        f.below = (uintptr_t)stack->newest;
        stack->newest = &f;
        fa(a);
        /* Everything fa joined has been joined: the list is back at our
         * frame. Only out-of-line code, which fa must have called, shares a
         * frame: it sets bit 0 of `below`. */
        uintptr_t below = f.below;
        if (!(below & HIVE_JOIN_FRAME_SHARED)) {
            /* Still latent: nobody else ever saw it. */
            stack->newest = (struct hive_join_frame *)below;
            stack->inline_joins++;
            fb(b);
            return 0; /* HIVE_OK */
        }
        return hive_join_shared(stack);
    }
    return hive_join_full(fa, a, fb, b);
}

#endif
