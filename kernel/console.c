/*
 * The console as picolibc's stdin/stdout/stderr, line-atomic across cores.
 *
 * picolibc's tinystdio takes no lock around printf, so characters from several
 * cores would interleave. Instead each core collects its characters in a line
 * buffer of its own and emits a whole line at a time under a spinlock with
 * interrupts masked. Lines from different cores therefore never mix, and an
 * interrupt handler that prints on a core mid-line cannot deadlock on the lock.
 *
 * Each core has two buffers: one for task (and boot) context, one for its
 * interrupt handlers. A handler that prints while the task it interrupted is
 * halfway through a line collects into its own buffer, so its line comes out
 * whole and the task's line stays whole around it. With one buffer a handler's
 * line landed inside the task's ("AAAAirq191", then the rest of the A's).
 * A handler's unfinished line (no newline yet) ends with the handler
 * (hive_console_handler_end): the handlers of a core share their buffer, so
 * it would otherwise begin the next handler's line, which may print for
 * another device long after.
 */
#include <stdio.h>
#include <string.h>

#include "kernel/console.h"
#include "kernel/kernel.h"
#include "hive/irq.h"
#include "hive/spinlock.h"

#define LINE_MAX 256

struct line {
    unsigned len;
    char buf[LINE_MAX];
};

/* [core][0]: task and boot context; [core][1]: interrupt handlers. */
static struct line lines[HIVE_MAX_CORES][2];
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

/* The calling context's buffer. Interrupts masked (the callers'), so the
 * context cannot change under it. */
static struct line *own_line(void)
{
    return &lines[hive_cpu_id()][hive_in_interrupt() ? 1 : 0];
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
    /* Masked: a character is added and a full line emitted as one step
     * against this core's interrupt handlers (and a handler's own line is
     * not interrupted by another, were handlers ever nested). */
    unsigned long irq = arch_irq_save();
    struct line *l = own_line();
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
    struct line *l = own_line();
    if (l->len) {
        emit(l->buf, l->len);
        l->len = 0;
    }
    arch_irq_restore(irq);
}

void hive_console_handler_end(void)
{
    /* Interrupts are masked here (the handler's entry), and this core's
     * handler buffer is the one in use. */
    struct line *l = &lines[hive_cpu_id()][1];
    if (l->len) {
        /* Room for the newline: a full buffer is emitted as it fills. */
        l->buf[l->len++] = '\n';
        emit(l->buf, l->len);
        l->len = 0;
    }
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
    /* This core's unfinished lines first: the interrupted task's, then its
     * handler's, each on a line of its own (s begins with a newline). */
    struct line *task = &lines[hive_cpu_id()][0], *handler = &lines[hive_cpu_id()][1];
    if (task->len) {
        put_raw(task->buf, task->len);
        if (handler->len)
            put_raw("\n", 1);
        task->len = 0;
    }
    if (handler->len) {
        put_raw(handler->buf, handler->len);
        handler->len = 0;
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

void hive_console_emergency_hex(const char *label, uint64_t v)
{
    char buf[2 + 16 + 1];
    unsigned n = sizeof buf;
    buf[--n] = '\0';
    do {
        buf[--n] = "0123456789abcdef"[v & 15];
        v >>= 4;
    } while (v);
    buf[--n] = 'x';
    buf[--n] = '0';
    hive_console_emergency(label);
    hive_console_emergency(&buf[n]);
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
