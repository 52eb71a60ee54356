#ifndef HIVE_KERNEL_CONSOLE_H
#define HIVE_KERNEL_CONSOLE_H
/* Flush this core's partial console line (used at exit and before a panic). */
void hive_console_flush(void);
/* A panic's line (with its newline): this core's unfinished line, then s,
 * under the console's lock when it can be had within 10 ms, else without
 * (kernel/panic.c). Interrupts masked by the caller. */
void hive_console_panic_line(const char *s);
#endif
