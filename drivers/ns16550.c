/* The NS16550A driver: see ns16550.h. */
#include "drivers/ns16550.h"

#define THR 0   /* transmit holding register */
#define IER 1
#define FCR 2
#define LCR 3
#define LSR 5
#define LSR_THRE 0x20   /* room for another byte */

static inline volatile uint8_t *reg(const struct ns16550_config *uart, unsigned off)
{
    return (volatile uint8_t *)(uart->base + off);
}

void ns16550_init(const struct ns16550_config *uart)
{
    *reg(uart, IER) = 0;      /* polled: no interrupts */
    *reg(uart, LCR) = 0x03;   /* 8 data bits, no parity, 1 stop bit */
    *reg(uart, FCR) = 0x07;   /* FIFOs on and cleared */
}

void ns16550_putc(const struct ns16550_config *uart, char c)
{
    while (!(*reg(uart, LSR) & LSR_THRE))
        ;
    *reg(uart, THR) = (uint8_t)c;
}
