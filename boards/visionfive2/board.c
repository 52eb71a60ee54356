/*
 * StarFive VisionFive 2 (JH7110) under its OpenSBI and U-Boot: which
 * drivers, where, wired to kernel/board.h. RAM and the image's place are in
 * memory.ld. Not emulated: written from the device tree and built, never
 * run here.
 *
 * Hart 0 is the S7 monitor core (RV64IMAC, M-mode only, no MMU): hive never
 * starts it. The four U74 harts, 1-4, are hive's cores; U-Boot's booti
 * enters on whichever of them U-Boot ran on, and kernel/boot.c starts the
 * others around it.
 */
#include "hive/board.h"

#include "drivers/ns16550.h"
#include "drivers/plic_sbi_board_irq.h"
#include "drivers/sbi.h"
#include "kernel/kernel.h"

/* The JH7110's device addresses (jh7110.dtsi) that only hive's own code
 * uses; the console is public (hive/board.h). */
#define JH7110_CLINT 0x02000000ul
#define JH7110_PLIC  0x0c000000ul

/* ---- memory map: what the drivers (and the firmware's CLINT) need mapped ---- */

const struct board_region board_mmio[] = {
    {JH7110_CLINT, 0x10000},
    {JH7110_PLIC, 0x4000000},   /* the device tree's size */
    {HIVE_BOARD_CONSOLE_UART_BASE, 0x10000},
};
const unsigned board_mmio_count = sizeof board_mmio / sizeof board_mmio[0];

/* ---- console: UART0, a DesignWare APB UART ---- */

/* reg-shift 2, reg-io-width 4 in the device tree: 32-bit registers, four
 * bytes apart. U-Boot has set it to 115200 8N1 on its 24 MHz clock. */
static const struct ns16550_config uart = {
    .base = HIVE_BOARD_CONSOLE_UART_BASE,
    .reg_shift = 2,
    .reg_io_width = 4,
};

void board_console_init(void)
{
    ns16550_init(&uart);
}

void board_console_putc(char c)
{
    ns16550_putc(&uart, c);
}

/* ---- cores: the U74 harts, started through SBI HSM ---- */

/* Harts 1-4; the boot hart is one of them (OpenSBI's lottery picks any) and
 * OpenSBI keeps the others stopped until hart_start. Hart 0 is left out:
 * the S7 has no S-mode, and a start of it would never arrive. */
const uintptr_t board_core_hw_ids[] = {1, 2, 3, 4};
const unsigned board_core_hw_id_count = sizeof board_core_hw_ids / sizeof board_core_hw_ids[0];

int board_start_core(uintptr_t hw_id, unsigned id)
{
    return sbi_start_hart(hw_id, (uintptr_t)arch_secondary_entry, id);
}

/* ---- exit: SBI system reset ---- */

noreturn void board_exit(int status)
{
    /* No debugger to take semihosting (its EBREAK would be a breakpoint
     * fault here) and no test finisher: SBI SRST powers the board off
     * (OpenSBI's pm-reset device), and no status leaves it. The console's
     * last lines are the verdict. */
    hive_console_emergency(status == 0 ? "board: exit status 0, powering off\n"
                                       : "board: exit status non-zero, powering off\n");
    sbi_system_reset(SBI_RESET_SHUTDOWN,
                     status == 0 ? SBI_RESET_NO_REASON : SBI_RESET_SYSTEM_FAILURE);
    hive_console_emergency("board: the firmware cannot power off; halted\n");
    arch_halt();
}

/* ---- interrupt controller: the PLIC; the doorbell is an SBI IPI ---- */

/* The JH7110 gives hart 0 one PLIC context (M-mode) and each U74 two,
 * M-mode then S-mode (the device tree's interrupts-extended): hart h >= 1
 * has its S-mode context at 2h. */
static const unsigned plic_s_context[] = {PLIC_NO_S_CONTEXT, 2, 4, 6, 8};

const struct plic_config board_plic = {
    .base = JH7110_PLIC,
    .sources = HIVE_IRQ_LINES,  /* board.cmake: riscv,ndev + 1 */
    .s_context = plic_s_context,
    .harts = sizeof plic_s_context / sizeof plic_s_context[0],
};

/* ---- test interrupt: none wired ---- */

/* Nothing on the board raises a device line for software without wiring
 * (a GPIO loopback would do); the on-target tests do not run here. */
int board_test_irq(void)
{
    return -1;
}

void board_test_irq_raise(void)
{
}

void board_test_irq_ack(void)
{
}
