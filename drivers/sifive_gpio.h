/*
 * SiFive GPIO (sifive,gpio0: the FU540's), as a device interrupt that
 * software raises at will (kernel/board.h, board_test_irq): one pin is made
 * an output that also reads its own level back, with the level-high
 * interrupt on, and driving it high asserts the pin's line. QEMU sifive_u's
 * GPIO controller; each pin has a PLIC line of its own.
 */
#ifndef HIVE_DRIVERS_SIFIVE_GPIO_H
#define HIVE_DRIVERS_SIFIVE_GPIO_H

#include <stdint.h>

struct sifive_gpio_config {
    uintptr_t base;     /* the register block */
    unsigned irq;       /* the pin's interrupt line (a PLIC source id) */
    unsigned pin;       /* 0-31: a pin nothing else drives or listens to */
};

/* Configure the pin (once per image, by whoever calls first; a second
 * caller waits until the first has finished) and return the line. Call
 * before enabling the line. */
int sifive_gpio_test_irq(const struct sifive_gpio_config *gpio);
/* Drive the pin high: the line asserts and stays so until the ack. */
void sifive_gpio_test_irq_raise(const struct sifive_gpio_config *gpio);
/* From the handler: drop the level and clear the latched pending bit. */
void sifive_gpio_test_irq_ack(const struct sifive_gpio_config *gpio);

#endif
