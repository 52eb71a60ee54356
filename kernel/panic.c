#include <stdarg.h>
#include <stdio.h>

#include "kernel/console.h"
#include "kernel/kernel.h"

noreturn void hive_panic(const char *fmt, ...)
{
    arch_irq_save();
    char msg[256];
    int n = snprintf(msg, sizeof msg, "\npanic: core %u: ", hive_cpu_id());
    va_list ap;
    va_start(ap, fmt);
    if (n > 0 && (unsigned)n < sizeof msg)
        vsnprintf(msg + n, sizeof msg - (unsigned)n, fmt, ap);
    va_end(ap);
    hive_console_flush();
    hive_console_emergency(msg);
    hive_console_emergency("\n");
    board_exit(1);
}
