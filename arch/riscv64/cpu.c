/* The per-core arch_* services of kernel/platform.h on RV64 S-mode. */
#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>

#include "csr.h"
#include "drivers/sbi.h"
#include "kernel/kernel.h"
#include "layout.h"

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

noreturn void arch_halt(void)
{
    arch_irq_save();
    csr_write(sie, 0);
    for (;;)
        __asm__ volatile("wfi");
}

const char *arch_core_firmware_state(uintptr_t hw_id, bool *starting)
{
    struct sbi_ret st = sbi_hart_get_status(hw_id);
    *starting = st.error == SBI_SUCCESS && st.value == SBI_HSM_START_PENDING;
    if (st.error != SBI_SUCCESS)
        return "SBI HSM: no status";
    switch (st.value) {
    case SBI_HSM_STARTED: return "SBI HSM: started - it left the firmware";
    case SBI_HSM_STOPPED: return "SBI HSM: stopped - the firmware never started it";
    case SBI_HSM_START_PENDING: return "SBI HSM: start pending - still in the firmware";
    case SBI_HSM_STOP_PENDING: return "SBI HSM: stop pending";
    default: return "SBI HSM: suspended or unknown state";
    }
}
