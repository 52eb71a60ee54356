/*
 * The GPIO block of the BCM2835 family (BCM2835/6/7, BCM2711): a pin's
 * function (input, output, or one of its six alternate functions), three
 * bits a pin in the GPFSEL registers, ten pins a register.
 */
#ifndef HIVE_DRIVERS_BCM2835_GPIO_H
#define HIVE_DRIVERS_BCM2835_GPIO_H

#include <stdint.h>

struct bcm2835_gpio_config {
    uintptr_t base;     /* the register block (0xFE200000 on the Pi 4) */
};

/* GPFSEL's codes: ALT0 (the PL011's TXD0/RXD0 on GPIO 14/15) is 4. */
enum bcm2835_gpio_function {
    BCM2835_GPIO_INPUT = 0,
    BCM2835_GPIO_OUTPUT = 1,
    BCM2835_GPIO_ALT0 = 4,
};

/* Set `pin`'s function; the other pins keep theirs. A read-modify-write
 * of the shared register: one core at a time (bring-up). Aligned 32-bit
 * accesses only, so it works with the MMU off. */
void bcm2835_gpio_set_function(const struct bcm2835_gpio_config *cfg, unsigned pin,
                               enum bcm2835_gpio_function fn);

#endif
