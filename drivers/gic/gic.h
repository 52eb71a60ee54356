/*
 * The Arm Generic Interrupt Controller as a board's interrupt controller
 * (kernel/board.h, "interrupt controller"): GICv2 (memory-mapped CPU
 * interface, QEMU virt's default, 8 cores at most) or GICv3 (a
 * redistributor per core, system-register CPU interface, QEMU virt's
 * gic-version=3), probed at run time, so one image runs on either.
 *
 * It carries all three kinds of interrupt a core takes: device lines (SPIs,
 * INTID 32-1019, routed to one core each), the doorbell (SGI 0) and the
 * core's generic timer (a PPI, which the board names). One GIC per image:
 * gic_init remembers the configuration.
 */
#ifndef HIVE_DRIVERS_GIC_H
#define HIVE_DRIVERS_GIC_H

#include <stdbool.h>
#include <stdint.h>

struct gic_config {
    uintptr_t dist;         /* distributor (both versions) */
    uintptr_t cpu;          /* GICv2 CPU interface */
    uintptr_t redist;       /* GICv3 first redistributor */
    unsigned timer_intid;   /* the PPI of the EL1 virtual timer (arch/aarch64/timer.c) */
};

/* Boot core, once, interrupts masked: choose GICv2 or GICv3 (panics if the
 * distributor is neither), then every SPI off, idle, at one priority. */
void gic_init(const struct gic_config *cfg);
/* Every core, itself, masked: its CPU interface, SGIs and PPIs; the
 * doorbell SGI and the timer's PPI enabled. */
void gic_init_cpu(unsigned core);
/* Enable (on) or disable SPI `line`, delivered to `core` only. Turning off
 * a stray SGI or PPI on the calling core is allowed too. Returns 0, or -1
 * for a line the GIC cannot route. */
int gic_route(unsigned line, unsigned core, bool on);
/* Raise the doorbell SGI on `core` (the caller's earlier stores first). */
void gic_doorbell(unsigned core);
/* Acknowledge the highest-priority pending interrupt of this core: returns
 * its canonical source (kernel/board.h) or HIVE_IRQ_NONE, and in *ack what
 * gic_complete wants back. */
int gic_claim(uint32_t *ack);
void gic_complete(uint32_t ack);

/* Make SPI `line` pending (set) or not (clear) from software, as if its
 * device had raised it: a test interrupt for a board whose devices cannot
 * interrupt at will (rpi4). A pending SPI is taken once: the acknowledge
 * clears the pending state of a line no device holds. Returns 0, or -1 for
 * a line that is no SPI. */
int gic_spi_set_pending(unsigned line, bool pending);

#endif
