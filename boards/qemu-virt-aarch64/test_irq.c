/*
 * The test device interrupt (kernel/board.h, board_test_irq): QEMU virt's
 * PL061 GPIO controller at 0x09030000, SPI 7 (GIC INTID 39).
 *
 * Pin 0 is made an output with a level-sensitive, active-high interrupt.
 * QEMU's PL061 evaluates its interrupt logic on the pin data whatever the
 * direction, so driving the pin high asserts the line to the GIC. The line
 * stays asserted until the handler quiets the device - drops the level and
 * clears the status bit, which QEMU latches while the level holds - so this
 * is a level-triggered device line where "quiet the device before the end of
 * the interrupt" really matters. Raises that come faster than the handler
 * coalesce, as on any device. (In edge mode QEMU 7.2 raised nothing for an
 * output pin. Pin 3 is QEMU's power button input; pins 0-2 are free.)
 */
#include <stdatomic.h>
#include <stdint.h>

#include "kernel/board.h"

#define PL061_BASE      0x09030000ul
#define PL061_IRQ       (32 + 7)
#define PIN             (1u << 0)

#define GPIODATA(mask)  ((mask) << 2)  /* address bits [9:2] select the pins written */
#define GPIODIR         0x400
#define GPIOIS          0x404           /* 1: level-sensitive */
#define GPIOIBE         0x408           /* both edges (edge mode only) */
#define GPIOIEV         0x40c           /* 1: high level */
#define GPIOIE          0x410
#define GPIOIC          0x41c

static inline volatile uint32_t *reg(unsigned off)
{
    return (volatile uint32_t *)(PL061_BASE + off);
}

int board_test_irq(void)
{
    /* Configured once, before the caller enables the line at the GIC. A
     * second caller waits until the first has finished. */
    static atomic_int state;    /* 0 untouched, 1 being configured, 2 ready */
    int expect = 0;
    if (atomic_compare_exchange_strong(&state, &expect, 1)) {
        *reg(GPIOIE) &= ~PIN;
        *reg(GPIODATA(PIN)) = 0;
        *reg(GPIODIR) |= PIN;
        *reg(GPIOIS) |= PIN;
        *reg(GPIOIBE) &= ~PIN;
        *reg(GPIOIEV) |= PIN;
        *reg(GPIOIC) = PIN;
        *reg(GPIOIE) |= PIN;
        atomic_store(&state, 2);
    }
    while (atomic_load(&state) != 2)
        ;
    return PL061_IRQ;
}

void board_test_irq_raise(void)
{
    *reg(GPIODATA(PIN)) = PIN;
}

void board_test_irq_ack(void)
{
    /* QEMU latches the status bit while the level holds: drop the level,
     * then clear the latch. */
    *reg(GPIODATA(PIN)) = 0;
    *reg(GPIOIC) = PIN;
}
