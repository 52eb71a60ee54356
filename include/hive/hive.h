/*
 * hive: a work-stealing task scheduler for bare-metal multicore machines.
 * This is the one public header.
 *
 *   static void hello(void *arg) { ... hive_spawn_fn(other, NULL); ... }
 *   int main(void) { return hive_run(hello, NULL, NULL) == HIVE_OK ? 0 : 1; }
 *
 * hive_run() starts a worker on every chosen core, runs `entry` as the first
 * task and returns on the calling (boot) core once `entry` and everything it
 * spawned have finished. It can be called again afterwards.
 *
 * Three ways to make work:
 *  - hive_spawn(task, fn): fire and forget. `task` is a struct hive_task the
 *    caller embeds in its own struct (HIVE_CONTAINER_OF gets the struct back
 *    in fn). Nothing is allocated. hive_spawn_fn(fn, arg) is the convenience
 *    form with a header from a fixed per-core pool.
 *  - hive_join(fa, a, fb, b): fork-join. Runs fa(a) and fb(b), possibly in
 *    parallel, and returns when both have returned. hive_parallel_for builds on
 *    it.
 *  - hive_group: spawn any number of tasks, then wait for all of them.
 *
 * Errors: every function that can fail returns an int, HIVE_OK (0) or one of
 * the negative enum hive_err codes below; each function lists the codes it
 * returns. A refused call changes nothing (no queue is touched).
 *
 * Contexts. "Task context" means code running inside a task on a worker core
 * during a run (including code called from fa/fb of a join). hive_spawn and
 * hive_spawn_fn also work from the boot code before, between and after runs,
 * from cores (host: threads) that are not workers, and from interrupt
 * handlers; such spawns go to the global injection queue and run in the
 * current run, or in the next one if no run is active (or the current run has
 * already finished). Join, group and parallel_for need task context.
 */
#ifndef HIVE_HIVE_H
#define HIVE_HIVE_H

#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "hive/task.h"

/* ---- errors ------------------------------------------------------------- */

enum hive_err {
    HIVE_OK = 0,
    HIVE_EINVAL = -1, /* a bad argument: NULL function or task, bad config */
    HIVE_EBUSY = -2,  /* the task is still queued (spawned and not yet started),
                         or the interrupt line already has a handler */
    HIVE_ENOMEM = -3, /* a fixed per-core pool of the calling core is exhausted:
                         hive_spawn_fn headers, or timers (hive/timer.h) */
    HIVE_ESTATE = -4, /* wrong context: hive_run during a run or from a task or
                         interrupt; join/group/parallel_for outside task context;
                         or wrong state: cancelling a timer that is not pending */
    HIVE_EUNWAITED = -5, /* hive_run: the run ended with tasks of a group that
                            nobody waited for still queued; they were dropped,
                            not run (see hive_run) */
};

/* A static string naming err ("HIVE_EBUSY"), "unknown" for anything else. */
const char *hive_strerror(int err);

/* ---- running ------------------------------------------------------------ */

/* Most cores a run can use, on any port (the idle bitmap is sized for it). */
#define HIVE_MAX_WORKERS 256
/* Most hive_spawn_fn headers per core. */
#define HIVE_POOL_MAX 1024
#define HIVE_POOL_DEFAULT 256

/*
 * Run configuration. Zero-initialise and set what you need ({0} or NULL means
 * every default).
 */
struct hive_config {
    /* Cores 0..cores-1 run workers. 0: hive_port_core_count() (on the host
     * port that is 4 unless hive_host_set_core_count() said otherwise). */
    unsigned cores;
    /* hive_spawn_fn headers per core, 1..HIVE_POOL_MAX; 0: HIVE_POOL_DEFAULT.
     * Applied at the start of a run to each core's pool that has no header
     * in use (a pool still holding queued tasks keeps its old size). */
    unsigned pool_size;
    /* Bounds of the adaptive global-queue poll interval, in polls (see
     * sched/find_work.c). 0: defaults (8 and 128). min <= max. */
    unsigned interval_min, interval_max;
    /* A parked core re-checks for work after this long even if nobody wakes
     * it. 0 (the default): it sleeps until woken. Correctness never depends
     * on it; it exists to measure what it costs. */
    uint64_t park_timeout_ns;
    /* The watchdog (opt-in): 0 (the default) is off; else at least
     * HIVE_WATCHDOG_MIN_NS. See "The watchdog" below. */
    uint64_t watchdog_ns;
};

