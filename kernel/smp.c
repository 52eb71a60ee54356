/*
 * Running a function on every core: how images put secondaries to work.
 *
 * One call is in flight at a time. The caller publishes fn/arg, bumps the
 * generation and wakes every secondary; each secondary runs fn once per
 * generation and counts itself done. Secondaries idle in arch_idle_wait(),
 * which does not lose a wake sent before it (see kernel/platform.h).
 */
#include <stdatomic.h>

#include "kernel/kernel.h"
#include "sched/spinlock.h"

static struct hive_spinlock call_lock = HIVE_SPINLOCK_INIT;
static void (*call_fn)(void *);
static void *call_arg;
static atomic_uint call_gen;
static atomic_uint call_done;

void hive_smp_call_all(void (*fn)(void *arg), void *arg)
{
    /* Raw lock: the caller keeps its interrupt state; nobody takes this lock
     * from an interrupt handler. */
    hive_spin_lock_raw(&call_lock);
    unsigned n = hive_cpu_count();
    call_fn = fn;
    call_arg = arg;
    atomic_store_explicit(&call_done, 0, memory_order_relaxed); /* published by the gen release below */
    /* release: pairs with the acquire load of call_gen in the secondary loop,
     * publishing call_fn, call_arg and the reset of call_done. */
    atomic_fetch_add_explicit(&call_gen, 1, memory_order_release);
    for (unsigned i = 1; i < n; i++)
        arch_idle_wake(i);

    fn(arg);

    /* acquire: pairs with each secondary's release increment of call_done,
     * so everything fn did on every core is visible to the caller. */
    while (atomic_load_explicit(&call_done, memory_order_acquire) < n - 1)
        arch_cpu_relax();
    hive_spin_unlock_raw(&call_lock);
}

void hive_smp_secondary_loop(void)
{
    unsigned seen = 0;
    for (;;) {
        /* acquire: pairs with the release increment in hive_smp_call_all. */
        unsigned gen = atomic_load_explicit(&call_gen, memory_order_acquire);
        if (gen == seen) {
            arch_idle_wait();
            continue;
        }
        seen = gen;
        call_fn(call_arg);
        /* release: pairs with the caller's acquire load of call_done. */
        atomic_fetch_add_explicit(&call_done, 1, memory_order_release);
    }
}
