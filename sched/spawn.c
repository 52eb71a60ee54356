/*
 * hive_spawn and hive_spawn_fn: where a new task goes.
 *
 * In task context (a worker core, not in an interrupt handler) the task goes
 * into the core's LIFO slot; the slot's previous task moves to the core's run
 * queue, and that makes work stealable, so it is followed by the notify of
 * sched/idle.c (rule 1). From anywhere else - the boot code before or after a
 * run, a core or thread that is not a worker, an interrupt handler - it goes
 * to the global injection queue, which is interrupt-safe; an interrupt handler
 * never touches the interrupted core's ring or LIFO slot.
 *
 * A task's state word makes a second spawn of a still-queued task fail with
 * HIVE_EBUSY before anything is touched: IDLE -> QUEUED is one CAS, and the
 * worker puts IDLE back just before calling fn (for a counted task with an
 * exchange: below).
 *
 * EBUSY promises the caller that the queued run will see what it wrote
 * before the spawn (one task drains all that came: hive/irq.h, the guide).
 * Both sides write the state with a read-modify-write: the refusal marks it
 * (QUEUED -> QUEUED | REFUSED, a CAS with release, even where the mark is
 * on already), the worker takes it back to IDLE with an exchange (acquire,
 * run_task.c) before fn reads the data. Read-modify-writes of one word are
 * totally ordered and each reads the one before it: if the mark comes
 * first, the exchange reads it or a later refusal's mark (a release
 * sequence: every write of a queued counted task's state is a
 * read-modify-write), so fn sees the caller's writes; if the exchange
 * comes first, the mark's CAS finds IDLE, fails, and the spawn claims the
 * task again. With a plain
 * store of IDLE this was a store-then-load handshake, which needed a
 * seq_cst fence on each side (without them the store-buffering outcome -
 * the spawner sees QUEUED, fn sees the old data, and the event waits for
 * the next one - was seen on the host, a few times in 10^6 refused
 * spawns); the exchange costs less than the store and the fence (10^6
 * spawns on the host, 64-byte records: 41 -> 32 ms at 1 worker, 33 -> 25.5
 * at 2; x86 serialises either way, the fence waits longer).
 *
 * The queued run a refusal counts on may be called off: hive_after claims
 * the task before it has a timer and gives it back if it gets none, and
 * hive_after_cancel gives back a task whose timer has not fired. A refused
 * hive_spawn therefore marks the state (QUEUED | REFUSED), and a claim given
 * back with the mark on is queued after all, as a spawn: no refused caller
 * waits for a run that never comes. The worker's exchange of IDLE reads the
 * mark (above) and clears it; a claim given back reads it in its CAS. Only
 * hive_spawn's refusal marks: it asked for a run now. A refused hive_after asked for one
 * at a deadline, and a cancel that ran the task at once would run it before
 * any deadline anyone set (a timeout that fires on its disarm); a refused
 * group spawn promises nothing (hive.h).
 *
 * hive_spawn_or_run: instead of queueing, it may call fn at once on the
 * caller's stack (hive_run_at_once), as OpenMP's task may; a spawner that
 * outruns the cores taking its tasks then runs the surplus itself, and its
 * queues stay bounded. When, decided by the LIFO slot (taken: a spawn
 * would push to the ring), the ring's fill and the idle word (one relaxed
 * load of a line nobody writes while all cores are busy):
 *   - a full ring (where hive_spawn sends half of it to the global queue)
 *     while no core wants work: at once;
 *   - a full ring while some core wants work: hive_spawn's spill, half of
 *     the ring to the global queue with a wake - a batch for the idle core;
 *   - a ring that holds tasks while every core is awake and some search:
 *     at once - the searchers can steal what the ring holds;
 *   - otherwise (an empty ring, or a parked core, which the push wakes, or
 *     all busy with room in the ring) hive_spawn's queueing.
 * The third rule is measured (10^6 spawns of an empty task, 2 workers, the
 * host): with the first two alone the searching core took each push as it
 * came, 2-8 tasks a steal and up to 370,000 steals, so the ring never filled
 * and the spawner queued every task, pushes and steals moving the ring's
 * lines between the cores: 29-83 ms in most processes on a busy machine
 * (1 worker: 5 ms). With it 6.2-13 ms, now and then 28 ms; with tasks of
 * 30-350 ns 2 workers stay 1.3-1.5 times as fast as 1, as hive_spawn's.
 * Every look is a hint: a stale answer queues a task that could have run
 * here, spills once for nothing, or runs a task here that an idle core
 * could have run - never loses one. A core parked beside the ring
 * meanwhile is the own pushes' case (publish.c): each of the ring's tasks
 * was pushed with its notify, and the backstop wakes a core that missed
 * one; running a task at once pushes nothing.
 * The look at the state is one acquire load: a task seen idle is, for that
 * instant, as a queued task whose fn has begun - anyone may spawn it again -
 * so nothing needs claiming, and no refusal can be pending (refusals see it
 * queued). A task seen queued goes to hive_spawn, for its refusal and
 * promise. Not in a wait deep in the stack (join.c, "Waiting": the lower
 * half of the stack is kept for a core's own work), nor outside task
 * context, where hive_spawn queues as always.
 */
