/* QEMU virt aarch64 (hw/arm/virt.c's memory map and interrupt numbers).
 * Interrupt lines are GIC INTIDs: SPI n is 32 + n. Pasted into the public
 * hive/board.h (cmake/board.cmake); board.c uses the same macros. */

/* The console: a PL011 on QEMU virt's 24 MHz UART clock. */
#define HIVE_BOARD_CONSOLE_UART_BASE 0x09000000ul
#define HIVE_BOARD_CONSOLE_UART_CLOCK_HZ 24000000u

/* A PL061 GPIO, SPI 7. Pin 3 is QEMU's power button input; pins 0-2 are
 * free, and hive's own test interrupt uses pin 0. QEMU's PL061 takes an
 * output pin's level as its interrupt input, so software can raise it. */
#define HIVE_BOARD_GPIO_BASE 0x09030000ul
#define HIVE_BOARD_GPIO_IRQ (32u + 7u)
