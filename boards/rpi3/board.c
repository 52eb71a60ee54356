/*
 * Raspberry Pi 3 (BCM2837) and QEMU's raspi3b: which drivers, where
 * (BCM2835 peripherals at 0x3F000000, the BCM2836 local controller at
 * 0x40000000), wired to kernel/board.h. RAM and the image's place are in
 * memory.ld.
 */

#include "hive/board.h"

#include "drivers/bcm2835_mailbox.h"
#include "drivers/bcm2836_local_intc/bcm2836_local_intc.h"
#include "drivers/pl011.h"
#include "drivers/semihosting.h"
#include "drivers/spin_table/spin_table.h"
#include "kernel/kernel.h"

/* ---- memory map ---- */

const struct board_region board_mmio[] = {
    {0x3F000000, 0x01000000},   /* BCM2835 peripherals: the PL011 among them */
    {HIVE_BOARD_LOCAL_INTC_BASE, 0x1000},   /* BCM2836 local controller */
};
const unsigned board_mmio_count = sizeof board_mmio / sizeof board_mmio[0];

/* ---- what the machine has: the firmware's device tree, else the GPU's answer ---- */

static const struct bcm2835_mailbox_config mailbox = {.base = 0x3F00B880};

/* The Pi firmware hands the boot core a device tree in x0 (QEMU's raspi3b
 * only with -dtb); without one, the VideoCore's firmware says how much RAM
 * the ARM has (the rest of the 1 GiB is the GPU's, config.txt's gpu_mem).
 * The tree, when there is one, also counts the cores. */
int board_machine(uintptr_t boot_arg, struct board_machine *m)
{
    int err = hive_machine_from_devicetree(boot_arg, m);
    if (err == 0)
        return 0;
    uint32_t base, size;
    if (bcm2835_mailbox_arm_memory(&mailbox, &base, &size) != 0)
        return err;
    m->ram_base = base;
    m->ram_size = size;
    m->cores = -1;
    return 0;
}

/* ---- console: the PL011 (UART0), on the 48 MHz clock the firmware gives it ---- */

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

/* ---- cores: the armstub's spin table ---- */

/* One cluster, MPIDR Aff0 = 0-3; core 0 is the one the firmware runs. */
const uintptr_t board_core_hw_ids[] = {0, 1, 2, 3};
const unsigned board_core_hw_id_count = sizeof board_core_hw_ids / sizeof board_core_hw_ids[0];

/* Core n's release word; the armstub (and QEMU's) parks cores 1-3 on it. */
#define SPIN_TABLE_BASE 0xd8

/* The chip always has four cores, but the launcher may ask for fewer: QEMU's
 * raspi3b accepts no -smp but 4, so the qemu script passes "cores=N" on the
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
    /* A real Pi 3 (no debugger): nothing carries a status and no firmware
     * call powers off; stop this core. */
    hive_console_emergency("board: no semihosting; halting without an exit status\n");
    arch_halt();
}

/* ---- interrupt controller: the BCM2836 local controller (no GIC) ---- */

static const struct bcm2836_local_intc_config intc = {.base = HIVE_BOARD_LOCAL_INTC_BASE};

/* The public line numbers are the controller's source bits, which its
 * driver knows as well: they must agree. */
_Static_assert(HIVE_BOARD_LOCAL_TIMER_IRQ == BCM2836_LINE_LOCAL_TIMER, "local timer line");
_Static_assert(HIVE_BOARD_MAILBOX1_IRQ == BCM2836_LINE_MAILBOX1, "mailbox 1 line");

void board_irq_init(void)
{
    bcm2836_local_intc_init(&intc);
}

void board_irq_init_cpu(unsigned core)
{
    bcm2836_local_intc_init_cpu(core);
}

int board_irq_route(unsigned line, unsigned core, bool on)
{
    return bcm2836_local_intc_route(line, core, on);
}

void board_irq_doorbell(unsigned core)
{
    bcm2836_local_intc_doorbell(core);
}

int board_irq_claim(uint32_t *claim)
{
    return bcm2836_local_intc_claim(claim);
}

void board_irq_complete(uint32_t claim)
{
    bcm2836_local_intc_complete(claim);
}

/* ---- test interrupt: mailbox 1 of the local controller (line 5) ---- */

int board_test_irq(void)
{
    return bcm2836_local_intc_test_irq();
}

void board_test_irq_raise(void)
{
    bcm2836_local_intc_test_raise();
}

void board_test_irq_ack(void)
{
    bcm2836_local_intc_test_ack();
}
