/* The NS16550A driver: see ns16550.h. */
#include "drivers/ns16550.h"

#define THR 0   /* transmit holding register */
#define IER 1
#define FCR 2
#define LCR 3
#define LSR 5
#define LSR_THRE 0x20   /* room for another byte */

static uintptr_t reg(const struct ns16550_config *uart, unsigned n)
{
    return uart->base + ((uintptr_t)n << uart->reg_shift);
}

static uint8_t reg_read(const struct ns16550_config *uart, unsigned n)
{
    if (uart->reg_io_width == 4)
        return (uint8_t)*(volatile uint32_t *)reg(uart, n);
    return *(volatile uint8_t *)reg(uart, n);
}

static void reg_write(const struct ns16550_config *uart, unsigned n, uint8_t v)
{
    /* A UART with 32-bit registers may not take narrower stores. */
    if (uart->reg_io_width == 4)
        *(volatile uint32_t *)reg(uart, n) = v;
    else
        *(volatile uint8_t *)reg(uart, n) = v;
}

void ns16550_init(const struct ns16550_config *uart)
{
    reg_write(uart, IER, 0);      /* polled: no interrupts */
    reg_write(uart, LCR, 0x03);   /* 8 data bits, no parity, 1 stop bit */
    reg_write(uart, FCR, 0x07);   /* FIFOs on and cleared */
}

void ns16550_putc(const struct ns16550_config *uart, char c)
{
    while (!(reg_read(uart, LSR) & LSR_THRE))
        ;
    reg_write(uart, THR, (uint8_t)c);
}
