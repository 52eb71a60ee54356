/*
 * QEMU virt, riscv64: which drivers, where (memmap.h), wired to
 * kernel/board.h.
 */
#include "drivers/ns16550.h"
#include "kernel/board.h"
#include "memmap.h"

/* ---- console: NS16550A UART0 ---- */

static const struct ns16550_config uart = {.base = VIRT_UART0};

void board_console_init(void)
{
    ns16550_init(&uart);
}

void board_console_putc(char c)
{
    ns16550_putc(&uart, c);
}
