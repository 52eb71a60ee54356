/*
 * The run-queue stress (interface and roles: queue_stress.h).
 *
 * Only the queues under test synchronize task handoff. The harness's own
 * shared state is: per-id run counters (relaxed fetch_add: each id is its own
 * witness), per-creator free stacks that return task objects to the core that
 * creates tasks (release CAS push / acquire exchange), and a global count of
 * runs that tells everyone when to stop.
 */
#include "tests/stress/queue_stress.h"

#include <stdatomic.h>
#include <stdbool.h>

#include "sched/port.h"
#include "sched/steal.h"

#define OWNER_POOL 8192u  /* objects the owner cycles through: > 2 rings' worth */
#define PRODUCER_POOL 512u
#define RECYCLE_BATCH 32u /* objects returned to a creator per CAS */
#define FLUSH_RUNS 256u   /* runs counted locally before the shared count */
#define MAX_CREATORS (1 + HIVE_STRESS_MAX_PRODUCERS)
/* No run anywhere for this long while tasks are missing: give up and report
 * them lost rather than hang until the test runner's timeout. */
#define STALL_NS 10000000000ull
#define ALIGN_UP(x) (((x) + HIVE_CACHE_LINE - 1) & ~(size_t)(HIVE_CACHE_LINE - 1))

struct stress_task {
    struct hive_task t;
    unsigned long id;
    unsigned long payload; /* plain field: published only by the queues */
    unsigned creator;
    bool in_forkjoin; /* pushed into the owner's fork-join deque */
};

struct recycle_buf {
    struct stress_task *first, *last;
    unsigned n;
};

struct stress_ctx;

struct stress_core {
    _Alignas(HIVE_CACHE_LINE) struct stress_ctx *ctx;
    unsigned core;
    uint32_t rng;
    unsigned long runs_unflushed;
    struct hive_stress_report rep;           /* this core's counts */
    struct hive_core_stats stats;              /* what hive_steal_from and hive_take_global count */
    struct recycle_buf recycle[MAX_CREATORS]; /* run objects bound for their creators */
    struct stress_task *free_local;          /* creator only: objects ready to reuse */
};

struct creator {
    _Alignas(HIVE_CACHE_LINE) _Atomic(struct stress_task *) free_stack;
    unsigned long id_next, id_end;
};

struct stress_ctx {
    struct hive_core_queues *q; /* one per core */
    struct hive_global global;
    const struct hive_stress_config *cfg;
    unsigned cores;
    unsigned long tasks;
    _Atomic unsigned char *counts;
    struct stress_core *core;
    struct creator creator[MAX_CREATORS];
    _Alignas(HIVE_CACHE_LINE) _Atomic unsigned long runs;
    _Atomic bool stop; /* set by core 0 on a stall */
    _Atomic unsigned long doubled;
    _Atomic unsigned long bad_payload;
    _Alignas(HIVE_CACHE_LINE) _Atomic unsigned ready;
    _Atomic unsigned finished;
};

/* The task function needs the run's context; one stress runs at a time. */
static struct stress_ctx *current;

/* The task header is the first member; this also maps NULL to NULL. */
static struct hive_task *as_task(struct stress_task *task)
{
    return (struct hive_task *)task;
}

static unsigned long payload_of(unsigned long id, uint32_t seed)
{
    return (id * 0x9E3779B97F4A7C15ull) ^ seed;
}

static uint32_t next_rand(struct stress_core *c)
{
    uint32_t x = c->rng; /* xorshift32 */
    x ^= x << 13;
    x ^= x >> 17;
    x ^= x << 5;
    return c->rng = x;
}

static void task_fn(struct hive_task *t)
{
    struct stress_task *task = (struct stress_task *)t;
    struct stress_ctx *ctx = current;
    if (task->id >= ctx->tasks || task->payload != payload_of(task->id, ctx->cfg->seed)) {
        /* relaxed: a counter read after every core has finished. */
        atomic_fetch_add_explicit(&ctx->bad_payload, 1, memory_order_relaxed);
        return;
    }
    /* relaxed: the counter itself is the witness; read after the run. */
    if (atomic_fetch_add_explicit(&ctx->counts[task->id], 1, memory_order_relaxed) != 0)
        /* relaxed: as above. */
        atomic_fetch_add_explicit(&ctx->doubled, 1, memory_order_relaxed);
}

