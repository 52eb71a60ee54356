/*
 * The local controller's own timer (QA7 "local timer"): a 28-bit down
 * counter that sets its interrupt flag each time it reaches 0 and reloads.
 * The flag is a level: it holds until written to the ACK register. Here it
 * is the board's test interrupt (bcm2836_local_intc.h).
 *
 * Its control register holds both the count (enable, reload value) and the
 * interrupt enable, which route() owns, so every write to it is made under
 * one lock from the two states below. (QEMU 7.2 also takes the pending flag,
 * read-only on the real chip, from a control write; writes here keep it as
 * it was, except ack's, which clears it anyway.)
 */
#include "drivers/bcm2836_local_intc/regs.h"
#include "hive/spinlock.h"

/* 10 us at the timer's 38.4 MHz: soon, yet slow enough that while the flag
 * is pending (the target core busy with interrupts masked) its reloads do
 * not keep QEMU busy. */
#define RAISE_TICKS 384u

static struct hive_spinlock lock = HIVE_SPINLOCK_INIT;
static bool routed, running;

static void write_ctl(void)
{
    uint32_t pending = *bcm2836_reg(LOCAL_TIMER_CTL) & LOCAL_TIMER_FLAG;
    *bcm2836_reg(LOCAL_TIMER_CTL) = pending | (routed ? LOCAL_TIMER_INTEN : 0) |
                                    (running ? LOCAL_TIMER_ENABLE | RAISE_TICKS : 0);
}

void bcm2836_local_timer_set_routed(bool on)
{
    unsigned long irq = hive_spin_lock(&lock);
    routed = on;
    write_ctl();
    hive_spin_unlock(&lock, irq);
}

int bcm2836_local_timer_test_irq(void)
{
    return (int)BCM2836_LINE_LOCAL_TIMER;
}

void bcm2836_local_timer_raise(void)
{
    unsigned long irq = hive_spin_lock(&lock);
    running = true;
    write_ctl();
    hive_spin_unlock(&lock, irq);
}

void bcm2836_local_timer_ack(void)
{
    unsigned long irq = hive_spin_lock(&lock);
    running = false;
    /* Stopped first, so no reload sets the flag again after it is cleared. */
    *bcm2836_reg(LOCAL_TIMER_CTL) = routed ? LOCAL_TIMER_INTEN : 0;
    *bcm2836_reg(LOCAL_TIMER_ACK) = LOCAL_TIMER_FLAG;
    hive_spin_unlock(&lock, irq);
}
