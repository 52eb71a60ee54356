/* SBI calls: ecall into OpenSBI with EID in a7, FID in a6 (SBI spec, ch. 3). */
#include <stdint.h>

#include "sbi.h"

#define EID_HSM 0x48534DUL  /* "HSM" */
#define EID_IPI 0x735049UL  /* "sPI" */
#define EID_TIME 0x54494D45UL /* "TIME" */

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
