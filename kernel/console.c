/*
 * The console as picolibc's stdin/stdout/stderr, line-atomic across cores.
 *
 * picolibc's tinystdio takes no lock around printf, so characters from several
 * cores would interleave. Instead each core collects its characters in a line
 * buffer of its own and emits a whole line at a time under a spinlock with
 * interrupts masked. Lines from different cores therefore never mix, and an
 * interrupt handler that prints on a core mid-line cannot deadlock on the lock.
 */
#include <stdio.h>
#include <string.h>

#include "kernel/console.h"
#include "kernel/kernel.h"
#include "hive/spinlock.h"

#define LINE_MAX 256

struct line {
    unsigned len;
    char buf[LINE_MAX];
};

static struct line lines[HIVE_MAX_CORES];
static struct hive_spinlock console_lock = HIVE_SPINLOCK_INIT;

/* To the UART as it is, a newline as CR LF; no lock (the callers'). */
static void put_raw(const char *s, unsigned len)
{
    for (unsigned i = 0; i < len; i++) {
        if (s[i] == '\n')
            board_console_putc('\r');
        board_console_putc(s[i]);
    }
}

static void emit(const char *s, unsigned len)
{
    unsigned long irq = hive_spin_lock(&console_lock);
    put_raw(s, len);
    hive_spin_unlock(&console_lock, irq);
}

static int console_put(char c, FILE *f)
{
    (void)f;
    /* Masked so an interrupt handler printing on this core cannot splice its
     * characters into the middle of this core's buffered line. */
    unsigned long irq = arch_irq_save();
    struct line *l = &lines[hive_cpu_id()];
    l->buf[l->len++] = c;
    if (c == '\n' || l->len == LINE_MAX) {
        emit(l->buf, l->len);
        l->len = 0;
    }
    arch_irq_restore(irq);
    return (unsigned char)c;
}

static int console_flush(FILE *f)
{
    (void)f;
    hive_console_flush();
    return 0;
}

void hive_console_flush(void)
{
    unsigned long irq = arch_irq_save();
    struct line *l = &lines[hive_cpu_id()];
    if (l->len) {
        emit(l->buf, l->len);
        l->len = 0;
    }
    arch_irq_restore(irq);
}

void hive_console_panic_line(const char *s)
{
    /* Under the lock if it can be had within 10 ms: another core's line
     * then comes whole before or after ours, never inside it. Without it
     * after that: its holder may be this very core (a fault inside emit)
     * or one that stopped for good, and a panic must print, never wait for
     * ever. Interrupts are masked (the caller's). */
    uint64_t deadline = arch_counter() + arch_counter_hz() / 100;
    bool locked;
    while (!(locked = hive_spin_trylock_raw(&console_lock)) && arch_counter() < deadline)
        arch_cpu_relax();
    struct line *l = &lines[hive_cpu_id()];
    if (l->len) {
        put_raw(l->buf, l->len); /* this core's unfinished line first */
        l->len = 0;
    }
    put_raw(s, (unsigned)strlen(s));
    if (locked)
        hive_spin_unlock_raw(&console_lock);
}

void hive_console_emergency(const char *s)
{
    /* No lock: the lock's holder may be the core that is failing. A line
     * written so may interleave with another core's; it is never lost. */
    put_raw(s, (unsigned)strlen(s));
}

void hive_console_emergency_panic(unsigned core, const char *what)
{
    char digits[12];
    unsigned n = sizeof digits;
    digits[--n] = '\0';
    do {
        digits[--n] = (char)('0' + core % 10);
        core /= 10;
    } while (core && n);
    hive_console_emergency("panic: core ");
    hive_console_emergency(&digits[n]);
    hive_console_emergency(": ");
    hive_console_emergency(what);
}

static FILE console = FDEV_SETUP_STREAM(console_put, NULL, console_flush, _FDEV_SETUP_WRITE);
FILE *const stdin = &console;
FILE *const stdout = &console;
FILE *const stderr = &console;
