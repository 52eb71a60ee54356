/* The console: NS16550A UART0, polled (QEMU ignores the baud rate). */
#include <stdint.h>

#include "kernel/board.h"
#include "memmap.h"

#define THR 0   /* transmit holding register */
#define IER 1
#define FCR 2
#define LCR 3
#define LSR 5
#define LSR_THRE 0x20   /* room for another byte */

static volatile uint8_t *const uart = (volatile uint8_t *)VIRT_UART0;

void board_console_init(void)
{
    uart[IER] = 0;      /* polled: no interrupts */
    uart[LCR] = 0x03;   /* 8 data bits, no parity, 1 stop bit */
    uart[FCR] = 0x07;   /* FIFOs on and cleared */
}

void board_console_putc(char c)
{
    while (!(uart[LSR] & LSR_THRE))
        ;
    uart[THR] = (uint8_t)c;
}
