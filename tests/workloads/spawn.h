/*
 * spawn: n independent tasks spawned one after the other by one task, then
 * all awaited (on hive: the run's end). Each task reads its number from a
 * 64-byte record of its own (below) and marks its own byte, so the checker
 * sees any task lost or run twice. What it measures is the spawn path with
 * one line of data a task: pushes, steals and wake-ups, no joins.
 *
 * Each thread marks in an array of its own: thread t marks task i at
 * hit[t * stride + i], the arrays wl_spawn_stride(n) bytes apart - whole
 * cache lines, so no two threads write one line. With one array for all,
 * the cores of a run wrote the same lines whenever they ran tasks of nearby
 * numbers (a pull of 32 tasks marks half a line; the other core's next pull,
 * the other half), a line crossing per task that came from the check, not
 * the scheduler - for every runtime alike.
 *
 * The checker is plain C that also compiles as C++: the oneTBB and OpenMP
 * programs of bench/ use it on their own byte arrays. hive's version
 * (spawn.c) uses only the public API, include/hive/hive.h.
 */
#ifndef HIVE_WORKLOADS_SPAWN_H
#define HIVE_WORKLOADS_SPAWN_H

#include <stddef.h>

/* Bytes from one thread's marks to the next's: n, in whole cache lines. */
static inline size_t wl_spawn_stride(size_t n)
{
    return (n + 63) / 64 * 64;
}

/* Every task ran exactly once: the marks of the `threads` threads' arrays
 * add up to 1 for each of the n tasks. */
static inline int wl_spawn_ok(const unsigned char *hit, size_t n, unsigned threads)
{
    size_t stride = wl_spawn_stride(n);
    for (size_t i = 0; i < n; i++) {
        unsigned runs = 0;
        for (unsigned t = 0; t < threads; t++)
            runs += hit[t * stride + i];
        if (runs != 1)
            return 0;
    }
    return 1;
}

/* Each task's own data: a 64-byte record, one per task in one array, from
 * which the task reads its number - the same work for every runtime and for
 * the serial baselines. hive's record is its task header and the number
 * (struct wl_spawn_task, spawn.c: hive's API takes a header from the caller
 * for every queued task); a peer's task is handed a pointer to its record
 * and its runtime keeps its own task object besides. Without records the
 * peers' tasks read only their runtimes' task objects (which those reuse)
 * while hive's read 64 bytes each of 64 MB, the one program of the four
 * whose serial baseline walked memory (8.7 ns a task against 1.3-1.7): the
 * workloads differed. With them, hive's header shares its record's line
 * and a peer reads one line more a task: this helps hive's intrusive
 * header, by design (bench/README.md keeps the figures without). A line
 * each, so that two cores running neighbouring tasks never share one. */
struct wl_spawn_item {
    size_t i;
    unsigned char pad[64 - sizeof(size_t)];
};

/* The peers' records, in a 64-aligned array of n: number each, before every
 * run (as wl_spawn_prepare rewrites hive's), outside the timing. */
static inline void wl_spawn_items_fill(struct wl_spawn_item *item, size_t n)
{
    for (size_t i = 0; i < n; i++)
        item[i].i = i;
}

/* ---- hive's version (spawn.c) --------------------------------------------- */

struct wl_spawn_task; /* a hive task header and its index */

struct wl_spawn {
    struct wl_spawn_task *tasks; /* n of them (cap allocated) */
    unsigned char *hit;          /* the threads' marks (the top); hit_cap bytes */
    size_t n, cap, hit_cap;
    unsigned threads;            /* the most workers a run of it has */
    int err;                     /* HIVE_OK, or the code of the first refused spawn */
    int or_run;                  /* spawn with hive_spawn_or_run (else hive_spawn) */
};

/* Get s ready for a run of n tasks on at most `threads` workers, outside
 * the timing: allocate (or reuse), reset every header and every mark. s
 * starts zeroed. Returns 0, or -1 when out of memory. */
int wl_spawn_prepare(struct wl_spawn *s, size_t n, unsigned threads);
void wl_spawn_free(struct wl_spawn *s);

/* A hive_run entry: hive_spawn every task of s; they run before hive_run
 * returns. */
void wl_spawn_entry(void *s);

/* The serial baseline: the same task bodies called one after the other,
 * through the same function pointer (no scheduler), marking as thread 0. */
void wl_spawn_serial(struct wl_spawn *s);

static inline int wl_spawn_run_ok(const struct wl_spawn *s)
{
    return s->err == 0 && wl_spawn_ok(s->hit, s->n, s->threads);
}

#endif
