/*
 * Starting the other cores. QEMU virt puts 8 cores per cluster with GICv2
 * (which allows 8 in all) and 16 with GICv3, so up to 16 cores all sit in
 * cluster 0 with MPIDR Aff0 = 0..15. Each is tried with PSCI CPU_ON; an
 * absent one answers INVALID_PARAMETERS. Logical ids stay dense.
 */
#include <stdio.h>

#include "kernel/kernel.h"
#include "psci.h"

#define MAX_AFF0 16

unsigned board_start_secondaries(uintptr_t boot_hw_id, unsigned max_cores)
{
    unsigned n = 1;
    for (uintptr_t mpidr = 0; mpidr < MAX_AFF0 && n < max_cores; mpidr++) {
        if (mpidr == boot_hw_id)
            continue;
        hive_cpus[n].hw_id = mpidr;
        long r = psci_call(PSCI_CPU_ON, mpidr, (uintptr_t)arch_secondary_entry, n);
        if (r == PSCI_SUCCESS)
            n++;
        else if (r != PSCI_INVALID_PARAMETERS)
            printf("psci: CPU_ON(%#lx) failed: %ld\n", (unsigned long)mpidr, r);
    }
    return n;
}
