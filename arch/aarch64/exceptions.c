/*
 * What happens when vectors.S calls aarch64_exception: every exception that
 * reaches it is unexpected (IRQs from the kernel take their own path to
 * irq.c), except an HLT taken because nobody listens to semihosting
 * (drivers/semihosting.c, a board's exit path). The report names the core,
 * the exception and its registers, then the system stops with status 1.
 */
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "aarch64.h"
#include "frame.h"
#include "kernel/kernel.h"

#define HLT_SEMIHOSTING 0xd45e0000u     /* hlt #0xf000 */
#define EC_UNKNOWN      0x00
#define EC_DABT_CUR     0x25
#define SPSR_SP_ELX     1u              /* SPSR.M[0]: the interrupted code ran on SP_EL1 */

static const char *const groups[4] = { "EL1t", "EL1h", "EL0 (AArch64)", "EL0 (AArch32)" };
static const char *const types[4] = { "synchronous", "IRQ", "FIQ", "SError" };

static const char *ec_name(unsigned ec)
{
    switch (ec) {
    case 0x00: return "undefined instruction";
    case 0x01: return "WFI/WFE trap";
    case 0x07: return "FP/SIMD trap";
    case 0x0e: return "illegal execution state";
    case 0x15: return "SVC";
    case 0x16: return "HVC";
    case 0x17: return "SMC";
    case 0x18: return "system register trap";
    case 0x20: return "instruction abort from EL0";
    case 0x21: return "instruction abort";
    case 0x22: return "PC alignment fault";
    case 0x24: return "data abort from EL0";
    case 0x25: return "data abort";
    case 0x26: return "SP alignment fault";
    case 0x2f: return "SError";
    case 0x3c: return "BRK";
    default: return "other";
    }
}

/* Fixed-width hex without stdio: usable when TLS or the console lock may be broken. */
static void put_hex(const char *label, uint64_t v)
{
    char buf[24];
    unsigned n = 0;
    buf[n++] = ' ';
    for (int shift = 60; shift >= 0; shift -= 4)
        buf[n++] = "0123456789abcdef"[(v >> shift) & 0xf];
    buf[n] = '\0';
    hive_console_emergency(label);
    hive_console_emergency(buf);
}

static void dump_registers(const struct aarch64_frame *f, uint64_t sp)
{
    static const char *const names[31] = {
        "  x0", "  x1", "  x2", "  x3", "  x4", "  x5", "  x6", "  x7",
        "  x8", "  x9", " x10", " x11", " x12", " x13", " x14", " x15",
        " x16", " x17", " x18", " x19", " x20", " x21", " x22", " x23",
        " x24", " x25", " x26", " x27", " x28", " x29", " x30",
    };
    for (unsigned i = 0; i < 31; i++) {
        put_hex(names[i], f->x[i]);
        if (i % 4 == 3)
            hive_console_emergency("\n");
    }
    put_hex("  sp", sp);
    hive_console_emergency("\n");
}

/* HLT #0xF000 with semihosting off: make the call return (x0 = -1) instead. */
static bool skip_unheard_semihosting(struct aarch64_frame *f, unsigned type)
{
    if (type != 0 || (f->esr >> 26) != EC_UNKNOWN || *(const uint32_t *)f->elr != HLT_SEMIHOSTING)
        return false;
    f->x[0] = (uint64_t)-1;
    f->elr += 4;
    return true;
}

_Noreturn void aarch64_irq_stack_overflow(uint64_t esr, uint64_t elr, uint64_t far)
{
    /* Raw output: stdio's locks may be held by the handler that overflowed. */
    hive_console_emergency_panic(arch_this_cpu()->id,
                                 "interrupt stack overflow (an exception or interrupt handler "
                                 "ran into the guard page below this core's exception stack):");
    put_hex(" ESR", esr);
    put_hex(" ELR", elr);
    put_hex(" FAR", far);
    hive_console_emergency("\n");
    board_exit(1);
}

void aarch64_exception(struct aarch64_frame *f, unsigned kind)
{
    unsigned group = kind / 4, type = kind % 4, ec = (unsigned)(f->esr >> 26);
    if (skip_unheard_semihosting(f, type))
        return;

    /* A handler's access into the guard of this exception stack that the
     * entry's check did not see (it reached below sp): an overflow too. */
    if (type == 0 && ec == EC_DABT_CUR && hive_irq_stack_guard_core(f->far) >= 0)
        aarch64_irq_stack_overflow(f->esr, f->elr, f->far);

    uint64_t sp = (f->spsr & SPSR_SP_ELX) ? (uintptr_t)(f + 1) : f->sp_el0;
    dump_registers(f, sp);

    /* Before the per-core block exists, or when the report itself faulted,
     * stdio may be what is broken: a raw line, then stop. */
    if (!arch_this_cpu() || group == 1) {
        if (!arch_this_cpu()) {
            /* No per-core block yet (it brings the logical id): the id is
             * the one the boot core gave this core's hardware id (MPIDR's
             * affinity fields, as the board's board_core_hw_ids lists them)
             * when it started it; the hardware id is printed too. */
            uint64_t mpidr;
            __asm__ volatile("mrs %0, mpidr_el1" : "=r"(mpidr));
            int core = hive_cpu_of_hw_id(mpidr & AARCH64_MPIDR_AFFINITY);
            if (core >= 0)
                hive_console_emergency_panic((unsigned)core, "exception before per-core setup:");
            else
                hive_console_emergency("panic: core ?: exception before per-core setup:");
            put_hex(" MPIDR", mpidr & AARCH64_MPIDR_AFFINITY);
        } else {
            hive_console_emergency_panic(arch_this_cpu()->id,
                                         "exception inside an exception or interrupt handler:");
        }
        put_hex(" ESR", f->esr);
        put_hex(" ELR", f->elr);
        put_hex(" FAR", f->far);
        hive_console_emergency("\n");
        board_exit(1);
    }

    /* A data abort in a task stack's guard page: the stack overflowed (the
     * guard is the page just below it; kernel/cpu.h). Said first, with the
     * limit that was too small, so that it reads as what it is. */
    int guard = hive_stack_guard_core(f->far);
    if (type == 0 && ec == EC_DABT_CUR && guard >= 0)
        hive_panic("stack overflow (HIVE_STACK_SIZE = %u): %s (EC %#x) at FAR=%#lx in the stack "
                   "guard of core %u, ELR=%#lx ESR=%#lx SPSR=%#lx",
                   (unsigned)HIVE_STACK_SIZE, ec_name(ec), ec, (unsigned long)f->far, (unsigned)guard,
                   (unsigned long)f->elr, (unsigned long)f->esr, (unsigned long)f->spsr);
    hive_panic("unexpected %s exception from %s: %s (EC %#x) ESR=%#lx ELR=%#lx FAR=%#lx SPSR=%#lx",
               types[type], groups[group], ec_name(ec), ec, (unsigned long)f->esr,
               (unsigned long)f->elr, (unsigned long)f->far, (unsigned long)f->spsr);
}
