/*
 * The contract between kernel/ and the layers below it.
 *
 * kernel/ is the same C on every board. arch/<arch>/ implements the arch_*
 * functions (one CPU architecture: entry, exceptions, MMU, interrupt masking,
 * the counter, the per-core register); boards/<board>/ implements the board_*
 * functions of kernel/board.h (one machine: console device, how secondary
 * cores are started, how the system powers off with a status).
 *
 * Boot flow:
 *   1. The arch entry (_start, first in the image) runs on the boot core: it
 *      drops to the kernel's privilege level, sets up stack 0, copies .data if
 *      its load address differs, clears .bss once, turns on the MMU and caches,
 *      enables FP/SIMD, installs the exception vectors and calls
 *      hive_kernel_main(boot hardware id) with interrupts masked.
 *   2. hive_kernel_main sets up core 0 (per-core block, TLS), the console and
 *      libc, then starts every other core the board lists (kernel/board.h,
 *      board_start_core) at arch_secondary_entry with its logical id as
 *      context.
 *   3. arch_secondary_entry does step 1's per-core part (stack for its id,
 *      privilege level, MMU with the boot core's tables, FP, vectors) and calls
 *      hive_kernel_secondary(id).
 *   4. The boot core waits until every started core is online, then runs the
 *      image's main(); its return value becomes the exit status.
 */
#ifndef HIVE_KERNEL_PLATFORM_H
#define HIVE_KERNEL_PLATFORM_H

#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdnoreturn.h>

#include "kernel/board.h"

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
/* Stop this core for good (after a panic elsewhere, or at exit). */
noreturn void arch_halt(void);
/* Where started secondaries begin; they receive their logical id. */
extern char arch_secondary_entry[];
/* What the firmware says of a core that was started and has not come
 * online, for the boot core (kernel/boot.c): a short phrase, or NULL where
 * the arch has no firmware to ask (riscv64 asks SBI HSM for the hart's
 * state, which tells a hart the firmware never ran from one that ran into
 * hive and stopped there). *starting is set true when the firmware says it
 * is still starting the core (it has not yet entered hive), else false. */
const char *arch_core_firmware_state(uintptr_t hw_id, bool *starting);

/* ---- kernel/, called by arch ---- */
noreturn void hive_kernel_main(uintptr_t boot_hw_id);
noreturn void hive_kernel_secondary(unsigned id);

/* ==== Interrupts, the per-core timer, parking ==============================
 *
 * Who does what. The arch owns its trap path: it reduces every interrupt to
 * one canonical source (kernel/board.h: HIVE_IRQ_DOORBELL, HIVE_IRQ_TIMER or
 * a device line) and calls hive_kernel_irq(source) for it, with interrupts
 * masked, on a stack of its own; the kernel (kernel/irq.c, kernel/timer.c)
 * does the rest. Sources that come through the board's interrupt controller
 * (kernel/board.h, board_irq_*) are claimed from it and completed after the
 * kernel has handled them: every one on aarch64 (the GIC acknowledge/EOI);
 * on riscv64 the external interrupt (the PLIC), while the doorbell (SSIP)
 * and the timer (STIP) are the hart's own. The per-core timer is the
 * arch's (riscv64: Sstc or the SBI timer, as the board says).
 *
 * Boot: hive_kernel_main calls board_irq_init() once on the boot core before
 * starting the others, and every core calls arch_irq_init_cpu(),
 * board_irq_init_cpu() and then arch_irq_unmask() before it runs main() or
 * waits for work.
 */

/* ---- arch/<arch> ---- */

/* Every core, itself, masked: its timer off, and whatever the core itself
 * needs to take interrupts (riscv64: sie; aarch64: the event stream).
 * Leaves interrupts masked. */
void arch_irq_init_cpu(void);
/* Let interrupts in on this core (sstatus.SIE, DAIF.I). */
void arch_irq_unmask(void);
/*
 * This core's one-shot timer: HIVE_IRQ_TIMER once arch_counter() >= deadline
 * (counter ticks; a deadline already past fires at once). UINT64_MAX: off.
 * A new call replaces the old deadline. The source stays asserted until the
 * next call, so the kernel calls this from every HIVE_IRQ_TIMER it handles.
 */
void arch_timer_set(uint64_t deadline);
/*
 * Parking, phase 1 (shallow): wait briefly for *word to change from `seen`,
 * woken by a store to it (aarch64: LDXR arms the exclusive monitor, WFE;
 * riscv64 with Zawrs: LR.W sets the reservation, WRS.NTO). Returns false at
 * once if the calling core has no such wait (riscv64 without Zawrs), true
 * after a wait that may or may not have seen a change. Interrupts may be
 * masked or not. How long one wait may last is arch_park_phase1's to say.
 */
bool arch_park_shallow(atomic_uint *word, unsigned seen);
/*
 * Which phase-1 wait `core` has, found once as the core came up (before it
 * counts as online, so any core that reads another's sees the answer):
 *  - NONE: arch_park_shallow returns false at once;
 *  - WFE: each wait ends by itself within microseconds (aarch64's generic
 *    timer event stream), so the caller's clock check bounds the phase;
 *  - WRS_NTO: a wait ends only on a store to the word or a pending
 *    interrupt (masked or not), never by itself: the caller bounds the
 *    phase with the core's timer.
 */
enum arch_park_phase1 { ARCH_PHASE1_NONE, ARCH_PHASE1_WFE, ARCH_PHASE1_WRS_NTO };
enum arch_park_phase1 arch_park_phase1(unsigned core);
/*
 * Parking, phase 2 (deep): with interrupts masked by the caller, sleep until
 * an interrupt is pending on this core (doorbell, timer, device), then
 * return still masked; spurious returns allowed. WFI on both architectures:
 * a pending interrupt ends it even while masked, which is what makes
 * "mask, check, WFI, unmask" race-free (kernel/port.c).
 */
void arch_park_deep(void);

/* ---- kernel/, called by the arch's interrupt path ---- */

/* Handle one claimed source on this core, interrupts masked. The arch has
 * already cleared or acknowledged a HIVE_IRQ_DOORBELL (so a new one stays
 * pending). For HIVE_IRQ_TIMER the kernel re-arms (or turns off) the timer
 * before it returns; a source claimed from the board's controller the arch
 * completes afterwards (board_irq_complete). */
void hive_kernel_irq(int source);

#endif
