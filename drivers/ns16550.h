/*
 * NS16550A-compatible UART, polled, transmit only: a console
 * (kernel/board.h). QEMU virt riscv64's UART0 (byte-wide registers one byte
 * apart), or a DesignWare APB UART such as the JH7110's (32-bit registers
 * four bytes apart: the device tree's reg-shift 2, reg-io-width 4). The baud
 * rate is left as the firmware (or QEMU, which ignores it) set it.
 */
#ifndef HIVE_DRIVERS_NS16550_H
#define HIVE_DRIVERS_NS16550_H

#include <stdint.h>

struct ns16550_config {
    uintptr_t base;         /* the register block */
    unsigned reg_shift;     /* register n at base + (n << reg_shift); 0: one byte apart */
    unsigned reg_io_width;  /* bytes per access: 4, or 1 (0 means 1) */
};

/* 8N1, FIFOs on and cleared, no interrupts. */
void ns16550_init(const struct ns16550_config *uart);
/* Wait for room in the transmitter, then send c. */
void ns16550_putc(const struct ns16550_config *uart, char c);

#endif
