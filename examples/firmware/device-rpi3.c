/*
 * Raspberry Pi 3 (and QEMU raspi3b): the BCM2836 local controller's own
 * timer at 0x40000000, source bit 11 of the controller, which is hive's
 * line number for it. hive_irq_attach routes the line and sets the timer's
 * interrupt enable (bit 29 of its control register); this driver must keep
 * that bit in every control write. The timer counts down from its reload
 * value, sets its flag (a level) at 0, and reloads: started, it interrupts
 * within 10 us and then every 10 us until the handler stops it and clears
 * the flag.
 */
#include <stdint.h>

#include "device.h"

#define LOCAL_BASE 0x40000000ul
#define LOCAL_TIMER_CTL 0x34
#define LOCAL_TIMER_ACK 0x38
#define LOCAL_TIMER_LINE 11u

#define FLAG (1u << 31)     /* ACK: clear the pending flag */
#define INTEN (1u << 29)
#define ENABLE (1u << 28)
#define TICKS 384u          /* 10 us at 38.4 MHz */

static volatile uint32_t *reg(unsigned off)
{
    return (volatile uint32_t *)(LOCAL_BASE + off);
}

unsigned device_init(void)
{
    *reg(LOCAL_TIMER_CTL) = 0;
    *reg(LOCAL_TIMER_ACK) = FLAG;
    return LOCAL_TIMER_LINE;
}

void device_raise(void)
{
    *reg(LOCAL_TIMER_CTL) = INTEN | ENABLE | TICKS;
}

void device_ack(void)
{
    /* Stopped first, so no reload sets the flag again once it is cleared. */
    *reg(LOCAL_TIMER_CTL) = INTEN;
    *reg(LOCAL_TIMER_ACK) = FLAG;
}
