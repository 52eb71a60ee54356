/*
 * Numbers that entry.S and trap.S need and cannot get from C headers.
 * start.c checks each against the C definition it mirrors, so the two can
 * never silently disagree.
 */
#ifndef HIVE_RISCV64_LAYOUT_H
#define HIVE_RISCV64_LAYOUT_H

#include "hive/limits.h"

/* kernel/cpu.h: HIVE_STACK_SLOT and sizeof(struct hive_cpu). */
#define RV_STACK_SLOT     (4096 + HIVE_STACK_SIZE)
#define RV_CPU_SIZE       24
#define RV_CPU_HW_ID      8
/* kernel/machine.h: HIVE_MACHINE_PROBE_STACK. */
#define RV_PROBE_STACK    4096

/* sstatus bits. */
#define SSTATUS_SIE       (1 << 1)
#define SSTATUS_FS_MASK   (3 << 13)
#define SSTATUS_FS_INIT   (1 << 13)

/* sie / sip bits (the same positions in both), and scause's interrupt codes. */
#define SIP_SSIP          (1 << 1)  /* software: the SBI IPI, our doorbell */
#define SIP_STIP          (1 << 5)  /* timer: stimecmp (Sstc) or the SBI timer */
#define SIP_SEIP          (1 << 9)  /* external: the PLIC */

/* Each core's trap stack is its slot of kernel/cpu.h's hive_irq_stacks: a
 * guard page, then 28 KiB for the frame and riscv_trap and a panic, or an
 * interrupt's handlers (hive_spawn, printf...). The shift, for trap.S, is
 * HIVE_IRQ_STACK_SHIFT (trap.c asserts they agree). */
#define RV_TRAP_STACK_SHIFT 15

#endif
