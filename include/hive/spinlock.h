/*
 * hive_spinlock: a test-and-test-and-set lock for data that several cores -
 * and their interrupt handlers - share.
 *
 *   static struct hive_spinlock lock = HIVE_SPINLOCK_INIT;
 *   unsigned long irq = hive_spin_lock(&lock);   // interrupts masked
 *   ...                                          // short, never blocks
 *   hive_spin_unlock(&lock, irq);
 *
 * hive_spin_lock masks interrupts on the calling core before it spins, and
 * hive_spin_unlock restores what it found. Masking is what makes the lock
 * safe to take in an interrupt handler: if a handler spun on a lock that the
 * code it interrupted holds on the same core, that core would deadlock
 * forever. The _raw forms leave the interrupt state alone; use them only for
 * a lock no handler takes (then a holder may be interrupted, which keeps
 * interrupt latency down during long critical sections), or where interrupts
 * are masked already.
 *
 * Never hold a spinlock across anything that waits or may run a task:
 * hive_join, hive_group_spawn(_fn) (a full fork-join deque runs the task at
 * once), hive_spawn_or_run (full queues run it at once), hive_group_wait,
 * hive_run or a parked core. A debug build checks each. And keep sections
 * short while this core holds group tasks it has not offered yet: on the
 * boards the interrupt that offers them to idle cores (hive.h, hive_group)
 * waits while interrupts are masked.
 */
#ifndef HIVE_SPINLOCK_H
#define HIVE_SPINLOCK_H

#include <stdatomic.h>
#include <stdbool.h>

#include "hive/attributes.h"

struct hive_spinlock {
    atomic_bool locked;
};

#define HIVE_SPINLOCK_INIT { false }

/* Mask interrupts, then take the lock. Returns the interrupt state to hand
 * back to hive_spin_unlock. */
HIVE_MUST_CHECK unsigned long hive_spin_lock(struct hive_spinlock *lock);
/* Release the lock, then restore the interrupt state hive_spin_lock returned. */
void hive_spin_unlock(struct hive_spinlock *lock, unsigned long irq_state);
/* As hive_spin_lock, but return at once: true with the lock held and
 * *irq_state set, false (interrupts as they were) if another core holds it. */
HIVE_MUST_CHECK bool hive_spin_trylock(struct hive_spinlock *lock, unsigned long *irq_state);

/* The same without touching the interrupt state. */
void hive_spin_lock_raw(struct hive_spinlock *lock);
void hive_spin_unlock_raw(struct hive_spinlock *lock);
HIVE_MUST_CHECK bool hive_spin_trylock_raw(struct hive_spinlock *lock);

#endif
