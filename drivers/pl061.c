/*
 * The PL061 as a test interrupt: see pl061.h.
 *
 * QEMU's PL061 evaluates its interrupt logic on the pin data whatever the
 * direction, so driving an output pin high asserts the line to the GIC. The
 * line stays asserted until the handler quiets the device - drops the level
 * and clears the status bit, which QEMU latches while the level holds - so
 * this is a level-triggered device line where "quiet the device before the
 * end of the interrupt" really matters. Raises that come faster than the
 * handler coalesce, as on any device. (In edge mode QEMU 7.2 raised nothing
 * for an output pin.)
 */
#include <stdatomic.h>

#include "drivers/pl061.h"

#define GPIODATA(mask)  ((mask) << 2)  /* address bits [9:2] select the pins written */
#define GPIODIR         0x400
#define GPIOIS          0x404           /* 1: level-sensitive */
#define GPIOIBE         0x408           /* both edges (edge mode only) */
#define GPIOIEV         0x40c           /* 1: high level */
#define GPIOIE          0x410
#define GPIOIC          0x41c

static inline volatile uint32_t *reg(const struct pl061_config *gpio, unsigned off)
{
    return (volatile uint32_t *)(gpio->base + off);
}

int pl061_test_irq(const struct pl061_config *gpio)
{
    static atomic_int state;    /* 0 untouched, 1 being configured, 2 ready */
    uint32_t pin = 1u << gpio->pin;
    int expect = 0;
    if (atomic_compare_exchange_strong(&state, &expect, 1)) {
        *reg(gpio, GPIOIE) &= ~pin;
        *reg(gpio, GPIODATA(pin)) = 0;
        *reg(gpio, GPIODIR) |= pin;
        *reg(gpio, GPIOIS) |= pin;
        *reg(gpio, GPIOIBE) &= ~pin;
        *reg(gpio, GPIOIEV) |= pin;
        *reg(gpio, GPIOIC) = pin;
        *reg(gpio, GPIOIE) |= pin;
        atomic_store(&state, 2);
    }
    while (atomic_load(&state) != 2)
        ;
    return (int)gpio->irq;
}

void pl061_test_irq_raise(const struct pl061_config *gpio)
{
    uint32_t pin = 1u << gpio->pin;
    *reg(gpio, GPIODATA(pin)) = pin;
}

void pl061_test_irq_ack(const struct pl061_config *gpio)
{
    /* QEMU latches the status bit while the level holds: drop the level,
     * then clear the latch. */
    uint32_t pin = 1u << gpio->pin;
    *reg(gpio, GPIODATA(pin)) = 0;
    *reg(gpio, GPIOIC) = pin;
}
