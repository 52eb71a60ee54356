/*
 * hive_spinlock (include/hive/spinlock.h), over the port's interrupt masking
 * and spin hint. Out of line: the kernel, the scheduler and firmware share
 * one implementation, and a debug build (HIVE_DEBUG_CHECKS) counts what each
 * core holds, so that a join, a group wait or a park with a lock held panics
 * (sched/debug_checks.h) instead of deadlocking the core that wants the lock.
 */
#include "hive/spinlock.h"

#include "sched/debug_checks.h"
#include "sched/latent_gate.h"
#include "sched/port.h"

#ifdef HIVE_DEBUG_CHECKS
/* Locks held by each core. Only that core changes its count (an interrupt
 * handler on it releases what it takes before it returns, so an interrupted
 * increment still stores the right value); threads that are no core of a
 * hosted port are not counted, they never park. */
static unsigned held[HIVE_MAX_CORES];

static void count_held(int change)
{
    unsigned id = hive_port_core_id();
    if (id >= HIVE_MAX_CORES)
        return;
    unsigned before = held[id];
    held[id] += (unsigned)change;
    /* hive_join's inline path is closed while a lock is held, so a join
     * under one reaches the check (latent_gate.c). */
    if (change > 0)
        hive_latent_gate_lock_taken(id, before);
    else
        hive_latent_gate_lock_released(id, held[id]);
}

unsigned hive_spin_held_here(void)
{
    unsigned id = hive_port_core_id();
    return id < HIVE_MAX_CORES ? held[id] : 0;
}
#else
#define count_held(change) ((void)0)
#endif

void hive_spin_lock_raw(struct hive_spinlock *lock)
{
    for (;;) {
        /* acquire: pairs with the release store in hive_spin_unlock_raw, so
         * the previous holder's writes are visible to us. */
        if (!atomic_exchange_explicit(&lock->locked, true, memory_order_acquire)) {
            count_held(1);
            return;
        }
        /* relaxed: only a hint to retry; the exchange above does the ordering.
         * Spinning on a load keeps the line shared instead of bouncing it. */
        while (atomic_load_explicit(&lock->locked, memory_order_relaxed))
            hive_port_cpu_relax();
    }
}

bool hive_spin_trylock_raw(struct hive_spinlock *lock)
{
    /* acquire: pairs with the release store in hive_spin_unlock_raw. */
    if (atomic_exchange_explicit(&lock->locked, true, memory_order_acquire))
        return false;
    count_held(1);
    return true;
}

void hive_spin_unlock_raw(struct hive_spinlock *lock)
{
    count_held(-1);
    /* release: pairs with the acquire exchange of the next holder. */
    atomic_store_explicit(&lock->locked, false, memory_order_release);
}

unsigned long hive_spin_lock(struct hive_spinlock *lock)
{
    unsigned long irq_state = hive_port_irq_save();
    hive_spin_lock_raw(lock);
    return irq_state;
}

bool hive_spin_trylock(struct hive_spinlock *lock, unsigned long *irq_state)
{
    unsigned long saved = hive_port_irq_save();
    if (!hive_spin_trylock_raw(lock)) {
        hive_port_irq_restore(saved);
        return false;
    }
    *irq_state = saved;
    return true;
}

void hive_spin_unlock(struct hive_spinlock *lock, unsigned long irq_state)
{
    hive_spin_unlock_raw(lock);
    hive_port_irq_restore(irq_state);
}
