/* N-Queens' serial count, the leaf of every parallel version and the serial
 * baseline's whole run (nqueens.h). Plain C with no scheduler in it, in a
 * file of its own: every program links this one compiled copy - hive's
 * tasks, the oneTBB and OpenMP programs of bench/ and their serial
 * baselines - so its serial and parallel runs execute the same leaf code.
 * Inlined into each caller instead, gcc compiled it differently for the
 * serial baseline (37.3 M instructions for queens(12)) and for the tasks'
 * leaves (30.0 M), and the gcc-built runtimes beat their "serial" baseline
 * at 1 thread. */
#include "workloads/nqueens.h"

uint64_t wl_queens_serial(unsigned n, unsigned row, struct wl_queens_pos p)
{
    if (row == n)
        return 1;
    uint64_t c = 0;
    for (uint32_t s = wl_queens_safe(n, p); s; s &= s - 1)
        c += wl_queens_serial(n, row + 1, wl_queens_place(p, wl_queens_lowest(s)));
    return c;
}
