/* Raspberry Pi 4 (BCM2711) and QEMU's raspi4b, in low peripheral mode: the
 * peripherals at 0xFE000000, the ARM local block at 0xFF800000 with the
 * GIC-400 in it. Interrupt lines are GIC INTIDs: SPI n is 32 + n. Pasted
 * into the public hive/board.h (cmake/board.cmake); board.c uses the same
 * macros. */

/* The console: the PL011 (UART0), on the 48 MHz clock the firmware gives
 * it (init_uart_clock's default), on GPIO 14 (TXD) and 15 (RXD). */
#define HIVE_BOARD_CONSOLE_UART_BASE 0xFE201000ul
#define HIVE_BOARD_CONSOLE_UART_CLOCK_HZ 48000000u
#define HIVE_BOARD_CONSOLE_UART_IRQ (32u + 121u)

/* The GPIO block (function select of the console's pins). */
#define HIVE_BOARD_GPIO_BASE 0xFE200000ul

/* The GIC-400: distributor and CPU interface. */
#define HIVE_BOARD_GIC_DIST_BASE 0xFF841000ul
#define HIVE_BOARD_GIC_CPU_BASE 0xFF842000ul

/* hive's own test interrupt: SPI 123, the line of the composite video
 * encoder (VEC, VideoCore interrupt 59), which stays off on a Pi 4 unless
 * config.txt has enable_tvout=1 and which QEMU does not model; software
 * makes it pending through the distributor (drivers/gic). */
#define HIVE_BOARD_SOFT_IRQ (32u + 123u)
