/*
 * GICv3 (Arm IHI 0069): a distributor for the SPIs, one redistributor per
 * core for its SGIs and PPIs, and the CPU interface as ICC_* system registers
 * (entry.S lets EL1 use them when entered at EL2).
 *
 * Affinity routing is on (ARE), and every interrupt is Group 1, which a
 * GICv3 always signals as IRQ (Group 0 would be FIQ). With a single security
 * state (GICD_CTLR.DS = 1, QEMU virt without secure=on) we set the groups
 * ourselves; on a board with a secure monitor our writes to secure-only bits
 * are ignored and the firmware's setup stands.
 */
#include <stdatomic.h>

#include "drivers/gic/gic_ops.h"
#include "kernel/kernel.h"

/* Distributor. */
#define GICD_CTLR           0x0000
#define GICD_TYPER          0x0004
#define GICD_IGROUPR        0x0080
#define GICD_ICENABLER      0x0180
#define GICD_ISENABLER      0x0100
#define GICD_ICPENDR        0x0280
#define GICD_ICACTIVER      0x0380
#define GICD_IPRIORITYR     0x0400
#define GICD_IROUTER        0x6000      /* 64-bit, one per INTID (SPIs only) */

#define GICD_CTLR_RWP       (1u << 31)  /* register write pending */
#define GICD_CTLR_DS        (1u << 6)   /* single security state */
#define GICD_CTLR_ARE       (1u << 4)   /* DS=1: ARE; Non-secure view: ARE_NS */
#define GICD_CTLR_G1        (1u << 1)   /* DS=1: EnableGrp1 */
#define GICD_CTLR_G1A_NS    (1u << 0)   /* Non-secure view: EnableGrp1A */

/* Redistributor: RD_base frame, then SGI_base frame 64 KiB above it. */
#define GICR_CTLR           0x0000
#define GICR_TYPER          0x0008      /* 64-bit */
#define GICR_WAKER          0x0014
#define GICR_SGI_BASE       0x10000
#define GICR_IGROUPR0       (GICR_SGI_BASE + 0x0080)
#define GICR_ISENABLER0     (GICR_SGI_BASE + 0x0100)
#define GICR_ICENABLER0     (GICR_SGI_BASE + 0x0180)
#define GICR_ICPENDR0       (GICR_SGI_BASE + 0x0280)
#define GICR_ICACTIVER0     (GICR_SGI_BASE + 0x0380)
#define GICR_IPRIORITYR     (GICR_SGI_BASE + 0x0400)

#define GICR_CTLR_RWP       (1u << 3)
#define GICR_TYPER_VLPIS    (1u << 1)   /* GICv4: two more 64 KiB frames */
#define GICR_TYPER_LAST     (1u << 4)
#define GICR_WAKER_SLEEP    (1u << 1)   /* ProcessorSleep */
#define GICR_WAKER_ASLEEP   (1u << 2)   /* ChildrenAsleep */

/* CPU interface, by encoding: the assembler may not know the names. */
#define ICC_PMR_EL1         "S3_0_C4_C6_0"
#define ICC_IAR1_EL1        "S3_0_C12_C12_0"
#define ICC_EOIR1_EL1       "S3_0_C12_C12_1"
#define ICC_BPR1_EL1        "S3_0_C12_C12_3"
#define ICC_CTLR_EL1        "S3_0_C12_C12_4"
#define ICC_SRE_EL1         "S3_0_C12_C12_5"
#define ICC_IGRPEN1_EL1     "S3_0_C12_C12_7"
#define ICC_SGI1R_EL1       "S3_0_C12_C11_5"

#define SRE_SRE             1u          /* use the system registers */
#define SRE_DFB_DIB         6u          /* FIQ and IRQ bypass disabled */

#define READ_SYSREG(name, v)  __asm__ volatile("mrs %0, " name : "=r"(v))
#define WRITE_SYSREG(name, v) __asm__ volatile("msr " name ", %0" : : "r"((uint64_t)(v)) : "memory")

#define DIST(off)           gic_reg32(gic_cfg->dist, off)

/* Each core's redistributor, found by affinity during its init. */
static uintptr_t redist[HIVE_MAX_CORES];

