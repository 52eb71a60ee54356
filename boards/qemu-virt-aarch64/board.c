/*
 * QEMU virt, aarch64: which drivers, where (hw/arm/virt.c's memory map and
 * interrupt numbers), wired to kernel/board.h.
 */
#include "drivers/pl011.h"
#include "kernel/board.h"

/* ---- console: the PL011 at 0x09000000, on QEMU virt's 24 MHz UART clock ---- */

static const struct pl011_config uart = {
    .base = 0x09000000,
    .clock_hz = 24000000,
    .baud = 115200,
};

void board_console_init(void)
{
    pl011_init(&uart);
}

void board_console_putc(char c)
{
    pl011_putc(&uart, c);
}
