/*
 * Arm PrimeCell UART (PL011), polled, transmit only: a console
 * (kernel/board.h). QEMU virt aarch64's UART, and the Raspberry Pi's
 * "full" UART.
 */
#ifndef HIVE_DRIVERS_PL011_H
#define HIVE_DRIVERS_PL011_H

#include <stdint.h>

struct pl011_config {
    uintptr_t base;     /* the register block */
    uint32_t clock_hz;  /* UARTCLK, the reference clock the baud divisor divides */
    uint32_t baud;      /* the line rate to program */
};

/* Disable, drain, program 8N1 with FIFOs at `baud`, enable; no interrupts. */
void pl011_init(const struct pl011_config *uart);
/* Wait for room in the transmit FIFO, then send c. */
void pl011_putc(const struct pl011_config *uart, char c);

#endif
