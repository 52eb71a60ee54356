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
#include "kernel/platform.h"
#include "mmode.h"

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

/* The CLINT's mtime, the source of the `time` CSR (the same 1 MHz). */
#define U_CLINT_MTIME (U_CLINT + 0xbff8ul)

/* How long the exit lets the console's last characters go out, in time
 * ticks (HIVE_TIMEBASE_HZ, board.cmake: 1 MHz): 100 ms. QEMU 10's SiFive
 * UART sends what it holds from a timer that its main-loop thread runs, 100
 * ns of virtual time after the last write, and the semihosting exit ends
 * QEMU at once from the hart's own thread. On a loaded host (parallel QEMUs,
 * other work) the main-loop thread may wait tens of milliseconds for a CPU,
 * and a pause counted in the hart's own instructions runs no longer there:
 * the hart's thread is starved alike. So the pause is host time. Nothing in
 * that UART says when its FIFO is empty (its ip.txwm is set whenever the
 * watermark is non-zero, whatever the FIFO holds). An exit happens once; on
 * the board the FIFO (8 bytes at 115200 baud) is out within 0.7 ms. */
#define EXIT_DRAIN_TICKS 100000ul

/* The time in ticks. S-mode reads `time` (QEMU's sifive_u has no `time`
 * CSR; OpenSBI emulates the read from mtime). The M-mode entry's report
 * comes here too, where that read would trap into its halt: there, with the
 * MMU off, mtime is plain memory. */
static uint64_t exit_clock(void)
{
    if (riscv_entered_in_mmode())
        return *(const volatile uint64_t *)U_CLINT_MTIME;
    return arch_counter();
}

noreturn void board_exit(int status)
{
    uint64_t start = exit_clock();
    while (exit_clock() - start < EXIT_DRAIN_TICKS)
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
