/*
 * picolibc's retargetable locks (malloc, atexit, time...), made SMP-safe.
 *
 * The defaults are no-ops for single-core programs. Here every lock is a
 * spinlock that masks interrupts, and the recursive ones remember their owner
 * core and depth. The interrupt state saved by the outermost acquire is kept
 * in the lock and restored by the matching outermost release.
 */
#include <stdatomic.h>
#include <stdlib.h>
#include <sys/lock.h>

#include "kernel/kernel.h"
#include "hive/spinlock.h"

#define NO_OWNER (~0u)

struct __lock {
    struct hive_spinlock spin;
    atomic_uint owner;      /* core holding it, or NO_OWNER */
    unsigned depth;         /* recursive acquisitions by the owner */
    unsigned long irq;      /* interrupt state before the outermost acquire */
};

#define LOCK_INIT { HIVE_SPINLOCK_INIT, NO_OWNER, 0, 0 }

/* The one lock picolibc names itself. */
struct __lock __lock___libc_recursive_mutex = LOCK_INIT;

/* Dynamically created locks come from a fixed pool: no malloc from inside malloc. */
#define POOL_SIZE 32
static struct __lock pool[POOL_SIZE];
static atomic_uint pool_used;

static void lock_new(_LOCK_T *lock)
{
    unsigned i = atomic_fetch_add(&pool_used, 1);
    if (i >= POOL_SIZE)
        hive_panic("libc lock pool exhausted (%u locks)", POOL_SIZE);
    struct __lock *l = &pool[i];
    atomic_init(&l->spin.locked, false);
    atomic_init(&l->owner, NO_OWNER);
    l->depth = 0;
    *lock = l;
}

void __retarget_lock_init(_LOCK_T *lock) { lock_new(lock); }
void __retarget_lock_init_recursive(_LOCK_T *lock) { lock_new(lock); }
/* Pool entries are never reused: picolibc closes locks only at teardown. */
void __retarget_lock_close(_LOCK_T lock) { (void)lock; }
void __retarget_lock_close_recursive(_LOCK_T lock) { (void)lock; }

void __retarget_lock_acquire(_LOCK_T l)
{
    l->irq = hive_spin_lock(&l->spin);
}

int __retarget_lock_try_acquire(_LOCK_T l)
{
    return hive_spin_trylock(&l->spin, &l->irq);
}

void __retarget_lock_release(_LOCK_T l)
{
    hive_spin_unlock(&l->spin, l->irq);
}

static int is_mine(_LOCK_T l)
{
    /* relaxed: only this core ever stores its own id here, so reading our own
     * id back needs no ordering; any other value means "not ours". */
    return atomic_load_explicit(&l->owner, memory_order_relaxed) == hive_cpu_id();
}

void __retarget_lock_acquire_recursive(_LOCK_T l)
{
    if (is_mine(l)) {
        l->depth++;
        return;
    }
    __retarget_lock_acquire(l);
    /* relaxed: ordered by the spinlock acquire above; read only by is_mine. */
    atomic_store_explicit(&l->owner, hive_cpu_id(), memory_order_relaxed);
    l->depth = 1;
}

int __retarget_lock_try_acquire_recursive(_LOCK_T l)
{
    if (is_mine(l)) {
        l->depth++;
        return 1;
    }
    if (!__retarget_lock_try_acquire(l))
        return 0;
    /* relaxed: ordered by the spinlock acquire above; read only by is_mine. */
    atomic_store_explicit(&l->owner, hive_cpu_id(), memory_order_relaxed);
    l->depth = 1;
    return 1;
}

void __retarget_lock_release_recursive(_LOCK_T l)
{
    if (--l->depth)
        return;
    /* relaxed: the spinlock release below orders it for the next owner. */
    atomic_store_explicit(&l->owner, NO_OWNER, memory_order_relaxed);
    __retarget_lock_release(l);
}
