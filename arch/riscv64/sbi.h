/* The few SBI calls hive makes (SBI 1.0, as OpenSBI 1.1 implements it). */
#ifndef HIVE_RISCV64_SBI_H
#define HIVE_RISCV64_SBI_H

#include <stdint.h>

struct sbi_ret {
    long error;         /* SBI_SUCCESS or a negative SBI_ERR_* */
    long value;
};

#define SBI_SUCCESS 0

/* hart_get_status values. */
#define SBI_HSM_STARTED 0
#define SBI_HSM_STOPPED 1

struct sbi_ret sbi_hart_start(unsigned long hartid, unsigned long start_addr,
                              unsigned long opaque);
struct sbi_ret sbi_hart_get_status(unsigned long hartid);
/* IPI to the harts in hart_mask (bit n: hart hart_mask_base + n), raised only
 * after every earlier memory access of the caller is visible. */
struct sbi_ret sbi_send_ipi(unsigned long hart_mask, unsigned long hart_mask_base);
/* One-shot supervisor timer for the calling hart (STIP at time >= stime);
 * clears a pending STIP. UINT64_MAX: never. */
struct sbi_ret sbi_set_timer(uint64_t stime);

#endif
