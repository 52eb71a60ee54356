/*
 * Device interrupts for firmware (bare-metal boards only).
 *
 *   static void on_rx(unsigned irq, void *arg)
 *   {
 *       struct uart *u = arg;
 *       quiet(u);
 *       int err = hive_spawn(&u->drain_task, drain);  // one task drains all that came
 *       assert(err == HIVE_OK || err == HIVE_EBUSY);  // EBUSY: it is still queued
 *   }
 *   ...
 *   if (hive_irq_attach(UART_IRQ, on_rx, &uart) != HIVE_OK)
 *       ... // EINVAL: not a device line of this board; EBUSY: it has a handler
 *
 * A handler runs in interrupt context, interrupts masked, on the core that
 * attached it (the line is routed to that core alone). It may call
 * hive_spawn, hive_spawn_fn (from a handler they go to the global injection
 * queue, which is interrupt-safe) and hive_after; it must not wait (no join,
 * group or run). It must quiet its device before returning: a line that is
 * still asserted fires again.
 */
#ifndef HIVE_IRQ_H
#define HIVE_IRQ_H

#include <stdbool.h>

#include "hive/hive.h"

typedef void hive_irq_handler(unsigned irq, void *arg);

/*
 * Route device line irq (the controller's own number: PLIC source id on
 * riscv64, GIC INTID on aarch64) to the calling core and run handler(irq,
 * arg) on every interrupt from it.
 * An interrupt a core claimed before the line was detached and attached
 * again elsewhere is not handed to the new handler: it ran nowhere.
 *   HIVE_EINVAL  handler is NULL, or irq is not a device line of this board
 *                (the handler was never called, and will not be: arg is
 *                the caller's again; such a refusal may wait, as a detach
 *                does, for another core's dispatch of that number to end).
 *   HIVE_EBUSY   irq already has a handler (or its detach, or a refused
 *                attach of it, is still waiting as above).
 */
HIVE_MUST_CHECK int hive_irq_attach(unsigned irq, hive_irq_handler *handler, void *arg);

/*
 * Disable irq and forget its handler. Returns once the handler is not
 * running on any core and will not be called again (from inside the handler
 * itself: at once), so arg is the caller's again and irq may be attached
 * anew. It waits for a handler running on another core: never call it
 * holding a spinlock that handler takes, nor from a handler for a line
 * whose handler may in turn be detaching this one's (nor around any longer
 * cycle of handlers detaching each other's lines).
 *   HIVE_EINVAL  irq has no handler.
 */
HIVE_MUST_CHECK int hive_irq_detach(unsigned irq);

/* True while the calling core runs an interrupt handler. */
bool hive_in_interrupt(void);

#endif
