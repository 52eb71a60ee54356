#ifndef HIVE_KERNEL_CONSOLE_H
#define HIVE_KERNEL_CONSOLE_H
/* Flush this core's partial console line (used at exit and before a panic). */
void hive_console_flush(void);
#endif
