/*
 * Per-core data. Each core finds its block through one system register
 * (arch_this_cpu), so interrupt handlers and the scheduler reach it in a few
 * instructions without touching TLS.
 */
#ifndef HIVE_KERNEL_CPU_H
#define HIVE_KERNEL_CPU_H

#include <stdbool.h>
#include <stdint.h>

#include "hive/limits.h"
#include "kernel/platform.h"

struct hive_cpu {
    unsigned id;        /* logical, dense from 0 */
    uintptr_t hw_id;    /* MPIDR affinity on aarch64, hart id on riscv64 */
    void *tls;          /* this core's picolibc TLS block (errno lives there) */
};

extern struct hive_cpu hive_cpus[HIVE_MAX_CORES];

static inline unsigned hive_cpu_id(void) { return arch_this_cpu()->id; }

/* Cores that have come online so far (all of them once main() runs). */
unsigned hive_cpu_count(void);

/* Whether core `id` has come online: its interrupts work from then on. Until
 * main() runs the cores online need not be 0 to hive_cpu_count() - 1: one
 * started may never arrive (kernel/boot.c). */
bool hive_cpu_online(unsigned id);

/* The logical id the boot core gave the core with hardware id hw_id, for a
 * fault on a core that has no per-core block yet; -1 if none is recorded
 * (the boot core in its first steps). */
int hive_cpu_of_hw_id(uintptr_t hw_id);

/*
 * Per-core stacks: one guard page at the bottom of each slot, then the
 * stack, HIVE_STACK_SIZE bytes (hive/limits.h, a build option). The guard
 * is unmapped, so an overflow faults on its first store below the stack and
 * the fault report says "stack overflow" with the core and the size. That is
 * exact and costs nothing at run time, where a canary word checked at task
 * boundaries would see an overflow only after it had written over the next
 * core's stack, and never one that skips the canary. A frame larger than the
 * guard could jump it: aarch64 probes each page a prologue allocates, and
 * riscv64 builds refuse frames above 4 KiB (tests/target/big_frame_test.c).
 */
#define HIVE_STACK_GUARD 4096
#define HIVE_STACK_SLOT  (HIVE_STACK_GUARD + HIVE_STACK_SIZE)
/* cmake/limits.cmake refuses these first; here for a build that skips it. */
_Static_assert(HIVE_STACK_SIZE % HIVE_STACK_GUARD == 0,
               "HIVE_STACK_SIZE must be whole pages: each slot's guard is an unmapped page");
_Static_assert(HIVE_STACK_SIZE >= 8192,
               "HIVE_STACK_SIZE below 8192 leaves no room beside the kernel's own frames");
_Static_assert(HIVE_MAX_CORES >= 1, "HIVE_MAX_CORES must be at least 1");
extern char hive_stacks[HIVE_MAX_CORES][HIVE_STACK_SLOT];
/* The core whose stack guard (unmapped) holds va, or -1: fault reports say
 * "stack guard of core N" for an overflow. */
int hive_stack_guard_core(uintptr_t va);

/*
 * Per-core interrupt stacks: exceptions, traps and interrupt handlers run on
 * a stack of their own (aarch64's SP_EL1, riscv64's trap stack), so a task's
 * stack depth never has to budget for a handler. Each slot is a guard page
 * (unmapped) then the stack, and slots are aligned to their size - a power
 * of two - so the exception entry can tell from sp alone, before it stores
 * anything, that it would run into the guard (arch/aarch64/vectors.S).
 */
#define HIVE_IRQ_STACK_SHIFT 15
#define HIVE_IRQ_STACK_SLOT  (1u << HIVE_IRQ_STACK_SHIFT)
#define HIVE_IRQ_STACK_GUARD 4096u
extern char hive_irq_stacks[HIVE_MAX_CORES][HIVE_IRQ_STACK_SLOT];
/* The core whose interrupt stack guard holds va, or -1. */
int hive_irq_stack_guard_core(uintptr_t va);
/* Is va in any guard, of a task stack or of an interrupt stack? (The MMU
 * code leaves these pages unmapped.) */
static inline bool hive_is_stack_guard(uintptr_t va)
{
    return hive_stack_guard_core(va) >= 0 || hive_irq_stack_guard_core(va) >= 0;
}
/* Does one of n slots of `slot` bytes from `slots` (each beginning with its
 * guard page) begin in [start, end)? */
static inline bool hive_slot_begins_in(uintptr_t start, uintptr_t end, uintptr_t slots,
                                       uintptr_t slot, uintptr_t n)
{
    uintptr_t first = start <= slots ? 0 : (start - slots + slot - 1) / slot;
    return first < n && slots + first * slot < end;
}
/* Does [start, end) hold a guard page? The MMU code maps a 2 MiB block that
 * does page by page (inline: it runs with the MMU off, built for it). */
static inline bool hive_range_has_stack_guard(uintptr_t start, uintptr_t end)
{
    return hive_slot_begins_in(start, end, (uintptr_t)hive_stacks, HIVE_STACK_SLOT, HIVE_MAX_CORES) ||
           hive_slot_begins_in(start, end, (uintptr_t)hive_irq_stacks, HIVE_IRQ_STACK_SLOT,
                               HIVE_MAX_CORES);
}

/* How many 2 MiB blocks can hold a guard of one kind of stack: HIVE_MAX_CORES
 * slots of `slot` bytes in a row touch at most their span's blocks plus one,
 * and a block holds a guard only if a slot begins in it. For the MMU code's
 * table pools, sized by the build, not by one board's stacks. */
#define HIVE_GUARD_BLOCKS_OF(slot)                                                         \
    ((unsigned long long)HIVE_MAX_CORES * (slot) / (2ull << 20) + 2 < HIVE_MAX_CORES       \
         ? (unsigned)((unsigned long long)HIVE_MAX_CORES * (slot) / (2ull << 20) + 2)     \
         : (unsigned)HIVE_MAX_CORES)
#define HIVE_GUARD_BLOCKS \
    (HIVE_GUARD_BLOCKS_OF(HIVE_STACK_SLOT) + HIVE_GUARD_BLOCKS_OF(HIVE_IRQ_STACK_SLOT))

#endif
