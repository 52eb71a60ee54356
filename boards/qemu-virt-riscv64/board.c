/*
 * QEMU virt, riscv64: which drivers, where (memmap.h), wired to
 * kernel/board.h.
 */
#include <stdatomic.h>

#include "drivers/goldfish_rtc.h"
#include "drivers/ns16550.h"
#include "drivers/sbi.h"
#include "drivers/sifive_test.h"
#include "kernel/kernel.h"
#include "memmap.h"

/* ---- console: NS16550A UART0 ---- */

static const struct ns16550_config uart = {.base = VIRT_UART0};

void board_console_init(void)
{
    ns16550_init(&uart);
}

void board_console_putc(char c)
{
    ns16550_putc(&uart, c);
}

/* ---- cores: harts started through SBI HSM ---- */

/*
 * OpenSBI keeps the other harts stopped until hart_start. Hart ids need not
 * be dense or start at the boot hart, so probe 0..max_cores-1 and hand out
 * logical ids 1, 2, ... in hart id order.
 */
unsigned board_start_secondaries(uintptr_t boot_hw_id, unsigned max_cores)
{
    unsigned n = 1;
    for (uintptr_t hart = 0; hart < max_cores && n < max_cores; hart++) {
        if (hart == boot_hw_id)
            continue;
        hive_cpus[n].hw_id = hart;
        /* Publish hw_id, the page tables and satp before the hart runs; the
         * new hart reads them with no other synchronisation than the SBI's. */
        atomic_thread_fence(memory_order_seq_cst);
        if (sbi_start_hart(hart, (uintptr_t)arch_secondary_entry, n) == 0)
            n++;
    }
    return n;
}

/* ---- exit: the SiFive test finisher ends QEMU with the status ---- */

static const struct sifive_test_config finisher = {.base = VIRT_TEST};

noreturn void board_exit(int status)
{
    sifive_test_exit(&finisher, status);
    /* Only if the finisher did not stop the machine: power off through the
     * firmware rather than hang, though the status is lost. */
    hive_console_emergency("board: the test finisher did not stop the machine, "
                           "powering off without the exit status\n");
    sbi_system_reset(SBI_RESET_SHUTDOWN,
                     status == 0 ? SBI_RESET_NO_REASON : SBI_RESET_SYSTEM_FAILURE);
    arch_halt();
}

/* ---- test interrupt: the goldfish RTC's alarm ---- */

static const struct goldfish_rtc_config rtc = {.base = VIRT_RTC, .irq = VIRT_RTC_IRQ};

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