static unsigned v3_lines(void)
{
    unsigned n = 32 * ((*DIST(GICD_TYPER) & 0x1f) + 1);
    return n > GIC_SPURIOUS_FIRST ? GIC_SPURIOUS_FIRST : n;
}

static void wait_dist_rwp(void)
{
    /* Bounded: a GIC that never finishes a write is a hardware fault. */
    for (unsigned i = 0; *DIST(GICD_CTLR) & GICD_CTLR_RWP; i++)
        if (i > 10000000)
            hive_panic("gicv3: distributor write never completes");
}

static void wait_redist_rwp(uintptr_t rd)
{
    for (unsigned i = 0; *gic_reg32(rd, GICR_CTLR) & GICR_CTLR_RWP; i++)
        if (i > 10000000)
            hive_panic("gicv3: redistributor write never completes");
}

static void v3_init_dist(void)
{
    unsigned lines = v3_lines();
    uint32_t ctlr = *DIST(GICD_CTLR);
    *DIST(GICD_CTLR) = 0;               /* ARE may change only while the groups are off */
    wait_dist_rwp();
    for (unsigned i = GIC_SPI_FIRST; i < lines; i += 32) {
        *DIST(GICD_IGROUPR + i / 8) = ~0u;
        *DIST(GICD_ICENABLER + i / 8) = ~0u;
        *DIST(GICD_ICPENDR + i / 8) = ~0u;
        *DIST(GICD_ICACTIVER + i / 8) = ~0u;
    }
    for (unsigned i = GIC_SPI_FIRST; i < lines; i++)
        *gic_reg8(gic_cfg->dist, GICD_IPRIORITYR + i) = GIC_PRIORITY;
    wait_dist_rwp();
    *DIST(GICD_CTLR) = (ctlr & GICD_CTLR_DS) ? GICD_CTLR_ARE | GICD_CTLR_G1
                                             : GICD_CTLR_ARE | GICD_CTLR_G1A_NS;
    wait_dist_rwp();
}

/* MPIDR affinity (Aff3 at bit 32, as in hw_id) packed as GICR_TYPER has it. */
static uint32_t packed_affinity(uintptr_t hw_id)
{
    return (uint32_t)((hw_id & 0xffffff) | (hw_id >> 32 & 0xff) << 24);
}

static uintptr_t find_redist(uintptr_t hw_id)
{
    uint32_t want = packed_affinity(hw_id);
    for (uintptr_t rd = gic_cfg->redist;;) {
        uint64_t typer = *gic_reg64(rd, GICR_TYPER);
        if ((uint32_t)(typer >> 32) == want)
            return rd;
        if (typer & GICR_TYPER_LAST)
            return 0;
        rd += (typer & GICR_TYPER_VLPIS) ? 0x40000 : 0x20000;
    }
}

static void v3_init_cpu(unsigned core)
{
    uintptr_t rd = find_redist(hive_cpus[core].hw_id);
    if (!rd)
        hive_panic("gicv3: no redistributor for MPIDR %#lx", (unsigned long)hive_cpus[core].hw_id);
    redist[core] = rd;

    /* Wake the redistributor: it forwards nothing while "processor asleep". */
    *gic_reg32(rd, GICR_WAKER) &= ~GICR_WAKER_SLEEP;
    for (unsigned i = 0; *gic_reg32(rd, GICR_WAKER) & GICR_WAKER_ASLEEP; i++)
        if (i > 10000000)
            hive_panic("gicv3: redistributor of core %u does not wake", core);

    /* This core's SGIs and PPIs: Group 1, all off and idle, then the common priority. */
    *gic_reg32(rd, GICR_IGROUPR0) = ~0u;
    *gic_reg32(rd, GICR_ICENABLER0) = ~0u;
    wait_redist_rwp(rd);
    *gic_reg32(rd, GICR_ICPENDR0) = ~0u;
    *gic_reg32(rd, GICR_ICACTIVER0) = ~0u;
    for (unsigned i = 0; i < GIC_SPI_FIRST; i++)
        *gic_reg8(rd, GICR_IPRIORITYR + i) = GIC_PRIORITY;

    uint64_t sre;
    READ_SYSREG(ICC_SRE_EL1, sre);
    WRITE_SYSREG(ICC_SRE_EL1, sre | SRE_SRE | SRE_DFB_DIB);
    /* isb: SRE takes effect before the other ICC_* registers are touched. */
    __asm__ volatile("isb" : : : "memory");
    WRITE_SYSREG(ICC_PMR_EL1, GIC_PRIORITY_MASK);
    WRITE_SYSREG(ICC_BPR1_EL1, 0);
    WRITE_SYSREG(ICC_CTLR_EL1, 0);      /* EOImode 0: EOIR1 drops priority and deactivates */
    WRITE_SYSREG(ICC_IGRPEN1_EL1, 1);
    /* isb: the CPU interface is on before the caller unmasks interrupts. */
    __asm__ volatile("isb" : : : "memory");
}

