/*
 * The C half of entry.S: the MMU, then into kernel/. Runs on the hart's own
 * stack with gp, FP, stvec and sscratch already set.
 */
#include <stddef.h>
#include <stdint.h>

#include "kernel/kernel.h"
#include "kernel/machine.h"
#include "layout.h"
#include "mmode.h"
#include "mmu.h"
#include "park.h"

_Static_assert(RV_STACK_SLOT == HIVE_STACK_SLOT, "layout.h: RV_STACK_SLOT");
_Static_assert(RV_PROBE_STACK == HIVE_MACHINE_PROBE_STACK, "layout.h: RV_PROBE_STACK");
_Static_assert(RV_CPU_SIZE == sizeof(struct hive_cpu), "layout.h: RV_CPU_SIZE");
_Static_assert(offsetof(struct hive_cpu, id) == 0, "entry.S stores id at offset 0");
_Static_assert(offsetof(struct hive_cpu, hw_id) == RV_CPU_HW_ID, "layout.h: RV_CPU_HW_ID");
_Static_assert(sizeof(((struct hive_cpu *)0)->hw_id) == 8, "entry.S loads hw_id with ld");

noreturn void riscv_boot_main(uintptr_t hart_id);
noreturn void riscv_mmode_entry(void);
noreturn void riscv_secondary_main(unsigned id);

noreturn void riscv_boot_main(uintptr_t hart_id)
{
    riscv_mmu_init();
    riscv_mmu_on();
    riscv_park_probe(0);
    hive_kernel_main(hart_id);
}

noreturn void riscv_secondary_main(unsigned id)
{
    riscv_mmu_on();
    riscv_park_probe(id);
    hive_kernel_secondary(id);
}

/* entry.S found itself in M-mode: one line on the board's polled UART
 * (nothing is set up: hive_console_emergency keeps no state), then the
 * board's exit with status 1. MMU off, .bss not cleared: nothing here needs
 * either. */
noreturn void riscv_mmode_entry(void)
{
    board_console_init();
    hive_console_emergency("hive: entered in M-mode; hive runs in S-mode under SBI firmware (OpenSBI)\n");
    board_exit(1);
}

/* A trap while the boot hart read the machine's description (entry.S,
 * before .bss is cleared and before the MMU is on): a corrupt device tree
 * that sends the parser past the RAM there is, say. The one hart running is
 * logical core 0. A raw line (nothing of stdio is set up), then the board's
 * exit with status 1 - never a hart that stops without a word. */
noreturn void riscv_probe_trapped(uint64_t scause, uint64_t sepc, uint64_t stval);

noreturn void riscv_probe_trapped(uint64_t scause, uint64_t sepc, uint64_t stval)
{
    board_console_init();
    hive_console_emergency_panic(0, "trap while reading the device tree:");
    hive_console_emergency_hex(" scause=", scause);
    hive_console_emergency_hex(" sepc=", sepc);
    hive_console_emergency_hex(" stval=", stval);
    hive_console_emergency("\n");
    board_exit(1);
}

/* entry.S's claim word for the M-mode report, in .data: the loader's 0 until
 * a hart entered in M-mode swaps in 1; the S-mode path never writes it. */
extern volatile uint32_t riscv_mmode_reporter;

bool riscv_entered_in_mmode(void)
{
    return riscv_mmode_reporter != 0;
}
