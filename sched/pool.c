/*
 * The fixed per-core pools of task headers behind hive_spawn_fn.
 *
 * Each core has HIVE_POOL_MAX headers of static storage, of which the run's
 * pool_size are in use. Taking a header happens on the spawning core (a task,
 * the boot code, an interrupt handler), so the local free list sits behind an
 * interrupt-masking spinlock (hive/spinlock.h) - uncontended in the common
 * case. Threads of a hosted program that are none of the cores share one more
 * pool, the outside pool: spawning from them must not drain a worker's pool
 * (a worker that finds its own pool empty has to run its work inline), and
 * their lock is theirs alone, never a worker's. A header comes back wherever its task runs, usually another core, so
 * returns go onto an atomic LIFO list (`remote`) with a CAS push; the owner
 * takes the whole list with one exchange when its free list runs dry. A
 * push-only CAS list drained by exchange has no ABA problem.
 *
 * The header goes back just before its fn is called (fn and arg are copied
 * out first), so a task that respawns itself with hive_spawn_fn reuses it.
 */
#include "sched/sched_internal.h"
#include "hive/spinlock.h"

/* A free item is in no queue, so the free lists link items through their
 * header's next, the queues' link: an item stays within 64 bytes. */
struct pool_item {
    struct hive_task task;
    void (*fn)(void *);
    void *arg;
    unsigned home;
};

static struct pool_item *free_next(const struct pool_item *it)
{
    return it->task.next ? HIVE_CONTAINER_OF(it->task.next, struct pool_item, task) : NULL;
}

/* What a free item's next holds to link `it` (NULL: the end of the list). */
static struct hive_task *free_link(struct pool_item *it)
{
    return it ? &it->task : NULL;
}

_Static_assert(sizeof(struct pool_item) <= 64, "docs/limits.md counts 64 bytes a hive_spawn_fn header");

/* cmake/limits.cmake refuses these first; here for a build that skips it. */
_Static_assert(HIVE_POOL_MAX >= 1, "HIVE_POOL_MAX must be at least 1");
_Static_assert(HIVE_POOL_DEFAULT >= 1 && HIVE_POOL_DEFAULT <= HIVE_POOL_MAX,
               "HIVE_POOL_DEFAULT must be 1..HIVE_POOL_MAX");

struct pool {
    _Alignas(HIVE_CACHE_LINE) struct hive_spinlock lock;
    struct pool_item *free; /* under lock */
    unsigned size;          /* under lock; 0: not built yet */
    _Alignas(HIVE_CACHE_LINE) _Atomic(struct pool_item *) remote;
    _Atomic unsigned in_use; /* headers handed out and not yet back */
    struct pool_item items[HIVE_POOL_MAX];
};

/* One per core, then the outside pool. */
#define OUTSIDE_POOL HIVE_SCHED_MAX_CORES
static struct pool pools[HIVE_SCHED_MAX_CORES + 1];
/* The size pools are built with; set by hive_run before its workers start. */
static _Atomic unsigned pool_size = HIVE_POOL_DEFAULT;
/* The size every pool has, or 0 when some pool may have another (one whose
 * headers were in use when the size changed keeps its old size). Only
 * hive_pool_configure touches it, and only hive_run calls that, one run at
 * a time. */
static unsigned pools_all_sized;

/* Under p->lock, with no header of p in use. */
static void pool_build(struct pool *p, unsigned home, unsigned size)
{
    p->free = NULL;
    for (unsigned i = size; i-- > 0;) {
        struct pool_item *it = &p->items[i];
        it->task.next = free_link(p->free);
        it->task.fn = hive_pool_task_run;
        it->task.group = NULL;
        atomic_init(&it->task.state, HIVE_TASK_IDLE);
        it->home = home;
        p->free = it;
    }
    /* relaxed: nobody else can hold a header of this pool (in_use == 0). */
    atomic_store_explicit(&p->remote, NULL, memory_order_relaxed);
    p->size = size;
}

