/*
 * System register values shared by the assembly (entry.S) and C (mmu.c).
 * Plain #defines only: this header is included from .S files.
 */
#ifndef HIVE_ARCH_AARCH64_REGS_H
#define HIVE_ARCH_AARCH64_REGS_H

/* SCTLR_EL1. RES1 bits of ARMv8.0 (11, 20, 22, 23, 28, 29); everything else
 * off: little-endian, no alignment checks, MMU and caches off. */
#define SCTLR_EL1_MMU_OFF   0x30d00800
#define SCTLR_M             (1 << 0)    /* MMU */
#define SCTLR_C             (1 << 2)    /* data cache */
#define SCTLR_SA            (1 << 3)    /* SP alignment check, EL1 */
#define SCTLR_SA0           (1 << 4)    /* SP alignment check, EL0 */
#define SCTLR_I             (1 << 12)   /* instruction cache */
#define SCTLR_WXN           (1 << 19)   /* writable implies never-executable */
#define SCTLR_EL1_MMU_ON \
    (SCTLR_EL1_MMU_OFF | SCTLR_M | SCTLR_C | SCTLR_SA | SCTLR_SA0 | SCTLR_I | SCTLR_WXN)

/* MAIR_EL1: index 0 normal write-back (read/write-allocate), index 1 Device-nGnRE. */
#define MAIR_NORMAL_IDX     0
#define MAIR_DEVICE_IDX     1
#define MAIR_EL1_VALUE      0x04ff

/*
 * TCR_EL1: TTBR0 only (EPD1), 4 KiB granule, 39-bit VA (T0SZ 25: walks start
 * at level 1), table walks write-back cacheable and inner shareable like the
 * RAM they read. IPS is filled in from ID_AA64MMFR0_EL1.PARange at run time.
 */
#define TCR_EL1_VALUE \
    (25 | (1 << 8) | (1 << 10) | (3 << 12) | (0 << 14) | (1 << 23))
#define TCR_IPS_SHIFT       32

/* HCR_EL2.RW: EL1 is AArch64. */
#define HCR_EL2_RW          0x80000000
/* CPTR_EL2 with its RES1 bits and TFP clear: no FP/SIMD traps to EL2. */
#define CPTR_EL2_NO_TRAPS   0x33ff
/* SPSR for an exception return to EL1h with D, A, I, F masked. */
#define SPSR_EL1H_MASKED    0x3c5
/* CPACR_EL1.FPEN = 0b11: FP/SIMD usable at EL1 and EL0. */
#define CPACR_EL1_FPEN      (3 << 20)
/* ICC_SRE_EL2 (GICv3), by encoding: older assemblers lack the name. */
#define ICC_SRE_EL2         S3_4_C12_C9_5
#define ICC_SRE_EL2_SRE_EN  0x9         /* SRE | Enable: EL1 may use the GIC system registers */

#endif
