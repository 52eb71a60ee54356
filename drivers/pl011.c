/* The PL011 driver: see pl011.h (Arm DDI 0183 for the registers). */
#include "drivers/pl011.h"

#define UART_DR     0x00
#define UART_FR     0x18
#define UART_IBRD   0x24
#define UART_FBRD   0x28
#define UART_LCRH   0x2c
#define UART_CR     0x30
#define UART_IMSC   0x38

#define FR_BUSY     (1u << 3)
#define FR_TXFF     (1u << 5)
#define LCRH_FEN    (1u << 4)
#define LCRH_WLEN8  (3u << 5)
#define CR_UARTEN   (1u << 0)
#define CR_TXE      (1u << 8)
#define CR_RXE      (1u << 9)

static inline volatile uint32_t *reg(const struct pl011_config *uart, unsigned off)
{
    return (volatile uint32_t *)(uart->base + off);
}

void pl011_init(const struct pl011_config *uart)
{
    /* The divisor is clock / (16 * baud) in 16.6 fixed point: 64 times it,
     * rounded, is 4 * clock / baud. 24 MHz at 115200 baud: 13 + 1/64. */
    uint32_t div64 = (uint32_t)(((uint64_t)uart->clock_hz * 8 / uart->baud + 1) / 2);

    /* The PL011 manual's order: disable, drain, program, enable. */
    *reg(uart, UART_CR) = 0;
    while (*reg(uart, UART_FR) & FR_BUSY)
        ;
    *reg(uart, UART_IBRD) = div64 >> 6;
    *reg(uart, UART_FBRD) = div64 & 0x3f;
    *reg(uart, UART_LCRH) = LCRH_WLEN8 | LCRH_FEN;
    *reg(uart, UART_IMSC) = 0;
    *reg(uart, UART_CR) = CR_UARTEN | CR_TXE | CR_RXE;
}

void pl011_putc(const struct pl011_config *uart, char c)
{
    while (*reg(uart, UART_FR) & FR_TXFF)
        ;
    *reg(uart, UART_DR) = (unsigned char)c;
}
