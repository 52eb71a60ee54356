/*
 * Mailbox 1 as the board's test interrupt (bcm2836_local_intc.h): a level
 * that software sets and clears, delivered through the controller as
 * device line 5 to the core route() chose. A raise racing a route to
 * another core may land on the old one; the tests route (attach) first.
 */
#include <stdatomic.h>

#include "drivers/bcm2836_local_intc/regs.h"

_Atomic unsigned bcm2836_mailbox1_core;

int bcm2836_local_intc_test_irq(void)
{
    return (int)BCM2836_LINE_MAILBOX1;
}

void bcm2836_local_intc_test_raise(void)
{
    /* acquire: pairs with the release store in route_mailbox1 (intc.c). */
    unsigned hw = atomic_load_explicit(&bcm2836_mailbox1_core, memory_order_acquire);
    *bcm2836_reg(MAILBOX_SET(hw, 1)) = 1;
}

void bcm2836_local_intc_test_ack(void)
{
    /* acquire: pairs with the release store in route_mailbox1 (intc.c). */
    unsigned hw = atomic_load_explicit(&bcm2836_mailbox1_core, memory_order_acquire);
    *bcm2836_reg(MAILBOX_CLR(hw, 1)) = ~0u;
}