/*
 * The watchdog. With hive_config.watchdog_ns set, a run checks about every
 * quarter of the limit (from each worker core's timer interrupt on the
 * boards, from a thread of its own on the host; so a core that spins with
 * interrupts masked is found by the others) for two faults, and stops the
 * system at the first one with a panic - the honest end on a machine without
 * preemption: a stuck task cannot be taken off its core, and hive_run cannot
 * return while it holds one. On the boards that is status 1; on the host
 * port, abort().
 *
 *   A stuck task: one core has been inside one task for longer than the
 *   limit.
 *     panic: core N: task 0xADDR has run for X ms (watchdog limit Y ms)[; seen by core M]
 *   N is the stuck core, M the core whose check found it (when another one
 *   did), ADDR the task's function as it was given to hive
 *   (the fn of hive_spawn_fn / hive_group_spawn_fn, the fb of a join, the
 *   run's entry), X between the limit and 1.25 times it. tools/run-image
 *   prints the line again with ADDR symbolised. "Inside one task" stops at
 *   scheduling points: while a task waits in hive_join, hive_group_wait or
 *   hive_parallel_for, or runs another task nested in one, it is not
 *   running, and its time starts again when it resumes. So a task waiting
 *   for long work elsewhere is not stuck; the core that does it is, if that
 *   work is one task.
 *
 *   A stall: for the whole limit no core has run or finished a task, yet the
 *   run still counts tasks as outstanding and none of them waits for a
 *   pending hive_after timer - a lost wake-up, a wait whose work will never
 *   finish.
 *     panic: core 0: run stalled: no task has run or finished on any core for X ms (...)
 *   (core 0: the run is the boot core's). A run waiting for a timer, however
 *   long, is idle, not stalled.
 *
 * The limit is wall time, so choose it well above the longest task and, under
 * QEMU on a loaded host, above how long a virtual core may be descheduled.
 * With a watchdog each task start and end costs a clock read and a few
 * stores on its own core; without one, one test of a flag. A firmware main
 * loop that never returns calls hive_task_runs_forever() first.
 */
#define HIVE_WATCHDOG_MIN_NS 1000000u /* 1 ms */

/*
 * The calling task never returns (a firmware main loop): the watchdog leaves
 * it alone for the rest of its life, its waits included, and reports no stall
 * while it runs. Without a watchdog it does nothing. Returns HIVE_OK, or
 *   HIVE_ESTATE  not in task context.
 */
int hive_task_runs_forever(void);

/*
 * Run entry(arg) as the first task on a fresh run and return when it and every
 * task it (transitively) spawned have finished. Statistics of the run are then
 * in hive_stats_last(). A run with a watchdog (hive_config.watchdog_ns) does
 * not return if a task gets stuck or the run stalls: it panics, naming them.
 *   HIVE_EINVAL  entry is NULL, or cfg asks for 0 < cores that the port does
 *                not have (or more than the build's HIVE_MAX_CORES), a
 *                pool_size above HIVE_POOL_MAX, interval_min > interval_max,
 *                or a watchdog_ns that is neither 0 nor HIVE_WATCHDOG_MIN_NS
 *                or more.
 *   HIVE_ESTATE  a run is already active (hive_run from a task, from another
 *                core during a run), or called from an interrupt handler.
 *   HIVE_EUNWAITED  the run did its work, but a group's rule was broken: when
 *                its last counted task finished, tasks spawned into a group
 *                that no task of the run waited for were still queued. They
 *                were dropped, not run - not now, and not in a later run: their
 *                group, perhaps on a stack that is gone, cannot be told they
 *                finished. Each such header is idle again (it may be spawned
 *                anew; a hive_group_spawn_fn header went back to its pool), and
 *                hive_stats_last()->unwaited_group_tasks counts them. The
 *                group's count still includes them: hive_group_init it before
 *                it is used again. (Group tasks that other cores had already
 *                taken ran, and are not counted: the run only sees the ones
 *                it strands.)
 */
