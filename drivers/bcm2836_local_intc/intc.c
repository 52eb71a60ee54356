/* The BCM2836 local controller as interrupt controller: see bcm2836_local_intc.h. */
#include <stdatomic.h>

#include "drivers/bcm2836_local_intc/regs.h"
#include "hive/spinlock.h"
#include "kernel/kernel.h"

const struct bcm2836_local_intc_config *bcm2836_cfg;
/* Serialises route's read-modify-writes (a core's mailbox control also
 * holds its doorbell's enable; the local timer's control, its count). */
static struct hive_spinlock route_lock = HIVE_SPINLOCK_INIT;

/* The controller's number for a logical core: MPIDR Aff0. */
static unsigned hw_core(unsigned core)
{
    uintptr_t aff0 = hive_cpus[core].hw_id & 0xff;
    if (aff0 >= CORES || hive_cpus[core].hw_id >> 8)
        hive_panic("bcm2836: core %u has MPIDR affinity 0x%lx, not 0-3", core,
                   (unsigned long)hive_cpus[core].hw_id);
    return (unsigned)aff0;
}

/* The calling core's, without a table: its own MPIDR (at EL1 under an EL2
 * that dropped to it, the copy in VMPIDR_EL2, the same value). */
static unsigned this_hw_core(void)
{
    uint64_t mpidr;
    __asm__ volatile("mrs %0, mpidr_el1" : "=r"(mpidr));
    return (unsigned)(mpidr & 0xff);
}

void bcm2836_local_intc_init(const struct bcm2836_local_intc_config *cfg)
{
    bcm2836_cfg = cfg;
    *bcm2836_reg(LOCAL_TIMER_CTL) = 0;
    *bcm2836_reg(LOCAL_TIMER_ACK) = LOCAL_TIMER_FLAG;
    *bcm2836_reg(LOCAL_TIMER_ROUTE) = 0;
}

void bcm2836_local_intc_init_cpu(unsigned core)
{
    unsigned hw = hw_core(core);
    /* Nothing left over from the firmware or an earlier run. */
    for (unsigned m = 0; m < 4; m++)
        *bcm2836_reg(MAILBOX_CLR(hw, m)) = ~0u;
    *bcm2836_reg(MAILBOX_CTL(hw)) = 1u << 0;     /* mailbox 0: IRQ */
    *bcm2836_reg(TIMER_CTL(hw)) = SRC_CNTVIRQ;    /* CNTV: IRQ */
}

static void route_local_timer(unsigned hw, bool on)
{
    *bcm2836_reg(LOCAL_TIMER_ROUTE) = hw;               /* IRQ (bit 2 clear) */
    /* The interrupt enable only; the count and the pending flag (read-only
     * on the chip; QEMU 7.2 takes it from the write) written back as read. */
    uint32_t ctl = *bcm2836_reg(LOCAL_TIMER_CTL);
    *bcm2836_reg(LOCAL_TIMER_CTL) = on ? ctl | LOCAL_TIMER_INTEN : ctl & ~LOCAL_TIMER_INTEN;
}

static void route_mailbox1(unsigned hw, bool on)
{
    /* relaxed: route_lock orders every writer. */
    unsigned old = atomic_load_explicit(&bcm2836_mailbox1_core, memory_order_relaxed);
    *bcm2836_reg(MAILBOX_CTL(old)) &= ~(1u << 1);
    if (!on)
        return;
    /* A raise still pending on the core it was routed to moves with it. */
    uint32_t pending = *bcm2836_reg(MAILBOX_CLR(old, 1));
    if (pending && old != hw) {
        *bcm2836_reg(MAILBOX_CLR(old, 1)) = pending;
        *bcm2836_reg(MAILBOX_SET(hw, 1)) = pending;
    }
    /* release: pairs with the acquire loads in test_irq.c's raise and ack. */
    atomic_store_explicit(&bcm2836_mailbox1_core, hw, memory_order_release);
    *bcm2836_reg(MAILBOX_CTL(hw)) |= 1u << 1;           /* mailbox 1: IRQ */
}

int bcm2836_local_intc_route(unsigned line, unsigned core, bool on)
{
    if (line != BCM2836_LINE_LOCAL_TIMER && line != BCM2836_LINE_MAILBOX1)
        return -1;
    unsigned hw = hw_core(core);
    unsigned long irq = hive_spin_lock(&route_lock);
    if (line == BCM2836_LINE_LOCAL_TIMER)
        route_local_timer(hw, on);
    else
        route_mailbox1(hw, on);
    hive_spin_unlock(&route_lock, irq);
    return 0;
}

void bcm2836_local_intc_doorbell(unsigned core)
{
    /* The caller's stores (the wake word) complete before the mailbox write
     * that makes the target look: a DSB, as for a GIC SGI (drivers/gic),
     * since whether the controller is an observer that a DMB orders for is
     * up to the implementation. Stores only: the wake word is a store. */
    __asm__ volatile("dsb ishst" : : : "memory");
    *bcm2836_reg(MAILBOX_SET(hw_core(core), 0)) = 1;
}

int bcm2836_local_intc_claim(uint32_t *claim)
{
    unsigned hw = this_hw_core();
    uint32_t src = *bcm2836_reg(IRQ_SOURCE(hw));
    *claim = 0;
    if (src & SRC_MAILBOX0) {
        /* Emptied now, before the kernel looks at why it was rung: a
         * doorbell rung after this point is taken again. The DSB makes
         * "after this point" true: the clear is a posted device write, and
         * without it the kernel's loads of the wake word could go ahead of
         * it - a waker that stored its wake and rang in between would have
         * its ring wiped by the late clear and its wake unseen. The read
         * back is what makes the DSB wait for the clear itself: the block
         * is mapped Device-nGnRE, whose early write acknowledgement lets a
         * DSB complete once a buffer on the way has taken the write, while
         * a read's data comes from the controller, after the earlier write
         * to it (accesses to one peripheral arrive in order). The DSB then
         * waits for that read. */
        *bcm2836_reg(MAILBOX_CLR(hw, 0)) = ~0u;
        (void)*bcm2836_reg(MAILBOX_CLR(hw, 0));
        __asm__ volatile("dsb sy" : : : "memory");
        return HIVE_IRQ_DOORBELL;
    }
    if (src & SRC_CNTVIRQ)
        return HIVE_IRQ_TIMER;
    if (src & SRC_MAILBOX1)
        return (int)BCM2836_LINE_MAILBOX1;
    if (src & SRC_LOCAL_TIMER)
        return (int)BCM2836_LINE_LOCAL_TIMER;
    if (src)
        hive_panic("bcm2836: core %u: interrupt sources 0x%x pending, none enabled by hive",
                   hw, (unsigned)src);
    return HIVE_IRQ_NONE;
}

void bcm2836_local_intc_complete(uint32_t claim)
{
    (void)claim;
}
