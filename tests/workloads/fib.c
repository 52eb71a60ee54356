/* fib(n) on hive: a hive_join per call, no cutoff (fib.h). */
#include "workloads/fib.h"

#include "hive/hive.h"

void wl_fib_task(void *p)
{
    struct wl_fib *f = p;
    if (f->n < 2) {
        f->r = f->n;
        return;
    }
    struct wl_fib a = {f->n - 1, 0}, b = {f->n - 2, 0};
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
