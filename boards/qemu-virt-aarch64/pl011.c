/* The console: the PL011 UART at 0x09000000, polled, transmit only. */
#include <stdint.h>

#include "kernel/board.h"

#define PL011_BASE  0x09000000ul
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

static inline volatile uint32_t *reg(unsigned off)
{
    return (volatile uint32_t *)(PL011_BASE + off);
}

void board_console_init(void)
{
    /* The PL011 manual's order: disable, drain, program, enable. */
    *reg(UART_CR) = 0;
    while (*reg(UART_FR) & FR_BUSY)
        ;
    /* 115200 baud from QEMU virt's 24 MHz UART clock: 24e6 / (16 * 115200) = 13 + 1/64. */
    *reg(UART_IBRD) = 13;
    *reg(UART_FBRD) = 1;
    *reg(UART_LCRH) = LCRH_WLEN8 | LCRH_FEN;
    *reg(UART_IMSC) = 0;
    *reg(UART_CR) = CR_UARTEN | CR_TXE | CR_RXE;
}

void board_console_putc(char c)
{
    while (*reg(UART_FR) & FR_TXFF)
        ;
    *reg(UART_DR) = (unsigned char)c;
}
