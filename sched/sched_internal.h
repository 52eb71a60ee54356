/*
 * The scheduler's shared internals: one struct hive_worker per core, the
 * state of the run (struct hive_scheduler), and the functions the files of
 * sched/ call in one another. Not a public header.
 *
 * Each core owns three places that hold ready tasks: a one-task LIFO slot
 * (hive_spawn's newest task, run next while it is cache-hot; never stolen),
 * and the two queues of struct hive_core_queues (sched/steal.h) that other
 * cores may steal from: the FIFO ring for spawned tasks and the Chase-Lev
 * deque for fork-join work (join frames, group tasks).
 *
 * The files, each saying at its top what it owns:
 *   run.c        hive_run: a run's setup and teardown, and when it ends
 *   worker.c     the worker loop: find work, run it, park; ticks
 *   find_work.c  where a worker looks for work, in which order
 *   victims.c    which other cores a searching worker steals from
 *   steal.c      taking work from one victim or from the global queue
 *   publish.c    making work visible to other cores, then notifying
 *   park.c       parking an idle worker
 *   run_task.c   running one task taken from a queue
 *   wait.c       what a core waiting in a join or group wait may run
 *   spawn.c, join.c, group.c, pool.c  the public ways to make work
 *   idle.c       the idle protocol (searching, parking, waking)
 *   ring.c, deque.c, global_queue.c  the queues
 *   stats.c      per-core statistics
 *   watchdog.c   the watchdog: a task that runs too long, a run that stalls
 */
#ifndef HIVE_SCHED_INTERNAL_H
#define HIVE_SCHED_INTERNAL_H

#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>

#include "hive/hive.h"
#include "sched/cache.h"
#include "sched/debug_checks.h"
#include "sched/port.h"
#include "sched/sched.h" /* hive_tls_task_worker, the interrupt hooks */
#include "sched/trace.h"

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

/* hive_task.state: IDLE -> QUEUED is a spawn's claim (spawn.c); the worker
 * puts IDLE back just before it calls fn (run_task.c: for a counted task an
 * exchange, which reads what a refusal marked). REFUSED is added to QUEUED
 * by a hive_spawn refused meanwhile: for that run (a counted task's; a
 * group task's run reads no mark: hive.h), and for a claim given back
 * unqueued (spawn.c, the top). */
#define HIVE_TASK_IDLE 0u
#define HIVE_TASK_QUEUED 1u
#define HIVE_TASK_REFUSED 2u

/* hive_task.kind: what running the task means besides calling fn, set when
 * the task is queued (run_task.c reads it). */
enum hive_task_kind {
    /* hive_spawn(_fn): counted in outstanding, so its end may end the run;
     * its state goes back to IDLE before fn runs. */
    HIVE_TASK_COUNTED = 0,
    /* A group's task: uncounted, its end is counted in its group instead. */
    HIVE_TASK_GROUP,
    /* The run's entry (run.c): counted as a spawn from outside is, in the
     * shared count itself, and its end is taken off there, not left as a
     * credit: a run whose entry leaves nothing behind ends as the entry
     * returns, without a search and a park first. */
    HIVE_TASK_ENTRY,
    /* A join frame (join.c): a second half someone may steal. Uncounted and
     * without a state; the joiner waits for its done flag. */
    HIVE_TASK_JOIN_FRAME,
    /* A group's task kept private in its spawner's deque (group.c, "Private
     * group tasks"): not counted in its group one by one but through a hold
     * of its core's (chunk_len names it), and so run only by that core. A
     * publish makes it a HIVE_TASK_GROUP, counted. */
    HIVE_TASK_GROUP_HELD,
};

/* A group task's kind either way: queued where its group counts it, or held. */
static inline bool hive_task_is_group(unsigned kind)
{
    return kind == HIVE_TASK_GROUP || kind == HIVE_TASK_GROUP_HELD;
}

/* One count of a group that a core holds for its private tasks of that group
 * (group.c, "Private group tasks"). Owner-only. */
struct hive_group_hold {
    struct hive_group *group;
    uint32_t tasks; /* tasks of this hold queued or running here */
};
#define HIVE_GROUP_HOLDS 32u
_Static_assert(HIVE_GROUP_HOLDS <= 255u, "a hold's index must fit a task's chunk_len");
/* Tasks queued on a core (its fork-join deque, public and private) from
 * which on, while no core wants work, a group spawn there runs its task at
 * once (group.c, "At once while every core is busy"). */
#define HIVE_GROUP_QUEUED_ENOUGH 4u
/* ... and only this many of its spawns after one of them last saw a core
 * wanting work (group.c, "The stretch"). */
#define HIVE_GROUP_QUIET_SPAWNS 16384u
/* Tasks queued on a core (as above) under which a group spawn there stops
 * running its task at once for a full deque (group.c, "Full, then a
 * quarter"): once full, the deque is left to drain to this. */
