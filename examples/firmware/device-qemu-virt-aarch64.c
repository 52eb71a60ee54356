/*
 * QEMU virt aarch64: pin 1 of the PL061 GPIO, level-triggered; its address
 * and interrupt line come from hive/board.h. Pin 3 is QEMU's power button;
 * 0-2 are free, and hive's own tests use 0.
 * QEMU's PL061 takes an output pin's level as its interrupt input, so
 * driving the pin high raises the line until the handler drives it low and
 * clears the latched status.
 */
#include <stdint.h>

#include "device.h"
#include "hive/board.h"

#define PIN 1u

#define GPIODATA(mask) ((mask) << 2) /* address bits [9:2] select the pins written */
#define GPIODIR 0x400
#define GPIOIS 0x404  /* 1: level-sensitive */
#define GPIOIBE 0x408 /* both edges */
#define GPIOIEV 0x40c /* 1: high level */
#define GPIOIE 0x410
#define GPIOIC 0x41c

static volatile uint32_t *reg(unsigned off)
{
    return (volatile uint32_t *)(HIVE_BOARD_GPIO_BASE + off);
}

unsigned device_init(void)
{
    *reg(GPIOIE) &= ~PIN;
    *reg(GPIODATA(PIN)) = 0;
    *reg(GPIODIR) |= PIN;
    *reg(GPIOIS) |= PIN;
    *reg(GPIOIBE) &= ~PIN;
    *reg(GPIOIEV) |= PIN;
    *reg(GPIOIC) = PIN;
    *reg(GPIOIE) |= PIN;
    return HIVE_BOARD_GPIO_IRQ;
}

void device_raise(void)
{
    *reg(GPIODATA(PIN)) = PIN;
}

void device_ack(void)
{
    /* QEMU latches the status while the level holds: drop it, then clear. */
    *reg(GPIODATA(PIN)) = 0;
    *reg(GPIOIC) = PIN;
}
