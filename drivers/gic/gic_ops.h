/*
 * Inside the GIC driver (gic.h): one interface with two implementations,
 * GICv2 (gicv2.c) and GICv3 (gicv3.c); probe.c picks one at run time.
 *
 * Every interrupt is configured the same way: one priority, signalled as IRQ
 * (never FIQ), delivered to one core. Handlers do not nest, so priorities
 * only need to be above the priority mask.
 */
#ifndef HIVE_DRIVERS_GIC_OPS_H
#define HIVE_DRIVERS_GIC_OPS_H

#include <stdbool.h>
#include <stdint.h>

#include "drivers/gic/gic.h"

/* Interrupt ids (INTIDs): 0-15 SGIs, 16-31 PPIs (per core), 32-1019 SPIs. */
#define GIC_SGI_COUNT       16
#define GIC_PPI_FIRST       16
#define GIC_SPI_FIRST       32
#define GIC_SPURIOUS_FIRST  1020    /* 1020-1023: nothing to acknowledge */

/* The SGI that wakes a core (the park doorbell). */
#define GIC_SGI_WAKE        0

/* Where the board's GIC lives: what gic_init was given. */
extern const struct gic_config *gic_cfg;

struct gic_ops {
    const char *name;
    /* The interrupt id's bits in an acknowledge value (GICv2 puts the
     * sending core of an SGI above them). */
    uint32_t intid_mask;
    /* Once, on the boot core, before any gic_init_cpu: the distributor. */
    void (*init_dist)(void);
    /* On every core, itself included: its SGIs, PPIs and CPU interface. */
    void (*init_cpu)(unsigned core);
    /* Acknowledge the highest-priority pending interrupt; returns the raw
     * acknowledge value, which gic_end() wants back. */
    uint32_t (*ack)(void);
    void (*end)(uint32_t ack);
    /* Enable or disable one interrupt. SGIs/PPIs: on the calling core. SPIs:
     * everywhere, delivered to core `target` (logical id). */
    void (*enable)(unsigned intid, bool on, unsigned target);
    /* Raise SGI `sgi` on one core (logical id), possibly the calling one. */
    void (*send_sgi)(unsigned core, unsigned sgi);
    /* Number of interrupt ids the distributor implements (SPIs below it). */
    unsigned (*lines)(void);
};

extern const struct gic_ops gicv2_ops, gicv3_ops;

/* The driver in use; valid after gic_probe(). */
extern const struct gic_ops *gic;

/* Choose GICv2 or GICv3 (boot core, once). Panics if neither is there. */
void gic_probe(void);

static inline unsigned gic_intid(uint32_t ack) { return ack & gic->intid_mask; }

/* Each GIC register block is Device memory; 32-bit and 64-bit accessors. */
static inline volatile uint32_t *gic_reg32(uintptr_t base, unsigned off)
{
    return (volatile uint32_t *)(base + off);
}
static inline volatile uint64_t *gic_reg64(uintptr_t base, unsigned off)
{
    return (volatile uint64_t *)(base + off);
}
static inline volatile uint8_t *gic_reg8(uintptr_t base, unsigned off)
{
    return (volatile uint8_t *)(base + off);
}

/* Priority of every interrupt, and the mask that lets all of them through
 * (0xf0: the coarsest mask every implementation has, at least 16 levels). */
#define GIC_PRIORITY        0xa0
#define GIC_PRIORITY_MASK   0xf0

#endif
