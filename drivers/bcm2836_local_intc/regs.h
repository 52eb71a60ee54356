/* Registers of the BCM2836 local controller (QA7 rev 3.4), shared by the
 * driver's two files. */
#ifndef HIVE_DRIVERS_BCM2836_LOCAL_INTC_REGS_H
#define HIVE_DRIVERS_BCM2836_LOCAL_INTC_REGS_H

#include <stdint.h>

#include "drivers/bcm2836_local_intc/bcm2836_local_intc.h"

#define LOCAL_TIMER_ROUTE   0x24            /* bits 0-1 core, bit 2 FIQ */
#define LOCAL_TIMER_CTL     0x34
#define LOCAL_TIMER_ACK     0x38
#define TIMER_CTL(c)        (0x40 + 4 * (c))    /* per core: its generic timers */
#define MAILBOX_CTL(c)      (0x50 + 4 * (c))    /* per core: its mailboxes */
#define IRQ_SOURCE(c)       (0x60 + 4 * (c))
#define FIQ_SOURCE(c)       (0x70 + 4 * (c))
#define MAILBOX_SET(c, m)   (0x80 + 16 * (c) + 4 * (m))  /* write 1s to set */
#define MAILBOX_CLR(c, m)   (0xc0 + 16 * (c) + 4 * (m))  /* read; write 1s to clear */

/* Bits of TIMER_CTL (IRQ enables; +4: FIQ) and of IRQ_SOURCE. */
#define SRC_CNTVIRQ         (1u << 3)
#define SRC_MAILBOX0        (1u << 4)
#define SRC_MAILBOX1        (1u << BCM2836_LINE_MAILBOX1)
#define SRC_LOCAL_TIMER     (1u << BCM2836_LINE_LOCAL_TIMER)

#define LOCAL_TIMER_FLAG    (1u << 31)  /* CTL: pending (read-only); ACK: clear it */
#define LOCAL_TIMER_INTEN   (1u << 29)

#define CORES               4

extern const struct bcm2836_local_intc_config *bcm2836_cfg;
/* The controller's core number mailbox 1 is routed to (test_irq.c). */
extern _Atomic unsigned bcm2836_mailbox1_core;

static inline volatile uint32_t *bcm2836_reg(unsigned off)
{
    return (volatile uint32_t *)(bcm2836_cfg->base + off);
}

#endif
