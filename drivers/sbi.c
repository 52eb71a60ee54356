/* SBI calls: ecall into OpenSBI with EID in a7, FID in a6 (SBI spec, ch. 3). */
#include <stdint.h>
#include <stdio.h>

#include "drivers/sbi.h"
#include "kernel/kernel.h"
#include "kernel/timer.h"

#define EID_HSM 0x48534DUL  /* "HSM" */
#define EID_IPI 0x735049UL  /* "sPI" */
#define EID_TIME 0x54494D45UL /* "TIME" */
#define EID_SRST 0x53525354UL /* "SRST" */

static struct sbi_ret sbi_call(unsigned long eid, unsigned long fid, unsigned long arg0,
                               unsigned long arg1, unsigned long arg2)
{
    register unsigned long a0 __asm__("a0") = arg0;
    register unsigned long a1 __asm__("a1") = arg1;
    register unsigned long a2 __asm__("a2") = arg2;
    register unsigned long a6 __asm__("a6") = fid;
    register unsigned long a7 __asm__("a7") = eid;
    /* "memory": the firmware reads what we wrote before the call (a started
     * hart's data, a woken core's flag) and the compiler must not sink those
     * stores past it. */
    __asm__ volatile("ecall"
                     : "+r"(a0), "+r"(a1)
                     : "r"(a2), "r"(a6), "r"(a7)
                     : "memory");
    return (struct sbi_ret){(long)a0, (long)a1};
}

struct sbi_ret sbi_hart_start(unsigned long hartid, unsigned long start_addr,
                              unsigned long opaque)
{
    return sbi_call(EID_HSM, 0, hartid, start_addr, opaque);
}

struct sbi_ret sbi_hart_stop(void)
{
    return sbi_call(EID_HSM, 1, 0, 0, 0);
}

struct sbi_ret sbi_hart_get_status(unsigned long hartid)
{
    return sbi_call(EID_HSM, 2, hartid, 0, 0);
}

struct sbi_ret sbi_send_ipi(unsigned long hart_mask, unsigned long hart_mask_base)
{
    /*
     * The firmware raises the IPI by writing the target's MSIP register in
     * the CLINT/ACLINT: a device write, later in this hart's program order
     * than the ecall. What the caller stored for the target to find (a wake
     * word) must be visible before that write, or the target can take the
     * interrupt, read the old value and sleep on. `fence rw, rw` orders
     * memory accesses among themselves only; ordering them before device
     * output needs the I/O bits in the successor set. The SBI specification
     * promises no barrier inside the call, so the fence is ours, here, where
     * every IPI passes.
     */
    __asm__ volatile("fence rw, iorw" : : : "memory");
    return sbi_call(EID_IPI, 0, hart_mask, hart_mask_base, 0);
}

struct sbi_ret sbi_set_timer(uint64_t stime)
{
    return sbi_call(EID_TIME, 0, stime, 0, 0);
}

struct sbi_ret sbi_system_reset(uint32_t type, uint32_t reason)
{
    return sbi_call(EID_SRST, 0, type, reason, 0);
}

int sbi_start_hart(uintptr_t hart, uintptr_t entry, uintptr_t opaque)
{
    /* An error is a hart id with no hart. A hart that exists but is not
     * STOPPED yet may still be in the firmware's own start-up: on a loaded
     * host QEMU may not have run its vCPU that far when the boot hart asks.
     * Wait for it, bounded; one that never stops was never ours to start,
     * and saying so beats a silent core short. */
    struct sbi_ret st = sbi_hart_get_status(hart);
    uint64_t deadline = hive_deadline_after(arch_counter(), arch_counter_hz() * 5);
    while (st.error == SBI_SUCCESS && st.value != SBI_HSM_STOPPED && arch_counter() < deadline)
        st = sbi_hart_get_status(hart);
    if (st.error != SBI_SUCCESS)
        return -1;
    if (st.value != SBI_HSM_STOPPED) {
        printf("hive: hart %lu stays in SBI HSM state %ld; not started\n", (unsigned long)hart,
               st.value);
        return -1;
    }
    struct sbi_ret r = sbi_hart_start(hart, entry, opaque);
    if (r.error != SBI_SUCCESS)
        hive_panic("hart %lu: hart_start failed (%ld)", (unsigned long)hart, r.error);
    return 0;
}
