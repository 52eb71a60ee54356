/*
 * The dispatcher: the arch's interrupt path claims a source (from the
 * board's controller, or the hart's own) and hands it to hive_kernel_irq(),
 * which counts it, marks the core as in interrupt context and calls whoever
 * owns the source - nobody for the doorbell, the timer queue
 * (kernel/timer.c) for the timer, the attached handler for a device line.
 * The arch completes the line after.
 */
#include <stdatomic.h>
#include <stdbool.h>

#include "kernel/console.h"
#include "kernel/irq.h"
#include "kernel/kernel.h"
#include "kernel/timer.h"
#include "hive/spinlock.h"
#include "sched/sched.h" /* the trace points (sched/trace.h), the interrupt hooks */

/*
 * A line's handler, arg and core are written by attach under attach_lock and
 * read by device() without it; device() calls the handler only on the core
 * that attached it (where the line is routed). A handler that device()
 * has looked up must run with its own arg, never a later attach's, and
 * detach must not return while it runs elsewhere (its caller may free arg
 * or attach anew). So device() counts itself in `running` before it looks,
 * and detach, once the handler is gone, waits for `running` to drop to zero
 * - a store-then-load handshake (docs/ordering.md): device() adds itself,
 * then reads fn; detach takes fn away, then reads running. Either device()
 * finds no handler, or detach waits for it. While it waits the line's fn is
 * DETACHING, not NULL: an attach meanwhile (another core) is refused, so
 * none writes arg under a handler still reading the old one; detach clears
 * fn once no handler runs.
 */
struct irq_line {
    _Atomic(hive_irq_handler *) fn;
    void *arg;
    unsigned core;
    _Atomic unsigned running; /* device() calls inside, on any core */
};

/* Per core, written only by that core. */
struct irq_core {
    _Alignas(64) _Atomic uint64_t n[4];    /* counts, by source kind */
    unsigned depth;                         /* handlers running (0 or 1) */
    unsigned line;                          /* the device line device() is in, else HIVE_IRQ_LINES */
};

/* A line's fn while a detach (or an attach the route refused) waits for
 * its handlers: busy to attach, no handler to device(). Never called. */
static void detaching(unsigned irq, void *arg) { (void)irq, (void)arg; }
#define DETACHING (&detaching)

static struct irq_line lines[HIVE_IRQ_LINES];
static struct irq_core cores[HIVE_MAX_CORES];
/* Serialises attach, detach and an unclaimed interrupt's route-off
 * (device()). It masks interrupts, so a handler may attach or detach too
 * without deadlocking against the task it interrupted. */
static struct hive_spinlock attach_lock = HIVE_SPINLOCK_INIT;

enum { C_DOORBELL, C_TIMER, C_DEVICE, C_UNHANDLED };

static void count(unsigned what)
{
    /* relaxed: a statistic; readers want a recent value, not an ordering. */
    atomic_fetch_add_explicit(&cores[hive_cpu_id()].n[what], 1, memory_order_relaxed);
}

void hive_irq_init(void)
{
    board_irq_init();
}

void hive_irq_cpu_init(void)
{
    cores[hive_cpu_id()].line = HIVE_IRQ_LINES;
    hive_timer_cpu_init();
    arch_irq_init_cpu();
    board_irq_init_cpu(hive_cpu_id());
    arch_irq_unmask();
}

