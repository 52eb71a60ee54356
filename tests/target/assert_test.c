/*
 * A failed assert() panics with its core, expression, file, line and
 * function, and stops the system with a non-zero status - in the presets'
 * build type too (RelWithDebInfo adds -DNDEBUG; the board tree takes it out,
 * see the top CMakeLists.txt). Every core asserts; only the highest fails.
 * ctest expects failure plus that panic line (EXPECT_FAIL).
 */
#include <assert.h>
#include <stdio.h>

#include "harness.h"
#include "kernel/kernel.h"

#ifdef NDEBUG
#error "board images are built with assertions on"
#endif

int main(void) { return hive_test_main(); }

static void assert_not_last_core(void *arg)
{
    (void)arg;
    unsigned id = hive_cpu_id();
    if (id + 1 == hive_cpu_count())
        printf("core %u: asserting that it is not the last core\n", id);
    assert(id + 1 != hive_cpu_count());
}

HIVE_TEST(failed_assert_panics)
{
    hive_smp_call_all(assert_not_last_core, NULL);
    CHECK(!"the failed assert returned instead of stopping the system");
}