#include "sched/sched.h"

#include "sched/sched_internal.h"

/* hive_spawn_claim, and for hive_spawn (promise) the refusal's mark. */
static int claim(struct hive_task *task, void (*fn)(struct hive_task *task), bool promise)
{
    if (!task || !fn)
        return HIVE_EINVAL;
    for (;;) {
        unsigned state = HIVE_TASK_IDLE;
        /* acquire: pairs with the release exchange or store of IDLE when the
         * task last ran (run_task.c) or was given back, so that run's reads
         * of fn and group happen before our writes. relaxed on failure: a
         * refusal promises nothing by this look; its mark below does. */
        if (atomic_compare_exchange_strong_explicit(&task->state, &state, HIVE_TASK_QUEUED,
                                                    memory_order_acquire, memory_order_relaxed))
            break;
        /* Still queued: refused. Only hive_spawn's refusal promises a run
         * that sees our caller's writes (the top). */
        if (!promise)
            return HIVE_EBUSY;
        /* The mark, also where another refusal marked it already: this
         * read-modify-write is what hands our caller's writes to the run
         * (the top), and to a claim called off instead of queued
         * (hive_spawn_unclaim, hive_spawn_cancel), which must queue the task
         * after all. release: pairs with the run's acquire exchange and
         * with the give-back's acquire. relaxed on failure: the state moved
         * - the run took it back to IDLE (claim it again), or another
         * refusal marked it (mark it over) - and the loop looks again. */
        if (atomic_compare_exchange_strong_explicit(&task->state, &state,
                                                    state | HIVE_TASK_REFUSED,
                                                    memory_order_release, memory_order_relaxed))
            return HIVE_EBUSY;
    }
    task->fn = fn;
    task->group = NULL;
    task->kind = HIVE_TASK_COUNTED;
    return HIVE_OK;
}

int hive_spawn_claim(struct hive_task *task, void (*fn)(struct hive_task *task))
{
    return claim(task, fn, false);
}

/* Give a claimed, never queued task back: idle again if no spawn of it was
 * refused while it was claimed. Else it stays claimed and the answer is
 * false: that refusal was promised a run (the top), so the caller queues the
 * task after all. */
static bool give_back(struct hive_task *task)
{
    unsigned state = HIVE_TASK_QUEUED;
    /* release: pairs with the acquire CAS of the task's next claimer.
     * acquire on failure: pairs with the refusal's release mark, whose
     * writes the push that queues the task then carries on (the run's own
     * exchange reads the mark too: the top). */
    return atomic_compare_exchange_strong_explicit(&task->state, &state, HIVE_TASK_IDLE,
                                                   memory_order_release, memory_order_acquire);
}

/*
 * The halves of sched/sched.h are for a task promised now and queued later
 * (hive_after): between hive_spawn_count and hive_spawn_queue (or the
 * cancel that calls it off) it is also counted as deferred, so that the
 * watchdog can tell a run that waits for a timer from a stalled one.
 * relaxed (all three): the watchdog needs the count to hold for a whole
 * limit, over several checks, not any order against the task itself.
 */
void hive_spawn_count(void)
{
    /* Deferred first, as every step here covers the gap it opens (the
     * watchdog, sched/watchdog.c, "Stalls"). */
    atomic_fetch_add_explicit(&hive_scheduler.deferred, 1, memory_order_relaxed);
    hive_outstanding_add(NULL);
}

