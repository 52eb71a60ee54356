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

/* QEMU virt numbers core i MPIDR Aff1 = i / 16, Aff0 = i % 16 with GICv3
 * (16 per cluster, its SGI target list) and i / 8, i % 8 with GICv2, which
 * allows 8 cores in all: so cores 0..7 are Aff0 0..7 either way. An absent
 * one answers CPU_ON with INVALID_PARAMETERS. */
#define CORE(i) ((uintptr_t)(i) / 16 << 8 | (uintptr_t)(i) % 16)
#define CORES4(i) CORE(i), CORE(i + 1), CORE(i + 2), CORE(i + 3)
#define CORES16(i) CORES4(i), CORES4(i + 4), CORES4(i + 8), CORES4(i + 12)
const uintptr_t board_core_hw_ids[] = {CORES16(0), CORES16(16), CORES16(32), CORES16(48),
                                       CORES16(64), CORES16(80)};
const unsigned board_core_hw_id_count = sizeof board_core_hw_ids / sizeof board_core_hw_ids[0];
_Static_assert(sizeof board_core_hw_ids / sizeof board_core_hw_ids[0] == HIVE_BOARD_MAX_CORES,
               "one hardware id per core the board may have");

int board_start_core(uintptr_t hw_id, unsigned id)
{
    return psci_start_core(&psci, hw_id, (uintptr_t)arch_secondary_entry, id);
}

/* ---- what the machine has: QEMU's device tree at the start of RAM ---- */

/* QEMU hands a bare-metal ELF no device tree address (x0 = 0), but puts the
 * tree at the start of RAM when the image leaves room for it there
 * (memory.ld: the image starts 2 MiB in). A loader that passes one in x0
 * (U-Boot, a Linux-style boot) is believed first. */
int board_machine(uintptr_t boot_arg, struct board_machine *m)
{
    return hive_machine_from_devicetree(boot_arg ? boot_arg : HIVE_BOARD_RAM_BASE, m);
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