#define HIVE_GROUP_STOCK_LOW (HIVE_DEQUE_CAP >= 4u ? HIVE_DEQUE_CAP / 4u : 1u)

/* struct hive_join_frame, a join's second half on the joiner's stack, and
 * struct hive_latent_stack are in hive/join_inline.h: hive_join's inline
 * part needs them (join.c). */

/* Scheduling constants. The measurements behind the interval bounds and the
 * latency target are in find_work.c. */
#define HIVE_LIFO_MAX_POLLS 3u   /* LIFO-slot takes in a row before the ring gets a turn */
#define HIVE_BUDGET 128u         /* tasks per tick (worker.c) */
#define HIVE_INTERVAL_MIN 8u     /* global-queue poll interval bounds, in polls */
#define HIVE_INTERVAL_MAX 128u
#define HIVE_INTERVAL_INIT 32u
#define HIVE_GLOBAL_LATENCY_NS 1000000u /* target wait of a globally queued task */
/* The backstop of a worker's own pushes (publish.c): the period of the
 * pushing core's check after a push whose notify woke nobody. A core sleeps
 * beside work that a busy core pushed for at most two periods. */
#define HIVE_BACKSTOP_NS 1000000u
/* How long a join or group waiter keeps helping without finding anything
 * before it parks (wait.c): long enough that the fine-grained joins of a
 * divide-and-conquer run, whose halves take microseconds, never pay for a
 * park and a wake; short enough that a wait for a long task costs next to
 * no CPU. */
#define HIVE_WAIT_SPIN_NS 50000u

/*
 * An awaited count - a join frame's one outstanding half, a group's pending
 * tasks - and the waiters that may sleep on it, in one atomic word, so that
 * a completion and a waiter going to sleep are ordered by the word's
 * modification order alone (wait.c has the argument): bits 0-47 the count,
 * bits 48-61 the sleeping waiter's core, bit 62 set once a further waiter
 * has slept on the word (until it is re-initialised), bit 63 set while the
 * one named sleeps.
 */
#define HIVE_AWAIT_COUNT_MASK ((1ul << 48) - 1)
#define HIVE_AWAIT_CORE_SHIFT 48
#define HIVE_AWAIT_CORE_MASK (((1ul << 14) - 1) << HIVE_AWAIT_CORE_SHIFT)
#define HIVE_AWAIT_OTHERS (1ul << 62)
#define HIVE_AWAIT_SLEEPING (1ul << 63)
_Static_assert(sizeof(unsigned long) == 8, "the awaited word needs 64 bits");
_Static_assert(HIVE_SCHED_MAX_CORES <= (1u << 14), "a core id must fit in the awaited word");

