/*
 * The SiFive GPIO as a test interrupt: see sifive_gpio.h.
 *
 * With both the output and the input enabled, a pin reads back the level it
 * drives, and its high_ip bit latches while that level is high; with
 * high_ie set the pin's line to the PLIC follows high_ip. The line stays
 * asserted until the handler quiets the device - drops the level, then
 * clears the latch (write 1), which QEMU sets again at once if the level
 * still holds - so this is a level-triggered device line where "quiet the
 * device before the end of the interrupt" really matters. Raises that come
 * faster than the handler coalesce, as on any device.
 */
#include <stdatomic.h>

#include "drivers/sifive_gpio.h"

#define INPUT_EN    0x04
#define OUTPUT_EN   0x08
#define PORT        0x0c    /* the levels driven */
#define RISE_IE     0x18
#define FALL_IE     0x20
#define HIGH_IE     0x28
#define HIGH_IP     0x2c    /* write 1 to clear */
#define LOW_IE      0x30
#define OUT_XOR     0x40

static inline volatile uint32_t *reg(const struct sifive_gpio_config *gpio, unsigned off)
{
    return (volatile uint32_t *)(gpio->base + off);
}

int sifive_gpio_test_irq(const struct sifive_gpio_config *gpio)
{
    static atomic_int state;    /* 0 untouched, 1 being configured, 2 ready */
    uint32_t pin = 1u << gpio->pin;
    int expect = 0;
    if (atomic_compare_exchange_strong(&state, &expect, 1)) {
        *reg(gpio, HIGH_IE) &= ~pin;
        *reg(gpio, RISE_IE) &= ~pin;
        *reg(gpio, FALL_IE) &= ~pin;
        *reg(gpio, LOW_IE) &= ~pin;
        *reg(gpio, OUT_XOR) &= ~pin;
        *reg(gpio, PORT) &= ~pin;
        *reg(gpio, OUTPUT_EN) |= pin;
        *reg(gpio, INPUT_EN) |= pin;
        *reg(gpio, HIGH_IP) = pin;
        *reg(gpio, HIGH_IE) |= pin;
        atomic_store(&state, 2);
    }
    while (atomic_load(&state) != 2)
        ;
    return (int)gpio->irq;
}

/*
 * PORT holds every pin's level: only this pin's bit changes, the others are
 * written back as read (QEMU's sifive_u wires pin 10 to the machine's reset,
 * so a stray write there would restart the board). Nothing else changes
 * PORT at run time, so a raise racing an ack can only disagree about this
 * pin's bit, and the later write wins, as with any device register. No lock:
 * the ack runs in the handler, which may interrupt a raise on its own core.
 */
static void set_level(const struct sifive_gpio_config *gpio, int high)
{
    uint32_t pin = 1u << gpio->pin;
    uint32_t v = *reg(gpio, PORT);
    *reg(gpio, PORT) = high ? v | pin : v & ~pin;
}

void sifive_gpio_test_irq_raise(const struct sifive_gpio_config *gpio)
{
    set_level(gpio, 1);
}

void sifive_gpio_test_irq_ack(const struct sifive_gpio_config *gpio)
{
    /* Drop the level and clear the latch, with the pin's interrupt off
     * meanwhile: QEMU's GPIO reports every pin's line to the PLIC on every
     * register write, and QEMU 7.2.22's PLIC makes a source pending each
     * time its line is reported high, even while the source is claimed - a
     * report between dropping the level and clearing the latch (which
     * still holds) would be one interrupt too many. */
    uint32_t pin = 1u << gpio->pin;
    *reg(gpio, HIGH_IE) &= ~pin;
    set_level(gpio, 0);
    *reg(gpio, HIGH_IP) = pin;
    *reg(gpio, HIGH_IE) |= pin;
}
