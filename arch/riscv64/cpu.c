/* The per-core arch_* services of kernel/platform.h on RV64 S-mode. */
#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>

#include "csr.h"
#include "kernel/kernel.h"
#include "layout.h"
#include "sbi.h"

#ifndef HIVE_TIMEBASE_HZ
#error "HIVE_TIMEBASE_HZ (the time CSR's rate) comes from boards/<board>/board.cmake"
#endif

unsigned long arch_irq_save(void)
{
    return csr_read_clear(sstatus, SSTATUS_SIE) & SSTATUS_SIE;
}

void arch_irq_restore(unsigned long state)
{
    if (state & SSTATUS_SIE)
        csr_set(sstatus, SSTATUS_SIE);
}

void arch_cpu_relax(void)
{
    /* Zihintpause "pause" (a fence hint), spelled out for older assemblers;
     * a plain no-op on harts without the extension. */
    __asm__ volatile(".insn i 0x0f, 0, x0, x0, 0x010");
}

struct hive_cpu *arch_this_cpu(void)
{
    return (struct hive_cpu *)csr_read(sscratch);
}

void arch_set_this_cpu(struct hive_cpu *cpu)
{
    csr_write(sscratch, cpu);
}

uint64_t arch_counter(void)
{
    uint64_t t;
    __asm__ volatile("rdtime %0" : "=r"(t));
    return t;
}

uint64_t arch_counter_hz(void)
{
    return HIVE_TIMEBASE_HZ;
}

/*
 * The kernel's plain event (kernel/smp.c's idle secondaries): a flag per core
 * and the doorbell. Why no wake is lost: the flag is set before the IPI, and
 * the wait looks at it with interrupts masked before its WFI. A wake that
 * came earlier left the flag set; one that comes after the check leaves
 * SSIP pending, which ends the WFI even while masked (and, once unmasked,
 * the interrupt path clears it). Spurious returns (any other interrupt) are
 * allowed: every caller re-checks its condition.
 */
static atomic_bool idle_event[HIVE_MAX_CORES];

void arch_idle_wait(void)
{
    unsigned me = hive_cpu_id();
    unsigned long irq = arch_irq_save();
    if (!atomic_exchange(&idle_event[me], false)) {
        csr_set(sie, SIP_SSIP);     /* needed before arch_irq_init_cpu only */
        __asm__ volatile("wfi" : : : "memory");
    }
    if (!(irq & SSTATUS_SIE))
        csr_clear(sip, SIP_SSIP);   /* masked caller: nobody else will */
    arch_irq_restore(irq);
}

void arch_idle_wake(unsigned core)
{
    atomic_store(&idle_event[core], true);
    arch_irq_doorbell(core);
}

noreturn void arch_halt(void)
{
    arch_irq_save();
    csr_write(sie, 0);
    for (;;)
        __asm__ volatile("wfi");
}