struct hive_worker {
    /* ---- owner-only (the LIFO slot is never stolen) ---- */
    _Alignas(HIVE_CACHE_LINE) struct hive_task *lifo;
    unsigned id;
    unsigned lifo_polls;    /* LIFO takes in a row */
    unsigned polls;         /* find-work calls, for the global interval */
    unsigned interval;      /* poll the global queue first every `interval` polls */
    unsigned wait_depth;    /* nested join/group waits running other tasks */
    /* The innermost wait on this core is deep: it runs only work of its own
     * (join.c, "Waiting"). Set by hive_wait_for, which nests it. */
    bool wait_deep;
    /* A wait whose frame lies below this address is deep: the middle of the
     * stack the worker loop had left when the run began
     * (hive_port_stack_room), so unrelated work never takes more than half
     * of it. */
    uintptr_t deep_below;
    /* Deque bottom when the innermost task this core is running began: a
     * deep wait (wait_deep) may pop its own deque down
     * to here and no further (sched/join.c, "Waiting"). */
    uint32_t forkjoin_floor;
    /* A foreign entry that a deep group wait pushed back one index up (the
     * deque's last, group.c, own_task_under_floor) sits at moved_to, moved
     * there from moved_from (and up again, the same entry, each time):
     * floors and frame indices in (moved_from, moved_to] were recorded
     * while it lay under them, and read as moved_to + 1
     * (hive_forkjoin_limit). Equal: none. Owner only. */
    uint32_t moved_from, moved_to;
    bool searching;         /* counted in the idle state's searching count */
    bool watch;             /* the run has a watchdog: keep this core's record (watchdog.c) */
    /* A backstop is pending for this core's pushes (publish.c): set by the
     * core, cleared by the check (an interrupt of this core, or the host
     * port's thread: hence atomic). */
    atomic_bool backstop_armed;
    uint32_t rng[2];        /* xorshift state (victims.c) */
    uint64_t avg_task_ns;   /* EWMA of task time, alpha 0.1 */
    uint64_t tick_start_ns; /* when this tick began */
    unsigned tick_tasks;    /* tasks run in this tick (a tick ends at HIVE_BUDGET) */
    struct hive_core_stats stats;
    /* Joins whose second half nobody else can see yet (join.c, "Latent
     * frames"; the struct is in hive/join_inline.h, whose inline join
     * records frames in it too). Owner-only: plain fields. A line of its
     * own: every join touches it, and one that straddled two lines (when
     * the statistics grew by a field) made queens 15% slower at 1 worker. */
    _Alignas(HIVE_CACHE_LINE) struct hive_latent_stack latent;
    /* Counts of outstanding this core holds and has not spent (run.c,
     * "Credits"). Owner-only; zero whenever the core sleeps. */
    uint32_t credits;
    /* The groups this core holds a count of for its private tasks, a stack
     * (group.c, "Private group tasks"); holds_used of them are in use.
     * This core's and its interrupt's (which sheds ended holds): changed
     * under the mark or by the interrupt outside one; read outside the mark
     * only as a hint (hive_group_spawn's busy path). holds_used is atomic
     * (relaxed) for that look; no instruction of its own. */
    _Atomic unsigned holds_used;
    /* Group spawns made on this core in this run, and their number when
     * one last saw some core wanting work: a group spawn runs its task at
     * once while every core is busy only HIVE_GROUP_QUIET_SPAWNS of them
     * later (group.c). Owner-only. */
    uint64_t group_spawns, wanted_seen_at;
    /* A group spawn here found the deque full, and none since found it
     * under HIVE_GROUP_STOCK_LOW (group.c, "Full, then a quarter").
     * Owner-only. */
    bool deque_stocked;
    struct hive_group_hold holds[HIVE_GROUP_HOLDS];
    /* Private operations under way on this core (a nesting count), and a
     * publish asked for by an interrupt that found one under way (publish.c,
     * "The heartbeat"). Atomic only for the interrupt of this core: relaxed
     * accesses with signal fences, no instruction of their own. */
    _Atomic unsigned char private_busy;
    _Atomic unsigned char private_asked;
    /* May hold private entries: set by a private push, cleared once none
     * is left; read by the backstop's check (on the host from another
     * thread), which pokes only a core that may hold some, and by waiters
     * to know whom to ask (victims.c, wait.c). */
    atomic_bool private_held;
    /* This core keeps a count of kept_group with no task behind it
     * (group.c, "Kept holds"), for the group's next task run at once or
     * held here. Written by this core and its interrupt only (relaxed,
     * as private_busy): set only by this core; cleared by the interrupt,
     * which ends a keep only where it sees the flag, by this core under
     * the mark (after a second look), and by keep_take outside it (the
     * store first, then kept_group). Read as a hint by the backstop's
     * check, as private_held is, and by deep waiters to know whom to ask
     * (publish.c, "The heartbeat"; wait.c). */
    _Atomic unsigned char hold_keeping;
    /* The group whose count the keep holds: NULL whenever hold_keeping is
     * clear (but inside keep_begin and keep_take, between their two
     * stores), which keep_take relies on - whoever clears the flag clears
     * this too. This core's and its interrupt's alone; atomic (relaxed)
     * only because the interrupt (on the host a signal handler) reads and
     * writes it: no instruction of its own. */
    _Atomic(struct hive_group *) kept_group;
    /* A wake the poke owed for a keep it ended - the count's word as the
     * decrement left it, 0 for none - done by the backstop's check after
     * the poke (the host's signal handler may not wake: publish.c). */
    _Atomic unsigned long keep_wake;
    /* hive_port_poke_ready was called in this run (group.c). */
    bool poke_ready;
    /* Spinlocks this core held when its worker began (debug builds only;
     * sched/debug_checks.h). */
    unsigned spin_held_at_start;
    /* The ring and the fork-join deque: owner push/pop, thieves steal. */
    struct hive_core_queues queues;
    /* A core that steals without counting as a searcher (a waiter: wait.c)
     * found nothing here while this core may hold private group tasks, or
     * a deep waiter found nothing for a while while this core may keep a
     * hold (group.c, "Kept holds") or hold private group tasks: it wants
     * them, which the idle word does not say. Set by that waiter, cleared
     * by this core when it publishes or its keep ends, or by a check that
     * finds nothing held here. A line of its own: a waiter writes it. */
    _Alignas(HIVE_CACHE_LINE) atomic_bool work_asked;
};

