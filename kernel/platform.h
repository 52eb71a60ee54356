/*
 * The contract between kernel/ and the layers below it.
 *
 * kernel/ is the same C on every board. arch/<arch>/ implements the arch_*
 * functions (one CPU architecture: entry, exceptions, MMU, interrupt masking,
 * the counter, the per-core register); boards/<board>/ implements the board_*
 * functions (one machine: console device, how secondary cores are started,
 * how the system powers off with a status).
 *
 * Boot flow:
 *   1. The arch entry (_start, first in the image) runs on the boot core: it
 *      drops to the kernel's privilege level, sets up stack 0, copies .data if
 *      its load address differs, clears .bss once, turns on the MMU and caches,
 *      enables FP/SIMD, installs the exception vectors and calls
 *      hive_kernel_main(boot hardware id) with interrupts masked.
 *   2. hive_kernel_main sets up core 0 (per-core block, TLS), the console and
 *      libc, then calls board_start_secondaries(), which starts every other
 *      present core at arch_secondary_entry with its logical id as context.
 *   3. arch_secondary_entry does step 1's per-core part (stack for its id,
 *      privilege level, MMU with the boot core's tables, FP, vectors) and calls
 *      hive_kernel_secondary(id).
 *   4. The boot core waits until every started core is online, then runs the
 *      image's main(); its return value becomes the exit status.
 */
#ifndef HIVE_KERNEL_PLATFORM_H
#define HIVE_KERNEL_PLATFORM_H

#include <stdint.h>
#include <stdnoreturn.h>

struct hive_cpu;

/* ---- arch/<arch> ---- */

/* Mask IRQs on this core, returning the previous mask state (nests). */
unsigned long arch_irq_save(void);
void arch_irq_restore(unsigned long state);
/* A spin-loop hint. */
void arch_cpu_relax(void);
/* The per-core block, kept in one system register (TPIDR_EL1, sscratch). */
struct hive_cpu *arch_this_cpu(void);
void arch_set_this_cpu(struct hive_cpu *cpu);
/* Free-running monotonic counter and its frequency. */
uint64_t arch_counter(void);
uint64_t arch_counter_hz(void);
/*
 * Idle until an event: returns after arch_idle_wake(this core), possibly
 * spuriously. A wake sent before the wait is not lost (the event register on
 * aarch64, a pending IPI on riscv64). Interrupts may stay masked.
 */
void arch_idle_wait(void);
void arch_idle_wake(unsigned core);
/* Stop this core for good (after a panic elsewhere, or at exit). */
noreturn void arch_halt(void);
/* Where started secondaries begin; they receive their logical id. */
extern char arch_secondary_entry[];

/* ---- boards/<board> ---- */

void board_console_init(void);
/* Polled, unlocked output of one byte; kernel/console.c does the locking. */
void board_console_putc(char c);
/*
 * Start every present core except the boot one (hardware id boot_hw_id),
 * up to max_cores in all, giving them dense logical ids 1, 2, ... and
 * recording each one's hardware id in hive_cpus[id].hw_id. Returns the total
 * number of cores, boot core included.
 */
unsigned board_start_secondaries(uintptr_t boot_hw_id, unsigned max_cores);
/* Power off, handing status to whoever launched the board (QEMU's exit code). */
noreturn void board_exit(int status);

/* ---- kernel/, called by arch ---- */
noreturn void hive_kernel_main(uintptr_t boot_hw_id);
noreturn void hive_kernel_secondary(unsigned id);

#endif