static void uncount(void)
{
    hive_outstanding_sub_anywhere(1);
    atomic_fetch_sub_explicit(&hive_scheduler.deferred, 1, memory_order_relaxed);
}

/* Make a counted task visible to the cores that may run it. */
static void publish(struct hive_worker *w, struct hive_task *task)
{
    if (w)
        hive_publish_spawn(w, task);
    else
        hive_publish_global(task);
}

/* Count the task, then publish it: counted before any core can run it and
 * count it off. From outside the run's workers the two are also counted as
 * deferred, as a promised hive_after is: a thread can be held up between
 * them (preempted, on the host) while every core is parked, the count above
 * zero and nothing queued - which the watchdog would take for a stall.
 * relaxed (both): the watchdog needs the count to hold for a whole limit,
 * over several checks, not any order against the task. */
static void queue(struct hive_task *task)
{
    struct hive_worker *w = hive_self();
    if (w) {
        hive_outstanding_add(w);
        hive_publish_spawn(w, task);
        return;
    }
    atomic_fetch_add_explicit(&hive_scheduler.deferred, 1, memory_order_relaxed);
    hive_outstanding_add(NULL);
    hive_publish_global(task);
    atomic_fetch_sub_explicit(&hive_scheduler.deferred, 1, memory_order_relaxed);
}

void hive_spawn_queue(struct hive_task *task)
{
    publish(hive_self(), task);
    atomic_fetch_sub_explicit(&hive_scheduler.deferred, 1, memory_order_relaxed);
}

int hive_spawn_unclaim(struct hive_task *task)
{
    if (give_back(task))
        return HIVE_OK;
    queue(task);
    return HIVE_EBUSY;
}

int hive_spawn_cancel(struct hive_task *task)
{
    if (give_back(task)) {
        /* Idle before uncounted: the uncount may end the run, and the code
         * after hive_run may spawn the task again at once. */
        uncount();
        return HIVE_OK;
    }
    /* Counted already: the count the timer held is the queued task's now. */
    hive_spawn_queue(task);
    return HIVE_EBUSY;
}

int hive_spawn(struct hive_task *task, void (*fn)(struct hive_task *task))
{
    int err = claim(task, fn, true);
    if (err != HIVE_OK)
        return err;
    queue(task);
    return HIVE_OK;
}

int hive_spawn_or_run(struct hive_task *task, void (*fn)(struct hive_task *task))
{
    struct hive_worker *w = hive_self();
    char here;
    /* It may run the task, which may wait: checked at every call, not only
     * when the queues happen to be full (as hive_group_spawn's). */
    if (w)
        HIVE_CHECK_MAY_BLOCK(w->spin_held_at_start);
    if (!w || !w->lifo || !task || !fn)
        return hive_spawn(task, fn);
    /* At once or not: the rules at the top. */
    uint32_t fill = hive_ring_fill(&w->queues.ring);
    if (fill == 0)
        return hive_spawn(task, fn);
    /* relaxed: a hint (the top). */
    uint64_t idle = atomic_load_explicit(&hive_scheduler.idle.state, memory_order_relaxed);
    bool at_once;
    if (fill >= HIVE_RING_CAP)
        at_once = idle == w->latent.all_busy;
    else
        at_once = hive_idle_searching(idle) != 0 &&
                  hive_idle_unparked(idle) == hive_scheduler.workers;
    /* acquire: pairs with the release store or exchange of IDLE by the
     * task's last run (run_task.c) or give-back, as the claim's CAS does. */
    if (!at_once || (uintptr_t)&here < w->deep_below ||
        atomic_load_explicit(&task->state, memory_order_acquire) != HIVE_TASK_IDLE)
        return hive_spawn(task, fn);
    hive_run_at_once(w, task, fn);
    return HIVE_OK;
}

int hive_spawn_fn(void (*fn)(void *arg), void *arg)
{
    if (!fn)
        return HIVE_EINVAL;
    struct hive_task *t = hive_pool_get(fn, arg);
    if (!t)
        return HIVE_ENOMEM;
    queue(t);
    return HIVE_OK;
}
