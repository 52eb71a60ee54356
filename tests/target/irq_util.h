/*
 * Helpers of the interrupt, timer and park tests.
 *
 * The watchdog: a deadline for tests that wait on wakes and interrupts: if the test is not
 * over by then, a timer on the arming core stops the system with a panic
 * (exit 1) naming the test, instead of letting it hang until ctest's
 * timeout. Disarming just moves on a generation count: the timer stays
 * queued until its deadline and then does nothing.
 */
#ifndef HIVE_TESTS_IRQ_UTIL_H
#define HIVE_TESTS_IRQ_UTIL_H

#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include "hive/timer.h"
#include "kernel/kernel.h"

static atomic_uint watchdog_gen;
static const char *watchdog_what;
/* What the test has done so far, for the panic message (optional). */
static atomic_uint *watchdog_progress;

static void watchdog_fire(void *gen)
{
    if ((uintptr_t)gen == atomic_load(&watchdog_gen))
        hive_panic("%s: deadline passed (a lost wakeup or interrupt?) progress=%u",
                   watchdog_what, watchdog_progress ? atomic_load(watchdog_progress) : 0);
}

static inline void watchdog_arm(const char *what, uint64_t ns)
{
    watchdog_what = what;
    unsigned gen = atomic_fetch_add(&watchdog_gen, 1) + 1;
    if (hive_after_irq(ns, watchdog_fire, (void *)(uintptr_t)gen) != HIVE_OK)
        hive_panic("%s: could not arm the watchdog", what);
}

static inline void watchdog_disarm(void)
{
    atomic_fetch_add(&watchdog_gen, 1);
    watchdog_progress = NULL;
}

#define MS(n) ((uint64_t)(n) * 1000000u)

static int cmp_u32(const void *a, const void *b)
{
    uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
    return (x > y) - (x < y);
}

/* Print "figure: <what> n=N median=M max=X ns" (sorts v). */
static inline void print_figures(const char *what, uint32_t *v, unsigned n)
{
    if (n == 0)
        return;
    qsort(v, n, sizeof v[0], cmp_u32);
    printf("figure: %s n=%u median=%lu max=%lu ns\n", what, n, (unsigned long)v[n / 2],
           (unsigned long)v[n - 1]);
}

#endif
