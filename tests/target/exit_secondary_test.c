/*
 * exit(0) on a secondary core must not end the system as a pass: it prints
 * "hive: core N called exit(0)" and panics naming the core (kernel/exit.c).
 * The highest core exits while the boot core waits for it. ctest expects
 * failure plus the panic line (EXPECT_FAIL; 2 cores and up).
 */
#include <stdio.h>
#include <stdlib.h>

#include "harness.h"
#include "kernel/kernel.h"

int main(void) { return hive_test_main(); }

static void exit_on_last_core(void *arg)
{
    (void)arg;
    unsigned id = hive_cpu_id();
    if (id == 0 || id + 1 != hive_cpu_count())
        return;
    printf("core %u: calling exit(0)\n", id);
    exit(0);
}

HIVE_TEST(secondary_exit_zero_is_a_fault)
{
    CHECK(hive_cpu_count() >= 2);
    hive_smp_call_all(exit_on_last_core, NULL);
    CHECK(!"exit(0) on a secondary core returned");
}