static void idle(struct stress_ctx *ctx)
{
    if (ctx->cfg->idle)
        ctx->cfg->idle(ctx->cfg->user);
    else
        hive_port_cpu_relax();
}

static void flush_recycle(struct stress_ctx *ctx, struct recycle_buf *b, unsigned creator)
{
    if (!b->n)
        return;
    _Atomic(struct stress_task *) *top = &ctx->creator[creator].free_stack;
    /* relaxed: the CAS below validates it. */
    struct stress_task *old = atomic_load_explicit(top, memory_order_relaxed);
    do
        b->last->t.next = as_task(old);
    /* release: pairs with the creator's acquire exchange; our reads of the
     * objects are done before it reuses them. relaxed on failure: retry. */
    while (!atomic_compare_exchange_weak_explicit(top, &old, b->first, memory_order_release,
                                                  memory_order_relaxed));
    b->first = b->last = NULL;
    b->n = 0;
}

static void flush_all(struct stress_core *c)
{
    struct stress_ctx *ctx = c->ctx;
    for (unsigned i = 0; i < MAX_CREATORS; i++)
        flush_recycle(ctx, &c->recycle[i], i);
    if (c->runs_unflushed) {
        /* relaxed: only counts; the stop decision needs no data from it. */
        atomic_fetch_add_explicit(&ctx->runs, c->runs_unflushed, memory_order_relaxed);
        c->runs_unflushed = 0;
    }
}

static bool all_done(struct stress_ctx *ctx)
{
    /* relaxed (both): see flush_all; >= so that a task run twice cannot keep
     * everyone spinning. */
    return atomic_load_explicit(&ctx->runs, memory_order_relaxed) >= ctx->tasks ||
           atomic_load_explicit(&ctx->stop, memory_order_relaxed);
}

static void run(struct stress_core *c, struct hive_task *t)
{
    struct stress_task *task = (struct stress_task *)t;
    unsigned creator = task->creator;
    t->fn(t);
    c->rep.executed++;
    if (++c->runs_unflushed >= FLUSH_RUNS)
        flush_all(c);
    if (creator == 0 && c->core == 0) {
        /* The owner's own object: straight back to its local list. */
        task->t.next = as_task(c->free_local);
        c->free_local = task;
        return;
    }
    struct recycle_buf *b = &c->recycle[creator];
    task->t.next = NULL;
    if (b->last)
        b->last->t.next = &task->t;
    else
        b->first = task;
    b->last = task;
    if (++b->n >= RECYCLE_BATCH)
        flush_recycle(c->ctx, b, creator);
}

/* A fresh task for `creator` (running on core c), or NULL if none is free. */
static struct stress_task *new_task(struct stress_core *c, unsigned creator)
{
    struct stress_ctx *ctx = c->ctx;
    struct creator *cr = &ctx->creator[creator];
    if (cr->id_next == cr->id_end)
        return NULL;
    if (!c->free_local)
        /* acquire: pairs with the release CAS in flush_recycle. */
        c->free_local = atomic_exchange_explicit(&cr->free_stack, NULL, memory_order_acquire);
    struct stress_task *task = c->free_local;
    if (!task)
        return NULL;
    c->free_local = (struct stress_task *)task->t.next;
    task->id = cr->id_next++;
    task->payload = payload_of(task->id, ctx->cfg->seed);
    task->creator = creator;
    task->in_forkjoin = false;
    task->t.fn = task_fn;
    task->t.next = NULL;
    return task;
}

/* Run t, which came from the global queue (the first of a pull). */
static void run_from_global(struct stress_core *c, struct hive_task *t)
{
    if (((struct stress_task *)t)->creator == 0)
        c->rep.owner_via_global++;
    run(c, t);
}

/* A pull as the worker makes it (sched/find_work.c): a batch when the
 * core's ring is empty, its rest pushed there in order (where thieves may
 * take it); else one task. */
