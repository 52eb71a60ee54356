/*
 * hive_run: a run's setup and teardown, and when a run ends. Also the small
 * public queries about the run (hive_in_task, hive_worker_id,
 * hive_worker_count), about the cores (hive_core_id, hive_core_count) and
 * the scheduler's state itself.
 *
 * Setup: check the configuration, claim the phase (one run at a time), reset
 * every worker and the idle state, size the spawn_fn pools, queue the entry
 * in core 0's LIFO slot, publish it all with the RUNNING phase and start a
 * worker on every chosen core (hive_port_run_on_cores; worker.c).
 *
 * Termination: hive_scheduler.outstanding counts tasks spawned and not
 * finished (hive_spawn(_fn) one each, and the entry; join frames and group
 * tasks are not counted: a counted task waits for them before it can finish),
 * plus the credits below. The decrement that reaches zero sets `done` and
 * wakes every core; workers leave their loop at the next poll.
 *
 * Credits. One shared count written by every spawn and every finish would
 * move its cache line between the spawning core and the running one for
 * every task - most of the cost of spawning on two cores, once measured. So
 * a worker holds counts of its own, credits, in a plain owner-only field:
 *   - a spawn from task context spends one credit, after taking
 *     HIVE_CREDIT_BATCH from the shared count if it had none;
 *   - a counted task that finishes leaves its count with the core that ran
 *     it, as a credit; past twice the batch, the core gives a batch back;
 *   - before a core sleeps (park.c: a worker with nothing to do, or a
 *     waiter) it gives every credit back: a sleeping core holds none.
 * Spawns from anywhere else (interrupt handlers, other threads, hive_after's
 * promise, the run's entry and an open run's hold) add to the shared count
 * directly, as before; the entry's end takes its count off there too (one
 * RMW a run), so a run whose entry spawned nothing ends as the entry returns.
 * So the shared count is the tasks outstanding plus the credits the cores
 * hold, written about once per batch of tasks. It cannot
 * reach zero while a task is outstanding (credits are never negative), and
 * once the last counted task has finished, every core that holds credits
 * runs out of work, gives them back before it sleeps, and the last of those
 * returns brings the count to zero: the run ends there, a search and a
 * rescan later than the task itself. Every return is a seq_cst RMW, and
 * each core gives back only after the tasks whose counts it holds have
 * finished, so the RMW that reaches zero comes after every task's writes in
 * the count's modification order and acquires them (each earlier RMW heads a
 * release sequence that the later ones continue), then publishes them with
 * the store of `done`. Anything spawned from outside after that
 * stays queued for the next run: teardown moves what is left on the cores to
 * the global queue, which the next run's workers poll when they start.
 *
 * Late ends. A count taken off from outside the run's workers - hive_stop
 * from another thread or an interrupt handler, a cancelled hive_after - may
 * be the one that reaches zero and then be held up (a preempted thread)
 * before it stores `done` and wakes the cores, while the run ends another
 * way (a spawn from outside brought the count back up, and its task's end
 * took it to zero again) and the next run starts. Its late store of `done`
 * would end that next run at once, its entry unrun, and its read of the
 * worker count would race with the setup. So such callers
 * (hive_outstanding_sub_anywhere) count themselves in `ending` around the
 * decrement and its end, and hive_run, after it has added the entry's count
 * (and an open run's hold), waits for `ending` to be zero before it touches
 * anything: a Dekker pair, the count's add and a seq_cst fence then a load
 * of `ending`, against `ending`'s seq_cst increment then the count's
 * decrement. Either hive_run sees the caller (and waits for it to finish),
 * or the caller's decrement comes after the entry's count in the count's
 * order and cannot reach zero before the entry has run. Workers' own
 * decrements (the entry's end, credits before a park) need none of this:
 * each is done before its core leaves the run, which hive_run waits for.
 *
 * Except group tasks. A group's tasks are uncounted because a counted task
 * waits for them (group.c); so with the rule kept none is queued when the run
 * ends. One that is was spawned into a group nobody waited for, and running
 * it later would tell a group that may be gone (its spawner's stack frame has
 * returned) that it finished. Teardown drops such tasks unrun - each header is
 * idle again - and hive_run reports them: HIVE_EUNWAITED, and their number in
 * the run's statistics.
 */
