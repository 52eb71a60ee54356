/*
 * The demo that `tools/hive run` boots: for now, every core reports in and
 * the run ends with one verdict line.
 */
#include <stdatomic.h>
#include <stdio.h>

#include "kernel/kernel.h"

static atomic_uint arrived;

static void hello(void *arg)
{
    (void)arg;
    struct hive_cpu *cpu = arch_this_cpu();
    printf("demo: core %u online (hw id %#lx)\n", cpu->id, (unsigned long)cpu->hw_id);
    atomic_fetch_add(&arrived, 1);
}

int main(void)
{
    unsigned n = hive_cpu_count();
    hive_smp_call_all(hello, NULL);
    unsigned got = atomic_load(&arrived);
    if (got != n) {
        printf("demo: FAILED cores=%u reported=%u\n", n, got);
        return 1;
    }
    printf("demo: ok cores=%u\n", n);
    return 0;
}
