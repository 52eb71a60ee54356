/*
 * N-Queens(n): count the ways to place n queens on an n x n board, none
 * attacking another. One row at a time: a position (the queens of rows
 * 0..row-1) becomes a task for each safe square of the next row, down to row
 * `task_rows`; from there on the position is counted serially inside its task.
 * task_rows sets the grain: the benchmark keeps tasks coarse (WL_QUEENS_TASK_ROWS),
 * the tests and apps/demo spawn down to three rows from the bottom
 * (wl_queens_fine_rows: many small tasks).
 *
 * Bitboards: a position is the set of columns its queens hold and the squares
 * of the next row that their two diagonals reach (wl_queens_pos).
 *
 * The safe-placement step, the serial count (nqueens_serial.c), the task
 * count and the table of known results below are plain C that also compiles
 * as C++: the oneTBB and OpenMP programs of bench/ use them, so every
 * runtime runs the same leaf code and is checked against the same table.
 * hive's version (nqueens.c) uses only the public API, include/hive/hive.h.
 */
#ifndef HIVE_WORKLOADS_NQUEENS_H
#define HIVE_WORKLOADS_NQUEENS_H

#include <stdint.h>

/* Largest board: the table of known counts (wl_queens_expect) ends here, and
 * hive's version keeps one child per square of a row on its task's stack. */
#define WL_QUEENS_MAX 16
/* The benchmark's grain: a task per placement in the first 4 rows (a few
 * thousand tasks of about a microsecond at n = 12). */
#define WL_QUEENS_TASK_ROWS 4

/* The tests' grain: tasks down to three rows from the bottom (the last rows
 * are cheaper counted inline), so a board of n = 10 makes about 23 000 tasks. */
static inline unsigned wl_queens_fine_rows(unsigned n)
{
    return n > 3 ? n - 3 : 0;
}

/* The squares of the next row attacked by the queens placed so far. */
struct wl_queens_pos {
    uint32_t cols, d1, d2; /* by column; by the two diagonals, shifted to the next row */
};

static inline struct wl_queens_pos wl_queens_empty(void)
{
    struct wl_queens_pos p = {0, 0, 0};
    return p;
}

/* The safe squares of the next row of an n-column board, one bit each. */
static inline uint32_t wl_queens_safe(unsigned n, struct wl_queens_pos p)
{
    return ((1u << n) - 1) & ~(p.cols | p.d1 | p.d2);
}

/* The lowest square of a non-empty set: iterate with `for (s = safe; s; s &= s - 1)`. */
static inline uint32_t wl_queens_lowest(uint32_t set)
{
    return set & (0u - set);
}

/* The position after a queen on square `bit` of the next row, seen from the
 * row after it: the diagonals move one column each way. */
static inline struct wl_queens_pos wl_queens_place(struct wl_queens_pos p, uint32_t bit)
{
    struct wl_queens_pos q = {p.cols | bit, (p.d1 | bit) << 1, (p.d2 | bit) >> 1};
    return q;
}

/* Solutions below position p, whose next row is `row`: the serial count, the
 * leaf of every parallel version. Out of line, in nqueens_serial.c, which
 * every program using it links: one compiled copy for the serial and the
 * parallel runs alike. */
#ifdef __cplusplus
extern "C"
#endif
uint64_t wl_queens_serial(unsigned n, unsigned row, struct wl_queens_pos p);

/* A position whose next row is `row` is counted serially, in its task, rather
 * than split into a task per safe square: the grain rule of every parallel
 * version. */
static inline int wl_queens_leaf(unsigned n, unsigned task_rows, unsigned row)
{
    return row == n || row >= task_rows;
}

/* Tasks a parallel version spawns below position p (next row `row`): one per
 * placement in rows row..task_rows-1. */
static inline uint64_t wl_queens_tasks(unsigned n, unsigned task_rows, unsigned row,
                                       struct wl_queens_pos p)
{
    if (wl_queens_leaf(n, task_rows, row))
        return 0;
    uint64_t c = 0;
    for (uint32_t s = wl_queens_safe(n, p); s; s &= s - 1)
        c += 1 + wl_queens_tasks(n, task_rows, row + 1, wl_queens_place(p, wl_queens_lowest(s)));
    return c;
}

/* The number of solutions of N-Queens(n), n <= WL_QUEENS_MAX: the published
 * counts (OEIS A000170), independent of the code above. */
static inline uint64_t wl_queens_expect(unsigned n)
{
    static const uint64_t known[WL_QUEENS_MAX + 1] = {
        1, 1, 0, 0, 2, 10, 4, 40, 92, 352, 724, 2680, 14200, 73712, 365596, 2279184, 14772512,
    };
    return n <= WL_QUEENS_MAX ? known[n] : 0;
}

/* ---- hive's version (nqueens.c) ------------------------------------------- */

struct wl_queens {
    unsigned n, task_rows; /* in: 1 <= n <= WL_QUEENS_MAX */
    uint64_t count;        /* out: the solutions */
    int err;               /* out: HIVE_OK, or the code of the first refused hive call */
};

/* In task context (a hive_run entry, or called from a task): q->count, with a
 * hive_group per position above row q->task_rows and a task per safe square. */
void wl_queens_task(void *q);

static inline int wl_queens_ok(const struct wl_queens *q)
{
    return q->err == 0 && q->count == wl_queens_expect(q->n);
}

#endif
