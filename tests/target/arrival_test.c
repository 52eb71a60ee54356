/*
 * A core that is started and never comes online is a bring-up bug, and the
 * boot core must say so - name the core, panic, exit non-zero - not hang
 * and not run main on fewer cores (kernel/boot.c, the arrival wait). Here
 * core 1 never arrives: the image is linked with
 * -Wl,--wrap=hive_kernel_secondary, so the arch's secondary entry calls the
 * function below instead of the kernel's, and it keeps core 1 spinning
 * there while the other cores go on into the kernel. The boot path, the
 * deadline and the panic are the kernel's own, untouched. main must never
 * run.
 */
#include <stdio.h>
#include <stdnoreturn.h>

#include "kernel/platform.h"

noreturn void __real_hive_kernel_secondary(unsigned id);
noreturn void __wrap_hive_kernel_secondary(unsigned id);

noreturn void __wrap_hive_kernel_secondary(unsigned id)
{
    if (id != 1)
        __real_hive_kernel_secondary(id);
    for (;;)
        arch_cpu_relax();
}

int main(void)
{
    printf("arrival: main ran although core 1 never came online\n");
    return 0;
}
