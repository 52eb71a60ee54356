/*
 * QEMU virt, riscv64, under the default OpenSBI: which drivers, where, wired
 * to kernel/board.h. RAM and the image's place are in memory.ld.
 */
#include "hive/board.h"

#include "drivers/goldfish_rtc.h"
#include "drivers/ns16550.h"
#include "drivers/plic_sbi_board_irq.h"
#include "drivers/sbi.h"
#include "drivers/sifive_test.h"
#include "kernel/kernel.h"

/* QEMU 7.2 virt's device addresses (hw/riscv/virt.c, virt_memmap) that
 * only hive's own code uses; the console and the RTC are public
 * (hive/board.h). */
#define VIRT_TEST   0x00100000ul    /* SiFive test finisher */
#define VIRT_CLINT  0x02000000ul
#define VIRT_PLIC   0x0c000000ul

/* ---- memory map: what the drivers (and the firmware's CLINT) need mapped ---- */

const struct board_region board_mmio[] = {
    {VIRT_TEST, 0x1000},
    {HIVE_BOARD_RTC_BASE, 0x1000},
    {VIRT_CLINT, 0x10000},
    {VIRT_PLIC, 0x600000},  /* sized for QEMU's maximum hart count (512 harts: 1024 contexts) */
    {HIVE_BOARD_CONSOLE_UART_BASE, 0x1000},
};
const unsigned board_mmio_count = sizeof board_mmio / sizeof board_mmio[0];

/* ---- console: NS16550A UART0 ---- */

static const struct ns16550_config uart = {.base = HIVE_BOARD_CONSOLE_UART_BASE};

void board_console_init(void)
{
    ns16550_init(&uart);
}

void board_console_putc(char c)
{
    ns16550_putc(&uart, c);
}

/* ---- cores: harts started through SBI HSM ---- */

/* Harts 0..95, all S-mode capable; OpenSBI's boot hart may be any of them
 * and keeps the others stopped until hart_start. An absent one is an SBI
 * error. */
#define HARTS4(h) (h), (h) + 1, (h) + 2, (h) + 3
#define HARTS16(h) HARTS4(h), HARTS4((h) + 4), HARTS4((h) + 8), HARTS4((h) + 12)
const uintptr_t board_core_hw_ids[] = {HARTS16(0),  HARTS16(16), HARTS16(32),
                                       HARTS16(48), HARTS16(64), HARTS16(80)};
const unsigned board_core_hw_id_count = sizeof board_core_hw_ids / sizeof board_core_hw_ids[0];
_Static_assert(sizeof board_core_hw_ids / sizeof board_core_hw_ids[0] == HIVE_BOARD_MAX_CORES,
               "one hart id per core the board may have");

int board_start_core(uintptr_t hw_id, unsigned id)
{
    return sbi_start_hart(hw_id, (uintptr_t)arch_secondary_entry, id);
}

/* ---- exit: the SiFive test finisher ends QEMU with the status ---- */

static const struct sifive_test_config finisher = {.base = VIRT_TEST};

noreturn void board_exit(int status)
{
    sifive_test_exit(&finisher, status);
    if (status != 0) {
        /* Not stopped within the finisher's second: QEMU acts on the write
         * from its main loop, which a loaded host can keep from running
         * longer than that (a panic on 8 cores beside other QEMUs on 2 host
         * cores: the power-off below then ended QEMU with status 0). The
         * firmware's power-off is a pass whatever its reason - OpenSBI
         * shuts QEMU's virt down through this same device with its pass
         * code - and the last request wins. So a failure never powers off:
         * it asks again each second until QEMU acts, and on a machine
         * without the device it stays here, after the panic's line, for
         * the runner's timeout to end - a failure either way. */
        hive_console_emergency("board: the test finisher has not stopped the machine yet; "
                               "asking again (no power-off: it would end as a pass)\n");
        for (;;)
            sifive_test_exit(&finisher, status);
    }
    /* A pass the finisher did not end: power off through the firmware
     * rather than hang. */
    hive_console_emergency("board: the test finisher did not stop the machine, "
                           "powering off\n");
    sbi_system_reset(SBI_RESET_SHUTDOWN, SBI_RESET_NO_REASON);
    arch_halt();
}

/* ---- interrupt controller: the PLIC; the doorbell is an SBI IPI ---- */

/* QEMU virt gives each hart two PLIC contexts, M-mode then S-mode, in hart
 * order (hw/riscv/virt.c: "MS" per hart): hart h's S-mode context is 2h + 1. */
#define S_CONTEXT(h) (2 * (h) + 1)
#define S_CONTEXTS4(h) S_CONTEXT(h), S_CONTEXT((h) + 1), S_CONTEXT((h) + 2), S_CONTEXT((h) + 3)
#define S_CONTEXTS16(h) S_CONTEXTS4(h), S_CONTEXTS4((h) + 4), S_CONTEXTS4((h) + 8), S_CONTEXTS4((h) + 12)
static const unsigned plic_s_context[] = {S_CONTEXTS16(0),  S_CONTEXTS16(16), S_CONTEXTS16(32),
                                          S_CONTEXTS16(48), S_CONTEXTS16(64), S_CONTEXTS16(80)};

const struct plic_config board_plic = {
    .base = VIRT_PLIC,
    .sources = HIVE_IRQ_LINES,  /* board.cmake: VIRT_IRQCHIP_NUM_SOURCES + 1 */
    .s_context = plic_s_context,
    .harts = sizeof plic_s_context / sizeof plic_s_context[0],
};

/* ---- test interrupt: the goldfish RTC's alarm ---- */

static const struct goldfish_rtc_config rtc = {.base = HIVE_BOARD_RTC_BASE, .irq = HIVE_BOARD_RTC_IRQ};

int board_test_irq(void)
{
    return (int)rtc.irq;
}

void board_test_irq_raise(void)
{
    goldfish_rtc_alarm_now(&rtc);
}

void board_test_irq_ack(void)
{
    goldfish_rtc_alarm_ack(&rtc);
}