#include <stddef.h>

#include "sched/sched_internal.h"

struct hive_scheduler hive_scheduler = {.global = HIVE_GLOBAL_INIT};
struct hive_worker hive_workers[HIVE_SCHED_MAX_CORES];
_Thread_local struct hive_worker *hive_tls_worker;

/* The run's last count is gone: stop every worker. The calling core's own
 * worker, if any, sees `done` when its task or loop step returns - unless
 * we run in an interrupt handler, under which that core may be parked with
 * nothing else left to wake it. */
static void end_run(void)
{
    atomic_store(&hive_scheduler.done, true);
    struct hive_worker *self = hive_tls_worker;
    bool wake_self = hive_port_in_interrupt();
    hive_wake_every_core(self && !wake_self ? self->id : HIVE_SCHED_MAX_CORES,
                         HIVE_TRACE_WAKE_RUN_END);
}

void hive_outstanding_sub(unsigned long n)
{
    HIVE_CHECK(hive_tls_worker && !hive_port_in_interrupt(),
               "rule broken: only a worker, in task or worker context, uses hive_outstanding_sub");
    if (atomic_fetch_sub(&hive_scheduler.outstanding, n) == n)
        end_run();
}

void hive_outstanding_sub_anywhere(unsigned long n)
{
    /* hive_run's Dekker pair ("Late ends"): our increment, a fence, then
     * the count's decrement, against its add, a fence, then its load of
     * `ending` (docs/ordering.md). */
    atomic_fetch_add(&hive_scheduler.ending, 1);
    atomic_thread_fence(memory_order_seq_cst);
    if (atomic_fetch_sub(&hive_scheduler.outstanding, n) == n)
        end_run();
    /* release: pairs with hive_run's acquire load of `ending`: end_run's
     * store of done and its reads of the run's workers come before the
     * next run's setup writes them. */
    atomic_fetch_sub_explicit(&hive_scheduler.ending, 1, memory_order_release);
}

void hive_credits_refill(struct hive_worker *w)
{
    /* relaxed: as any add (hive_outstanding_add): the running task's own
     * count, or its counted ancestor's, keeps the count above zero. */
    atomic_fetch_add_explicit(&hive_scheduler.outstanding, HIVE_CREDIT_BATCH, memory_order_relaxed);
    w->credits += HIVE_CREDIT_BATCH;
}

void hive_credits_give_back(struct hive_worker *w)
{
    /* Keeps a batch: the count stays above zero (it includes what we keep),
     * so this cannot be the decrement that ends the run. seq_cst as every
     * decrement (see "Credits"). */
    w->credits -= HIVE_CREDIT_BATCH;
    atomic_fetch_sub(&hive_scheduler.outstanding, HIVE_CREDIT_BATCH);
}

void hive_credits_return(struct hive_worker *w)
{
    unsigned long n = w->credits;
    if (!n)
        return;
    w->credits = 0;
    hive_outstanding_sub(n);
}

static struct hive_task entry_task;
static void (*entry_fn)(void *);
static void *entry_arg;

static void entry_run(struct hive_task *t)
{
    (void)t;
    entry_fn(entry_arg);
}

uintptr_t hive_run_entry_fn(const struct hive_task *t)
{
    return t == &entry_task ? (uintptr_t)entry_fn : 0;
}

