/*
 * The common interrupt layer (kernel/irq.c): bring-up, the dispatcher the
 * arch calls (hive_kernel_irq, kernel/platform.h), device handlers
 * (include/hive/irq.h) and per-core counts for tests and figures.
 */
#ifndef HIVE_KERNEL_IRQ_H
#define HIVE_KERNEL_IRQ_H

#include <stdbool.h>
#include <stdint.h>

#include "hive/irq.h"

/* Device lines the handler table covers; a board may say fewer. */
#ifndef HIVE_IRQ_LINES
#define HIVE_IRQ_LINES 1024
#endif

/* Boot core, once, before the other cores start. */
void hive_irq_init(void);
/* Every core, before main() or the wait for work: set up, then unmask. */
void hive_irq_cpu_init(void);

/* What one core's interrupt path has handled so far. */
struct hive_irq_counts {
    uint64_t doorbells;     /* HIVE_IRQ_DOORBELL */
    uint64_t timers;        /* HIVE_IRQ_TIMER */
    uint64_t devices;       /* device lines with a handler */
    uint64_t unhandled;     /* device lines with none here (then disabled, unless
                               attached again, maybe on another core) */
};
void hive_irq_counts(unsigned core, struct hive_irq_counts *out);

/* Park by polling the wake word instead of sleeping (kernel/port.c): only
 * to measure what the deep sleep saves (apps/idle_spin). */
extern bool hive_park_spin;

/* The first phase of core's parks, as found when it came up: "wfe"
 * (aarch64), "wrs.nto" (riscv64 with Zawrs) or "none" (riscv64 without). */
const char *hive_park_phase1_name(unsigned core);

/* How many times core has gone into its deep sleep (WFI) while parked. */
uint64_t hive_park_deep_sleeps(unsigned core);

/* Drop the wake pending for the calling core, if any: its next
 * hive_port_wait then waits for a wake sent from now on. */
void hive_park_spend_wake(void);

/* Whether core is in its deep sleep now, inside hive_port_wait: past all
 * that its park did before it waits (the idle protocol's rescan among it).
 * A test's look, stale as soon as read. */
bool hive_park_sleeping(unsigned core);

#endif