int hive_run(void (*entry)(void *arg), void *arg, const struct hive_config *cfg);

/* True inside a task on a worker core (not in an interrupt handler). */
bool hive_in_task(void);
/* The calling worker's index (== its core id) in task context, else -1. */
int hive_worker_id(void);
/* Workers of the current run, or of the last one when none is active. */
unsigned hive_worker_count(void);

/* ---- tasks ---------------------------------------------------------------- */

/* The struct that embeds `member` (a struct hive_task) at address ptr. */
#define HIVE_CONTAINER_OF(ptr, type, member)                                     \
    ((type *)(void *)((char *)(ptr) - offsetof(type, member)))

/*
 * Queue task to run fn(task) once. A zero-initialised header (or one whose
 * last run has started) may be spawned; the scheduler stops touching the
 * header the moment fn is called, so fn may free it or spawn it again.
 * From task context it goes to this core's LIFO slot (the previous occupant
 * moves to the core's run queue); from anywhere else to the global queue.
 * The LIFO slot is this core's alone: no other core can steal it, and a spawn
 * into it wakes none. So a task that spawns and then runs long keeps its
 * last child from every other core until it returns (or spawns again), as in
 * Tokio; spawn the long part as a task of its own, or use hive_group_spawn,
 * whose tasks can be stolen at once.
 *   HIVE_EINVAL  task or fn is NULL.
 *   HIVE_EBUSY   task is still queued (spawned, and its fn not yet called).
 */
int hive_spawn(struct hive_task *task, void (*fn)(struct hive_task *task));

/*
 * Queue fn(arg) with a header from the calling core's pool (HIVE_POOL_DEFAULT
 * or hive_config.pool_size headers per core; the header goes back to its pool
 * just before fn is called). Same contexts as hive_spawn. On the host,
 * threads that are not workers share one pool of their own.
 *   HIVE_EINVAL  fn is NULL.
 *   HIVE_ENOMEM  every header of this core's pool is queued.
 *
 * What to do on HIVE_ENOMEM inside a task: run the work inline - call
 * fn(arg) yourself - or spawn it with a struct hive_task of your own
 * (hive_spawn never runs out). Do not retry until a header comes back:
 * headers come back only when their tasks start, so a task that waits for
 * one keeps its core from running them - at 1 worker it waits forever, at
 * more it may. A host thread that is not a worker may retry during a run:
 * the workers run the tasks that hold the headers.
 */
int hive_spawn_fn(void (*fn)(void *arg), void *arg);

/*
 * Fork-join: fb(b) is offered to other cores while this core runs fa(a); then
 * this core takes fb back and runs it, or, if another core took it, runs other
 * work until fb has returned. Returns once both have returned. Needs task
 * context. fa and fb must not wait on each other.
 *   HIVE_EINVAL  fa or fb is NULL.
 *   HIVE_ESTATE  not in task context (nothing was run).
 */
int hive_join(void (*fa)(void *a), void *a, void (*fb)(void *b), void *b);

/*
 * fn(lo', hi', ctx) over disjoint chunks [lo', hi') that cover [lo, hi)
 * exactly once, each at most `grain` long (0: chosen from the range and the
 * worker count), split in halves with hive_join. Returns when all chunks
 * have returned. An empty range (lo >= hi) returns HIVE_OK at once.
 *   HIVE_EINVAL  fn is NULL.
 *   HIVE_ESTATE  not in task context.
 */
