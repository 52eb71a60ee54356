/* QEMU virt riscv64 (QEMU 7.2 hw/riscv/virt.c, virt_memmap; PLIC source ids
 * from hw/riscv/virt.h). Interrupt lines are PLIC source ids. Pasted into
 * the public hive/board.h (cmake/board.cmake); board.c uses the same
 * macros. */

/* The console: NS16550A UART0. */
#define HIVE_BOARD_CONSOLE_UART_BASE 0x10000000ul

/* The goldfish RTC; its alarm interrupts on PLIC source 11 (hive's own
 * test interrupt). */
#define HIVE_BOARD_RTC_BASE 0x00101000ul
#define HIVE_BOARD_RTC_IRQ 11u