static void worker_reset(struct hive_worker *w, unsigned id, uint64_t t0)
{
    w->lifo = NULL;
    w->id = id;
    w->lifo_polls = 0;
    w->polls = 0;
    w->interval = HIVE_INTERVAL_INIT;
    if (w->interval < hive_scheduler.interval_min)
        w->interval = hive_scheduler.interval_min;
    if (w->interval > hive_scheduler.interval_max)
        w->interval = hive_scheduler.interval_max;
    w->wait_depth = 0;
    w->wait_deep = false;
    w->deep_below = UINTPTR_MAX; /* hive_worker_main sets it, on its core */
    w->forkjoin_floor = 0;
    w->moved_from = w->moved_to = 0;
    w->searching = false;
    /* No check runs between runs (hive_port_backstop drops a pending one):
     * this run's first push that wakes nobody arms its own. relaxed: read
     * by the worker, whose start hive_port_run_on_cores orders after this. */
    atomic_store_explicit(&w->backstop_armed, false, memory_order_relaxed);
    w->watch = hive_scheduler.watchdog_ns != 0;
    uint64_t s = t0 + (uint64_t)(id + 1) * 0x9E3779B97F4A7C15u;
    w->rng[0] = (uint32_t)(s >> 32) | 1u; /* never all zero */
    w->rng[1] = (uint32_t)s;
    w->avg_task_ns = HIVE_GLOBAL_LATENCY_NS / HIVE_INTERVAL_INIT;
    w->tick_start_ns = t0; /* core 0's; the others read their clock as they start */
    w->tick_tasks = 0;
    w->stats = (struct hive_core_stats){0};
    w->latent.newest = w->latent.floor = NULL;
    w->latent.idle_state = &hive_scheduler.idle.state;
    w->latent.all_busy = hive_idle_all_busy(hive_scheduler.workers);
    w->latent.inline_joins = 0;
    w->credits = 0;
    /* One worker: nobody steals (only workers do; interrupt handlers and
     * other threads push to the global queue). */
    hive_core_queues_reset(&w->queues, id, hive_scheduler.workers == 1);
}

/* A group task left queued at the end of the run: dropped unrun (see the
 * top). Its group is not touched; it may be gone. */
static void drop_unwaited(struct hive_task *t)
{
    if (hive_pool_task_drop(t))
        return;
    /* release: pairs with the acquire CAS of the task's next spawn, as the
     * store or exchange of IDLE before a task runs does (run_task.c). A
     * group's task: no refusal of it promised a run (hive.h). */
    atomic_store_explicit(&t->state, HIVE_TASK_IDLE, memory_order_release);
}

void hive_run_drop_unwaited(struct hive_task *t)
{
    drop_unwaited(t);
    /* relaxed: read by hive_run after its workers have left. */
    atomic_fetch_add_explicit(&hive_scheduler.unwaited, 1, memory_order_relaxed);
}

/* After the run: whatever is still queued on a core (spawned from outside after
 * the run's last task finished) moves to the global queue for the next run.
 * These pushes notify nobody (they do not go through publish.c): no worker
 * runs now, and the next run's workers look at the global queue when they
 * start. Group tasks are dropped instead; returns how many. */
static uint64_t move_leftovers(unsigned workers)
{
    uint64_t unwaited = 0;
    struct hive_task *t;
    for (unsigned i = 0; i < workers; i++) {
        struct hive_worker *w = &hive_workers[i];
        hive_core_queues_adopt(&w->queues); /* its worker has left */
        if (w->lifo) {
            hive_global_push(&hive_scheduler.global, w->lifo);
            w->lifo = NULL;
        }
        while ((t = hive_ring_pop(&w->queues.ring)))
            hive_global_push(&hive_scheduler.global, t);
        /* Group tasks only: a join frame is never left behind (its joiner
         * is a task of the run, which waited for it). */
        while ((t = hive_deque_pop(&w->queues.forkjoin))) {
            if (hive_task_is_group(t->kind)) {
                drop_unwaited(t);
                unwaited++;
            } else {
                hive_global_push(&hive_scheduler.global, t);
            }
        }
    }
    return unwaited;
}