struct hive_scheduler {
    /* STOPPED -> STARTING -> RUNNING -> STOPPING -> STOPPED */
    _Atomic int phase;
    unsigned workers;              /* workers in the current/last run */
    unsigned interval_min, interval_max;
    uint64_t park_timeout_ns;
    uint64_t watchdog_ns;          /* hive_config.watchdog_ns of the run; 0: none */
    /* Set once outstanding reaches zero: workers leave their loops. */
    _Alignas(HIVE_CACHE_LINE) atomic_bool done;
    /* Counted tasks not yet finished: hive_spawn(_fn) tasks one each and
     * the run's entry (not join halves nor group tasks: see group.c). Persists
     * across runs (tasks spawned between runs are counted when spawned). */
    _Alignas(HIVE_CACHE_LINE) _Atomic unsigned long outstanding;
    /* Tasks queued from outside the run's workers while it ran (statistics). */
    _Alignas(HIVE_CACHE_LINE) _Atomic unsigned long injected;
    /* Counted tasks promised and not queued yet: hive_after's, whose timer
     * is pending, and a spawn from outside the workers between its count
     * and its push (sched.h, spawn.c). A run that waits for one is idle, not
     * stalled (watchdog.c). Persists across runs, as outstanding does. */
    _Atomic unsigned long deferred;
    /* Group tasks a worker took after the run's last counted task finished
     * and dropped (worker.c): reported with those left queued (run.c). */
    _Atomic unsigned long unwaited;
    /* An open run (hive_config.until_stopped) not yet stopped: it holds one
     * count of outstanding, which hive_stop gives back. */
    atomic_bool open;
    /* Callers of hive_outstanding_sub_anywhere inside it now: hive_run waits
     * for none before it sets a run up (run.c, "Late ends"). */
    _Atomic unsigned ending;
    struct hive_idle idle;
    struct hive_global global;
};

#define HIVE_PHASE_STOPPED 0
#define HIVE_PHASE_STARTING 1
#define HIVE_PHASE_RUNNING 2
#define HIVE_PHASE_STOPPING 3

extern struct hive_scheduler hive_scheduler;
extern struct hive_worker hive_workers[HIVE_SCHED_MAX_CORES];

/* The worker running on this thread/core, set for the duration of a run -
 * in its interrupt handlers too (a poke's work, sched/publish.c, is this
 * core's). */
extern _Thread_local struct hive_worker *hive_tls_worker;

/* The calling worker if we are in task context, else NULL (interrupt
 * handlers are never in task context, even on a worker core: the interrupt
 * hooks hide it from them, sched/sched.h). relaxed: this core's own. */
static inline struct hive_worker *hive_self(void)
{
    struct hive_worker *w = atomic_load_explicit(&hive_tls_task_worker, memory_order_relaxed);
    HIVE_CHECK(!w || !hive_port_in_interrupt(),
               "an interrupt handler ran without hive_sched_interrupt_enter");
    return w;
}

/* ---- run.c ---- */
/* Counted tasks (run.c, "Credits"): a worker counts a task it spawns out of
 * its credits, and takes a batch from the shared count when it has none. */
#define HIVE_CREDIT_BATCH 64u
void hive_credits_refill(struct hive_worker *w);
void hive_credits_give_back(struct hive_worker *w);
/* A counted task is made: spawned from task context on worker w, or, with w
 * NULL, anywhere else (an interrupt handler, another thread, hive_run). */
static inline void hive_outstanding_add(struct hive_worker *w)
{
    if (!w) {
        /* relaxed: the count only decides when the run ends; the task itself
         * is published by the queue it goes into, and the decrement that ends
         * the run is seq_cst (hive_outstanding_sub). */
        atomic_fetch_add_explicit(&hive_scheduler.outstanding, 1, memory_order_relaxed);
        return;
    }
    if (w->credits == 0)
        hive_credits_refill(w);
    w->credits--;
}
/* A counted task finished on worker w: its count becomes w's credit. */
static inline void hive_outstanding_done(struct hive_worker *w)
{
    if (++w->credits > 2 * HIVE_CREDIT_BATCH)
        hive_credits_give_back(w);
}
/* A group task of a group nobody waited for, taken after the run ended:
 * dropped unrun, as those left queued are, and counted with them. */
void hive_run_drop_unwaited(struct hive_task *t);
/* Before w sleeps (park.c): give every credit back; may end the run. */
void hive_credits_return(struct hive_worker *w);
/* Take n counts off the shared count; the last ends the run. From a worker
 * inside the run, in task or worker context (the entry's end, a core's
 * credits before it sleeps): it is done before the run's end returns. */
void hive_outstanding_sub(unsigned long n);
/* The same from anywhere - another thread, an interrupt handler, a task
 * (hive_stop's hold, a cancelled deferred spawn): safe to finish late, after
 * the run it ended has returned (run.c, "Late ends"), and from an
 * interrupt it wakes the interrupted core too. */
void hive_outstanding_sub_anywhere(unsigned long n);
/* The address of the run's entry function if t is the run's entry task,
 * else 0 (watchdog reports). */
uintptr_t hive_run_entry_fn(const struct hive_task *t);
/* Has the run ended (its last counted task finished)? */
static inline bool hive_run_done(void)
{
    /* acquire: pairs with the seq_cst store in run.c's end_run; a
     * worker that sees it leaves, and hive_run's return orders the rest. */
    return atomic_load_explicit(&hive_scheduler.done, memory_order_acquire);
}

/* ---- worker.c ---- */
/* The worker of the calling core, from hive_run's start to the run's end. */
void hive_worker_main(void *unused);

/* ---- find_work.c ---- */
/* Become a searcher if the cap allows (w->searching says; also returned).
 * The first core to want work closes the others' inline join gates. */
