#ifndef HIVE_KERNEL_CONSOLE_H
#define HIVE_KERNEL_CONSOLE_H
/* Flush this core's partial console line (used at exit and before a panic). */
void hive_console_flush(void);
/* An interrupt handler or a timer callback has returned: its unfinished
 * console line, if any, is ended with a newline and emitted (kernel/irq.c
 * and kernel/timer.c call it, in interrupt context). */
void hive_console_handler_end(void);
/* A panic's line (with its newline): this core's unfinished line, then s,
 * under the console's lock when it can be had within 10 ms, else without
 * (kernel/panic.c). Interrupts masked by the caller. */
void hive_console_panic_line(const char *s);
#endif
