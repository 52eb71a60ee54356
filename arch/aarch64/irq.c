/*
 * Interrupts on aarch64 (kernel/platform.h, "Interrupts"): what the core
 * itself does - unmasking, and the C half of the IRQ path. vectors.S saves
 * the interrupted code's registers (frame.h) and calls aarch64_irq on the
 * exception stack with interrupts masked. Every IRQ comes through the
 * board's interrupt controller (kernel/board.h), doorbell and timer included.
 */
#include <stdint.h>

#include "aarch64.h"
#include "kernel/kernel.h"

void arch_irq_init_cpu(void)
{
    aarch64_timer_init_cpu();
}

void arch_irq_unmask(void)
{
    /* IRQ only: nothing is configured to signal FIQ (GICv2 FIQEn = 0,
     * GICv3 Group 0 unused), so FIQs stay masked as a tripwire. */
    __asm__ volatile("msr daifclr, #2" : : : "memory");
}

/*
 * Claim, handle, complete - and again while more is pending, which saves an
 * exception return and entry per interrupt under load.
 */
void aarch64_irq(void)
{
    for (;;) {
        uint32_t claim;
        int source = board_irq_claim(&claim);
        if (source == HIVE_IRQ_NONE)
            return;
        hive_kernel_irq(source);
        board_irq_complete(claim);
    }
}
