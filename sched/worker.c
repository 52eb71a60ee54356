/*
 * The worker: one per core, the find-work loop, parking, and hive_run.
 *
 * find_work (seed 003's order):
 *   1. the prefetched global batch: tasks a global pull took beyond the one it
 *      ran, kept on this core in a private list, so work that waited in the
 *      global queue runs next instead of behind the whole ring;
 *   2. every `interval` polls: the global queue first (a new batch);
 *   3. the LIFO slot, at most HIVE_LIFO_MAX_POLLS (3) times in a row - the
 *      newest spawn runs next while it is cache-hot, but a task that keeps
 *      spawning into the slot cannot starve the ring: on the 4th poll the
 *      slot's task goes to the ring's tail and the ring's oldest runs;
 *   4. the core's fork-join deque (group tasks nobody waited for yet);
 *   5. the run queue (FIFO);
 *   6. become a searcher (at most half the workers search) and steal: from a
 *      random start victim (xorshift, Lemire reduction) round all others,
 *      skipping victims whose parked bit is set; from each, the fork-join
 *      deque's top first (one task: the largest piece of a divide-and-
 *      conquer tree), then half of its run queue;
 *   7. the global queue once more (a batch);
 *   8. park (sched/idle.c).
 *
 * A batch is min(global length / workers + 1, HIVE_GLOBAL_BATCH) tasks. Like
 * the LIFO slot it is invisible to thieves, which is why it is small and runs
 * first; it is empty whenever the core parks (step 1 comes first) and goes
 * back to the global queue when a run ends. (Measured on the host, 2 workers
 * busy with 50 us local tasks, one outside spawn every 200 us: with the batch
 * at the ring's tail instead, global tasks waited 6.9 ms on average, p99
 * 16 ms; with the private batch 0.43 ms, p99 1.1 ms - the 1 ms target.)
 *
 * Ticks and the budget: a tick is HIVE_BUDGET (128) tasks. At the end of a
 * tick the LIFO slot is flushed to the ring and the next poll goes to the
 * global queue first, so neither the ring nor the global queue waits more than
 * a tick behind a task that keeps spawning into the LIFO slot; and the tick's
 * mean task time feeds the EWMA (alpha 0.1) that sets the global interval:
 * interval = clamp(HIVE_GLOBAL_LATENCY_NS / avg_task_ns, min, max) polls, so a
 * globally queued task waits about 1 ms at most whatever the task size.
 *
 * The bounds, measured (host, 2 workers kept busy by 64 self-respawning local
 * tasks, an outside thread spawning every 200 us; global wait mean / p99):
 *   task     [1,1]         [8,128]         [61,61]        [32,1024]
 *   100 ns   0.8 / 4.6 us  13 / 34 us      5.6 / 14 us    13 / 32 us
 *   2 us     1.7 / 3.0 us  94 / 257 us     43 / 123 us    90 / 264 us
 *   50 us    11 / 18 us    427 / 1075 us   1985 / 3569 us 786 / 1566 us
 * Local throughput moved by 1% at most (an empty global queue costs one
 * load to poll). A max above 128 changes nothing: the end of each 128-task
 * tick polls the global queue anyway. Fixed 61 (Tokio) misses the target for
 * long tasks. [8,128] keeps every case near or under the 1 ms target while a
 * min of 8 keeps a steady global stream from taking every poll from the ring
 * (with min 1, tasks of 1 ms or more would poll the global queue first on
 * every poll). Defaults [8,128]; struct hive_config can set others.
 *
 * Termination: hive_g.outstanding counts tasks spawned and not finished
 * (hive_spawn(_fn) one each, and the entry; join halves and group tasks are
 * not counted: a counted task waits for them before it can finish). The
 * decrement that reaches zero sets `done` and wakes every core; workers leave
 * their loop at the next poll. Anything spawned from outside after that stays
 * queued for the next run (hive_run moves leftovers to the global queue).
 */
#include <stddef.h>

#include "sched/sched_internal.h"

struct hive_sched hive_g = {.global = HIVE_GLOBAL_INIT};
struct hive_worker hive_workers[HIVE_SCHED_MAX_CORES];
_Thread_local struct hive_worker *hive_tls_worker;