bool hive_start_searching(struct hive_worker *w);
/* This searcher found work (its own continuation counts): stop searching,
 * and if it was the last searcher wake another (rule 2 of idle.c). */
void hive_stop_searching(struct hive_worker *w);
/* The next task for this worker from its own places and the global queue
 * (steps 1-4 of find_work.c), or NULL. */
struct hive_task *hive_find_local(struct hive_worker *w);
/* The next task from anywhere, becoming a searcher to steal; NULL: park. */
struct hive_task *hive_find_work(struct hive_worker *w);
/* From the global queue: one task to run now, and into an empty ring the
 * rest of a batch (find_work.c, "The global batch"). */
struct hive_task *hive_pull_global(struct hive_worker *w);
/* A tick ended at `now`: update the task-time average and the interval. */
void hive_tick_end(struct hive_worker *w, uint64_t now);

/* ---- victims.c ---- */
/* One round of steals over the other workers from a random start; NULL if
 * every one came back empty. */
struct hive_task *hive_steal_round(struct hive_worker *w);

/* ---- publish.c ---- */
/* Push t where other cores can take it, then notify (rule 1 of idle.c):
 * worker w's ring (a full one spills to the global queue), w's fork-join
 * deque (returns t itself when the deque is full: then t was not queued and
 * the caller runs it; else NULL), or - from anywhere but a worker's task
 * context: boot code, another thread, an interrupt handler - the global
 * queue. */
void hive_publish_ring(struct hive_worker *w, struct hive_task *t);
/* The rest of a global pull (a list linked through next) into w's empty
 * ring, in order, then one notify. */
void hive_publish_pulled(struct hive_worker *w, struct hive_task *list);
struct hive_task *hive_publish_forkjoin(struct hive_worker *w, struct hive_task *t);
/* Make every private entry of w's fork-join deque stealable, each counted in
 * its group (group.c, "Private group tasks"), then notify; nothing if none. */
void hive_publish_private(struct hive_worker *w);
/* The same for the older half of the private entries. */
void hive_publish_oldest_private(struct hive_worker *w);
/* Arm the backstop of w's pushes (publish.c); the caller found it unarmed. */
void hive_backstop_arm_now(struct hive_worker *w);
/* Arm it unless it is armed: inline, as every private group spawn asks, and
 * while it is armed that is one load. */
static inline void hive_backstop_arm(struct hive_worker *w)
{
    /* relaxed, the load and the store (hive_backstop_arm_now): the check's
     * clearing store pairs with them through hive_port_backstop_fence
     * (publish.c, backstop_check); nothing else reads the flag. */
    if (!atomic_load_explicit(&w->backstop_armed, memory_order_relaxed))
        hive_backstop_arm_now(w);
}
/* A task ends, or a wait begins: a count of a group kept on this core
 * since the last task it ran at once returned is given back (group.c,
 * "Kept holds"). */
void hive_group_keep_end(struct hive_worker *w);
/* The same from the core's interrupt, outside the mark: returns the wake it
 * owes (hive_await_done_unwoken), which the interrupt must leave to another
 * (the host's signal handler cannot take the wake's locks). */
unsigned long hive_group_keep_poked(struct hive_worker *w);
static inline void hive_group_keep_drop(struct hive_worker *w)
{
    /* relaxed: a hint, read again under the mark (hive_group_keep_end). */
    if (atomic_load_explicit(&w->hold_keeping, memory_order_relaxed))
        hive_group_keep_end(w);
}

/* A waiter's ask (hive_private_wanted) is answered: private tasks were
 * published, this core queued in public, its keep ended (group.c, "Kept
 * holds"), or a check found nothing held here to ask for. */
static inline void hive_work_asked_answered(struct hive_worker *w)
{
    /* relaxed (both): a hint; the thief that sets it pairs with nothing. */
    if (atomic_load_explicit(&w->work_asked, memory_order_relaxed))
        atomic_store_explicit(&w->work_asked, false, memory_order_relaxed);
}
void hive_publish_global(struct hive_task *t);
/* hive_spawn from task context: t into the LIFO slot; the task it evicts is
 * published to the ring. */
void hive_publish_spawn(struct hive_worker *w, struct hive_task *t);
/* Wake one parked core if nobody is searching, for work that is already
 * where others can take it (the idle protocol's hand-offs; publish.c). */
void hive_notify_idle(struct hive_worker *w);

/* ---- park.c ---- */
/* Nothing found anywhere: sleep until woken (or the run ends, or the park
 * timeout passes); leaves counted as awake and searching. */
void hive_park(struct hive_worker *w);
/* The same for a waiter (wait.c), which also leaves once `awaited`'s count
 * is zero. */
void hive_park_until(struct hive_worker *w, _Atomic unsigned long *awaited);
/* Wake every core of the run but `except` (HIVE_SCHED_MAX_CORES: none), for
 * reason `why` (enum hive_trace_wake): where a waker does not know which
 * cores sleep - the run's end, a group's last task with OTHERS (wait.c).
 * Cores that do not sleep keep a pending wake their next wait finds. */
