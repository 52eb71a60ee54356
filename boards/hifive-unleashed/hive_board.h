/* SiFive HiFive Unleashed (FU540) as QEMU 7.2's sifive_u emulates it
 * (hw/riscv/sifive_u.c, sifive_u_memmap; the same in the device tree).
 * Interrupt lines are PLIC source ids. Pasted into the public hive/board.h
 * (cmake/board.cmake); board.c uses the same macros. */

/* The console: SiFive UART0 (the device tree's stdout-path). */
#define HIVE_BOARD_CONSOLE_UART_BASE 0x10010000ul

/* The GPIO controller, 16 pins; pin n interrupts on PLIC source 7 + n
 * (hw/riscv/sifive_u.h, SIFIVE_U_GPIO_IRQ0). Pin 0 is hive's own test
 * interrupt; pin 10 would not do: QEMU's sifive_u resets the machine when
 * it goes high. */
#define HIVE_BOARD_GPIO_BASE 0x10060000ul
#define HIVE_BOARD_GPIO_IRQ(pin) (7u + (unsigned)(pin))
#define HIVE_BOARD_GPIO_TEST_PIN 0u