/* ---- small helpers ---------------------------------------------------------- */

static uint32_t rng_next(struct hive_worker *w)
{
    /* xorshift64+ on two 32-bit halves, shifts 17/7/16 (seed 003). */
    uint32_t s1 = w->rng[0];
    uint32_t s0 = w->rng[1];
    s1 ^= s1 << 17;
    s1 = s1 ^ s0 ^ (s1 >> 7) ^ (s0 >> 16);
    w->rng[0] = s0;
    w->rng[1] = s1;
    return s0 + s1;
}

/* Uniform in [0, n) without a division (Lemire). */
static unsigned rng_below(struct hive_worker *w, unsigned n)
{
    return (unsigned)(((uint64_t)rng_next(w) * n) >> 32);
}

static bool run_done(void)
{
    /* acquire: pairs with the seq_cst store in hive_outstanding_done; a
     * worker that sees it leaves, and hive_run's return orders the rest. */
    return atomic_load_explicit(&hive_g.done, memory_order_acquire);
}

void hive_worker_notify(struct hive_worker *w)
{
    if (hive_idle_notify(&hive_g.idle) >= 0 && w)
        w->st.wakes++;
}

/* Owner: queue t on this core's run queue (never run inline from a spawn:
 * a full queue spills to the global queue). */
static void ring_push(struct hive_worker *w, struct hive_task *t)
{
    if (hive_ring_push(&w->q.ring, t, &hive_g.global))
        w->st.overflows++;
}

void hive_worker_push_local(struct hive_worker *w, struct hive_task *t)
{
    struct hive_task *prev = w->lifo;
    w->lifo = t;
    w->st.spawned++;
    if (prev) {
        /* The evicted task becomes stealable: tell an idle core. A spawn into
         * an empty slot makes nothing stealable, so it wakes nobody. */
        ring_push(w, prev);
        hive_worker_notify(w);
    }
}

void hive_worker_push_global(struct hive_task *t)
{
    hive_global_push(&hive_g.global, t);
    /* seq_cst: read after our push; a run that is not RUNNING has no idle
     * protocol to notify (its workers poll the global queue when they start). */
    if (atomic_load(&hive_g.phase) == HIVE_PHASE_RUNNING) {
        /* relaxed: a statistic, read after the run. */
        atomic_fetch_add_explicit(&hive_g.injected, 1, memory_order_relaxed);
        hive_worker_notify(NULL);
    }
}

void hive_outstanding_done(void)
{
    if (atomic_fetch_sub(&hive_g.outstanding, 1) != 1)
        return;
    /* The run's last counted task finished: stop every worker. */
    atomic_store(&hive_g.done, true);
    struct hive_worker *self = hive_tls_worker;
    for (unsigned i = 0; i < hive_g.n; i++)
        if (!self || i != self->id)
            hive_port_wake(i);
}

/* Take a batch from the global queue: one task to run now, the rest into
 * this core's private batch (which is empty: find_local runs it first). */
static struct hive_task *global_pull(struct hive_worker *w)
{
    return hive_take_global(&hive_g.global, hive_g.n, &w->batch, &w->st);
}

/* ---- running a task ---------------------------------------------------------- */

void hive_worker_run_task(struct hive_worker *w, struct hive_task *t)
{
    w->st.tasks_run++;
    /* The task's floor: what it (and work nested in its waits) pushes lies at
     * or above today's bottom, what is below belongs to the frames under it
     * on this stack. A deep wait inside it pops no lower (join.c, "Waiting"). */
    uint32_t floor = w->fj_floor;
    w->fj_floor = hive_deque_bottom(&w->q.forkjoin);
    void (*fn)(struct hive_task *) = t->fn;
    if (fn == hive_join_frame_run) {
        /* A stolen join half: not counted, no state; its joiner waits. */
        fn(t);
        w->fj_floor = floor;
        return;
    }
    struct hive_group *g = t->group;
    /* release: pairs with the acquire CAS in hive_spawn / hive_group_spawn;
     * whoever spawns t again sees our reads of fn and group done. From here
     * on the header is the caller's again: fn may free or respawn it. */
    atomic_store_explicit(&t->state, HIVE_TASK_IDLE, memory_order_release);
    fn(t);
    w->fj_floor = floor;
    if (g)
        hive_group_task_done(g); /* uncounted: its waiter is (group.c) */
    else
        hive_outstanding_done();
}