static struct hive_task *take_global(struct stress_core *c)
{
    struct stress_ctx *ctx = c->ctx;
    struct hive_ring *ring = &ctx->q[c->core].ring;
    struct hive_task *rest = NULL;
    struct hive_task *t =
        hive_take_global(&ctx->global, ctx->cores, hive_ring_len(ring) ? NULL : &rest, &c->stats);
    if (!hive_ring_push_list(ring, rest, HIVE_GLOBAL_PULL_MOST)) {
        while (rest) {
            struct hive_task *next = rest->next; /* before the push: a thief may take it */
            hive_ring_push(ring, rest, &ctx->global);
            rest = next;
        }
    }
    if (t)
        c->rep.global_pulls++;
    return t;
}

static void owner_body(struct stress_core *c)
{
    struct stress_ctx *ctx = c->ctx;
    struct creator *cr = &ctx->creator[0];
    struct hive_core_queues *own = &ctx->q[0];
    unsigned long seen = 0;
    uint64_t since = hive_port_now_ns();
    while (!all_done(ctx)) {
        bool did = false;
        /* Mostly short bursts, pushing a little more than is popped so the
         * queues stay populated for thieves; one in eight is long enough to
         * overflow the ring (or fill the deque), often while a steal is in
         * flight. One burst in four goes to the fork-join deque. */
        uint32_t r = next_rand(c);
        unsigned burst = (r & 7) == 0 ? HIVE_RING_CAP + (r >> 8) % 512 : (r >> 8) % 160;
        bool to_deque = (r & 0x300) == 0;
        for (unsigned i = 0; i < burst; i++) {
            struct stress_task *task = new_task(c, 0);
            if (!task)
                break;
            did = true;
            if (!to_deque) {
                hive_ring_push(&own->ring, &task->t, &ctx->global);
                continue;
            }
            task->in_forkjoin = true;
            if (hive_deque_push(&own->forkjoin, &task->t)) {
                c->rep.inline_runs++;
                run(c, &task->t);
            }
        }
        /* Now and then let the thieves in even when cores are scarce (the
         * host's are shared): they find populated queues to steal from. */
        if ((r & 0x70) == 0)
            idle(ctx);
        unsigned pops = (next_rand(c) >> 8) % (cr->id_next == cr->id_end ? 4096 : 120);
        for (unsigned i = 0; i < pops; i++) {
            struct hive_task *t;
            if ((t = hive_deque_pop(&own->forkjoin)) || (t = hive_ring_pop(&own->ring))) {
                run(c, t);
            } else if ((t = take_global(c))) {
                run_from_global(c, t);
            } else {
                break;
            }
            did = true;
        }
        if (!did) {
            flush_all(c);
            idle(ctx);
            /* relaxed: see flush_all. */
            unsigned long now_runs = atomic_load_explicit(&ctx->runs, memory_order_relaxed);
            uint64_t now = hive_port_now_ns();
            if (now_runs != seen) {
                seen = now_runs;
                since = now;
            } else if (now - since > STALL_NS) {
                /* relaxed: a stop hint; the final counts are read after the
                 * finished counter's acquire. */
                atomic_store_explicit(&ctx->stop, true, memory_order_relaxed);
            }
        }
    }
}

/* The worker's steal loop: every other core once, from `start` round. */
static struct hive_task *steal_round(struct stress_core *c, unsigned start)
{
    struct stress_ctx *ctx = c->ctx;
    unsigned n = ctx->cores, me = c->core;
    for (unsigned i = 0; i < n; i++) {
        unsigned v = (start + i) % n;
        if (v == me)
            continue;
        struct hive_task *t = hive_steal_from(&ctx->q[v], &ctx->q[me], &c->stats);
        c->rep.steal_calls++;
        if (t) {
            c->rep.stolen++;
            if (((struct stress_task *)t)->in_forkjoin)
                c->rep.stolen_forkjoin++;
            return t;
        }
    }
    return NULL;
}

