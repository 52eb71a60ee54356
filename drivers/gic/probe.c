/*
 * Which GIC: probed, not configured, so one image runs on QEMU virt with
 * either gic-version.
 *
 * A GICv3 is in use when the core implements the GIC system registers
 * (ID_AA64PFR0_EL1.GIC; QEMU sets it only when the machine has a GICv3) and
 * ICC_SRE_EL1.SRE sticks at 1 once written, i.e. the system-register
 * interface is really enabled for EL1. Either way the distributor's
 * architecture revision (GICD_PIDR2.ArchRev, at the offset of that version)
 * must agree, which also catches a board map that points at no GIC at all.
 */
#include <stdint.h>

#include "drivers/gic/gic_ops.h"
#include "kernel/kernel.h"

#define ID_AA64PFR0_GIC_SHIFT   24
#define GICV2_PIDR2             0xfe8
#define GICV3_PIDR2             0xffe8

const struct gic_ops *gic;

static unsigned arch_rev(unsigned pidr2_off)
{
    return (*gic_reg32(gic_cfg->dist, pidr2_off) >> 4) & 0xf;
}

static int has_gicv3_sysregs(void)
{
    uint64_t pfr0, sre;
    __asm__ volatile("mrs %0, id_aa64pfr0_el1" : "=r"(pfr0));
    if (!((pfr0 >> ID_AA64PFR0_GIC_SHIFT) & 0xf))
        return 0;
    __asm__ volatile("mrs %0, S3_0_C12_C12_5" : "=r"(sre));
    __asm__ volatile("msr S3_0_C12_C12_5, %0" : : "r"(sre | 1));
    /* isb: the write to ICC_SRE_EL1 is in effect before it is read back. */
    __asm__ volatile("isb\n\tmrs %0, S3_0_C12_C12_5" : "=r"(sre));
    return sre & 1;
}

void gic_probe(void)
{
    if (has_gicv3_sysregs()) {
        unsigned rev = arch_rev(GICV3_PIDR2);
        if (rev != 3 && rev != 4)
            hive_panic("gic: GICv3 CPU interface but distributor ArchRev %u", rev);
        gic = &gicv3_ops;
    } else {
        /* GICv2 ID registers: ArchRev 1 (GICv1) or 2; both program alike. */
        unsigned rev = arch_rev(GICV2_PIDR2);
        if (rev != 1 && rev != 2)
            hive_panic("gic: no GICv2 at %#lx (ArchRev %u)", (unsigned long)gic_cfg->dist, rev);
        gic = &gicv2_ops;
    }
}
