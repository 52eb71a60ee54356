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

/* The recursion takes the position as three words, not the struct: gcc
 * passes a 12-byte struct in two registers by storing its words apart and
 * loading them as one 8-byte word, a failed store forwarding on every call
 * (queens(12) in 11.3 ms against clang's 6.0, with the same instruction
 * count). */
static uint64_t count(unsigned n, unsigned row, uint32_t cols, uint32_t d1, uint32_t d2)
{
    if (row == n)
        return 1;
    struct wl_queens_pos p = {cols, d1, d2};
    uint64_t c = 0;
    for (uint32_t s = wl_queens_safe(n, p); s; s &= s - 1) {
        struct wl_queens_pos q = wl_queens_place(p, wl_queens_lowest(s));
        c += count(n, row + 1, q.cols, q.d1, q.d2);
    }
    return c;
}

uint64_t wl_queens_serial(unsigned n, unsigned row, struct wl_queens_pos p)
{
    return count(n, row, p.cols, p.d1, p.d2);
}
