/*
 * GICv2 (Arm IHI 0048B): a memory-mapped distributor shared by all cores and
 * a memory-mapped CPU interface that each core sees at the same address
 * (banked per core), as are the distributor's registers for INTIDs 0-31.
 *
 * Groups: with the Security Extensions absent (QEMU virt without secure=on)
 * every interrupt stays in Group 0, which GICC_CTLR.FIQEn = 0 signals as IRQ;
 * in the Non-secure view of a GIC that has them (a real board's firmware put
 * our interrupts in Group 1), bit 0 of both control registers enables Group 1
 * instead. Writing 1 to bit 0 is right in both cases, and IGROUPR is left as
 * it is.
 */
#include <stdatomic.h>

#include "drivers/gic/gic_ops.h"
#include "kernel/kernel.h"

#define GICD_CTLR       0x000
#define GICD_TYPER      0x004
#define GICD_ISENABLER  0x100
#define GICD_ICENABLER  0x180
#define GICD_ICPENDR    0x280
#define GICD_ICACTIVER  0x380
#define GICD_IPRIORITYR 0x400
#define GICD_ITARGETSR  0x800
#define GICD_SGIR       0xf00
#define GICD_CPENDSGIR  0xf10

#define GICC_CTLR       0x00
#define GICC_PMR        0x04
#define GICC_BPR        0x08
#define GICC_IAR        0x0c
#define GICC_EOIR       0x10

#define CTLR_ENABLE     1u              /* Group 0, or Group 1 in the Non-secure view */
#define SGIR_TO_LIST    (0u << 24)      /* TargetListFilter: the cores in CPUTargetList */
#define SGIR_TO_SELF    (2u << 24)      /* TargetListFilter: only the requesting core */

#define DIST(off)       gic_reg32(gic_cfg->dist, off)
#define CPUIF(off)      gic_reg32(gic_cfg->cpu, off)

/*
 * CPU interface number of each core, as a one-bit target mask for
 * GICD_SGIR and GICD_ITARGETSR. It need not equal MPIDR.Aff0, so each core
 * reads its own from the banked GICD_ITARGETSR0 (which reads as the reading
 * core's mask) during its init.
 */
static _Atomic uint8_t cpu_mask[HIVE_MAX_CORES];

static unsigned v2_lines(void)
{
    /* TYPER.ITLinesNumber N: 32 * (N + 1) interrupt ids, 1020 at most. */
    unsigned n = 32 * ((*DIST(GICD_TYPER) & 0x1f) + 1);
    return n > GIC_SPURIOUS_FIRST ? GIC_SPURIOUS_FIRST : n;
}

static void v2_init_dist(void)
{
    unsigned lines = v2_lines();
    *DIST(GICD_CTLR) = 0;
    /* Every SPI off, not pending, not active, at the common priority; each
     * is enabled and routed when a handler is attached. */
    for (unsigned i = GIC_SPI_FIRST; i < lines; i += 32) {
        *DIST(GICD_ICENABLER + i / 8) = ~0u;
        *DIST(GICD_ICPENDR + i / 8) = ~0u;
        *DIST(GICD_ICACTIVER + i / 8) = ~0u;
    }
    for (unsigned i = GIC_SPI_FIRST; i < lines; i++)
        *gic_reg8(gic_cfg->dist, GICD_IPRIORITYR + i) = GIC_PRIORITY;
    *DIST(GICD_CTLR) = CTLR_ENABLE;
}

static void v2_init_cpu(unsigned core)
{
    /* Banked: this core's SGIs and PPIs. All off, then the ones we use on. */
    *DIST(GICD_ICENABLER) = ~0u;
    *DIST(GICD_ICPENDR) = ~0u;          /* PPIs; SGIs ignore it and have CPENDSGIR */
    for (unsigned i = 0; i < GIC_SGI_COUNT; i += 4)
        *DIST(GICD_CPENDSGIR + i) = ~0u;
    for (unsigned i = 0; i < GIC_SPI_FIRST; i++)
        *gic_reg8(gic_cfg->dist, GICD_IPRIORITYR + i) = GIC_PRIORITY;

    uint8_t mask = *gic_reg8(gic_cfg->dist, GICD_ITARGETSR);
    /* A GIC with one CPU interface has ITARGETSR RAZ/WI: any mask will do. */
    if (!mask && (*DIST(GICD_TYPER) >> 5 & 7) == 0)
        mask = 1;
    /* release: pairs with the acquire load in target_mask on other cores. */
    atomic_store_explicit(&cpu_mask[core], mask, memory_order_release);

    *CPUIF(GICC_PMR) = GIC_PRIORITY_MASK;
    *CPUIF(GICC_BPR) = 0;               /* no preemption groups matter: handlers never nest */
    *CPUIF(GICC_CTLR) = CTLR_ENABLE;    /* EOImode 0: EOIR drops priority and deactivates */
}

static uint32_t v2_ack(void)
{
    return *CPUIF(GICC_IAR);
}

static void v2_end(uint32_t ack)
{
    /* The whole IAR value: for an SGI the source core is part of its identity. */
    *CPUIF(GICC_EOIR) = ack;
}

static uint8_t target_mask(unsigned core)
{
    /* acquire: pairs with the release store in v2_init_cpu. */
    uint8_t m = atomic_load_explicit(&cpu_mask[core], memory_order_acquire);
    if (!m)
        hive_panic("gicv2: core %u has no CPU interface mask (not initialised?)", core);
    return m;
}

static void v2_enable(unsigned intid, bool on, unsigned target)
{
    unsigned word = intid / 32 * 4, bit = 1u << (intid % 32);
    if (!on) {
        *DIST(GICD_ICENABLER + word) = bit;
        return;
    }
    /* ITARGETSR is read-only for SGIs and PPIs: they belong to one core. */
    if (intid >= GIC_SPI_FIRST)
        *gic_reg8(gic_cfg->dist, GICD_ITARGETSR + intid) = target_mask(target);
    *DIST(GICD_ISENABLER + word) = bit;
}

static void v2_send_sgi(unsigned core, unsigned sgi)
{
    uint32_t sgir = sgi;
    if (core == hive_cpu_id())
        sgir |= SGIR_TO_SELF;
    else
        sgir |= SGIR_TO_LIST | (uint32_t)target_mask(core) << 16;
    /*
     * The caller's stores (the wake word) must be visible to the target
     * before the SGI that tells it to look. GICD_SGIR is a Device-memory
     * write, so even a DMB ISHST orders it after those stores for every
     * observer in the inner-shareable domain; whether the distributor, which
     * raises the SGI, is such an observer is up to the implementation. A DSB
     * does not depend on it: no instruction after it - the SGIR write
     * included - executes until the earlier stores are complete, that is,
     * visible to every core in the inner-shareable domain (ISH), the target
     * among them. Stores only (ST): the wake word is a store. One barrier a
     * doorbell.
     */
    __asm__ volatile("dsb ishst" : : : "memory");
    *DIST(GICD_SGIR) = sgir;
}

const struct gic_ops gicv2_ops = {
    .name = "GICv2",
    .intid_mask = 0x3ff,
    .init_dist = v2_init_dist,
    .init_cpu = v2_init_cpu,
    .ack = v2_ack,
    .end = v2_end,
    .enable = v2_enable,
    .send_sgi = v2_send_sgi,
    .lines = v2_lines,
};
