/*
 * A semihosting call that nobody listens to (QEMU started without
 * -semihosting-config enable=on, as qemu-virt-riscv64's script starts it)
 * comes back to its caller instead of faulting: on riscv64 its EBREAK is a
 * breakpoint trap, which the trap path must skip rather than report. A board
 * whose exit tries semihosting first (hifive-unleashed) relies on that to
 * reach its fallback. Every core makes the call, in S-mode with the MMU on.
 */
#include <stdatomic.h>
#include <stdio.h>

#include "drivers/semihosting.h"
#include "harness.h"
#include "kernel/kernel.h"

int main(void) { return hive_test_main(); }

static atomic_uint returned;

static void call_unheard(void *arg)
{
    (void)arg;
    semihosting_exit(3);
    atomic_fetch_add(&returned, 1);
}

HIVE_TEST(unheard_semihosting_exit_returns)
{
    hive_smp_call_all(call_unheard, NULL);
    printf("%u of %u cores came back from an unheard SYS_EXIT\n", atomic_load(&returned),
           hive_cpu_count());
    CHECK_EQ(atomic_load(&returned), hive_cpu_count());
}
