/*
 * Internals of arch/aarch64 shared between its assembly and C files and the
 * boards that use it. kernel/ never includes this; it sees kernel/platform.h.
 */
#ifndef HIVE_ARCH_AARCH64_H
#define HIVE_ARCH_AARCH64_H

/* kernel/cpu.h's HIVE_STACK_SLOT, for the assembly (cpu.c asserts they agree). */
#define AARCH64_STACK_SLOT      (4096 + 32 * 1024)
/* Exceptions run on a per-core stack of their own (SP_EL1) while the kernel
 * runs on SP_EL0, so a fault caused by overflowing into the guard page is
 * still reported instead of faulting again on every push. Interrupt handlers
 * run there too (vectors.S), hive_spawn and printf included: 16 KiB. */
#define AARCH64_EXC_STACK_SIZE  (16 * 1024)

#ifndef __ASSEMBLER__
#include <stdint.h>

struct aarch64_frame;    /* frame.h */

/* Exception level the boot core was entered at (1 or 2), set by entry.S. */
extern unsigned aarch64_entry_el;

/* Builds the identity map (boot core, MMU off); entry.S turns it on per core. */
void aarch64_mmu_build(void);
extern uint64_t aarch64_l1_table[512];

/* vectors.S calls this; a return resumes at frame->elr. */
void aarch64_exception(struct aarch64_frame *frame, unsigned kind);

/* The EL1 virtual timer's interrupt (a PPI: each core has its own). */
#define AARCH64_TIMER_PPI   27

/* vectors.S calls this for every IRQ from the kernel, interrupts masked, on
 * the exception stack, with the interrupted code's registers saved. */
void aarch64_irq(void);
/* Timer and event stream off/on for this core (timer.c), from arch_irq_init_cpu. */
void aarch64_timer_init_cpu(void);

/* Semihosting SYS_EXIT; returns only if the debugger/QEMU does not listen. */
void aarch64_semihost_exit(int status);
#endif

#endif