int hive_run(void (*entry)(void *arg), void *arg, const struct hive_config *cfg)
{
    if (!entry)
        return HIVE_EINVAL;
    if (hive_port_in_interrupt() || hive_tls_worker)
        return HIVE_ESTATE;
    struct hive_config c = cfg ? *cfg : (struct hive_config){0};
    unsigned avail = hive_port_core_count();
    unsigned workers = c.cores ? c.cores : avail;
    unsigned imin = c.interval_min ? c.interval_min : HIVE_INTERVAL_MIN;
    unsigned imax = c.interval_max ? c.interval_max : HIVE_INTERVAL_MAX;
    if (workers == 0 || workers > avail || workers > HIVE_SCHED_MAX_CORES ||
        c.pool_size > HIVE_POOL_MAX || imin > imax ||
        (c.watchdog_ns && c.watchdog_ns < HIVE_WATCHDOG_MIN_NS))
        return HIVE_EINVAL;
    int phase = HIVE_PHASE_STOPPED;
    if (!atomic_compare_exchange_strong(&hive_scheduler.phase, &phase, HIVE_PHASE_STARTING))
        return HIVE_ESTATE;

    /* The entry's count, and an open run's hold (for hive_stop to give
     * back: until then the run cannot end however many tasks finish), come
     * first: then no late end of the last run is still under way ("Late
     * ends"). */
    hive_outstanding_add(NULL);
    if (c.until_stopped)
        hive_outstanding_add(NULL);
    atomic_thread_fence(memory_order_seq_cst); /* pairs with hive_outstanding_sub_anywhere's */
    /* acquire: pairs with the release decrement in
     * hive_outstanding_sub_anywhere. Rarely waits: only for a caller
     * inside it (between its count in `ending` and its release), which
     * then ends its call without waiting for anything - whether or not its
     * decrement ended a run (model/run_end.pml shows both). */
    while (atomic_load_explicit(&hive_scheduler.ending, memory_order_acquire) != 0)
        hive_port_cpu_relax();

    hive_scheduler.workers = workers;
    hive_scheduler.interval_min = imin;
    hive_scheduler.interval_max = imax;
    hive_scheduler.park_timeout_ns = c.park_timeout_ns;
    hive_scheduler.watchdog_ns = c.watchdog_ns;
    hive_idle_init(&hive_scheduler.idle, workers);
    uint64_t t0 = hive_port_now_ns();
    for (unsigned i = 0; i < workers; i++)
        worker_reset(&hive_workers[i], i, t0);
    hive_watchdog_setup(workers, t0);
    HIVE_TRACE_RUN_BEGIN(workers);
    /* A check every quarter of the limit: a stuck task is reported between
     * limit and 1.25 limit after it began (watchdog.c). */
    hive_port_watch(c.watchdog_ns / 4, hive_watchdog_check);
    /* relaxed, these and the setup's stores below but open's and the
     * phase's: the seq_cst store of RUNNING publishes them (release) to
     * whoever sees the run begin - the workers, whose start the port also
     * orders after it, and outside spawners, which load the phase before
     * they notify (hive_publish_global; they count first, which the setup
     * does not touch). Where a seq_cst store is a locked
     * instruction, one each was a third of an empty run. */
    atomic_store_explicit(&hive_scheduler.done, false, memory_order_relaxed);
    atomic_store_explicit(&hive_scheduler.unwaited, 0, memory_order_relaxed);
    atomic_store_explicit(&hive_scheduler.injected, 0, memory_order_relaxed);
    hive_pool_configure(c.pool_size ? c.pool_size : HIVE_POOL_DEFAULT);

    entry_fn = entry;
    entry_arg = arg;
    entry_task.fn = entry_run;
    entry_task.group = NULL;
    entry_task.kind = HIVE_TASK_ENTRY;
    atomic_store_explicit(&entry_task.state, HIVE_TASK_QUEUED, memory_order_relaxed);
    hive_workers[0].lifo = &entry_task;
    /* release, not relaxed: hive_stop may come from another thread before
     * the run goes RUNNING; its exchange (acquire) that reads true then sees
     * the hold's add above, so its decrement follows the add. */
    atomic_store_explicit(&hive_scheduler.open, c.until_stopped, memory_order_release);

    /* seq_cst: publishes all of the above to the workers (run_on_cores also
     * does) and to outside spawners that check the phase. */
    atomic_store(&hive_scheduler.phase, HIVE_PHASE_RUNNING);
    /* Pairs with the fence after a global push in hive_publish_global: either that
     * spawner sees RUNNING and notifies, or the workers, which look at the
     * global queue after this, see its task. */
    atomic_thread_fence(memory_order_seq_cst);
    hive_port_run_on_cores(workers, hive_worker_main, NULL);
    hive_port_watch(0, NULL);
    /* release, this and STOPPED's: what the run did is published to whoever
     * loads the phase after it (a trace dump, the next hive_run's CAS). No
     * store-then-load handshake hangs on them as on RUNNING's: a spawner
     * that sees STOPPING leaves its task queued for the next run, whose
     * workers look at the global queue as they start. */
    atomic_store_explicit(&hive_scheduler.phase, HIVE_PHASE_STOPPING, memory_order_release);
    /* Only a stopped open run ends: the hold is given back by now. */
    HIVE_CHECK(!atomic_load(&hive_scheduler.open), "an open run ended without hive_stop");
    /* The run ended at zero, which the credits are part of. */
    for (unsigned i = 0; i < workers; i++)
        HIVE_CHECK(hive_workers[i].credits == 0, "a run ended while a core held credits");

    uint64_t elapsed = hive_port_now_ns() - t0;
    uint64_t unwaited = move_leftovers(workers) + atomic_load(&hive_scheduler.unwaited);
    hive_stats_collect(elapsed, unwaited);
    HIVE_TRACE_RUN_END();
    atomic_store_explicit(&hive_scheduler.phase, HIVE_PHASE_STOPPED, memory_order_release);
    return unwaited ? HIVE_EUNWAITED : HIVE_OK;
}

