/*
 * A fault on a secondary core before its per-core setup - in the first
 * steps after the arch's entry, before the kernel gives it its per-core
 * block - still ends in one "panic: core N:" line naming that core, and a
 * non-zero exit, never a core that stops without a word or a line that
 * names no core. The image is linked with -Wl,--wrap=hive_kernel_secondary,
 * so the arch's secondary entry calls the function below, which makes
 * core 1 store to address 0 before it goes on into the kernel (the other
 * cores go on at once). On aarch64 that is the exception path for a core
 * with no per-core block (arch/aarch64/exceptions.c); on riscv64 the
 * hart's block is set by entry.S, so it is the ordinary trap path.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdnoreturn.h>

noreturn void __real_hive_kernel_secondary(unsigned id);
noreturn void __wrap_hive_kernel_secondary(unsigned id);

noreturn void __wrap_hive_kernel_secondary(unsigned id)
{
    if (id == 1)
        *(volatile uintptr_t *)(uintptr_t)0 = 1;
    __real_hive_kernel_secondary(id);
}

int main(void)
{
    printf("early_fault: main ran although core 1 faulted before its setup\n");
    return 0;
}