void hive_wake_every_core(unsigned except, unsigned why);

/* ---- run_task.c ---- */
/* Run one task taken from a queue: bookkeeping, then its fn. */
void hive_run_task(struct hive_worker *w, struct hive_task *t);
/* fn(t) under the watchdog's record of this core (run_task.c). */
void hive_run_watched_fn(struct hive_worker *w, struct hive_task *t, void (*fn)(struct hive_task *));
/*
 * After a task run at once by its spawner: a hive_spawn inside it left its
 * last child in this core's LIFO slot, which only this core's worker loop
 * takes - and the spawner runs on, perhaps long, before this core gets
 * back there. Run from the loop, the task would have left its child to the
 * loop at its return; so the child goes to the ring now (stealable, with a
 * notify). lifo_before: the slot when the task began; unchanged, the task
 * put nothing there.
 */
static inline void hive_lifo_yield(struct hive_worker *w, struct hive_task *lifo_before)
{
    struct hive_task *t = w->lifo;
    if (t && t != lifo_before) {
        w->lifo = NULL;
        hive_publish_ring(w, t);
    }
}
/* hive_run_task for a task run nested in another (by a wait, a join taking
 * back what fa left, or a spawn that runs it at once): a child it left in
 * the LIFO slot moves to the ring as it returns, where other cores can take
 * it - as for a task that returns to the worker loop, which would take the
 * slot next; the task under it runs on instead (and a wait deep in the
 * stack never looks at the slot: join.c, "Waiting"). */
static inline void hive_run_task_nested(struct hive_worker *w, struct hive_task *t)
{
    struct hive_task *lifo = w->lifo;
    hive_run_task(w, t);
    hive_lifo_yield(w, lifo);
}
/* hive_run_task for a task run at once by its spawner (group.c). */
static inline void hive_run_task_at_once(struct hive_worker *w, struct hive_task *t)
{
    w->stats.run_at_spawn++;
    hive_run_task_nested(w, t);
}

/*
 * fn(task) run by its spawner on its own stack instead of queued
 * (hive_spawn_or_run; hive_group_spawn in a run of one worker, while every
 * core is busy, or into a full deque or one draining to a quarter:
 * group.c).
 * Nothing is counted in the run's outstanding: the spawner is a running
 * task, so the run cannot end meanwhile, and the spawn is over when fn
 * returns (a group's count is the caller's: group.c counts a task it runs
 * at once at two workers and more in its group). What a queued task has,
 * it has too: a floor of its own (a deep wait inside it pops nothing its
 * spawner pushed: join.c, "Waiting"), the watchdog's record, the trace's
 * spawn (AT_ONCE), start and end, and its count in tasks_run and
 * run_at_spawn. Inline: it is the whole of such a spawn's cost.
 */
static inline void hive_run_at_once(struct hive_worker *w, struct hive_task *task,
                                    void (*fn)(struct hive_task *task))
{
    w->stats.tasks_run++;
    w->stats.run_at_spawn++;
    HIVE_TRACE_EVENT(HIVE_TRACE_SPAWN, task, HIVE_TRACE_AT_ONCE);
    HIVE_TRACE_EVENT(HIVE_TRACE_TASK_START, task, (uintptr_t)fn);
    uint32_t floor = w->forkjoin_floor;
    w->forkjoin_floor = hive_deque_bottom(&w->queues.forkjoin);
    if (w->watch)
        hive_run_watched_fn(w, task, fn);
    else
        fn(task);
    hive_group_keep_drop(w);
    w->forkjoin_floor = floor;
    HIVE_TRACE_EVENT(HIVE_TRACE_TASK_END, task, 0);
}
/* hive_run_at_once with the LIFO slot's yield: for hive_group_spawn's
 * tasks run at once at two workers and more. (Its one-worker path does
 * without: no other core could take the child. hive_run_task_at_once, the
 * path of hive_group_spawn_fn and of a refused push, yields at any count -
 * at one worker it only sends the child to the ring, which this core
 * drains as it would the slot. hive_spawn_or_run runs a task at once only
 * with the slot taken already, by a child of the spawner's own that the
 * spawner keeps as long.) */
static inline void hive_run_at_once_yielding(struct hive_worker *w, struct hive_task *task,
                                             void (*fn)(struct hive_task *task))
{
    struct hive_task *lifo = w->lifo;
    hive_run_at_once(w, task, fn);
    hive_lifo_yield(w, lifo);
}

/* ---- wait.c ---- */
/* The count of an awaited word (acquire: pairs with the release decrement of
 * hive_await_done, so what the awaited work wrote is visible). */
static inline unsigned long hive_await_count(_Atomic unsigned long *awaited)
{
    return atomic_load_explicit(awaited, memory_order_acquire) & HIVE_AWAIT_COUNT_MASK;
}
/* One awaited piece of work finished: count it off, and wake the waiters
 * that sleep on the word if it was the last. The caller's last access to
 * the word's object. */
