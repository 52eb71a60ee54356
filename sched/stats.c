/*
 * Per-core statistics: each worker counts into its own struct hive_core_stats
 * with plain increments (only its core writes it); hive_run copies them here
 * after every core has left its loop.
 */
#include <inttypes.h>
#include <stdio.h>

#include "sched/sched_internal.h"

static struct hive_stats last;

static void add(struct hive_core_stats *to, const struct hive_core_stats *s)
{
    to->tasks_run += s->tasks_run;
    to->spawned += s->spawned;
    to->steal_attempts += s->steal_attempts;
    to->steals += s->steals;
    to->stolen_tasks += s->stolen_tasks;
    to->global_pulls += s->global_pulls;
    to->overflows += s->overflows;
    to->parks += s->parks;
    to->wakes += s->wakes;
    to->lifo_hits += s->lifo_hits;
    to->joins_inline += s->joins_inline;
    to->joins_waited += s->joins_waited;
    to->wait_parks += s->wait_parks;
    to->park_timeouts += s->park_timeouts;
    to->backstop_wakes += s->backstop_wakes;
    to->run_at_spawn += s->run_at_spawn;
}

void hive_stats_collect(uint64_t elapsed_ns, uint64_t unwaited_group_tasks)
{
    /* The entries at and above the last run's core count are zero already:
     * only those of this run and the last one are written (256 of them on
     * the host, a third of an empty run's time when all were). */
    unsigned written = last.cores;
    last.cores = hive_scheduler.workers;
    last.elapsed_ns = elapsed_ns;
    last.unwaited_group_tasks = unwaited_group_tasks;
    /* relaxed: every spawner that counted here did so before the run ended;
     * later ones belong to the next run. */
    last.injected = atomic_load_explicit(&hive_scheduler.injected, memory_order_relaxed);
    last.total = (struct hive_core_stats){0};
    for (unsigned i = 0; i < hive_scheduler.workers; i++) {
        last.core[i] = hive_workers[i].stats;
        /* The inline join counts apart (hive/join_inline.h): a join whose
         * fb ran here, as an out-of-line one counts it. */
        last.core[i].tasks_run += hive_workers[i].latent.inline_joins;
        last.core[i].joins_inline += hive_workers[i].latent.inline_joins;
        add(&last.total, &last.core[i]);
    }
    for (unsigned i = hive_scheduler.workers; i < written; i++)
        last.core[i] = (struct hive_core_stats){0};
}

const struct hive_stats *hive_stats_last(void)
{
    return &last;
}

static void row(const char *name, const struct hive_core_stats *s)
{
    printf("%-5s %10" PRIu64 " %10" PRIu64 " %9" PRIu64 " %8" PRIu64 " %8" PRIu64 " %7" PRIu64
           " %5" PRIu64 " %6" PRIu64 " %6" PRIu64 " %9" PRIu64 " %9" PRIu64 " %8" PRIu64
           " %9" PRIu64 " %8" PRIu64 " %8" PRIu64 " %8" PRIu64 "\n",
           name, s->tasks_run, s->spawned, s->steal_attempts, s->steals, s->stolen_tasks,
           s->global_pulls, s->overflows, s->parks, s->wakes, s->lifo_hits, s->joins_inline,
           s->joins_waited, s->wait_parks, s->park_timeouts, s->backstop_wakes, s->run_at_spawn);
}

void hive_stats_print(const struct hive_stats *s)
{
    printf("%-5s %10s %10s %9s %8s %8s %7s %5s %6s %6s %9s %9s %8s %9s %8s %8s %8s\n", "core", "run",
           "spawned", "steal-try", "steals", "stolen", "global", "ovfl", "parks", "wakes",
           "lifo-hits", "join-back", "join-wait", "wait-park", "park-tmo", "backstop", "at-spawn");
    char name[8];
    for (unsigned i = 0; i < s->cores && i < HIVE_MAX_WORKERS; i++) {
        snprintf(name, sizeof name, "%u", i);
        row(name, &s->core[i]);
    }
    row("all", &s->total);
    printf("run: %u cores, %" PRIu64 ".%03" PRIu64 " ms, %" PRIu64 " spawned from outside\n",
           s->cores, s->elapsed_ns / 1000000, s->elapsed_ns / 1000 % 1000, s->injected);
    if (s->unwaited_group_tasks)
        printf("run: %" PRIu64 " group tasks dropped unrun: their group was never waited for\n",
               s->unwaited_group_tasks);
}
