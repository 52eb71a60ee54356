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
 *
 * Every core starts fn with no wake pending from before the call, nor one
 * still to come from it: a secondary that reads the new generation without
 * waiting (it finished the last call just as this one began) may not be
 * woken yet - the caller may still be in its loop of wakes, descheduled by a
 * loaded host - and that late wake would end the first wait fn makes for
 * nothing of fn's. So the caller marks each core's wake as sent (woken_gen),
 * and a secondary waits for its mark, then spends its pending wake. The mark
 * follows the wake by a few instructions, but a secondary woken by its wake
 * often runs just then and the caller not (a host that runs the woken vCPU
 * in the place of the one that woke it): a spin there would last the host's
 * time slice. So the secondary parks, briefly and timed, until its mark is
 * there - a park that gives the host's CPU back, and that may end early on
 * the very wake it waits to see sent (spent either way). Wakes an earlier call's fn sent are spent too: each was sent
 * before its core counted itself done, so before this call began.
 */
#include <stdatomic.h>

#include "kernel/irq.h"
#include "kernel/kernel.h"
#include "sched/sched.h"
#include "hive/spinlock.h"

static struct hive_spinlock call_lock = HIVE_SPINLOCK_INIT;
static void (*call_fn)(void *);
static void *call_arg;
static atomic_uint call_gen;
static atomic_uint call_done;

/* How long a secondary parks at a time waiting for its mark: past the park's
 * shallow phase (20 us), so that it sleeps. */
#define MARK_PARK_NS 100000u

/* Per core: the generation whose wake the caller has sent it. */
static atomic_uint woken_gen[HIVE_MAX_CORES];

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
    unsigned gen = atomic_fetch_add_explicit(&call_gen, 1, memory_order_release) + 1;
    for (unsigned i = 1; i < n; i++) {
        hive_port_wake(i);
        /* release: pairs with core i's acquire load of its mark, so its
         * spend comes after this wake. */
        atomic_store_explicit(&woken_gen[i], gen, memory_order_release);
    }
    hive_park_spend_wake();

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
        /* acquire: pairs with the caller's release store of the mark: the
         * wake it sent this core is on the wake word before the spend. */
        while (atomic_load_explicit(&woken_gen[hive_cpu_id()], memory_order_acquire) != gen)
            hive_port_wait(MARK_PARK_NS);
        hive_park_spend_wake();
        call_fn(call_arg);
        /* release: pairs with the caller's acquire load of call_done. */
        atomic_fetch_add_explicit(&call_done, 1, memory_order_release);
    }
}