static void thief_body(struct stress_core *c)
{
    struct stress_ctx *ctx = c->ctx;
    struct hive_core_queues *own = &ctx->q[c->core];
    while (!all_done(ctx)) {
        struct hive_task *t = NULL;
        uint32_t r = next_rand(c);
        if ((r & 15) == 0) {
            /* Steal with work still queued here, several times running, so
             * this ring fills up while others steal from it: exercises the
             * room check against their in-flight copies. */
            for (unsigned k = (r >> 4) % 4; k-- > 0;) {
                struct hive_task *x = steal_round(c, next_rand(c) >> 8);
                if (!x)
                    break;
                if (t)
                    run(c, t);
                t = x;
            }
        }
        if (t) {
            run(c, t);
            continue;
        }
        if ((t = hive_ring_pop(&own->ring)) || (t = steal_round(c, r >> 8))) {
            run(c, t);
        } else if ((t = take_global(c))) {
            run_from_global(c, t);
        } else {
            flush_all(c);
            idle(ctx);
        }
    }
}

static void producer_body(struct stress_core *c, unsigned creator)
{
    struct stress_ctx *ctx = c->ctx;
    struct creator *cr = &ctx->creator[creator];
    while (cr->id_next != cr->id_end && !all_done(ctx)) {
        unsigned want = 1 + (next_rand(c) >> 8) % 24, n = 0;
        struct stress_task *first = NULL, *last = NULL, *task;
        while (n < want && (task = new_task(c, creator)) != NULL) {
            if (last)
                last->t.next = &task->t;
            else
                first = task;
            last = task;
            n++;
        }
        if (n == 0)
            idle(ctx); /* every object is queued or running: wait for returns */
        else if (n == 1)
            hive_global_push(&ctx->global, &first->t);
        else
            hive_global_push_batch(&ctx->global, &first->t, &last->t, n);
    }
}

static void core_body(void *arg)
{
    struct stress_core *c = arg;
    struct stress_ctx *ctx = c->ctx;
    unsigned thieves = ctx->cfg->thieves;
    /* Start together, so that thieves are there while the owner works. */
    /* relaxed: a rendezvous only; the setup was published by start_core. */
    atomic_fetch_add_explicit(&ctx->ready, 1, memory_order_relaxed);
    while (atomic_load_explicit(&ctx->ready, memory_order_relaxed) != ctx->cores)
        idle(ctx);
    if (c->core == 0)
        owner_body(c);
    else if (c->core <= thieves)
        thief_body(c);
    else
        producer_body(c, c->core - thieves);
    flush_all(c);
    /* release: pairs with the acquire load in hive_queue_stress; this core's
     * report and counters are final. */
    atomic_fetch_add_explicit(&ctx->finished, 1, memory_order_release);
}

struct layout {
    size_t ctx, cores, queues, tasks, counts, total;
};

static struct layout layout_of(unsigned thieves, unsigned producers, unsigned long tasks)
{
    unsigned cores = 1 + thieves + producers;
    unsigned long objects = OWNER_POOL + (unsigned long)producers * PRODUCER_POOL;
    struct layout l;
    l.ctx = 0;
    l.cores = ALIGN_UP(l.ctx + sizeof(struct stress_ctx));
    l.queues = ALIGN_UP(l.cores + cores * sizeof(struct stress_core));
    l.tasks = ALIGN_UP(l.queues + cores * sizeof(struct hive_core_queues));
    l.counts = ALIGN_UP(l.tasks + objects * sizeof(struct stress_task));
    l.total = ALIGN_UP(l.counts + tasks * sizeof(atomic_uchar));
    return l;
}

size_t hive_queue_stress_mem_size(unsigned thieves, unsigned producers, unsigned long tasks)
{
    return layout_of(thieves, producers, tasks).total;
}

