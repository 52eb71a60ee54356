/*
 * The GIC as the board's interrupt controller: see gic.h. gic_ops.h is the
 * interface the two versions implement (gicv2.c, gicv3.c); probe.c picks one.
 */
#include <stdint.h>

#include "drivers/gic/gic.h"
#include "drivers/gic/gic_ops.h"
#include "kernel/kernel.h"

const struct gic_config *gic_cfg;

void gic_init(const struct gic_config *cfg)
{
    gic_cfg = cfg;
    gic_probe();
    gic->init_dist();
}

void gic_init_cpu(unsigned core)
{
    gic->init_cpu(core);
    gic->enable(GIC_SGI_WAKE, true, core);
    gic->enable(gic_cfg->timer_intid, true, core);
}

int gic_route(unsigned line, unsigned core, bool on)
{
    if (line < GIC_SPI_FIRST || line >= gic->lines()) {
        /* Not a device line. Turning off a stray SGI or PPI on this core is
         * allowed, so the kernel can silence a source nobody handles. */
        if (!on && line < GIC_SPI_FIRST && line != GIC_SGI_WAKE && line != gic_cfg->timer_intid) {
            gic->enable(line, false, core);
            return 0;
        }
        return -1;
    }
    gic->enable(line, on, core);
    return 0;
}

void gic_doorbell(unsigned core)
{
    gic->send_sgi(core, GIC_SGI_WAKE);
}

/*
 * The acknowledge makes the interrupt active, so it is not signalled again
 * until its end (EOI), which also drops the running priority. A
 * level-triggered source must be quiet by then or it fires again: the kernel
 * re-programs the timer from its handler (arch_timer_set), and device
 * handlers quiet their device.
 */
int gic_claim(uint32_t *ack)
{
    *ack = gic->ack();
    unsigned intid = gic_intid(*ack);
    if (intid >= GIC_SPURIOUS_FIRST)
        return HIVE_IRQ_NONE;
    if (intid == GIC_SGI_WAKE)
        return HIVE_IRQ_DOORBELL;
    if (intid == gic_cfg->timer_intid)
        return HIVE_IRQ_TIMER;
    return (int)intid;
}

void gic_complete(uint32_t ack)
{
    gic->end(ack);
}

/* GICD_ISPENDR / GICD_ICPENDR: the same offsets in the GICv2 and GICv3
 * distributors, which hold the SPIs' pending state in both. */
#define GICD_ISPENDR 0x200
#define GICD_ICPENDR 0x280

int gic_spi_set_pending(unsigned line, bool pending)
{
    if (line < GIC_SPI_FIRST || line >= gic->lines())
        return -1;
    unsigned word = line / 32 * 4;
    *gic_reg32(gic_cfg->dist, (pending ? GICD_ISPENDR : GICD_ICPENDR) + word) = 1u << (line % 32);
    return 0;
}
