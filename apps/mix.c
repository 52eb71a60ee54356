/*
 * mix: a small run of every kind of work, sized to fit a trace (README.md,
 * "Tracing"): a fork-join tree, a group of tasks of uneven length, and
 * fire-and-forget spawns. It uses the public API only and builds both as a
 * board image and as a host program, so `tools/hive trace mix` shows the
 * same work under QEMU and on the host port; the trace test
 * (tests/tools/trace_check.sh) runs it and checks the trace against it.
 *
 * One hive_run:
 *   - tree: hive_join down to depth TREE_DEPTH, a short spin at each leaf
 *     (2^TREE_DEPTH - 1 joins: each runs its second half as one task);
 *   - group: GROUP_TASKS tasks whose lengths grow with their index, so that
 *     the cores finish at different times and steal from one another. On
 *     more than one core, the last one spawned - the spawner's own next task
 *     - waits until another core has run one of the group: so every such run
 *     steals (the trace test needs steals to check), and a core that is never
 *     woken to take the group's work would hang the run, not pass unseen;
 *   - burst: BURST_TASKS short tasks spawned with hive_spawn_or_run, more
 *     than one core's queues hold (its LIFO slot and 256 in its ring): on one
 *     core the last of them run at once inside their spawns, on more some
 *     may be stolen first;
 *   - spawns: SPAWN_TASKS hive_spawn_fn tasks, which run after the entry.
 * It knows how many tasks the run must have run, checks that against
 * hive_stats_last(), and ends with one line:
 *   "mix: ok cores=N tasks=T expect_tasks=T steals=S"
 * or "mix: FAILED ..." and exit status 1. On the host the first argument is
 * the number of cores (default 4).
 */
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include "hive/hive.h"

#ifndef HIVE_BOARD_NAME
#include "host_cores.h"
#endif

#define TREE_DEPTH 8
#define LEAF_SPIN 2000u
#define GROUP_TASKS 24
#define GROUP_SPIN 4000u /* times (index + 1) */
#define SPAWN_TASKS 16
#define SPAWN_SPIN 20000u
#define BURST_TASKS 300
#define BURST_SPIN 200u

static atomic_ulong leaves, group_done, spawns_done, burst_done;
static int group_spawner;          /* the core that spawned the group */
static atomic_ulong group_elsewhere; /* group tasks run on other cores */
static unsigned spawned; /* spawns that found a pool header (entry only) */
static int failed_err;

/* Work the compiler cannot drop: `n` dependent steps. */
static uint64_t spin(unsigned n)
{
    volatile uint64_t x = n;
    for (unsigned i = 0; i < n; i++)
        x = x * 6364136223846793005u + 1442695040888963407u;
    return x;
}

static void tree(void *arg)
{
    uintptr_t depth = (uintptr_t)arg;
    if (depth == 0) {
        spin(LEAF_SPIN);
        atomic_fetch_add(&leaves, 1);
        return;
    }
    int err = hive_join(tree, (void *)(depth - 1), tree, (void *)(depth - 1));
    if (err != HIVE_OK)
        failed_err = err;
}

struct group_task {
    struct hive_task task;
    unsigned index;
};

static void group_task(struct hive_task *t)
{
    struct group_task *g = HIVE_CONTAINER_OF(t, struct group_task, task);
    if (hive_worker_id() != group_spawner)
        atomic_fetch_add(&group_elsewhere, 1);
    else if (g->index == GROUP_TASKS - 1 && hive_worker_count() > 1)
        while (atomic_load(&group_elsewhere) == 0)
            spin(100);
    spin(GROUP_SPIN * (g->index + 1));
    atomic_fetch_add(&group_done, 1);
}

static void spawned_task(void *arg)
{
    (void)arg;
    spin(SPAWN_SPIN);
    atomic_fetch_add(&spawns_done, 1);
}

static struct group_task group_tasks[GROUP_TASKS];

static void burst_task(struct hive_task *t)
{
    (void)t;
    spin(BURST_SPIN);
    atomic_fetch_add(&burst_done, 1);
}

static struct hive_task burst_tasks[BURST_TASKS];

static void entry(void *arg)
{
    (void)arg;
    tree((void *)(uintptr_t)TREE_DEPTH);

    struct hive_group g;
    hive_group_init(&g);
    group_spawner = hive_worker_id();
    for (unsigned i = 0; i < GROUP_TASKS; i++) {
        group_tasks[i].index = i;
        int err = hive_group_spawn(&g, &group_tasks[i].task, group_task);
        if (err != HIVE_OK)
            failed_err = err;
    }
    int err = hive_group_wait(&g);
    if (err != HIVE_OK)
        failed_err = err;

    for (unsigned i = 0; i < BURST_TASKS; i++) {
        err = hive_spawn_or_run(&burst_tasks[i], burst_task);
        if (err != HIVE_OK)
            failed_err = err;
    }

    for (unsigned i = 0; i < SPAWN_TASKS; i++) {
        if (hive_spawn_fn(spawned_task, NULL) == HIVE_OK)
            spawned++;
        else
            spawned_task(NULL); /* the pool is dry: do it here (not a task) */
    }
}

static int main_cores(unsigned cores)
{
    struct hive_config cfg = {.cores = cores};
    int rc = hive_run(entry, NULL, &cfg);
    const struct hive_stats *s = hive_stats_last();
    /* The entry, each join's second half, the group, the burst (queued or
     * run at once, each counted as run), the spawns. */
    uint64_t expect = 1 + ((1u << TREE_DEPTH) - 1) + GROUP_TASKS + BURST_TASKS + spawned;
    if (rc != HIVE_OK || failed_err != HIVE_OK) {
        printf("mix: FAILED hive_run: %s, a call in the run: %s\n", hive_strerror(rc),
               hive_strerror(failed_err));
        return 1;
    }
    if (atomic_load(&leaves) != 1u << TREE_DEPTH || atomic_load(&group_done) != GROUP_TASKS ||
        atomic_load(&spawns_done) != SPAWN_TASKS || atomic_load(&burst_done) != BURST_TASKS ||
        s->total.tasks_run != expect) {
        printf("mix: FAILED leaves=%lu group=%lu burst=%lu spawns=%lu tasks=%llu expect_tasks=%llu\n",
               atomic_load(&leaves), atomic_load(&group_done), atomic_load(&burst_done),
               atomic_load(&spawns_done),
               (unsigned long long)s->total.tasks_run, (unsigned long long)expect);
        return 1;
    }
    hive_stats_print(s);
    printf("mix: ok cores=%u tasks=%llu expect_tasks=%llu steals=%llu\n", s->cores,
           (unsigned long long)s->total.tasks_run, (unsigned long long)expect,
           (unsigned long long)s->total.steals);
    return 0;
}

#ifdef HIVE_BOARD_NAME
int main(void)
{
    return main_cores(0); /* every core the board brought up */
}
#else
int main(int argc, char **argv)
{
    unsigned cores = app_host_cores("mix", argc, argv);
    return cores ? main_cores(cores) : 2;
}
#endif
