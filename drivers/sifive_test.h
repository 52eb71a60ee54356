/*
 * The SiFive test device ("sifive,test0", QEMU's test finisher): an exit
 * path (kernel/board.h, board_exit) that ends QEMU with a status. Plain MMIO,
 * so it works from M-mode and with the MMU off too.
 */
#ifndef HIVE_DRIVERS_SIFIVE_TEST_H
#define HIVE_DRIVERS_SIFIVE_TEST_H

#include <stdint.h>

struct sifive_test_config {
    uintptr_t base;     /* the register */
};

/* End the machine with status (0: pass; failures keep their low 8 bits, and
 * one that would wrap to 0 becomes 1). Returns only if the device did not. */
void sifive_test_exit(const struct sifive_test_config *dev, int status);

#endif