void hive_await_done(_Atomic unsigned long *awaited);
/* hive_await_done in two: the decrement, which returns the count's word
 * before it where it owes a wake (the last count, with a sleeper), else 0;
 * then the wake it owes (none for 0), which may come later and elsewhere -
 * it reads nothing of the awaited object. */
unsigned long hive_await_done_unwoken(_Atomic unsigned long *awaited);
void hive_await_wake(unsigned long was);
/* Wait until awaited's count is zero, running what help(w, ctx) returns
 * meanwhile and parking when it finds nothing for HIVE_WAIT_SPIN_NS. */
void hive_wait_for(struct hive_worker *w, _Atomic unsigned long *awaited,
                   struct hive_task *(*help)(struct hive_worker *w, void *ctx), void *ctx);
/* Any work for a core that is waiting (join/group): NULL if none now.
 * `frame_thief` is the core that took our join frame (or -1). Not deep
 * (w->wait_deep): the frame thief's deque, then anything. Deep: only this
 * core's deque above w->forkjoin_floor, then the frame thief's deque. */
struct hive_task *hive_wait_find_work(struct hive_worker *w, int frame_thief);

/* ---- join.c ---- */
/* How far down the latent list a share walks, and how many frames a wait
 * shares at most before it begins (join.c, "The list"). */
#define HIVE_LATENT_WALK 1024u
#define HIVE_LATENT_SHARE_MAX 64u
/* Someone wants work: push this core's oldest shareable latent join frame to
 * its deque, if the deque has nothing to take (join.c, "Latent frames"). */
void hive_latent_share(struct hive_worker *w);
/* Before a wait: push the latent frames (oldest first, while the deque has
 * room), then make the ones left, and those below, off limits to the work
 * the wait runs. Returns the floor to give back to hive_latent_end_wait. */
struct hive_join_frame *hive_latent_begin_wait(struct hive_worker *w);
void hive_latent_end_wait(struct hive_worker *w, struct hive_join_frame *floor);
/* This core's RMW of the idle word made it say that some core wants work
 * (it was the first: it searches, or parks): close every other core's
 * inline join gate, so their next joins come out of line and share. Later
 * wanters need not: no gate opens while the word says so (latent_gate.c). */
void hive_latent_want(struct hive_worker *w);
/* Run a stolen join frame (a task of kind HIVE_TASK_JOIN_FRAME). */
void hive_join_frame_run(struct hive_task *t);
/* The address of the fb a join frame runs (watchdog reports). */
uintptr_t hive_join_frame_fn(const struct hive_task *t);

/* ---- group.c ---- */
void hive_group_task_done(struct hive_group *g);
/* A private task of w's hold number `hold` has finished, or was published
 * (group.c, "Private group tasks"). */
void hive_group_hold_done(struct hive_worker *w, unsigned hold);
/* A private task is counted in its group from now on, and leaves its hold:
 * before a publish makes it stealable (publish.c). */
void hive_group_task_count(struct hive_worker *w, struct hive_task *t);

/* Around every operation of the owner's on its private entries or holds:
 * an interrupt of this core (the heartbeat, publish.c) then leaves them to
 * the operation's end instead of publishing under it. */
void hive_private_serve(struct hive_worker *w);
static inline void hive_private_enter(struct hive_worker *w)
{
    /* relaxed (both, and leave's): read only by this core and by an
     * interrupt of it, ordered by the signal fences, which is all a
     * same-core interrupt needs. */
    unsigned char n = atomic_load_explicit(&w->private_busy, memory_order_relaxed);
    atomic_store_explicit(&w->private_busy, n + 1, memory_order_relaxed);
    atomic_signal_fence(memory_order_seq_cst); /* the mark before the operation */
}
static inline void hive_private_leave(struct hive_worker *w)
{
    atomic_signal_fence(memory_order_seq_cst); /* the operation before the unmark */
    unsigned char n = atomic_load_explicit(&w->private_busy, memory_order_relaxed);
    atomic_store_explicit(&w->private_busy, n - 1, memory_order_relaxed);
    atomic_signal_fence(memory_order_seq_cst); /* the unmark before the look */
    if (n == 1 && atomic_load_explicit(&w->private_asked, memory_order_relaxed))
        hive_private_serve(w);
}

/* A waiter, which the idle word does not show wanting work, asks victim
 * for what it holds - private group tasks (group.c, "Private group tasks"),
 * or the end of a kept hold ("Kept holds"): victim's next group spawn or pop
 * offers its private tasks (hive_private_wanted), and its backstop check
 * acts on the ask as on a parked core (publish.c, "The heartbeat"). A look
 * first: an ask already made writes nothing. relaxed (both): a hint; the
 * asker asks again while it finds nothing, so an ask answered early is
 * made again. */
