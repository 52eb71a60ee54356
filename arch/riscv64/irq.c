/*
 * Interrupts on RV64 S-mode: the kernel/platform.h interrupt section, and the
 * C half of trap.S's interrupt path.
 *
 * Three sources reach S-mode, each with its bit in sie/sip:
 *  - SSIP, the doorbell: another hart's board_irq_doorbell (an SBI send_ipi;
 *    OpenSBI raises SSIP on the target). Software-writable, so we clear it
 *    ourselves.
 *  - STIP, the timer: with Sstc (the board says so), the hart compares time
 *    with stimecmp itself and STIP follows; otherwise OpenSBI does it for us
 *    behind sbi_set_timer. Either way only a new deadline clears it.
 *  - SEIP, external: the board's interrupt controller (a PLIC) has a device
 *    line for this hart, claimed through board_irq_claim.
 */
#include <stdint.h>

#include "csr.h"
#include "drivers/sbi.h"
#include "kernel/kernel.h"
#include "layout.h"

#ifndef HIVE_RISCV_SSTC
#error "HIVE_RISCV_SSTC (does the hart have stimecmp?) comes from boards/<board>/board.cmake"
#endif

void riscv_interrupt(void);

void arch_irq_init_cpu(void)
{
    arch_timer_set(UINT64_MAX);
    csr_clear(sip, SIP_SSIP);   /* a doorbell from before we listened */
    csr_set(sie, SIP_SSIP | SIP_STIP | SIP_SEIP);
}

void arch_irq_unmask(void)
{
    csr_set(sstatus, SSTATUS_SIE);
}

void arch_timer_set(uint64_t deadline)
{
#if HIVE_RISCV_SSTC
    /* stimecmp is CSR 0x14d (Sstc); by number for older assemblers. */
    __asm__ volatile("csrw 0x14d, %0" : : "r"(deadline) : "memory");
#else
    sbi_set_timer(deadline);
#endif
}

/*
 * trap.S calls this for every interrupt, masked, on this hart's trap stack.
 * Handle everything pending before returning: one trap for a burst.
 */
void riscv_interrupt(void)
{
    for (;;) {
        unsigned long pending = csr_read(sip) & csr_read(sie);
        if (pending & SIP_SSIP) {
            /* Cleared before handling: a doorbell sent meanwhile stays pending. */
            csr_clear(sip, SIP_SSIP);
            hive_kernel_irq(HIVE_IRQ_DOORBELL);
        } else if (pending & SIP_STIP) {
            hive_kernel_irq(HIVE_IRQ_TIMER);    /* re-arms: clears STIP */
        } else if (pending & SIP_SEIP) {
            uint32_t claim;
            int source = board_irq_claim(&claim);
            if (source == HIVE_IRQ_NONE)
                return;     /* taken back before we claimed it */
            hive_kernel_irq(source);
            board_irq_complete(claim);
        } else {
            return;
        }
    }
}
