/*
 * Interrupts on aarch64 (kernel/platform.h, "Interrupts"): set-up on every
 * core, the doorbell, device-line routing, and the C half of the IRQ path -
 * vectors.S saves the interrupted code's registers (frame.h) and calls
 * aarch64_irq on the exception stack with interrupts masked.
 */
#include <stdint.h>

#include "aarch64.h"
#include "gic.h"
#include "kernel/kernel.h"

void arch_irq_init(void)
{
    gic_probe();
    gic->init_dist();
}

void arch_irq_init_cpu(void)
{
    unsigned core = hive_cpu_id();
    gic->init_cpu(core);
    gic->enable(GIC_SGI_WAKE, true, core);
    aarch64_timer_init_cpu();
}

void arch_irq_unmask(void)
{
    /* IRQ only: nothing is configured to signal FIQ (GICv2 FIQEn = 0,
     * GICv3 Group 0 unused), so FIQs stay masked as a tripwire. */
    __asm__ volatile("msr daifclr, #2" : : : "memory");
}

void arch_irq_doorbell(unsigned core)
{
    gic->send_sgi(core, GIC_SGI_WAKE);
}

int arch_irq_route(unsigned irq, unsigned core, bool on)
{
    if (irq < GIC_SPI_FIRST || irq >= gic->lines()) {
        /* Not a device line. Turning off a stray SGI or PPI on this core is
         * allowed, so the kernel can silence a source nobody handles. */
        if (!on && irq < GIC_SPI_FIRST && irq != GIC_SGI_WAKE && irq != AARCH64_TIMER_PPI) {
            gic->enable(irq, false, core);
            return 0;
        }
        return -1;
    }
    gic->enable(irq, on, core);
    return 0;
}

/* The canonical source (kernel/platform.h) of a GIC interrupt id. */
static int source_of(unsigned intid)
{
    if (intid == GIC_SGI_WAKE)
        return HIVE_IRQ_DOORBELL;
    if (intid == AARCH64_TIMER_PPI)
        return HIVE_IRQ_TIMER;
    return (int)intid;
}

/*
 * Acknowledge, handle, end - and again while more is pending, which saves an
 * exception return and entry per interrupt under load. The acknowledge makes
 * the interrupt active, so it is not signalled again until its end (EOI),
 * which also drops the running priority. A level-triggered source must be
 * quiet by then or it fires again: the kernel re-programs the timer from its
 * handler (arch_timer_set), and device handlers quiet their device.
 */
void aarch64_irq(void)
{
    for (;;) {
        uint32_t ack = gic->ack();
        unsigned intid = gic_intid(ack);
        if (intid >= GIC_SPURIOUS_FIRST)
            return;
        hive_kernel_irq(source_of(intid));
        gic->end(ack);
    }
}
