/*
 * Running a function on every core: how images put secondaries to work.
 *
 * One call is in flight at a time. The caller publishes fn/arg, bumps the
 * generation and wakes every secondary; each secondary runs fn once per
 * generation and counts itself done.
 *
 * Between calls the secondaries wait with hive_port_wait - the same wait and
 * wake the scheduler parks with (kernel/port.c), so the whole system has one
 * wait/wake protocol to reason about and test. What makes the hand-over safe
 * is that protocol's promise: a wake sent before the wait is kept (one
 * pending wake per core), so a secondary that loads the old generation and
 * is then overtaken by the caller's bump and wake still returns from its
 * next wait at once and sees the new generation. Wakes meant for something
 * else (a test's or the scheduler's) only make the loop look again; and a
 * wake this loop consumes was either for it or was sent before the core
 * started fn, whose own waits re-check their conditions first.
 */
#include <stdatomic.h>

#include "kernel/kernel.h"
#include "sched/sched.h"
#include "hive/spinlock.h"

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
     * publishing call_fn, call_arg and the reset of call_done. (The wake
     * below is seq_cst too, so a woken core that reads the new generation
     * is ordered after all of this either way.) */
    atomic_fetch_add_explicit(&call_gen, 1, memory_order_release);
    for (unsigned i = 1; i < n; i++)
        hive_port_wake(i);

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
            hive_port_wait(0);
            continue;
        }
        seen = gen;
        call_fn(call_arg);
        /* release: pairs with the caller's acquire load of call_done. */
        atomic_fetch_add_explicit(&call_done, 1, memory_order_release);
    }
}
