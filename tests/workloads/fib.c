/* fib(n) on hive: a hive_join per call, no cutoff (fib.h). */
#include "workloads/fib.h"

#include "hive/hive.h"

static void fib_call(void *p);

/* A call with n >= 2: the join. Out of line so that the leaves (half of
 * all calls) return without the registers and stack frame the join needs:
 * in one function, gcc merges the leaf's store into the join's exit and
 * saves five registers on every call, leaves too (19 instructions a leaf
 * against 5). The tail call from fib_call costs a jump.
 *
 * The second half, fib(n-2), computes into the caller's own struct: one
 * struct fewer to fill, and its address is already in a register for the
 * sum after the join. So a call changes its struct's n; wl_fib_task puts
 * the caller's back. */
__attribute__((noinline)) static void fib_fork(struct wl_fib *f)
{
    struct wl_fib a;
    a.n = f->n - 1;
    f->n -= 2;
    /* f, fib(n-2), is the half offered to thieves, as the peers fork it.
     * The join cannot be refused here (task context, both functions given).
     * A refused join runs neither half: r = 0 is below fib(n) for every
     * n >= 2, so the total comes out short and the checker says so. */
    if (hive_join(fib_call, &a, fib_call, f) != HIVE_OK) {
        f->r = 0;
        return;
    }
    f->r += a.r;
}

static void fib_call(void *p)
{
    struct wl_fib *f = p;
    if (f->n < 2) {
        f->r = f->n;
        return;
    }
    fib_fork(f);
}

void wl_fib_task(void *p)
{
    struct wl_fib *f = p;
    unsigned n = f->n;
    fib_call(f);
    f->n = n;
}