int hive_queue_stress(const struct hive_stress_config *cfg, struct hive_stress_report *rep)
{
    unsigned cores = 1 + cfg->thieves + cfg->producers;
    if (cfg->thieves == 0 || cfg->producers > HIVE_STRESS_MAX_PRODUCERS ||
        cores > HIVE_MAX_CORES || !cfg->start_core || !cfg->mem ||
        ((uintptr_t)cfg->mem & (HIVE_CACHE_LINE - 1)) != 0)
        return -1;
    struct layout l = layout_of(cfg->thieves, cfg->producers, cfg->tasks);
    if (cfg->mem_size < l.total)
        return -1;

    unsigned char *mem = cfg->mem;
    struct stress_ctx *ctx = (struct stress_ctx *)(mem + l.ctx);
    struct stress_core *core = (struct stress_core *)(mem + l.cores);
    struct hive_core_queues *queues = (struct hive_core_queues *)(mem + l.queues);
    struct stress_task *objs = (struct stress_task *)(mem + l.tasks);

    ctx->cfg = cfg;
    ctx->cores = cores;
    ctx->tasks = cfg->tasks;
    ctx->core = core;
    ctx->counts = (_Atomic unsigned char *)(mem + l.counts);
    for (unsigned long i = 0; i < cfg->tasks; i++)
        atomic_init(&ctx->counts[i], 0);
    ctx->q = queues;
    for (unsigned i = 0; i < cores; i++)
        hive_core_queues_init_at(&queues[i], i, cfg->start_index);
    hive_global_init(&ctx->global);
    atomic_init(&ctx->runs, 0);
    atomic_init(&ctx->stop, false);
    atomic_init(&ctx->doubled, 0);
    atomic_init(&ctx->bad_payload, 0);
    atomic_init(&ctx->ready, 0);
    atomic_init(&ctx->finished, 0);

    /* Ids: the owner creates [0, own), producer j the j-th quarter/producers share. */
    unsigned long prod_total = cfg->producers ? cfg->tasks / 4 : 0;
    unsigned long own = cfg->tasks - prod_total, at = own;
    ctx->creator[0].id_next = 0;
    ctx->creator[0].id_end = own;
    for (unsigned j = 1; j <= cfg->producers; j++) {
        unsigned long share = prod_total / cfg->producers + (j <= prod_total % cfg->producers);
        ctx->creator[j].id_next = at;
        ctx->creator[j].id_end = at += share;
    }
    for (unsigned i = 0; i < cores; i++) {
        struct stress_core *c = &core[i];
        *c = (struct stress_core){0};
        c->ctx = ctx;
        c->core = i;
        c->rng = cfg->seed * 2654435761u + i * 40503u + 1;
        if (!c->rng)
            c->rng = 1;
    }
    /* Objects start on their creator's local list (owner: core 0; producer j:
     * core thieves + j). */
    struct stress_task *o = objs;
    for (unsigned j = 0; j <= cfg->producers; j++) {
        atomic_init(&ctx->creator[j].free_stack, NULL);
        struct stress_core *c = &core[j == 0 ? 0 : cfg->thieves + j];
        unsigned pool = j == 0 ? OWNER_POOL : PRODUCER_POOL;
        for (unsigned k = 0; k < pool; k++, o++) {
            o->t.next = as_task(c->free_local);
            c->free_local = o;
        }
    }

    current = ctx;
    for (unsigned i = 1; i < cores; i++)
        cfg->start_core(i, core_body, &core[i], cfg->user);
    core_body(&core[0]);
    /* acquire: pairs with the release increments in core_body. */
    while (atomic_load_explicit(&ctx->finished, memory_order_acquire) != cores)
        idle(ctx);

    struct hive_stress_report total = {0};
    for (unsigned i = 0; i < cores; i++) {
        struct hive_stress_report *r = &core[i].rep;
        total.executed += r->executed;
        total.stolen += r->stolen;
        total.steal_calls += r->steal_calls;
        total.stolen_forkjoin += r->stolen_forkjoin;
        total.global_pulls += r->global_pulls;
        total.owner_via_global += r->owner_via_global;
        total.inline_runs += r->inline_runs;
        if (hive_ring_len(&queues[i].ring) || hive_deque_len(&queues[i].forkjoin))
            total.not_empty++;
    }
    if (!hive_global_is_empty(&ctx->global))
        total.not_empty++;
    for (unsigned long i = 0; i < cfg->tasks; i++) {
        /* relaxed: every writer has finished (acquire above). */
        unsigned char n = atomic_load_explicit(&ctx->counts[i], memory_order_relaxed);
        if (n == 0)
            total.lost++;
    }
    /* relaxed: as above. */
    total.doubled = atomic_load_explicit(&ctx->doubled, memory_order_relaxed);
    total.bad_payload = atomic_load_explicit(&ctx->bad_payload, memory_order_relaxed);
    current = NULL;
    if (rep)
        *rep = total;
    bool ok = total.executed == cfg->tasks && total.lost == 0 && total.doubled == 0 &&
              total.bad_payload == 0 && total.not_empty == 0;
    return ok ? 0 : 1;
}