int hive_stop(void)
{
    /* The exchange makes one caller the one that gives the hold back, even
     * when a task, an interrupt handler and an outside thread race. It reads
     * open only while the run holds it: hive_run sets open before the run
     * goes RUNNING, and open is cleared only here. */
    /* Counted as deferred from before open is cleared until the hold is
     * given back: a stopper held up in between (a preempted thread) leaves
     * the run idle, not stalled, to the watchdog (open = false, count 1).
     * relaxed (the three): as spawn.c's deferred counts, the watchdog needs
     * them to hold for a whole limit, not any order. */
    atomic_fetch_add_explicit(&hive_scheduler.deferred, 1, memory_order_relaxed);
    if (!atomic_exchange(&hive_scheduler.open, false)) {
        atomic_fetch_sub_explicit(&hive_scheduler.deferred, 1, memory_order_relaxed);
        return HIVE_ESTATE;
    }
    hive_outstanding_sub_anywhere(1); /* the hold: ends the run if nothing else is left */
    atomic_fetch_sub_explicit(&hive_scheduler.deferred, 1, memory_order_relaxed);
    return HIVE_OK;
}

bool hive_in_task(void)
{
    return hive_self() != NULL;
}

int hive_worker_id(void)
{
    struct hive_worker *w = hive_self();
    return w ? (int)w->id : -1;
}

unsigned hive_worker_count(void)
{
    return hive_scheduler.workers;
}

int hive_core_id(void)
{
    unsigned id = hive_port_core_id();
    return id == HIVE_PORT_NOT_A_CORE ? -1 : (int)id;
}

unsigned hive_core_count(void)
{
    return hive_port_core_count();
}
