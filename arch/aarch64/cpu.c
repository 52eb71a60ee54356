/*
 * The per-core primitives of kernel/platform.h: interrupt masking, the
 * per-core register, the counter, halting. Also the storage entry.S needs.
 * (Idling and parking: park.c.)
 */
#include <stddef.h>
#include <stdint.h>

#include "aarch64.h"
#include "kernel/cpu.h"
#include "kernel/machine.h"

_Static_assert(AARCH64_STACK_SLOT == HIVE_STACK_SLOT, "aarch64.h is out of step with kernel/cpu.h");
_Static_assert(AARCH64_PROBE_STACK == HIVE_MACHINE_PROBE_STACK, "aarch64.h is out of step with kernel/machine.h");

_Static_assert(AARCH64_IRQ_STACK_SLOT == HIVE_IRQ_STACK_SLOT &&
               AARCH64_IRQ_STACK_GUARD == HIVE_IRQ_STACK_GUARD,
               "aarch64.h is out of step with kernel/cpu.h");
unsigned aarch64_entry_el;

unsigned long arch_irq_save(void)
{
    unsigned long daif;
    /* IRQ and FIQ; "memory" keeps the critical section's accesses inside. */
    __asm__ volatile("mrs %0, daif\n\tmsr daifset, #3" : "=r"(daif) : : "memory");
    return daif;
}

void arch_irq_restore(unsigned long state)
{
    __asm__ volatile("msr daif, %0" : : "r"(state) : "memory");
}

void arch_cpu_relax(void)
{
    __asm__ volatile("yield" : : : "memory");
}

struct hive_cpu *arch_this_cpu(void)
{
    struct hive_cpu *cpu;
    __asm__ volatile("mrs %0, tpidr_el1" : "=r"(cpu));
    return cpu;
}

void arch_set_this_cpu(struct hive_cpu *cpu)
{
    __asm__ volatile("msr tpidr_el1, %0" : : "r"(cpu) : "memory");
}

uint64_t arch_counter(void)
{
    uint64_t c;
    /* isb: the read may not be taken early, before the code it is timing. */
    __asm__ volatile("isb\n\tmrs %0, cntvct_el0" : "=r"(c) : : "memory");
    return c;
}

uint64_t arch_counter_hz(void)
{
    uint64_t hz;
    __asm__ volatile("mrs %0, cntfrq_el0" : "=r"(hz));
    return hz;
}

noreturn void arch_halt(void)
{
    __asm__ volatile("msr daifset, #0xf" : : : "memory");
    for (;;)
        __asm__ volatile("wfi");
}

const char *arch_core_firmware_state(uintptr_t hw_id, bool *starting)
{
    *starting = false;
    /* PSCI's AFFINITY_INFO could say, but not every board starts its cores
     * through PSCI (the Raspberry Pis' spin table has nothing to ask). */
    (void)hw_id;
    return NULL;
}
