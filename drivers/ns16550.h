/*
 * NS16550A-compatible UART, polled, transmit only: a console
 * (kernel/board.h). QEMU virt riscv64's UART0. Byte-wide registers one byte
 * apart; the baud rate is left as the firmware (or QEMU, which ignores it)
 * set it.
 */
#ifndef HIVE_DRIVERS_NS16550_H
#define HIVE_DRIVERS_NS16550_H

#include <stdint.h>

struct ns16550_config {
    uintptr_t base;     /* the register block */
};

/* 8N1, FIFOs on and cleared, no interrupts. */
void ns16550_init(const struct ns16550_config *uart);
/* Wait for room in the transmitter, then send c. */
void ns16550_putc(const struct ns16550_config *uart, char c);

#endif
