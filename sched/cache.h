/*
 * Cache-line size for separating data that different cores write.
 *
 * 64 bytes on every core hive targets (Cortex-A53, the QEMU riscv virt harts,
 * x86-64). Override with -DHIVE_CACHE_LINE=128 for cores with larger lines or
 * adjacent-line prefetch; only padding changes.
 */
#ifndef HIVE_SCHED_CACHE_H
#define HIVE_SCHED_CACHE_H

#ifndef HIVE_CACHE_LINE
#define HIVE_CACHE_LINE 64
#endif

/* A hint: fetch the line at p for writing, ahead of need. Nothing where the
 * compiler offers no prefetch. */
static inline void hive_prefetch_for_write(const void *p)
{
#if defined(__GNUC__) || defined(__clang__)
    __builtin_prefetch(p, 1, 3);
#else
    (void)p;
#endif
}

#endif
