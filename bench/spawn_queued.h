/* spawn's floor for a runtime that queues every task (spawn_queued.c). */
#ifndef HIVE_BENCH_SPAWN_QUEUED_H
#define HIVE_BENCH_SPAWN_QUEUED_H

#include "sched_bench.h"

/* One run of workload w on one thread, every task queued on a list and then
 * run: with plain stores (claim 0), or with the claim and give-back of
 * hive_spawn's contract (claim 1). Returns 0 for every workload but spawn. */
int sb_run_queued(int w, int claim, size_t size, struct sb_result *r);

#endif
