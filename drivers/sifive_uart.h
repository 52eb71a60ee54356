/*
 * SiFive UART (sifive,uart0: the FU540's and FE310's), polled, transmit
 * only: a console (kernel/board.h). 32-bit registers; the baud-rate divisor
 * is left as the firmware (or QEMU, which ignores it) set it, since it
 * depends on the bus clock the firmware chose.
 */
#ifndef HIVE_DRIVERS_SIFIVE_UART_H
#define HIVE_DRIVERS_SIFIVE_UART_H

#include <stdint.h>

struct sifive_uart_config {
    uintptr_t base;     /* the register block */
};

/* Transmitter on, one stop bit, no interrupts. */
void sifive_uart_init(const struct sifive_uart_config *uart);
/* Wait for room in the transmit FIFO, then send c. */
void sifive_uart_putc(const struct sifive_uart_config *uart, char c);

#endif
