/*
 * Every fault is fatal (interrupts go to irq.c instead, see trap.S): say
 * which hart, why and where, dump the registers, and stop the system
 * non-zero.
 */
#include <stdatomic.h>
#include <stdbool.h>
#include <stdio.h>

#include "frame.h"
#include "kernel/kernel.h"
#include "layout.h"

_Static_assert(RV_TRAP_STACK_SHIFT == HIVE_IRQ_STACK_SHIFT, "layout.h is out of step with kernel/cpu.h");

void riscv_trap(struct riscv_frame *f);

static const char *const cause_names[] = {
    [0] = "instruction misaligned",  [1] = "instruction access fault",
    [2] = "illegal instruction",     [3] = "breakpoint",
    [4] = "load misaligned",         [5] = "load access fault",
    [6] = "store misaligned",        [7] = "store access fault",
    [8] = "ecall from U",            [9] = "ecall from S",
    [12] = "instruction page fault", [13] = "load page fault",
    [15] = "store page fault",
};

static const char *cause_name(unsigned long scause)
{
    if ((long)scause < 0)
        return "interrupt";
    if (scause < sizeof cause_names / sizeof cause_names[0] && cause_names[scause])
        return cause_names[scause];
    return "unknown";
}

static void dump_registers(const struct riscv_frame *f)
{
    static const char *const abi[32] = {
        "zero", "ra", "sp", "gp", "tp", "t0", "t1", "t2", "s0", "s1", "a0",
        "a1", "a2", "a3", "a4", "a5", "a6", "a7", "s2", "s3", "s4", "s5",
        "s6", "s7", "s8", "s9", "s10", "s11", "t3", "t4", "t5", "t6",
    };
    char line[128];
    /* Four registers a line, x1..x31; unlocked like any panic output.
     * trap.S needed gp to reach its stack, so gp is not shown. */
    for (unsigned r = 1; r < 32; r += 4) {
        int n = 0;
        for (unsigned k = r; k < r + 4 && k < 32; k++)
            n += k == 3 ? snprintf(line + n, sizeof line - (unsigned)n, "  %-4s %18s", abi[k], "-")
                        : snprintf(line + n, sizeof line - (unsigned)n, "  %-4s 0x%016lx",
                                   abi[k], f->x[k]);
        snprintf(line + n, sizeof line - (unsigned)n, "\n");
        hive_console_emergency(line);
    }
}

void riscv_trap(struct riscv_frame *f)
{
    /* A fault while reporting a fault: report nothing more, just stop. */
    static atomic_bool in_trap[HIVE_MAX_CORES];
    struct hive_cpu *cpu = arch_this_cpu();
    if (atomic_exchange(&in_trap[cpu->id], true)) {
        /* No stdio: it may be what trapped. */
        hive_console_emergency("\n");
        hive_console_emergency_panic(cpu->id, "trap inside a trap handler\n");
        board_exit(1);
    }
    /* No console flush here: this core may hold the console lock. */
    hive_console_emergency("\nregisters at the trap:\n");
    dump_registers(f);
    /* Page faults of loads, stores and atomics (13, 15) into a stack's guard:
     * an overflow, labelled as aarch64 labels it. */
    bool page_fault = f->scause == 13 || f->scause == 15;
    if (page_fault && hive_irq_stack_guard_core(f->stval) >= 0) {
        /* This trap started again at the top of the trap stack, so the
         * handler that overflowed it is gone and there is room to report. */
        hive_panic("interrupt stack overflow (an interrupt handler ran into the guard page below "
                   "this core's trap stack): scause=%#lx (%s) sepc=%#lx stval=%#lx",
                   f->scause, cause_name(f->scause), f->sepc, f->stval);
    }
    /* A page fault in a task stack's guard page: the stack overflowed (the
     * guard is the page just below it; kernel/cpu.h). Said first, with the
     * limit that was too small, so that it reads as what it is. */
    int guard = page_fault ? hive_stack_guard_core(f->stval) : -1;
    if (guard >= 0)
        hive_panic("stack overflow (HIVE_STACK_SIZE = %u): scause=%#lx (%s) at stval=%#lx in the "
                   "stack guard of core %u, sepc=%#lx hart=%lu",
                   (unsigned)HIVE_STACK_SIZE, f->scause, cause_name(f->scause), f->stval,
                   (unsigned)guard, f->sepc, (unsigned long)cpu->hw_id);
    hive_panic("unexpected trap: scause=%#lx (%s) sepc=%#lx stval=%#lx hart=%lu",
               f->scause, cause_name(f->scause), f->sepc, f->stval,
               (unsigned long)cpu->hw_id);
}
