/* The per-core arch_* services of kernel/platform.h on RV64 S-mode. */
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
 * Why no wake is lost: arch_idle_wake sets SSIP on the target after its
 * caller's wake flag (fence in arch_idle_wake, then the firmware's own
 * ordering). SSIP stays pending until we clear it here, and WFI returns at
 * once while sip & sie is non-zero, whether the IPI came before the WFI or
 * during it. We clear SSIP only after waking; an IPI that lands between the
 * WFI and the clear is swallowed, but its flag was already visible, and every
 * caller re-checks its condition after we return. SIE stays clear throughout,
 * so the pending interrupt never traps; SSIE is enabled only for the WFI.
 */
void arch_idle_wait(void)
{
    unsigned long irq = arch_irq_save();
    csr_set(sie, SIP_SSIP);
    __asm__ volatile("wfi" : : : "memory");
    csr_clear(sie, SIP_SSIP);
    csr_clear(sip, SIP_SSIP);
    arch_irq_restore(irq);
}

void arch_idle_wake(unsigned core)
{
    /* The caller's wake flag must be visible before the IPI that announces it. */
    __asm__ volatile("fence rw, rw" : : : "memory");
    sbi_send_ipi(1, hive_cpus[core].hw_id);
}

noreturn void arch_halt(void)
{
    arch_irq_save();
    csr_write(sie, 0);
    for (;;)
        __asm__ volatile("wfi");
}
