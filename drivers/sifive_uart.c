/* The SiFive UART driver: see sifive_uart.h. */
#include "drivers/sifive_uart.h"

#define TXDATA      0x00
#define TXDATA_FULL (1u << 31)  /* the transmit FIFO has no room */
#define TXCTRL      0x08
#define TXCTRL_TXEN 1u          /* transmitter on; nstop (bit 1) 0: one stop bit */
#define IE          0x10

static inline volatile uint32_t *reg(const struct sifive_uart_config *uart, unsigned off)
{
    return (volatile uint32_t *)(uart->base + off);
}

void sifive_uart_init(const struct sifive_uart_config *uart)
{
    *reg(uart, IE) = 0;     /* polled: no interrupts */
    /* The transmit watermark (txcnt) only matters to the interrupt. */
    *reg(uart, TXCTRL) = TXCTRL_TXEN;
}

void sifive_uart_putc(const struct sifive_uart_config *uart, char c)
{
    while (*reg(uart, TXDATA) & TXDATA_FULL)
        ;
    *reg(uart, TXDATA) = (uint8_t)c;
}
