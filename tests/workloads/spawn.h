/*
 * spawn: n independent tasks spawned one after the other by one task, then
 * all awaited (on hive: the run's end). Each task marks its own byte, so the
 * checker sees any task lost or run twice. What it measures is the spawn path
 * alone: pushes, steals and wake-ups, no joins.
 *
 * The checker is plain C that also compiles as C++: the oneTBB and OpenMP
 * programs of bench/ use it on their own byte arrays. hive's version
 * (spawn.c) uses only the public API, include/hive/hive.h.
 */
#ifndef HIVE_WORKLOADS_SPAWN_H
#define HIVE_WORKLOADS_SPAWN_H

#include <stddef.h>

/* Every task ran exactly once: hit[i] == 1 for each of the n. */
static inline int wl_spawn_ok(const unsigned char *hit, size_t n)
{
    for (size_t i = 0; i < n; i++)
        if (hit[i] != 1)
            return 0;
    return 1;
}

/* ---- hive's version (spawn.c) --------------------------------------------- */

struct wl_spawn_task; /* a hive task header and its index */

struct wl_spawn {
    struct wl_spawn_task *tasks; /* n of them (cap allocated) */
    unsigned char *hit;          /* hit[i]: how often task i ran */
    size_t n, cap;
    int err;                     /* HIVE_OK, or the code of the first refused spawn */
    int or_run;                  /* spawn with hive_spawn_or_run (else hive_spawn) */
};

/* Get s ready for a run of n tasks, outside the timing: allocate (or reuse),
 * reset every header and every hit. s starts zeroed. Returns 0, or -1 when
 * out of memory. */
int wl_spawn_prepare(struct wl_spawn *s, size_t n);
void wl_spawn_free(struct wl_spawn *s);

/* A hive_run entry: hive_spawn every task of s; they run before hive_run
 * returns. */
void wl_spawn_entry(void *s);

/* The serial baseline: the same task bodies called one after the other,
 * through the same function pointer (no scheduler). */
void wl_spawn_serial(struct wl_spawn *s);

static inline int wl_spawn_run_ok(const struct wl_spawn *s)
{
    return s->err == 0 && wl_spawn_ok(s->hit, s->n);
}

#endif