/* ---- finding work ------------------------------------------------------------- */

static void tick_end(struct hive_worker *w, uint64_t now)
{
    if (w->tick_tasks) {
        uint64_t sample = (now - w->tick_start_ns) / w->tick_tasks;
        /* EWMA, alpha = 0.1 */
        w->avg_task_ns = (w->avg_task_ns * 9 + sample) / 10;
        if (w->avg_task_ns == 0)
            w->avg_task_ns = 1;
        uint64_t iv = HIVE_GLOBAL_LATENCY_NS / w->avg_task_ns;
        if (iv < hive_g.interval_min)
            iv = hive_g.interval_min;
        if (iv > hive_g.interval_max)
            iv = hive_g.interval_max;
        w->interval = (unsigned)iv;
    }
    w->tick_start_ns = now;
    w->tick_tasks = 0;
}

/* Local sources and the periodic global poll: steps 1-5. */
static struct hive_task *find_local(struct hive_worker *w)
{
    struct hive_task *t;
    if ((t = w->batch)) {
        w->batch = t->next;
        return t;
    }
    if (++w->polls >= w->interval) {
        w->polls = 0;
        if ((t = global_pull(w)))
            return t;
    }
    if ((t = w->lifo)) {
        w->lifo = NULL;
        if (w->lifo_polls < HIVE_LIFO_MAX_POLLS) {
            w->lifo_polls++;
            w->st.lifo_hits++;
            return t;
        }
        ring_push(w, t);
        hive_worker_notify(w);
    }
    w->lifo_polls = 0;
    /* hive_deque_len costs no fence (pop does), and for the owner 0 means empty. */
    if (hive_deque_len(&w->q.forkjoin) && (t = hive_deque_pop(&w->q.forkjoin)))
        return t;
    return hive_ring_pop(&w->q.ring);
}

static struct hive_task *steal(struct hive_worker *w)
{
    unsigned n = hive_g.n;
    if (n < 2)
        return NULL;
    unsigned start = rng_below(w, n);
    for (unsigned i = 0; i < n; i++) {
        unsigned v = start + i < n ? start + i : start + i - n;
        if (v == w->id || hive_idle_hint_parked(&hive_g.idle, v))
            continue;
        struct hive_task *t = hive_steal_from(&hive_workers[v].q, &w->q, &w->st);
        if (t)
            return t;
    }
    return NULL;
}

static struct hive_task *find_work(struct hive_worker *w)
{
    struct hive_task *t = find_local(w);
    if (!t) {
        if (!w->searching)
            w->searching = hive_idle_start_search(&hive_g.idle);
        if (w->searching)
            t = steal(w);
        if (!t)
            t = global_pull(w);
    }
    if (t && w->searching) {
        w->searching = false;
        /* Rule 2 of idle.c: the last searcher to find work wakes another. */
        if (hive_idle_stop_search(&hive_g.idle))
            hive_worker_notify(w);
    }
    return t;
}

struct hive_task *hive_worker_find_for_wait(struct hive_worker *w, int helpee)
{
    struct hive_task *t;
    bool deep = w->wait_depth > HIVE_JOIN_NEST_FREE;
    /* Deep: first this core's own entries above the running task's floor -
     * pushed by that task or by work nested in its waits, e.g. group tasks
     * a leapfrogged task spawned and left behind; nobody else may be able to
     * run them (join.c, "Waiting", has the argument). The owner's bottom is
     * exact, so the pop below takes index bottom-1 >= fj_floor or, if thieves
     * emptied the deque meanwhile, nothing: never an entry under the floor. */
    if (deep && (int32_t)(hive_deque_bottom(&w->q.forkjoin) - w->fj_floor) > 0 &&
        (t = hive_deque_pop(&w->q.forkjoin)))
        return t;
    if (helpee >= 0 && (unsigned)helpee != w->id && (unsigned)helpee < hive_g.n) {
        /* Leapfrogging: what the core that took our fb left in its deque is
         * part of fb, so running it cannot deepen our stack beyond fb's. */
        if ((t = hive_steal_forkjoin(&hive_workers[helpee].q, &w->st))) {
            w->st.steal_attempts++; /* counted when it took work only: it polls */
            return t;
        }
    }
    if (deep)
        return NULL;
    if ((t = find_local(w)))
        return t;
    if ((t = steal(w))) {
        /* A waiter steals without being a searcher, so no "last searcher"
         * hand-off covers the batch it just made stealable in its ring:
         * notify as any other enqueue does (idle.c, rule 1). */
        if (hive_ring_len(&w->q.ring))
            hive_worker_notify(w);
        return t;
    }
    return global_pull(w);
}

