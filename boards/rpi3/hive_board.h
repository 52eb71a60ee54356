/* Raspberry Pi 3 (BCM2837) and QEMU's raspi3b: the BCM2835 peripherals at
 * 0x3F000000, the BCM2836 local controller at 0x40000000 (no GIC).
 * Interrupt lines are the local controller's source bits 0-11. Pasted into
 * the public hive/board.h (cmake/board.cmake); board.c uses the same
 * macros. */

/* The console: the PL011 (UART0), on the 48 MHz clock the firmware gives
 * it (config.txt: init_uart_clock=48000000). */
#define HIVE_BOARD_CONSOLE_UART_BASE 0x3F201000ul
#define HIVE_BOARD_CONSOLE_UART_CLOCK_HZ 48000000u

/* The BCM2836 local interrupt controller. Lines: its own timer (bit 11),
 * and mailbox 1 (bit 5), hive's own test interrupt. */
#define HIVE_BOARD_LOCAL_INTC_BASE 0x40000000ul
#define HIVE_BOARD_LOCAL_TIMER_IRQ 11u
#define HIVE_BOARD_MAILBOX1_IRQ 5u
