/*
 * Arm PrimeCell GPIO (PL061), as a device interrupt that software raises at
 * will (kernel/board.h, board_test_irq): one pin is made an output with a
 * level-sensitive, active-high interrupt, and driving it high asserts the
 * line. QEMU virt aarch64's GPIO controller.
 */
#ifndef HIVE_DRIVERS_PL061_H
#define HIVE_DRIVERS_PL061_H

#include <stdint.h>

struct pl061_config {
    uintptr_t base;     /* the register block */
    unsigned irq;       /* its interrupt line (a GIC INTID) */
    unsigned pin;       /* 0-7: a pin nothing else drives */
};

/* Configure the pin (once per image, by whoever calls first; a second
 * caller waits until the first has finished) and return the line. Call
 * before enabling the line. */
int pl061_test_irq(const struct pl061_config *gpio);
/* Drive the pin high: the line asserts and stays so until the ack. */
void pl061_test_irq_raise(const struct pl061_config *gpio);
/* From the handler: drop the level and clear the latched status. */
void pl061_test_irq_ack(const struct pl061_config *gpio);

#endif