static void device(unsigned irq)
{
    if (irq < HIVE_IRQ_LINES) {
        struct irq_line *l = &lines[irq];
        struct irq_core *c = &cores[hive_cpu_id()];
        c->line = irq;
        /* relaxed, then the fence: our half of the handshake with detach
         * (the top) - counted, then the look. */
        atomic_fetch_add_explicit(&l->running, 1, memory_order_relaxed);
        atomic_thread_fence(memory_order_seq_cst);
        /* acquire: pairs with the release store in hive_irq_attach, so the
         * handler's arg and core are the ones attached with it (no later
         * attach writes them while we are counted). */
        hive_irq_handler *fn = atomic_load_explicit(&l->fn, memory_order_acquire);
        /* Only on the core that attached it, where its line is routed. This
         * core may have claimed an interrupt of the line before a detach
         * and an attach on another core (the claim comes before our count):
         * that interrupt was the old handler's, which is gone, and the new
         * one runs where it was attached - never here, where it could even
         * start before its attach has returned. It goes the unclaimed way
         * below, which leaves a line attached again on. */
        bool handled = fn && fn != DETACHING && l->core == hive_cpu_id();
        if (handled) {
            count(C_DEVICE);
            fn(irq, l->arg);
            /* Its unfinished line ends with it (kernel/console.c). */
            hive_console_handler_end();
        }
        c->line = HIVE_IRQ_LINES; /* a timer callback after us is no handler of irq */
        /* release: pairs with detach's acquire look at running, so the
         * handler's accesses to arg come before detach returns. */
        atomic_fetch_sub_explicit(&l->running, 1, memory_order_release);
        if (handled)
            return;
    }
    /* Nobody here wants it (detached meanwhile, never routed here, or
     * attached again on another core after our claim): turn it off, or a
     * level-triggered line would fire for ever - unless it has a handler
     * (again) at the second look: turning it off then would silence that
     * handler's line for good (a route off disables the line for every
     * core). The look is under attach_lock, which every attach and detach
     * holds. (A line being detached is off already; one whose attach the
     * route refused has no route to turn off.) */
    count(C_UNHANDLED);
    if (irq < HIVE_IRQ_LINES) {
        unsigned long saved = hive_spin_lock(&attach_lock);
        /* relaxed: attach_lock orders every writer of fn. */
        if (!atomic_load_explicit(&lines[irq].fn, memory_order_relaxed))
            board_irq_route(irq, hive_cpu_id(), false);
        hive_spin_unlock(&attach_lock, saved);
    } else {
        board_irq_route(irq, hive_cpu_id(), false);
    }
}

void hive_kernel_irq(int source)
{
    /* Another core panicked (kernel/panic.c): stop here. relaxed: a
     * doorbell sent after the seq_cst store brought us. */
    if (atomic_load_explicit(&hive_halting, memory_order_relaxed))
        arch_halt();
    struct irq_core *c = &cores[hive_cpu_id()];
    c->depth++;
    struct hive_sched_interrupted sched_saved = hive_sched_interrupt_enter();
    HIVE_TRACE_EVENT(HIVE_TRACE_IRQ, (unsigned)source, 0);
    if (source == HIVE_IRQ_DOORBELL) {
        /* Nothing to do: taking it was its whole purpose (it ended a WFI,
         * or made a core that was about to sleep look again). */
        count(C_DOORBELL);
    } else if (source == HIVE_IRQ_TIMER) {
        count(C_TIMER);
        hive_timer_irq();
    } else {
        device((unsigned)source);
    }
    HIVE_TRACE_EVENT(HIVE_TRACE_IRQ_END, (unsigned)source, 0);
    hive_sched_interrupt_exit(sched_saved);
    c->depth--;
}

/* After a detach (or a refused attach) took the line's handler away: wait
 * until no device() call that may have found it is still inside (the top) -
 * but for the caller itself, when it is that line's handler (device() is
 * inside for irq on this core). Out of attach_lock: a handler on another
 * core may be attaching or detaching a line itself. */
static void wait_for_handlers(unsigned irq)
{
    unsigned self = cores[hive_cpu_id()].line == irq;
    /* Detach's half of the handshake: fn taken away, then the look. */
    atomic_thread_fence(memory_order_seq_cst);
    /* acquire: pairs with the release decrement in device(). */
    while (atomic_load_explicit(&lines[irq].running, memory_order_acquire) > self)
        arch_cpu_relax();
}

/* A line made DETACHING (by a detach, or an attach the route refused):
 * once no device() that may have found its handler is inside, it is free
 * (NULL) and the caller may return. */
