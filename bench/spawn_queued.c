/*
 * spawn's floor for a runtime that queues every task: no scheduler, no
 * second thread, only what queueing itself costs on this machine.
 *
 *   sched_bench queued [options]         runtime "queued"
 *   sched_bench queued-claim [options]   runtime "queued-claim"
 *
 * One thread "spawns" the n tasks of the spawn workload - links each task's
 * record into a FIFO list - and then walks the list and runs each task. The
 * records are the workload's: 64 bytes a task, n of them (64 MB at 10^6,
 * far past the caches), each task's number in its own record, and the body
 * marks the task's byte as workloads/spawn.c's does. A runtime that defers
 * every task writes each record when the task is spawned and reads it again
 * when the task runs, the two far apart in time; a runtime that may run a
 * task at once (OpenMP's task: libgomp past 64 queued a thread) reads it
 * once, as the serial baseline does.
 *
 * queued-claim adds what hive_spawn's contract needs on top: a
 * compare-and-swap that claims the task at its spawn (a second spawn of a
 * queued task is refused) and an exchange that gives it back just before it
 * runs (the refusal's promise, sched/spawn.c) - two locked instructions a
 * task. Their memory orders are hive's (acquire; acquire and release); on
 * x86 they cost the same whatever the order.
 *
 * Neither is a runtime: no core can take these tasks, nothing is stolen,
 * nobody is woken. They say how fast the spawn workload could go on one
 * thread if all of a scheduler's own work cost nothing, so that a runtime's
 * 1-thread figure can be read against the floor of its contract. The body
 * is a direct mark (no hive_worker_id), a little cheaper than hive's: if
 * anything, a floor a little too low.
 */
#define _POSIX_C_SOURCE 200809L /* clock_gettime, under -std=c11 */

#include "spawn_queued.h"

#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

struct queued_task {
    _Alignas(64) struct queued_task *next;
    void (*fn)(struct queued_task *task);
    _Atomic unsigned state; /* 0 idle, 1 queued: queued-claim only */
    size_t i;
};
_Static_assert(sizeof(struct queued_task) == 64, "a record a cache line, as the workload's");

static struct queued_task *tasks;
static unsigned char *hit;
static size_t cap;

static void mark(struct queued_task *t)
{
    hit[t->i]++;
}

/* Records and marks for n tasks, numbered, outside the timing (as
 * wl_spawn_prepare does for hive's). */
static int prepare(size_t n)
{
    if (n > cap) {
        free(tasks);
        free(hit);
        tasks = aligned_alloc(64, n * sizeof *tasks);
        hit = malloc(wl_spawn_stride(n));
        cap = tasks && hit ? n : 0;
        if (!cap)
            return -1;
    }
    memset(tasks, 0, n * sizeof *tasks);
    for (size_t i = 0; i < n; i++)
        tasks[i].i = i;
    memset(hit, 0, wl_spawn_stride(n));
    return 0;
}

static void run_plain(size_t n)
{
    /* volatile: a real indirect call per task, as a scheduler makes. */
    void (*volatile fn)(struct queued_task *) = mark;
    struct queued_task *head = NULL, **tail = &head;
    for (size_t i = 0; i < n; i++) {
        struct queued_task *t = &tasks[i];
        t->fn = fn;
        t->next = NULL;
        *tail = t;
        tail = &t->next;
    }
    for (struct queued_task *t = head, *next; t; t = next) {
        next = t->next;
        t->fn(t);
    }
}

static int run_claimed(size_t n)
{
    void (*volatile fn)(struct queued_task *) = mark;
    struct queued_task *head = NULL, **tail = &head;
    int refused = 0;
    for (size_t i = 0; i < n; i++) {
        struct queued_task *t = &tasks[i];
        unsigned idle = 0;
        /* acquire: as hive's claim, which pairs with the task's last give-back
         * (the exchange below, of the run before). relaxed on failure: a
         * refused claim only marks the run failed. */
        if (!atomic_compare_exchange_strong_explicit(&t->state, &idle, 1, memory_order_acquire,
                                                     memory_order_relaxed)) {
            refused = 1;
            continue;
        }
        t->fn = fn;
        t->next = NULL;
        *tail = t;
        tail = &t->next;
    }
    for (struct queued_task *t = head, *next; t; t = next) {
        next = t->next;
        /* As hive's run: acquire pairs with a refusal's release mark, release
         * with the next claim. */
        atomic_exchange_explicit(&t->state, 0, memory_order_acq_rel);
        t->fn(t);
    }
    return refused;
}

int sb_run_queued(int w, int claim, size_t size, struct sb_result *r)
{
    if (w != SB_SPAWN)
        return 0; /* the floor of queueing every task: spawn's alone */
    if (prepare(size) != 0) {
        r->ok = 0;
        return 1;
    }
    int refused = 0;
    double t0 = sb_now();
    if (claim)
        refused = run_claimed(size);
    else
        run_plain(size);
    r->secs = sb_now() - t0;
    r->tasks = size;
    r->ok = !refused && wl_spawn_ok(hit, size, 1);
    return 1;
}
