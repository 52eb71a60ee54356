/*
 * Raspberry Pi 4 (BCM2711) and QEMU's raspi4b: which drivers, where (low
 * peripheral mode: the peripherals at 0xFE000000, the GIC-400 in the ARM
 * local block at 0xFF800000), wired to kernel/board.h. RAM and the image's
 * place are in memory.ld.
 */

#include "hive/board.h"

#include "drivers/bcm2835_gpio.h"
#include "drivers/gic_board_irq.h"
#include "drivers/pl011.h"
#include "drivers/semihosting.h"
#include "drivers/spin_table/spin_table.h"
#include "kernel/kernel.h"

/* ---- memory map ---- */

const struct board_region board_mmio[] = {
    {0xFE200000, 0x2000},   /* GPIO and the PL011 (UART0) */
    {0xFF841000, 0x2000},   /* GIC-400: distributor, CPU interface */
};
const unsigned board_mmio_count = sizeof board_mmio / sizeof board_mmio[0];

_Static_assert(HIVE_BOARD_GPIO_BASE == 0xFE200000 && HIVE_BOARD_CONSOLE_UART_BASE == 0xFE201000,
               "GPIO and UART0 in the first region");
_Static_assert(HIVE_BOARD_GIC_DIST_BASE == 0xFF841000 && HIVE_BOARD_GIC_CPU_BASE == 0xFF842000,
               "the GIC in the second region");

/* ---- console: the PL011 (UART0) on GPIO 14/15, on the firmware's 48 MHz clock ---- */

static const struct pl011_config uart = {
    .base = HIVE_BOARD_CONSOLE_UART_BASE,
    .clock_hz = HIVE_BOARD_CONSOLE_UART_CLOCK_HZ,
    .baud = 115200,
};

static const struct bcm2835_gpio_config gpio = {.base = HIVE_BOARD_GPIO_BASE};

void board_console_init(void)
{
    /* The pins' function is set here rather than trusted to the firmware:
     * on a Pi 4 the firmware gives GPIO 14/15 to the PL011 only when
     * config.txt moves Bluetooth off it, and otherwise to the mini UART. */
    bcm2835_gpio_set_function(&gpio, 14, BCM2835_GPIO_ALT0);
    bcm2835_gpio_set_function(&gpio, 15, BCM2835_GPIO_ALT0);
    pl011_init(&uart);
}

void board_console_putc(char c)
{
    pl011_putc(&uart, c);
}

/* ---- cores: the armstub's spin table ---- */

/* One cluster, MPIDR Aff0 = 0-3; core 0 is the one the firmware runs. */
const uintptr_t board_core_hw_ids[] = {0, 1, 2, 3};
const unsigned board_core_hw_id_count = sizeof board_core_hw_ids / sizeof board_core_hw_ids[0];

/* Core n's release word; the armstub (and QEMU's) parks cores 1-3 on it. */
#define SPIN_TABLE_BASE 0xd8

/* The chip always has four cores, but the launcher may ask for fewer: QEMU's
 * raspi4b accepts no -smp but 4, so the qemu script passes "cores=N" on the
 * semihosting command line, and the cores beyond N are parked for good.
 * With no semihosting (a real board), all four. */
int board_start_core(uintptr_t hw_id, unsigned id)
{
    return spin_table_start_or_park(SPIN_TABLE_BASE + 8 * hw_id, id,
                                    semihosting_cores_wanted(board_core_hw_id_count));
}

/* ---- exit: semihosting SYS_EXIT carries the status to QEMU's exit code ---- */

noreturn void board_exit(int status)
{
    semihosting_exit(status);
    /* A real Pi 4 (no debugger): nothing carries a status, and hive has no
     * firmware call that powers off; stop this core. */
    hive_console_emergency("board: no semihosting; halting without an exit status\n");
    arch_halt();
}

/* ---- interrupt controller: the GIC-400 (GICv2) ---- */

const struct gic_config board_gic = {
    .dist = HIVE_BOARD_GIC_DIST_BASE,
    .cpu = HIVE_BOARD_GIC_CPU_BASE,
    .timer_intid = 27,      /* the EL1 virtual timer: PPI 11 */
};

/* ---- test interrupt: SPI 123 made pending by software (hive/board.h) ---- */

int board_test_irq(void)
{
    return (int)HIVE_BOARD_SOFT_IRQ;
}

void board_test_irq_raise(void)
{
    if (gic_spi_set_pending(HIVE_BOARD_SOFT_IRQ, true) != 0)
        hive_panic("board: the GIC has no SPI %u", HIVE_BOARD_SOFT_IRQ);
}

void board_test_irq_ack(void)
{
    /* The acknowledge has cleared it already; a raise made since then is
     * merged into the interrupt being handled, as a level device's would
     * be. */
    (void)gic_spi_set_pending(HIVE_BOARD_SOFT_IRQ, false);
}
