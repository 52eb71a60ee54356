/*
 * A test-and-test-and-set spinlock that masks interrupts while held.
 *
 * Masking matters on bare metal: if an interrupt handler takes a lock that the
 * code it interrupted already holds on the same core, an unmasked spinlock
 * deadlocks that core forever. Every lock that an interrupt handler might take
 * (the global injection queue, the console, libc's locks) is one of these.
 */
#ifndef HIVE_SCHED_SPINLOCK_H
#define HIVE_SCHED_SPINLOCK_H

#include <stdatomic.h>
#include <stdbool.h>

#include "port.h"

struct hive_spinlock {
    atomic_bool locked;
};

#define HIVE_SPINLOCK_INIT { false }

static inline void hive_spin_lock_raw(struct hive_spinlock *l)
{
    for (;;) {
        /* acquire: pairs with the release store in hive_spin_unlock_raw, so the
         * previous holder's writes are visible to us. */
        if (!atomic_exchange_explicit(&l->locked, true, memory_order_acquire))
            return;
        /* relaxed: only a hint to retry; the exchange above does the ordering. */
        while (atomic_load_explicit(&l->locked, memory_order_relaxed))
            hive_port_cpu_relax();
    }
}

static inline bool hive_spin_trylock_raw(struct hive_spinlock *l)
{
    /* acquire: pairs with the release store in hive_spin_unlock_raw. */
    return !atomic_exchange_explicit(&l->locked, true, memory_order_acquire);
}

static inline void hive_spin_unlock_raw(struct hive_spinlock *l)
{
    /* release: pairs with the acquire exchange of the next holder. */
    atomic_store_explicit(&l->locked, false, memory_order_release);
}

/* Lock with interrupts masked; returns the interrupt state to hand to unlock. */
static inline unsigned long hive_spin_lock(struct hive_spinlock *l)
{
    unsigned long irq = hive_port_irq_save();
    hive_spin_lock_raw(l);
    return irq;
}

static inline void hive_spin_unlock(struct hive_spinlock *l, unsigned long irq)
{
    hive_spin_unlock_raw(l);
    hive_port_irq_restore(irq);
}

#endif
