/*
 * Kernel services for images and tests: panic, running code on every core.
 * (The scheduler's public API is include/hive/hive.h.)
 */
#ifndef HIVE_KERNEL_KERNEL_H
#define HIVE_KERNEL_KERNEL_H

#include <stdatomic.h>
#include <stdnoreturn.h>

#include "kernel/cpu.h"

/* Print "panic: core N: <message>" and stop the whole system with status 1. */
noreturn void hive_panic(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* The same for a fault of another core that this one found: the line names
 * `core` (the watchdog's report of a stuck core). */
noreturn void hive_panic_core(unsigned core, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
/* Set by a panic before it stops the system: every other core halts at its
 * next interrupt (kernel/panic.c). */
extern atomic_bool hive_halting;

/*
 * Run fn(arg) on every online core, the caller's included, and return once
 * all have returned. One call at a time (a second caller waits its turn).
 */
void hive_smp_call_all(void (*fn)(void *arg), void *arg);

/* Write a string straight to the console, bypassing stdio (for panics). */
void hive_console_emergency(const char *s);
/* "panic: core N: " then what, the same way: for panics where stdio itself
 * may be broken (a fault inside a fault or interrupt handler, early boot). */
void hive_console_emergency_panic(unsigned core, const char *what);
/* The same path: label, then v as 0x and its hex digits (no leading zeros). */
void hive_console_emergency_hex(const char *label, uint64_t v);

#endif
