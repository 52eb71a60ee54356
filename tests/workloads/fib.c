/* fib(n) on hive: a hive_join per call, no cutoff (fib.h). */
#include "workloads/fib.h"

#include "hive/hive.h"

/* A call with n >= 2: the join. Out of line so that the leaves (half of
 * all calls) return without the registers and stack frame the join needs:
 * in one function, gcc merges the leaf's store into the join's exit and
 * saves five registers on every call, leaves too (19 instructions a leaf
 * against 5). The tail call from wl_fib_task costs a jump. */
__attribute__((noinline)) static void fib_fork(struct wl_fib *f)
{
    struct wl_fib a, b;
    a.n = f->n - 1;
    b.n = f->n - 2;
    /* b, fib(n-2), is the half offered to thieves, as the peers fork it.
     * The join cannot be refused here (task context, both functions given).
     * A refused join runs neither half: r = 0 is below fib(n) for every
     * n >= 2, so the total comes out short and the checker says so. */
    if (hive_join(wl_fib_task, &a, wl_fib_task, &b) != HIVE_OK) {
        f->r = 0;
        return;
    }
    f->r = a.r + b.r;
}

void wl_fib_task(void *p)
{
    struct wl_fib *f = p;
    if (f->n < 2) {
        f->r = f->n;
        return;
    }
    fib_fork(f);
}
