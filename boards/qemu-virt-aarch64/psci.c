/*
 * PSCI on QEMU virt. QEMU itself plays the firmware, on the conduit of the
 * level above the image: HVC when the image is entered at EL1 (QEMU as
 * hypervisor), SMC when it is entered at EL2 (virtualization=on; an HVC
 * would then land in our own, empty, EL2).
 */
#include "arch/aarch64/aarch64.h"
#include "psci.h"

long psci_call(uint32_t fn, uint64_t a1, uint64_t a2, uint64_t a3)
{
    register uint64_t x0 __asm__("x0") = fn;
    register uint64_t x1 __asm__("x1") = a1;
    register uint64_t x2 __asm__("x2") = a2;
    register uint64_t x3 __asm__("x3") = a3;
    /* SMCCC 1.0 lets the callee clobber x4-x17. */
    if (aarch64_entry_el == 2)
        __asm__ volatile("smc #0" : "+r"(x0), "+r"(x1), "+r"(x2), "+r"(x3) : :
                         "x4", "x5", "x6", "x7", "x8", "x9", "x10", "x11", "x12",
                         "x13", "x14", "x15", "x16", "x17", "memory");
    else
        __asm__ volatile("hvc #0" : "+r"(x0), "+r"(x1), "+r"(x2), "+r"(x3) : :
                         "x4", "x5", "x6", "x7", "x8", "x9", "x10", "x11", "x12",
                         "x13", "x14", "x15", "x16", "x17", "memory");
    return (long)x0;
}
