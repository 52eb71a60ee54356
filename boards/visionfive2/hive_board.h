/* StarFive VisionFive 2 (JH7110), from the device tree (Linux's
 * arch/riscv/boot/dts/starfive/jh7110.dtsi). Interrupt lines are PLIC
 * source ids. Pasted into the public hive/board.h (cmake/board.cmake);
 * board.c uses the same macros. */

/* The console: UART0, a DesignWare APB UART (16550-compatible, 32-bit
 * registers 4 bytes apart) on the 40-pin header's pins 8 (TX) and 10 (RX),
 * 115200 8N1 as U-Boot left it (24 MHz UART clock); its line is PLIC
 * source 32. */
#define HIVE_BOARD_CONSOLE_UART_BASE 0x10000000ul
#define HIVE_BOARD_CONSOLE_UART_IRQ 32u