int hive_parallel_for(size_t lo, size_t hi, size_t grain,
                      void (*fn)(size_t lo, size_t hi, void *ctx), void *ctx);

/*
 * A group: spawn tasks into it from task context, then hive_group_wait() runs
 * other work until every one of them has finished. Group tasks go to the
 * core's fork-join deque (newest first locally, oldest first to thieves).
 * Initialise with hive_group_init or HIVE_GROUP_INIT; a group whose wait has
 * returned may be reused. Rule: a group must be waited for by a task of the
 * same run (usually the spawning task, before it returns) - the run counts
 * the waiting task, not the group's tasks, and the group's storage must last
 * until its wait returns. A run that ends with tasks of an unwaited group
 * still queued drops them and returns HIVE_EUNWAITED (hive_run).
 */
struct hive_group {
    /* Tasks spawned and not yet finished (the low 48 bits); the top bits
     * name a waiter that sleeps until they are (sched/wait.c). */
    _Atomic unsigned long pending;
};
#define HIVE_GROUP_INIT { 0 }
void hive_group_init(struct hive_group *g);

/*   HIVE_EINVAL  g, task or fn is NULL.   HIVE_EBUSY  task is still queued.
 *   HIVE_ESTATE  not in task context. */
int hive_group_spawn(struct hive_group *g, struct hive_task *task,
                     void (*fn)(struct hive_task *task));
/*   HIVE_EINVAL  g or fn is NULL.   HIVE_ENOMEM  this core's pool is exhausted.
 *   HIVE_ESTATE  not in task context. */
int hive_group_spawn_fn(struct hive_group *g, void (*fn)(void *arg), void *arg);
/*   HIVE_EINVAL  g is NULL.   HIVE_ESTATE  not in task context. */
int hive_group_wait(struct hive_group *g);

/* ---- statistics ----------------------------------------------------------- */

/* What one core did during a run. */
struct hive_core_stats {
    uint64_t tasks_run;      /* tasks taken from a queue and run here (spawned,
                                group, and the fb half of joins: taken back or stolen) */
    uint64_t spawned;        /* tasks queued from this core: hive_spawn(_fn),
                                group spawns, join pushes */
    uint64_t steal_attempts; /* victims probed (both its queues: one attempt) */
    uint64_t steals;         /* probes that took work */
    uint64_t stolen_tasks;   /* tasks those steals moved to this core */
    uint64_t global_pulls;   /* batches taken from the global queue */
    uint64_t overflows;      /* pushes that found the run queue full and moved
                                work (a batch, or the one task) to the global queue */
    uint64_t parks;          /* times this core went to sleep */
    uint64_t wakes;          /* sleeping cores this core woke */
    uint64_t lifo_hits;      /* tasks taken from the LIFO slot */
    uint64_t joins_inline;   /* joins whose fb this core took back */
    uint64_t joins_waited;   /* joins whose fb was stolen (this core waited) */
    uint64_t wait_parks;     /* times a join or group wait on this core slept
                                (not counted in parks) */
};

struct hive_stats {
    unsigned cores;
    uint64_t elapsed_ns;     /* wall time of the run */
    uint64_t injected;       /* spawns from outside task context during the run */
    uint64_t unwaited_group_tasks; /* group tasks left queued at the end because
                                      nobody waited for their group: dropped, not
                                      run (hive_run returned HIVE_EUNWAITED) */
    struct hive_core_stats total;
    struct hive_core_stats core[HIVE_MAX_WORKERS];
};

/* The statistics of the last completed run (zeros before the first). */
const struct hive_stats *hive_stats_last(void);
/* Print s as a table (one row per core and a total row) with printf. */
void hive_stats_print(const struct hive_stats *s);

/* ---- interrupts and timers (bare-metal boards) ------------------------------ */

#include "hive/irq.h"   /* hive_irq_attach, hive_in_interrupt */
#include "hive/timer.h" /* hive_now_ns, hive_after */
#include "hive/spinlock.h" /* hive_spin_lock: data shared with interrupt handlers */

#endif
