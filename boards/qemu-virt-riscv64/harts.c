/*
 * Starting the other harts: OpenSBI keeps them stopped until SBI HSM
 * hart_start. Hart ids need not be dense or start at the boot hart, so probe
 * 0..max_cores-1 and hand out logical ids 1, 2, ... in hart id order.
 */
#include <stdatomic.h>
#include <stdint.h>

#include "arch/riscv64/sbi.h"
#include "kernel/kernel.h"

unsigned board_start_secondaries(uintptr_t boot_hw_id, unsigned max_cores)
{
    unsigned n = 1;
    for (uintptr_t hart = 0; hart < max_cores && n < max_cores; hart++) {
        if (hart == boot_hw_id)
            continue;
        struct sbi_ret st = sbi_hart_get_status(hart);
        if (st.error != SBI_SUCCESS || st.value != SBI_HSM_STOPPED)
            continue;   /* absent (invalid hart id) or not ours to start */
        hive_cpus[n].hw_id = hart;
        /* Publish hw_id, the page tables and satp before the hart runs; the
         * new hart reads them with no other synchronisation than the SBI's. */
        atomic_thread_fence(memory_order_seq_cst);
        struct sbi_ret r = sbi_hart_start(hart, (uintptr_t)arch_secondary_entry, n);
        if (r.error != SBI_SUCCESS)
            hive_panic("hart %lu: hart_start failed (%ld)", (unsigned long)hart, r.error);
        n++;
    }
    return n;
}
