/*
 * Starting the other harts: OpenSBI keeps them stopped until SBI HSM
 * hart_start. Hart ids need not be dense or start at the boot hart, so probe
 * 0..max_cores-1 and hand out logical ids 1, 2, ... in hart id order.
 */
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>

#include "arch/riscv64/sbi.h"
#include "kernel/kernel.h"
#include "kernel/timer.h"

unsigned board_start_secondaries(uintptr_t boot_hw_id, unsigned max_cores)
{
    unsigned n = 1;
    for (uintptr_t hart = 0; hart < max_cores && n < max_cores; hart++) {
        if (hart == boot_hw_id)
            continue;
        /* An error is a hart id with no hart. A hart that exists but is not
         * STOPPED yet may still be in the firmware's own start-up: on a
         * loaded host QEMU may not have run its vCPU that far when the boot
         * hart asks. Wait for it, bounded; one that never stops was never
         * ours to start, and saying so beats a silent core short. */
        struct sbi_ret st = sbi_hart_get_status(hart);
        uint64_t deadline = hive_deadline_after(arch_counter(), arch_counter_hz() * 5);
        while (st.error == SBI_SUCCESS && st.value != SBI_HSM_STOPPED &&
               arch_counter() < deadline)
            st = sbi_hart_get_status(hart);
        if (st.error != SBI_SUCCESS)
            continue;
        if (st.value != SBI_HSM_STOPPED) {
            printf("hive: hart %lu stays in SBI HSM state %ld; not started\n",
                   (unsigned long)hart, st.value);
            continue;
        }
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
