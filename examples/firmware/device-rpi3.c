/*
 * Raspberry Pi 3 (and QEMU raspi3b): the BCM2836 local controller's own
 * timer; the controller's address and the timer's line (source bit 11 of
 * the controller) come from hive/board.h. hive_irq_attach routes the line
 * and sets the timer's interrupt enable (bit 29 of its control register); this driver must keep
 * that bit in every control write. The timer counts down from its reload
 * value, sets its flag (a level) at 0, and reloads: started, it interrupts
 * within 10 us and then every 10 us until the handler stops it and clears
 * the flag.
 */
#include <stdint.h>

#include "device.h"
#include "hive/board.h"

#define LOCAL_TIMER_CTL 0x34
#define LOCAL_TIMER_ACK 0x38

#define FLAG (1u << 31)     /* ACK: clear the pending flag */
#define INTEN (1u << 29)
#define ENABLE (1u << 28)
#define TICKS 384u          /* 10 us at 38.4 MHz */

static volatile uint32_t *reg(unsigned off)
{
    return (volatile uint32_t *)(HIVE_BOARD_LOCAL_INTC_BASE + off);
}

unsigned device_init(void)
{
    *reg(LOCAL_TIMER_CTL) = 0;
    *reg(LOCAL_TIMER_ACK) = FLAG;
    return HIVE_BOARD_LOCAL_TIMER_IRQ;
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
