#include <stdarg.h>
#include <stdio.h>

#include "kernel/console.h"
#include "kernel/kernel.h"

static noreturn void panic_line(unsigned core, const char *fmt, va_list ap)
{
    arch_irq_save();
    char msg[320];
    int n = snprintf(msg, sizeof msg, "\npanic: core %u: ", core);
    if (n > 0 && (unsigned)n < sizeof msg)
        vsnprintf(msg + n, sizeof msg - (unsigned)n, fmt, ap);
    hive_console_flush();
    hive_console_emergency(msg);
    hive_console_emergency("\n");
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
