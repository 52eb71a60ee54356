/*
 * The RISC-V Supervisor Binary Interface (SBI 1.0, as OpenSBI 1.1
 * implements it): what S-mode asks of the firmware beneath it. Harts are
 * started through HSM (kernel/board.h, board_start_core), the doorbell is an
 * SBI IPI, the timer is the SBI timer on harts without Sstc (arch/riscv64),
 * and SRST powers off (an exit path that loses the status: OpenSBI's
 * shutdown on QEMU always exits 0). No configuration: the firmware is reached by ecall.
 */
#ifndef HIVE_DRIVERS_SBI_H
#define HIVE_DRIVERS_SBI_H

#include <stdint.h>

struct sbi_ret {
    long error;         /* SBI_SUCCESS or a negative SBI_ERR_* */
    long value;
};

#define SBI_SUCCESS 0

/* hart_get_status values. */
#define SBI_HSM_STARTED 0
#define SBI_HSM_STOPPED 1
#define SBI_HSM_START_PENDING 2
#define SBI_HSM_STOP_PENDING 3

struct sbi_ret sbi_hart_start(unsigned long hartid, unsigned long start_addr,
                              unsigned long opaque);
struct sbi_ret sbi_hart_get_status(unsigned long hartid);
/* The calling hart stops (back to the firmware, STOPPED, startable again
 * with sbi_hart_start). Returns only if the firmware refused. */
struct sbi_ret sbi_hart_stop(void);
/* IPI to the harts in hart_mask (bit n: hart hart_mask_base + n), raised only
 * after every earlier memory access of the caller is visible. */
struct sbi_ret sbi_send_ipi(unsigned long hart_mask, unsigned long hart_mask_base);
/* One-shot supervisor timer for the calling hart (STIP at time >= stime);
 * clears a pending STIP. UINT64_MAX: never. */
struct sbi_ret sbi_set_timer(uint64_t stime);

/* System reset (SRST): type SBI_RESET_SHUTDOWN, reason SBI_RESET_NO_REASON
 * or SBI_RESET_SYSTEM_FAILURE. Returns only if the firmware refused. */
#define SBI_RESET_SHUTDOWN          0
#define SBI_RESET_NO_REASON         0
#define SBI_RESET_SYSTEM_FAILURE    1
struct sbi_ret sbi_system_reset(uint32_t type, uint32_t reason);

/*
 * Start hart `hart` at `entry` in S-mode with a0 = hart, a1 = opaque, once
 * the firmware has it STOPPED. Returns 0 if it was started, -1 if there is
 * no such hart, and -1 after a line on stdout for a hart that never stops
 * (it was not the firmware's to hand over). A refused start of a stopped
 * hart is a panic.
 */
int sbi_start_hart(uintptr_t hart, uintptr_t entry, uintptr_t opaque);

#endif
