/*
 * QEMU virt, aarch64: which drivers, where (hw/arm/virt.c's memory map and
 * interrupt numbers), wired to kernel/board.h. RAM and the image's place are
 * in memory.ld.
 */
#include "hive/board.h"

#include "drivers/gic_board_irq.h"
#include "drivers/pl011.h"
#include "drivers/pl061.h"
#include "drivers/psci.h"
#include "drivers/semihosting.h"
#include "kernel/kernel.h"

/* ---- memory map: every device sits between 0x08000000 and RAM ---- */

const struct board_region board_mmio[] = {
    {0x08000000, 0x38000000},   /* GIC, PL011, PL061, RTC, fw_cfg, virtio, PCIe */
};
const unsigned board_mmio_count = sizeof board_mmio / sizeof board_mmio[0];

/* ---- console: the PL011 (hive/board.h) ---- */

static const struct pl011_config uart = {
    .base = HIVE_BOARD_CONSOLE_UART_BASE,
    .clock_hz = HIVE_BOARD_CONSOLE_UART_CLOCK_HZ,
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

/* ---- cores: PSCI, QEMU itself playing the firmware ---- */

static const struct psci_config psci = {.conduit = PSCI_CONDUIT_ABOVE_ENTRY};

/* QEMU virt puts 8 cores per cluster with GICv2 (which allows 8 in all) and
 * 16 with GICv3, so up to 16 cores all sit in cluster 0 with MPIDR Aff0 =
 * 0..15. An absent one answers CPU_ON with INVALID_PARAMETERS. */
const uintptr_t board_core_hw_ids[] = {0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15};
const unsigned board_core_hw_id_count = sizeof board_core_hw_ids / sizeof board_core_hw_ids[0];

int board_start_core(uintptr_t hw_id, unsigned id)
{
    return psci_start_core(&psci, hw_id, (uintptr_t)arch_secondary_entry, id);
}

/* ---- exit: semihosting SYS_EXIT carries the status to QEMU's exit code ---- */

noreturn void board_exit(int status)
{
    semihosting_exit(status);
    /* Only without -semihosting-config enable=on: stop rather than hang,
     * though QEMU then exits 0 whatever the status. */
    hive_console_emergency("board: no semihosting, powering off without the exit status\n");
    psci_system_off(&psci);
    arch_halt();
}

/* ---- interrupt controller: the GIC, v2 or v3 as QEMU was started ---- */

const struct gic_config board_gic = {
    .dist = 0x08000000,     /* GICD, both versions */
    .cpu = 0x08010000,      /* GICC, GICv2 */
    .redist = 0x080a0000,   /* GICR, GICv3: 128 KiB per core */
    .timer_intid = 27,      /* the EL1 virtual timer: PPI 11 */
};

/* ---- test interrupt: pin 0 of the PL061 GPIO (hive/board.h) ---- */

static const struct pl061_config gpio = {.base = HIVE_BOARD_GPIO_BASE, .irq = HIVE_BOARD_GPIO_IRQ, .pin = 0};

int board_test_irq(void)
{
    return pl061_test_irq(&gpio);
}

void board_test_irq_raise(void)
{
    pl061_test_irq_raise(&gpio);
}

void board_test_irq_ack(void)
{
    pl061_test_irq_ack(&gpio);
}
