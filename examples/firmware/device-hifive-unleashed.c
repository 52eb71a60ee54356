/*
 * HiFive Unleashed (QEMU sifive_u): pin 1 of the GPIO, its address and PLIC
 * source from hive/board.h. With both output and input enabled, the pin
 * reads back the level it drives and high_ip latches while it is high;
 * with high_ie set the pin's line follows high_ip, so driving the pin high
 * raises the line until the handler drops the level and clears the latch.
 * (Pin 0 is hive's own test interrupt; pin 10 resets QEMU's machine.)
 */
#include <stdint.h>

#include "device.h"
#include "hive/board.h"

#define PIN_NUMBER 1u
#define PIN (1u << PIN_NUMBER)

#define INPUT_EN 0x04
#define OUTPUT_EN 0x08
#define PORT 0x0c /* the levels driven */
#define RISE_IE 0x18
#define FALL_IE 0x20
#define HIGH_IE 0x28
#define HIGH_IP 0x2c /* write 1 to clear */
#define LOW_IE 0x30
#define OUT_XOR 0x40

static volatile uint32_t *reg(unsigned off)
{
    return (volatile uint32_t *)(HIVE_BOARD_GPIO_BASE + off);
}

unsigned device_init(void)
{
    *reg(HIGH_IE) &= ~PIN;
    *reg(RISE_IE) &= ~PIN;
    *reg(FALL_IE) &= ~PIN;
    *reg(LOW_IE) &= ~PIN;
    *reg(OUT_XOR) &= ~PIN;
    *reg(PORT) &= ~PIN;
    *reg(OUTPUT_EN) |= PIN;
    *reg(INPUT_EN) |= PIN;
    *reg(HIGH_IP) = PIN;
    *reg(HIGH_IE) |= PIN;
    return HIVE_BOARD_GPIO_IRQ(PIN_NUMBER);
}

/* PORT holds every pin's level: only this pin's bit changes (a stray write
 * to pin 10 would reset the board). */
void device_raise(void)
{
    *reg(PORT) |= PIN;
}

void device_ack(void)
{
    /* The pin's interrupt off while the level drops and the latch clears:
     * QEMU reports the line on every register write, and its PLIC would
     * take a report in between as one interrupt too many. */
    *reg(HIGH_IE) &= ~PIN;
    *reg(PORT) &= ~PIN;
    *reg(HIGH_IP) = PIN;
    *reg(HIGH_IE) |= PIN;
}
