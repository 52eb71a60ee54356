/*
 * SiFive HiFive Unleashed (FU540-C000) as QEMU 7.2's sifive_u emulates it,
 * under the default OpenSBI: which drivers, where, wired to
 * kernel/board.h. RAM and the image's place are in memory.ld.
 *
 * Hart 0 is the E51 monitor core (RV64IMAC, M-mode only, no MMU): hive
 * never runs on it. The four U54 harts, 1-4, are hive's cores.
 */
#include "hive/board.h"

#include "drivers/plic_sbi_board_irq.h"
#include "drivers/sbi.h"
#include "drivers/semihosting.h"
#include "drivers/sifive_gpio.h"
#include "drivers/sifive_uart.h"
#include "kernel/kernel.h"

/* The FU540's device addresses (QEMU 7.2 hw/riscv/sifive_u.c,
 * sifive_u_memmap; the same in the device tree) that only hive's own code
 * uses; the console and the GPIO are public (hive/board.h). */
#define U_CLINT     0x02000000ul
#define U_PLIC      0x0c000000ul

/* ---- memory map: what the drivers (and the firmware's CLINT) need mapped ---- */

const struct board_region board_mmio[] = {
    {U_CLINT, 0x10000},
    {U_PLIC, 0x4000000},    /* the device tree's size */
    {HIVE_BOARD_CONSOLE_UART_BASE, 0x1000},
    {HIVE_BOARD_GPIO_BASE, 0x1000},
};
const unsigned board_mmio_count = sizeof board_mmio / sizeof board_mmio[0];

/* ---- console: UART0 ---- */

static const struct sifive_uart_config uart = {.base = HIVE_BOARD_CONSOLE_UART_BASE};

void board_console_init(void)
{
    sifive_uart_init(&uart);
}

void board_console_putc(char c)
{
    sifive_uart_putc(&uart, c);
}

/* ---- cores: the U54 harts, started through SBI HSM ---- */

/* Harts 1-4; OpenSBI's boot hart is one of them (only a hart with S-mode
 * can win its lottery) and it keeps the others stopped until hart_start.
 * Hart 0 is left out: OpenSBI would accept a start of it and the E51 would
 * never arrive. An absent U54 (-smp below 5) is an SBI error. */
const uintptr_t board_core_hw_ids[] = {1, 2, 3, 4};
const unsigned board_core_hw_id_count = sizeof board_core_hw_ids / sizeof board_core_hw_ids[0];

int board_start_core(uintptr_t hw_id, unsigned id)
{
    return sbi_start_hart(hw_id, (uintptr_t)arch_secondary_entry, id);
}

/* ---- exit: semihosting hands QEMU the status ---- */

noreturn void board_exit(int status)
{
    /* QEMU 10's SiFive UART sends what it holds from a timer of its own,
     * 100 ns of virtual time after the last write, and the semihosting exit
     * ends QEMU at once: without a pause the console's last line is cut off.
     * Nothing in the UART says when it is sent (its interrupt-pending bits
     * do not), so give QEMU's main loop time to run that timer - far more
     * than it needs, as a loaded host may be slow to schedule it; an exit
     * happens once. (A real UART needs about 90 us for its 8-byte FIFO at
     * 115200 baud.) Counted in loop turns, not read from the clock: the
     * M-mode entry's report comes here too, where reading `time` traps.
     * Some ten million instructions: several milliseconds under QEMU. */
    for (volatile unsigned long turn = 0; turn < 2000000ul; turn++)
        ;
    /* The board has no test finisher; semihosting works from S-mode and,
     * for the M-mode entry's report, from M-mode. */
    semihosting_exit(status);
    /* Only without -semihosting-config enable=on (or on the real board,
     * with no debugger): power off through the firmware, though the status
     * is lost. OpenSBI has no way to power the FU540 off (its device tree
     * gives a GPIO restart, no power-off), so say that it stops here. */
    hive_console_emergency("board: no semihosting, powering off without the exit status\n");
    sbi_system_reset(SBI_RESET_SHUTDOWN,
                     status == 0 ? SBI_RESET_NO_REASON : SBI_RESET_SYSTEM_FAILURE);
    hive_console_emergency("board: the firmware cannot power off; halted\n");
    arch_halt();
}

/* ---- interrupt controller: the PLIC; the doorbell is an SBI IPI ---- */

/* The FU540 gives hart 0 one PLIC context (M-mode) and each U54 two, M-mode
 * then S-mode (the device tree's interrupts-extended): hart h >= 1 has its
 * S-mode context at 2h. */
static const unsigned plic_s_context[] = {PLIC_NO_S_CONTEXT, 2, 4, 6, 8};

const struct plic_config board_plic = {
    .base = U_PLIC,
    .sources = HIVE_IRQ_LINES,  /* board.cmake: riscv,ndev + 1 */
    .s_context = plic_s_context,
    .harts = sizeof plic_s_context / sizeof plic_s_context[0],
};

/* ---- test interrupt: a GPIO pin driven by software ---- */

/* HIVE_BOARD_GPIO_TEST_PIN: nothing on the emulated board drives it. */
static const struct sifive_gpio_config gpio = {.base = HIVE_BOARD_GPIO_BASE,
                                               .irq = HIVE_BOARD_GPIO_IRQ(HIVE_BOARD_GPIO_TEST_PIN),
                                               .pin = HIVE_BOARD_GPIO_TEST_PIN};

int board_test_irq(void)
{
    return sifive_gpio_test_irq(&gpio);
}

void board_test_irq_raise(void)
{
    sifive_gpio_test_irq_raise(&gpio);
}

void board_test_irq_ack(void)
{
    sifive_gpio_test_irq_ack(&gpio);
}
