/*
 * abort() panics with the core and stops the system with a non-zero status
 * (picolibc's would go raise -> kill, which a bare-metal image lacks). The
 * highest core aborts. ctest expects failure plus the panic line.
 */
#include <stdio.h>
#include <stdlib.h>

#include "harness.h"
#include "kernel/kernel.h"

int main(void) { return hive_test_main(); }

static void abort_on_last_core(void *arg)
{
    (void)arg;
    unsigned id = hive_cpu_id();
    if (id + 1 != hive_cpu_count())
        return;
    printf("core %u: calling abort()\n", id);
    abort();
}

HIVE_TEST(abort_panics)
{
    hive_smp_call_all(abort_on_last_core, NULL);
    CHECK(!"abort() returned instead of stopping the system");
}
