/*
 * The scheduler's shared internals: one struct hive_worker per core, the run
 * state, and the helpers that spawn.c, join.c, group.c, pool.c and worker.c
 * share. Not a public header.
 *
 * Each core owns three places that hold ready tasks: a one-task LIFO slot
 * (hive_spawn's newest task, run next while it is cache-hot; never stolen),
 * and the two queues of struct hive_core_queues (sched/steal.h) that other
 * cores may steal from: the FIFO ring for spawned tasks and the Chase-Lev
 * deque for fork-join work (join frames, group tasks).
 */
#ifndef HIVE_SCHED_INTERNAL_H
#define HIVE_SCHED_INTERNAL_H

#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>

#include "hive/hive.h"
#include "sched/cache.h"
#include "sched/port.h"

/* Cores this build supports: the board's count, or the host tree's. */
#ifndef HIVE_MAX_CORES
#error "HIVE_MAX_CORES is set by the board (boards/<board>/board.cmake) or the host tree"
#endif
#define HIVE_SCHED_MAX_CORES HIVE_MAX_CORES
_Static_assert(HIVE_SCHED_MAX_CORES <= HIVE_MAX_WORKERS, "more cores than the idle bitmap holds");

#include "sched/deque.h"
#include "sched/global_queue.h"
#include "sched/idle.h"
#include "sched/steal.h"

/* hive_task.state */
#define HIVE_TASK_IDLE 0u
#define HIVE_TASK_QUEUED 1u

/* Scheduling constants (seed 003). */
#define HIVE_LIFO_MAX_POLLS 3u   /* LIFO-slot takes in a row before the ring gets a turn */
#define HIVE_BUDGET 128u         /* tasks per tick (see worker.c) */
#define HIVE_INTERVAL_MIN 8u     /* global-queue poll interval bounds, in polls */
#define HIVE_INTERVAL_MAX 128u
#define HIVE_INTERVAL_INIT 32u
#define HIVE_GLOBAL_LATENCY_NS 1000000u /* target wait of a globally queued task */
/* Nested join waits that may run any task before a waiter only helps the core
 * that took its fb (bounds stack depth; see join.c). */
#define HIVE_JOIN_NEST_FREE 2u

struct hive_worker {
    /* ---- owner-only (the LIFO slot is never stolen) ---- */
    _Alignas(HIVE_CACHE_LINE) struct hive_task *lifo;
    struct hive_task *batch; /* prefetched global batch, linked through next */
    unsigned id;
    unsigned lifo_polls;    /* LIFO takes in a row */
    unsigned polls;         /* find-work calls, for the global interval */
    unsigned interval;      /* poll the global queue first every `interval` polls */
    unsigned wait_depth;    /* nested join/group waits running other tasks */
    /* Deque bottom when the innermost task this core is running began: a
     * wait nested deeper than HIVE_JOIN_NEST_FREE may pop its own deque down
     * to here and no further (sched/join.c, "Waiting"). */
    uint32_t fj_floor;
    bool searching;         /* counted in the idle state's searching count */
    uint32_t rng[2];        /* xorshift state */
    uint64_t avg_task_ns;   /* EWMA of task time, alpha 0.1 */
    uint64_t tick_start_ns; /* when this tick began */
    unsigned tick_tasks;    /* tasks run in this tick (a tick ends at HIVE_BUDGET) */
    struct hive_core_stats st;
    /* The ring and the fork-join deque: owner push/pop, thieves steal. */
    struct hive_core_queues q;
};

struct hive_sched {
    /* STOPPED -> STARTING -> RUNNING -> STOPPING -> STOPPED */
    _Atomic int phase;
    unsigned n;                    /* workers in the current/last run */
    unsigned interval_min, interval_max;
    uint64_t park_timeout_ns;
    /* Set once outstanding reaches zero: workers leave their loops. */
    _Alignas(HIVE_CACHE_LINE) atomic_bool done;
    /* Counted tasks not yet finished: hive_spawn(_fn) tasks one each and
     * the run's entry (not join halves nor group tasks: see group.c). Persists
     * across runs (tasks spawned between runs are counted when spawned). */
    _Alignas(HIVE_CACHE_LINE) _Atomic unsigned long outstanding;
    _Alignas(HIVE_CACHE_LINE) _Atomic unsigned long injected;
    struct hive_idle idle;
    struct hive_global global;
};

#define HIVE_PHASE_STOPPED 0
#define HIVE_PHASE_STARTING 1
#define HIVE_PHASE_RUNNING 2
#define HIVE_PHASE_STOPPING 3

extern struct hive_sched hive_g;
extern struct hive_worker hive_workers[HIVE_SCHED_MAX_CORES];

/* The worker running on this thread/core, set for the duration of a run. */
extern _Thread_local struct hive_worker *hive_tls_worker;

/* The calling worker if we are in task context, else NULL (interrupt
 * handlers are never in task context, even on a worker core). */
static inline struct hive_worker *hive_self(void)
{
    struct hive_worker *w = hive_tls_worker;
    if (w && hive_port_in_interrupt())
        return NULL;
    return w;
}

/* ---- worker.c ---- */
/* Run one task taken from a queue: bookkeeping, then its fn. */
void hive_worker_run_task(struct hive_worker *w, struct hive_task *t);
/* Any work for a core that is waiting (join/group): NULL if none now.
 * `helpee` is the core that took our fb (or -1). Nested at most
 * HIVE_JOIN_NEST_FREE waits deep: the helpee's deque, then anything. Deeper:
 * only this core's deque above w->fj_floor, then the helpee's deque. */
struct hive_task *hive_worker_find_for_wait(struct hive_worker *w, int helpee);
/* Queue t (state already QUEUED, counted) from task context / from outside. */
void hive_worker_push_local(struct hive_worker *w, struct hive_task *t);
void hive_worker_push_global(struct hive_task *t);
/* A counted task finished (or a group drained): may end the run. */
void hive_outstanding_done(void);
static inline void hive_outstanding_add(void)
{
    /* relaxed: the counter only decides when the run ends; the task itself
     * is published by the queue it goes into, and the decrement that ends the
     * run is seq_cst (hive_outstanding_done). */
    atomic_fetch_add_explicit(&hive_g.outstanding, 1, memory_order_relaxed);
}
/* Wake one parked core if nobody is searching (after an enqueue). */
void hive_worker_notify(struct hive_worker *w);

/* ---- join.c ---- */
/* The fn of a join frame (a stolen fb): uncounted and stateless, which
 * hive_worker_run_task tells by this fn pointer. */
void hive_join_frame_run(struct hive_task *t);

/* ---- group.c ---- */
void hive_group_task_done(struct hive_group *g);

/* ---- pool.c ---- */
void hive_pool_configure(unsigned size);
/* A header from the calling core's pool, or NULL when exhausted. */
struct hive_task *hive_pool_get(void (*fn)(void *), void *arg);
/* The fn of every pooled header. */
void hive_pool_task_run(struct hive_task *t);

/* ---- stats.c ---- */
void hive_stats_collect(uint64_t elapsed_ns);

#endif