static inline void hive_ask(struct hive_worker *victim)
{
    if (!atomic_load_explicit(&victim->work_asked, memory_order_relaxed))
        atomic_store_explicit(&victim->work_asked, true, memory_order_relaxed);
}

/* Does some core want this core's private group tasks: is one searching or
 * parked (the idle word), or did a waiter find nothing here? */
static inline bool hive_private_wanted(struct hive_worker *w)
{
    /* relaxed: a hint, as hive_idle_wanted's (publish.c clears it). */
    return hive_idle_wanted(&hive_scheduler.idle, w->latent.all_busy) ||
           atomic_load_explicit(&w->work_asked, memory_order_relaxed);
}

/* The owner's pop of its fork-join deque, the only one a worker makes: while
 * some core wants work, private entries are published first, so that a
 * core which keeps popping its own work without spawning offers it too.
 * Only an entry at index limit or above (the caller has seen bottom above
 * it: a floor, or a join frame's index; hive_deque_pop_above). */
static inline struct hive_task *hive_forkjoin_pop_above(struct hive_worker *w, uint32_t limit)
{
    struct hive_deque *d = &w->queues.forkjoin;
    if (hive_deque_private_len(d) && !hive_deque_len(d) && hive_private_wanted(w))
        hive_publish_oldest_private(w);
    hive_private_enter(w);
    struct hive_task *t = hive_deque_pop_above(d, limit);
    /* relaxed (both): a hint (publish.c, "The heartbeat"). */
    if (!hive_deque_private_len(d) && atomic_load_explicit(&w->private_held, memory_order_relaxed))
        atomic_store_explicit(&w->private_held, false, memory_order_relaxed);
    hive_private_leave(w);
    return t;
}

/* The same, any entry. */
static inline struct hive_task *hive_forkjoin_pop(struct hive_worker *w)
{
    return hive_forkjoin_pop_above(w, hive_deque_no_limit(&w->queues.forkjoin));
}

/* Where a deep wait may pop this core's deque down to, for a floor or a
 * shared frame's index recorded on this stack: `floor`, or above the entry
 * own_task_under_floor moved up if that now lies at or above `floor` but
 * was under it (group.c). Not for the worker loop's pops, which have no
 * floor. */
static inline uint32_t hive_forkjoin_limit(struct hive_worker *w, uint32_t floor)
{
    if (floor - w->moved_from - 1u >= w->moved_to - w->moved_from)
        return floor;
    /* relaxed: pairs with nothing - a hint about thieves' CASes of top,
     * which only rise; a stale (lower) top only keeps the limit raised,
     * which hides nothing (group.c). */
    uint32_t top = atomic_load_explicit(&w->queues.forkjoin.top, memory_order_relaxed);
    if ((int32_t)(top - w->moved_to) > 0) {
        /* The entry has left (popped or stolen: top passed it), and no
         * entry lies at its index or under it again: forget it before the
         * indices wrap around to it. */
        w->moved_from = w->moved_to;
        return floor;
    }
    return w->moved_to + 1u;
}

/* ---- pool.c ---- */
void hive_pool_configure(unsigned size);
/* A header from the calling core's pool, or NULL when exhausted. */
struct hive_task *hive_pool_get(void (*fn)(void *), void *arg);
/* The fn of every pooled header. */
void hive_pool_task_run(struct hive_task *t);
/* If t is a pooled header, put it back unrun (true); else false. */
bool hive_pool_task_drop(struct hive_task *t);
/* The address of the fn a pooled header runs, or 0 if t is not one. */
uintptr_t hive_pool_task_fn(const struct hive_task *t);

/* ---- watchdog.c ---- */
/* A record's since when its task runs forever (hive_task_runs_forever). */
#define HIVE_WATCH_FOREVER UINT64_MAX
/* What a core's record said: restored after a nested run or a wait. */
struct hive_watch_mark {
    uint64_t since;
    uintptr_t fn;
};
/* Reset the records of a run's workers (hive_run, before they start). */
void hive_watchdog_setup(unsigned workers, uint64_t now);
/* The check the port calls periodically while a run has a watchdog. */
void hive_watchdog_check(void);
/* The calling core, w->watch set, enters task fn; returns what it was doing. */
struct hive_watch_mark hive_watch_enter(unsigned core, uintptr_t fn);
/* ... and has left it: one task finished, back to what `prior` says. */
void hive_watch_leave(unsigned core, struct hive_watch_mark prior);
/* Its task waits (in the scheduler, not stuck) and later resumes. */
struct hive_watch_mark hive_watch_suspend(unsigned core);
void hive_watch_resume(unsigned core, struct hive_watch_mark mark);
/* Its task passed a scheduling point that waited for nothing (a group wait
 * whose tasks had all finished): its time starts again, as after a wait. */
void hive_watch_restart(unsigned core);

/* ---- stats.c ---- */
void hive_stats_collect(uint64_t elapsed_ns, uint64_t unwaited_group_tasks);

#endif
