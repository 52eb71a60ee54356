/*
 * A deliberate fault must be caught, reported with its core and registers,
 * and must stop the system with a non-zero status. The highest core writes
 * into the guard region below its own stack, which also proves the guard is
 * really unmapped. ctest expects failure plus a panic line (EXPECT_FAIL).
 */
#include <stdio.h>

#include "harness.h"
#include "kernel/kernel.h"

int main(void) { return hive_test_main(); }

static void fault_on_last_core(void *arg)
{
    (void)arg;
    unsigned id = hive_cpu_id();
    if (id != hive_cpu_count() - 1)
        return;
    printf("core %u: writing into its stack guard\n", id);
    volatile char *guard = &hive_stacks[id][HIVE_STACK_GUARD / 2];
    *guard = 1;
    printf("core %u: guard write did not fault\n", id);
}

HIVE_TEST(fault_in_stack_guard_is_caught)
{
    hive_smp_call_all(fault_on_last_core, NULL);
    CHECK(!"the guard write returned instead of stopping the system");
}
