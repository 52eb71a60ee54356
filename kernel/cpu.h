/*
 * Per-core data. Each core finds its block through one system register
 * (arch_this_cpu), so interrupt handlers and the scheduler reach it in a few
 * instructions without touching TLS.
 */
#ifndef HIVE_KERNEL_CPU_H
#define HIVE_KERNEL_CPU_H

#include <stdint.h>

#include "kernel/platform.h"

#ifndef HIVE_MAX_CORES
#error "HIVE_MAX_CORES comes from the board (boards/<board>/board.cmake)"
#endif

struct hive_cpu {
    unsigned id;        /* logical, dense from 0 */
    uintptr_t hw_id;    /* MPIDR affinity on aarch64, hart id on riscv64 */
    void *tls;          /* this core's picolibc TLS block (errno lives there) */
};

extern struct hive_cpu hive_cpus[HIVE_MAX_CORES];

static inline unsigned hive_cpu_id(void) { return arch_this_cpu()->id; }

/* Cores that have come online so far (all of them once main() runs). */
unsigned hive_cpu_count(void);

/* Per-core stacks: one guard region at the bottom of each slot, then the stack. */
#define HIVE_STACK_GUARD 4096
#define HIVE_STACK_SIZE  (32 * 1024)
#define HIVE_STACK_SLOT  (HIVE_STACK_GUARD + HIVE_STACK_SIZE)
extern char hive_stacks[HIVE_MAX_CORES][HIVE_STACK_SLOT];
/* The core whose stack guard (unmapped) holds va, or -1: fault reports say
 * "stack guard of core N" for an overflow. */
int hive_stack_guard_core(uintptr_t va);

#endif
