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
 * waiting (it finished the last call just as this one began, or its wait
 * ended on an older wake) may not be woken yet - the caller may still be in
 * its loop of wakes, descheduled by a loaded host - and that late wake would
 * end the first wait fn makes for nothing of fn's. So the caller marks each
 * core's wake as sent (woken_gen), and a secondary waits for its mark, then
 * spends its pending wake. The mark follows the wake by a few instructions,
 * so the secondary first looks for it briefly; but a secondary woken by its
 * wake often runs just then and the caller not (a host that runs the woken
 * vCPU in the place of the one that woke it), and a spin would then last the
 * host's time slice. So it then parks, briefly and timed, until the mark is
 * there - a park that gives the host's CPU back, and that may end early on
 * the very wake it waits to see sent (spent either way). The caller spends
 * its own pending wake before it sends any. Wakes that an earlier call's fn
 * sent are spent too, as each was sent before its core counted itself done;
 * not a wake from an interrupt that such a fn left armed (a timer's
 * callback), which comes when it comes, as any other wake may.
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

/* How long a secondary looks for its mark before it parks, and how long it
 * parks at a time: past the park's shallow phase (20 us), so that it sleeps. */
#define MARK_SPIN_NS 2000u
#define MARK_PARK_NS 50000u

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
    hive_park_spend_wake();
    for (unsigned i = 1; i < n; i++) {
        hive_port_wake(i);
        /* release: pairs with core i's acquire load of its mark, so its
         * spend comes after this wake. */
        atomic_store_explicit(&woken_gen[i], gen, memory_order_release);
    }

    fn(arg);

    /* acquire: pairs with each secondary's release increment of call_done,
     * so everything fn did on every core is visible to the caller. */
    while (atomic_load_explicit(&call_done, memory_order_acquire) < n - 1)
        arch_cpu_relax();
    hive_spin_unlock_raw(&call_lock);
}

/* Until the caller has sent this core its wake for call gen. */
static void wait_for_mark(unsigned gen)
{
    atomic_uint *mark = &woken_gen[hive_cpu_id()];
    uint64_t spin_end = hive_port_now_ns() + MARK_SPIN_NS;
    /* acquire, every load: pairs with the caller's release store of the
     * mark, so the wake it sent this core is on the wake word before the
     * spend that follows. */
    while (atomic_load_explicit(mark, memory_order_acquire) != gen) {
        if (hive_port_now_ns() < spin_end)
            arch_cpu_relax();
        else
            hive_port_wait(MARK_PARK_NS);
    }
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
        wait_for_mark(gen);
        hive_park_spend_wake();
        call_fn(call_arg);
        /* release: pairs with the caller's acquire load of call_done. */
        atomic_fetch_add_explicit(&call_done, 1, memory_order_release);
    }
}
