/*
 * Internals of arch/aarch64 shared between its assembly and C files and the
 * drivers that need them (drivers/psci.c: the entry level). kernel/ never includes this; it sees kernel/platform.h.
 */
#ifndef HIVE_ARCH_AARCH64_H
#define HIVE_ARCH_AARCH64_H

#include "hive/limits.h"

/* kernel/cpu.h's HIVE_STACK_SLOT, for the assembly (cpu.c asserts they agree). */
#define AARCH64_STACK_SLOT      (4096 + HIVE_STACK_SIZE)
/* Exceptions run on a per-core stack of their own (SP_EL1, kernel/cpu.h's
 * hive_irq_stacks) while the kernel runs on SP_EL0, so a fault caused by
 * overflowing into a task stack's guard page is still reported instead of
 * faulting again on every push. Interrupt handlers run there too
 * (vectors.S), hive_spawn and printf included: 28 KiB above a guard page,
 * in a slot aligned to its size. These are kernel/cpu.h's HIVE_IRQ_STACK_*
 * for the assembly (cpu.c asserts they agree). */
#define AARCH64_IRQ_STACK_SLOT  (32 * 1024)
#define AARCH64_IRQ_STACK_GUARD 4096
/* Where SP_EL1 starts in its slot: 16 bytes short of the end (vectors.S). */
#define AARCH64_IRQ_STACK_TOP   (AARCH64_IRQ_STACK_SLOT - 16)
/* kernel/machine.h's HIVE_MACHINE_PROBE_STACK, for entry.S (cpu.c asserts). */
#define AARCH64_PROBE_STACK     4096
/* MPIDR_EL1's affinity fields Aff3 (bits 32-39) and Aff2..Aff0 (0-23): a
 * core's hardware id. entry.S builds it with mov/movk (no such immediate). */
#define AARCH64_MPIDR_AFFINITY  0xff00ffffffull

#ifndef __ASSEMBLER__
#include <stdint.h>

struct aarch64_frame;    /* frame.h */

/* Exception level the boot core was entered at (1 or 2), set by entry.S. */
extern unsigned aarch64_entry_el;

/* Builds the identity map (boot core, MMU off); entry.S turns it on per core. */
void aarch64_mmu_build(void);
extern uint64_t aarch64_l1_table[512];

/* vectors.S calls this when an exception's frame would reach the guard page
 * below the exception stack; sp is back at the stack's top. */
_Noreturn void aarch64_irq_stack_overflow(uint64_t esr, uint64_t elr, uint64_t far);

/* vectors.S calls this; a return resumes at frame->elr. */
void aarch64_exception(struct aarch64_frame *frame, unsigned kind);

/* vectors.S calls this for every IRQ from the kernel, interrupts masked, on
 * the exception stack, with the interrupted code's registers saved. */
void aarch64_irq(void);
/* Timer off and event stream on for this core (timer.c), from arch_irq_init_cpu;
 * the board's interrupt controller enables the timer's interrupt. */
void aarch64_timer_init_cpu(void);
#endif

#endif