/* ---- parking ------------------------------------------------------------------ */

/* Is there work anywhere? The last searcher's rescan before it sleeps. */
static bool any_work(void)
{
    if (!hive_global_is_empty(&hive_g.global))
        return true;
    for (unsigned i = 0; i < hive_g.n; i++)
        if (hive_ring_len(&hive_workers[i].q.ring) || hive_deque_len(&hive_workers[i].q.forkjoin))
            return true;
    return false;
}

static void park(struct hive_worker *w)
{
    uint64_t now = hive_port_now_ns();
    tick_end(w, now);
    w->st.parks++;
    if (hive_idle_park(&hive_g.idle, w->id, w->searching) && any_work())
        hive_worker_notify(w); /* may claim and wake ourselves */
    w->searching = false;
    uint64_t timeout = hive_g.park_timeout_ns;
    uint64_t deadline = timeout ? now + timeout : 0;
    for (;;) {
        if (!hive_idle_is_parked(&hive_g.idle, w->id) || run_done())
            break;
        uint64_t left = 0;
        if (deadline) {
            now = hive_port_now_ns();
            if (now >= deadline)
                break;
            left = deadline - now;
        }
        hive_port_wait(left);
    }
    /* Rule 4 of idle.c: count ourselves awake and searching, whoever woke us. */
    hive_idle_unpark(&hive_g.idle, w->id);
    w->searching = true;
    w->tick_start_ns = hive_port_now_ns();
}

/* ---- the loop ------------------------------------------------------------------- */

static void worker_main(void *arg)
{
    (void)arg;
    unsigned id = hive_port_core_id();
    struct hive_worker *w = &hive_workers[id];
    hive_tls_worker = w;
    w->tick_start_ns = hive_port_now_ns();
    while (!run_done()) {
        struct hive_task *t = find_work(w);
        if (!t) {
            park(w);
            continue;
        }
        hive_worker_run_task(w, t);
        if (++w->tick_tasks >= HIVE_BUDGET) {
            tick_end(w, hive_port_now_ns());
            /* End of the tick: the LIFO slot yields to the ring, and the next
             * poll looks at the global queue first. */
            if (w->lifo) {
                ring_push(w, w->lifo);
                w->lifo = NULL;
                hive_worker_notify(w);
            }
            w->lifo_polls = 0;
            w->polls = w->interval;
        }
    }
    if (w->searching) {
        w->searching = false;
        hive_idle_stop_search(&hive_g.idle);
    }
    hive_tls_worker = NULL;
}

/* ---- hive_run ------------------------------------------------------------------- */

static struct hive_task entry_task;
static void (*entry_fn)(void *);
static void *entry_arg;

static void entry_run(struct hive_task *t)
{
    (void)t;
    entry_fn(entry_arg);
}

static void worker_reset(struct hive_worker *w, unsigned id, uint64_t seed)
{
    w->lifo = NULL;
    w->batch = NULL;
    w->id = id;
    w->lifo_polls = 0;
    w->polls = 0;
    w->interval = HIVE_INTERVAL_INIT;
    if (w->interval < hive_g.interval_min)
        w->interval = hive_g.interval_min;
    if (w->interval > hive_g.interval_max)
        w->interval = hive_g.interval_max;
    w->wait_depth = 0;
    w->fj_floor = 0;
    w->searching = false;
    uint64_t s = seed + (uint64_t)(id + 1) * 0x9E3779B97F4A7C15u;
    w->rng[0] = (uint32_t)(s >> 32) | 1u; /* never all zero */
    w->rng[1] = (uint32_t)s;
    w->avg_task_ns = HIVE_GLOBAL_LATENCY_NS / HIVE_INTERVAL_INIT;
    w->tick_start_ns = 0;
    w->tick_tasks = 0;
    w->st = (struct hive_core_stats){0};
    hive_core_queues_init_at(&w->q, 0);
}

