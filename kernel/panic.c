#include <stdarg.h>
#include <stdatomic.h>
#include <stdio.h>
#include <string.h>

#include "kernel/console.h"
#include "kernel/kernel.h"

atomic_bool hive_halting;

/*
 * Stop the other cores before the exit: where the board's exit ends the
 * machine (QEMU, semihosting, a test finisher) this is moot, but a board
 * without one (a Raspberry Pi with no debugger) halts only the calling core,
 * and the others would run on after the panic - printing, perhaps a passing
 * verdict of their own. Every other online core gets a doorbell, and an
 * interrupt finding hive_halting set halts its core (kernel/irq.c). A core
 * spinning with interrupts masked runs on: the best a panic can do without
 * a reset.
 */
static void halt_other_cores(unsigned me)
{
    /* seq_cst: before the doorbells, so a core taking one sees it. Only the
     * first panic rings them: a panic inside one (a driver's, say, from a
     * doorbell) or on another core meanwhile goes straight to its exit,
     * where ringing again could panic again, without end. */
    if (atomic_exchange(&hive_halting, true))
        return;
    /* Each core that came online, not 0 to hive_cpu_count() - 1: at boot
     * a started core may never have arrived (kernel/boot.c), and a doorbell
     * for a core whose interrupts were never set up is itself a fault. */
    for (unsigned c = 0; c < HIVE_MAX_CORES; c++)
        if (c != me && hive_cpu_online(c))
            board_irq_doorbell(c);
}

static noreturn void panic_line(unsigned core, const char *fmt, va_list ap)
{
    arch_irq_save();
    /* One byte kept for the newline. */
    char msg[320];
    int n = snprintf(msg, sizeof msg - 1, "\npanic: core %u: ", core);
    if (n < 0) {
        n = 0;
        msg[0] = '\0';
    }
    if ((unsigned)n < sizeof msg - 1)
        vsnprintf(msg + n, sizeof msg - 1 - (unsigned)n, fmt, ap);
    size_t len = strlen(msg);
    msg[len] = '\n';
    msg[len + 1] = '\0';
    hive_console_panic_line(msg);
    halt_other_cores(hive_cpu_id());
    board_exit(1);
}

noreturn void hive_panic(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    panic_line(hive_cpu_id(), fmt, ap);
}

noreturn void hive_panic_core(unsigned core, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    panic_line(core, fmt, ap);
}