void hive_pool_configure(unsigned size)
{
    /* relaxed: read by pool_get under a pool lock taken after this store, or
     * by a core started after it (hive_port_run_on_cores orders that). */
    atomic_store_explicit(&pool_size, size, memory_order_relaxed);
    /* Every pool has this size already: a run with the size of the last
     * one takes no pool's lock (the host has 257 pools: their locks were
     * most of an empty run's 3.6 us). */
    if (size == pools_all_sized)
        return;
    bool all_sized = true;
    for (unsigned i = 0; i <= OUTSIDE_POOL; i++) {
        struct pool *p = &pools[i];
        unsigned long irq = hive_spin_lock(&p->lock);
        if (p->size != size) {
            /* acquire: pairs with the release decrement in pool_put, so
             * every header counted back is really back on `remote`. */
            if (atomic_load_explicit(&p->in_use, memory_order_acquire) == 0)
                pool_build(p, i, size);
            else
                all_sized = false;
        }
        hive_spin_unlock(&p->lock, irq);
    }
    pools_all_sized = all_sized ? size : 0;
}

struct hive_task *hive_pool_get(void (*fn)(void *), void *arg)
{
    unsigned id = hive_port_core_id();
    if (id >= HIVE_SCHED_MAX_CORES)
        id = OUTSIDE_POOL; /* HIVE_PORT_NOT_A_CORE */
    struct pool *p = &pools[id];
    unsigned long irq = hive_spin_lock(&p->lock);
    if (p->size == 0)
        pool_build(p, id, atomic_load_explicit(&pool_size, memory_order_relaxed)); /* relaxed: see configure */
    struct pool_item *it = p->free;
    if (!it)
        /* acquire: pairs with the release CAS in pool_put; the returned
         * headers' last uses are done. */
        it = atomic_exchange_explicit(&p->remote, NULL, memory_order_acquire);
    if (it) {
        p->free = free_next(it);
        /* relaxed: a count; the lock and the queues order the header itself. */
        atomic_fetch_add_explicit(&p->in_use, 1, memory_order_relaxed);
    }
    hive_spin_unlock(&p->lock, irq);
    if (!it)
        return NULL;
    it->fn = fn;
    it->arg = arg;
    it->task.group = NULL;
    it->task.kind = HIVE_TASK_COUNTED; /* a group spawn makes it HIVE_TASK_GROUP */
    /* relaxed: the header is ours; the queue it goes into publishes it. */
    atomic_store_explicit(&it->task.state, HIVE_TASK_QUEUED, memory_order_relaxed);
    return &it->task;
}

static void pool_put(struct pool_item *it)
{
    struct pool *p = &pools[it->home];
    /* relaxed: the CAS below validates it. */
    struct pool_item *head = atomic_load_explicit(&p->remote, memory_order_relaxed);
    do
        it->task.next = free_link(head);
    /* release: pairs with the acquire exchange in hive_pool_get, publishing
     * the link and our last reads of the header. relaxed on failure: retry. */
    while (!atomic_compare_exchange_weak_explicit(&p->remote, &head, it, memory_order_release,
                                                  memory_order_relaxed));
    /* release: pairs with the acquire load in hive_pool_configure. */
    atomic_fetch_sub_explicit(&p->in_use, 1, memory_order_release);
}

bool hive_pool_task_drop(struct hive_task *t)
{
    if (t->fn != hive_pool_task_run)
        return false;
    /* relaxed: the header goes back through pool_put's release. */
    atomic_store_explicit(&t->state, HIVE_TASK_IDLE, memory_order_relaxed);
    pool_put(HIVE_CONTAINER_OF(t, struct pool_item, task));
    return true;
}

uintptr_t hive_pool_task_fn(const struct hive_task *t)
{
    if (t->fn != hive_pool_task_run)
        return 0;
    return (uintptr_t)HIVE_CONTAINER_OF(t, const struct pool_item, task)->fn;
}

void hive_pool_task_run(struct hive_task *t)
{
    struct pool_item *it = HIVE_CONTAINER_OF(t, struct pool_item, task);
    void (*fn)(void *) = it->fn;
    void *arg = it->arg;
    pool_put(it);
    fn(arg);
}
