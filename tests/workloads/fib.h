/*
 * fib(n) with a fork per call and no cutoff: fib(n-1) runs on the calling
 * core, fib(n-2) is offered to other cores, then the wait. Nearly all of the
 * time is the fork-join machinery itself, which is the point: it measures
 * (bench/) and stresses (tests/, apps/demo) the cost of one fork and one wait.
 *
 * The serial reference and the checker below are plain C that also compiles
 * as C++: the oneTBB and OpenMP programs of bench/ include this header, so
 * every runtime is checked against the same values and counts the same forks.
 * hive's version (fib.c) uses only the public API, include/hive/hive.h.
 */
#ifndef HIVE_WORKLOADS_FIB_H
#define HIVE_WORKLOADS_FIB_H

#include <stdint.h>

/* fib(n) by iteration: the checker's value, not a workload. */
static inline uint64_t wl_fib_ref(unsigned n)
{
    uint64_t a = 0, b = 1;
    for (unsigned i = 0; i < n; i++) {
        uint64_t t = a + b;
        a = b;
        b = t;
    }
    return a;
}

/* Forks (hive: joins) a fib(n) with a fork per call makes: one per call with
 * n >= 2, which is fib(n+1) - 1. */
static inline uint64_t wl_fib_forks(unsigned n)
{
    return wl_fib_ref(n + 1) - 1;
}

/* The serial version, the baseline a fork is compared to. noinline: a real
 * call per fib call, as every parallel version makes (and unused: most
 * programs that include this never call it). */
__attribute__((noinline, unused)) static uint64_t wl_fib_serial(unsigned n)
{
    return n < 2 ? n : wl_fib_serial(n - 1) + wl_fib_serial(n - 2);
}

/* ---- hive's version (fib.c) ----------------------------------------------- */

struct wl_fib {
    unsigned n; /* in */
    uint64_t r; /* out: fib(n) */
};

/* In task context (a hive_run entry, or called from a task): f->r = fib(f->n),
 * a hive_join per call with n >= 2. */
void wl_fib_task(void *f);

static inline int wl_fib_ok(const struct wl_fib *f)
{
    return f->r == wl_fib_ref(f->n);
}

#endif