static uint32_t v3_ack(void)
{
    uint64_t iar;
    READ_SYSREG(ICC_IAR1_EL1, iar);
    return (uint32_t)iar;
}

static void v3_end(uint32_t ack)
{
    WRITE_SYSREG(ICC_EOIR1_EL1, ack);
}

static void v3_enable(unsigned intid, bool on, unsigned target)
{
    unsigned word = intid / 32 * 4, bit = 1u << (intid % 32);
    if (intid < GIC_SPI_FIRST) {
        uintptr_t rd = redist[hive_cpu_id()];
        *gic_reg32(rd, on ? GICR_ISENABLER0 : GICR_ICENABLER0) = bit;
        if (!on)
            wait_redist_rwp(rd);        /* disabled for sure once we return */
        return;
    }
    if (!on) {
        *DIST(GICD_ICENABLER + word) = bit;
        wait_dist_rwp();
        return;
    }
    /* IROUTER: Aff3 at bit 32 and Aff2.Aff1.Aff0 below, exactly hw_id's layout. */
    *gic_reg64(gic_cfg->dist, GICD_IROUTER + 8 * intid) = hive_cpus[target].hw_id;
    *DIST(GICD_ISENABLER + word) = bit;
}

static void v3_send_sgi(unsigned core, unsigned sgi)
{
    uintptr_t hw = hive_cpus[core].hw_id;
    unsigned aff0 = hw & 0xff;
    /* TargetList holds Aff0 values 16 * RS .. 16 * RS + 15 of one Aff3.Aff2.Aff1. */
    uint64_t v = (uint64_t)(1u << (aff0 % 16))
               | (uint64_t)(hw >> 8 & 0xff) << 16          /* Aff1 */
               | (uint64_t)(sgi & 0xf) << 24
               | (uint64_t)(hw >> 16 & 0xff) << 32         /* Aff2 */
               | (uint64_t)(aff0 / 16) << 44               /* RS */
               | (uint64_t)(hw >> 32 & 0xff) << 48;        /* Aff3 */
    /*
     * The caller's stores (the wake word) must be visible to the target
     * before the SGI. Writing ICC_SGI1R_EL1 is a system-register write, not
     * a memory access, and a DMB orders memory accesses only. A DSB holds
     * back every later instruction, this write included, until the earlier
     * stores are complete - visible to every core in the inner-shareable
     * domain (ISH), the target among them. Stores only (ST): the wake word
     * is a store.
     */
    __asm__ volatile("dsb ishst" : : : "memory");
    WRITE_SYSREG(ICC_SGI1R_EL1, v);
    /*
     * isb: not part of the ordering, which the DSB already gives. A
     * system-register write is only certain to have taken effect after a
     * context synchronization event; the ISB is one, so the SGI goes out now
     * rather than at the next exception or ERET, however long the caller
     * runs (or waits) first.
     */
    __asm__ volatile("isb" : : : "memory");
}

const struct gic_ops gicv3_ops = {
    .name = "GICv3",
    .intid_mask = 0xffffff,
    .init_dist = v3_init_dist,
    .init_cpu = v3_init_cpu,
    .ack = v3_ack,
    .end = v3_end,
    .enable = v3_enable,
    .send_sgi = v3_send_sgi,
    .lines = v3_lines,
};