static void settle(unsigned irq)
{
    wait_for_handlers(irq);
    unsigned long saved = hive_spin_lock(&attach_lock);
    /* relaxed: attach_lock orders every writer of fn, and a device() that
     * loads NULL reads nothing behind it (it goes the unclaimed way). */
    atomic_store_explicit(&lines[irq].fn, NULL, memory_order_relaxed);
    hive_spin_unlock(&attach_lock, saved);
}

int hive_irq_attach(unsigned irq, hive_irq_handler *handler, void *arg)
{
    if (!handler || irq >= HIVE_IRQ_LINES)
        return HIVE_EINVAL;
    int err = HIVE_OK;
    unsigned long saved = hive_spin_lock(&attach_lock);
    /* relaxed: attach_lock orders every writer of fn. */
    if (atomic_load_explicit(&lines[irq].fn, memory_order_relaxed)) {
        err = HIVE_EBUSY;
    } else {
        lines[irq].arg = arg;
        lines[irq].core = hive_cpu_id();
        /* release: pairs with the acquire load in device(). Before the
         * route, so the first interrupt finds its handler. */
        atomic_store_explicit(&lines[irq].fn, handler, memory_order_release);
        if (board_irq_route(irq, lines[irq].core, true) != 0) {
            /* Never routed. But a controller may deliver a source it
             * cannot route (a GIC's SGIs and PPIs, one left enabled by
             * the firmware), and a device() on another core may have
             * found the handler since the store: it does not call it (not
             * its core), yet it reads core. So, as a detach: DETACHING,
             * busy to attach, until no device() is inside; then NULL.
             * relaxed: attach_lock orders the writers of fn, and
             * DETACHING gives device() nothing to read. */
            atomic_store_explicit(&lines[irq].fn, DETACHING, memory_order_relaxed);
            err = HIVE_EINVAL;
        }
    }
    hive_spin_unlock(&attach_lock, saved);
    if (err == HIVE_EINVAL)
        settle(irq);
    return err;
}

int hive_irq_detach(unsigned irq)
{
    if (irq >= HIVE_IRQ_LINES)
        return HIVE_EINVAL;
    int err = HIVE_OK;
    unsigned long saved = hive_spin_lock(&attach_lock);
    /* relaxed: attach_lock orders every writer of fn. */
    hive_irq_handler *fn = atomic_load_explicit(&lines[irq].fn, memory_order_relaxed);
    if (!fn || fn == DETACHING) {
        err = HIVE_EINVAL;
    } else {
        /* Line off first, so no new interrupt looks for the handler.
         * relaxed (this store and the NULL below): attach_lock orders the
         * writers of fn, and device() takes nothing from DETACHING or NULL
         * but "no handler" - it reads no arg with them. */
        board_irq_route(irq, lines[irq].core, false);
        atomic_store_explicit(&lines[irq].fn, DETACHING, memory_order_relaxed);
    }
    hive_spin_unlock(&attach_lock, saved);
    if (err != HIVE_OK)
        return err;
    settle(irq);
    return HIVE_OK;
}

bool hive_in_interrupt(void)
{
    /* Plain access: only this core writes its depth, and an interrupt
     * always puts it back before the code it interrupted runs again. */
    return cores[hive_cpu_id()].depth != 0;
}

void hive_irq_counts(unsigned core, struct hive_irq_counts *out)
{
    /* relaxed: statistics (see count()). */
    out->doorbells = atomic_load_explicit(&cores[core].n[C_DOORBELL], memory_order_relaxed);
    out->timers = atomic_load_explicit(&cores[core].n[C_TIMER], memory_order_relaxed);
    out->devices = atomic_load_explicit(&cores[core].n[C_DEVICE], memory_order_relaxed);
    out->unhandled = atomic_load_explicit(&cores[core].n[C_UNHANDLED], memory_order_relaxed);
}