/* After the run: whatever is still queued on a core (spawned from outside after
 * the run's last task finished) moves to the global queue for the next run. */
static void move_leftovers(unsigned n)
{
    struct hive_task *t;
    for (unsigned i = 0; i < n; i++) {
        struct hive_worker *w = &hive_workers[i];
        while ((t = w->batch)) {
            w->batch = t->next;
            hive_global_push(&hive_g.global, t);
        }
        if (w->lifo) {
            hive_global_push(&hive_g.global, w->lifo);
            w->lifo = NULL;
        }
        while ((t = hive_ring_pop(&w->q.ring)))
            hive_global_push(&hive_g.global, t);
        while ((t = hive_deque_pop(&w->q.forkjoin)))
            hive_global_push(&hive_g.global, t);
    }
}

int hive_run(void (*entry)(void *arg), void *arg, const struct hive_config *cfg)
{
    if (!entry)
        return HIVE_EINVAL;
    if (hive_port_in_interrupt() || hive_tls_worker)
        return HIVE_ESTATE;
    struct hive_config c = cfg ? *cfg : (struct hive_config){0};
    unsigned avail = hive_port_core_count();
    unsigned n = c.cores ? c.cores : avail;
    unsigned imin = c.interval_min ? c.interval_min : HIVE_INTERVAL_MIN;
    unsigned imax = c.interval_max ? c.interval_max : HIVE_INTERVAL_MAX;
    if (n == 0 || n > avail || n > HIVE_SCHED_MAX_CORES || c.pool_size > HIVE_POOL_MAX ||
        imin > imax)
        return HIVE_EINVAL;
    int phase = HIVE_PHASE_STOPPED;
    if (!atomic_compare_exchange_strong(&hive_g.phase, &phase, HIVE_PHASE_STARTING))
        return HIVE_ESTATE;

    hive_g.n = n;
    hive_g.interval_min = imin;
    hive_g.interval_max = imax;
    hive_g.park_timeout_ns = c.park_timeout_ns;
    hive_idle_init(&hive_g.idle, n);
    uint64_t t0 = hive_port_now_ns();
    for (unsigned i = 0; i < n; i++)
        worker_reset(&hive_workers[i], i, t0);
    atomic_store(&hive_g.done, false);
    atomic_store(&hive_g.injected, 0);
    hive_pool_configure(c.pool_size ? c.pool_size : HIVE_POOL_DEFAULT);

    entry_fn = entry;
    entry_arg = arg;
    entry_task.fn = entry_run;
    entry_task.group = NULL;
    atomic_store(&entry_task.state, HIVE_TASK_QUEUED);
    hive_outstanding_add();
    hive_workers[0].lifo = &entry_task;

    /* seq_cst: publishes all of the above to the workers (run_on_cores also
     * does) and to outside spawners that check the phase. */
    atomic_store(&hive_g.phase, HIVE_PHASE_RUNNING);
    hive_port_run_on_cores(n, worker_main, NULL);
    atomic_store(&hive_g.phase, HIVE_PHASE_STOPPING);

    uint64_t elapsed = hive_port_now_ns() - t0;
    move_leftovers(n);
    hive_stats_collect(elapsed);
    atomic_store(&hive_g.phase, HIVE_PHASE_STOPPED);
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
    return hive_g.n;
}

const char *hive_strerror(int err)
{
    switch (err) {
    case HIVE_OK: return "HIVE_OK";
    case HIVE_EINVAL: return "HIVE_EINVAL";
    case HIVE_EBUSY: return "HIVE_EBUSY";
    case HIVE_ENOMEM: return "HIVE_ENOMEM";
    case HIVE_ESTATE: return "HIVE_ESTATE";
    default: return "unknown";
    }
}
