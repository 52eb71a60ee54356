/* The PSCI calls hive makes: see psci.h. */
#include <stdio.h>

#include "arch/aarch64/aarch64.h"
#include "drivers/psci.h"

#define PSCI_CPU_ON             0xc4000003u    /* SMC64 */
#define PSCI_SYSTEM_OFF         0x84000008u
#define PSCI_SUCCESS            0
#define PSCI_INVALID_PARAMETERS (-2)

static long psci_call(const struct psci_config *psci, uint32_t fn, uint64_t a1, uint64_t a2,
                      uint64_t a3)
{
    register uint64_t x0 __asm__("x0") = fn;
    register uint64_t x1 __asm__("x1") = a1;
    register uint64_t x2 __asm__("x2") = a2;
    register uint64_t x3 __asm__("x3") = a3;
    enum psci_conduit conduit = psci->conduit;
    if (conduit == PSCI_CONDUIT_ABOVE_ENTRY)
        conduit = aarch64_entry_el == 2 ? PSCI_CONDUIT_SMC : PSCI_CONDUIT_HVC;
    /* SMCCC 1.0 lets the callee clobber x4-x17. */
    if (conduit == PSCI_CONDUIT_SMC)
        __asm__ volatile("smc #0" : "+r"(x0), "+r"(x1), "+r"(x2), "+r"(x3) : :
                         "x4", "x5", "x6", "x7", "x8", "x9", "x10", "x11", "x12",
                         "x13", "x14", "x15", "x16", "x17", "memory");
    else
        __asm__ volatile("hvc #0" : "+r"(x0), "+r"(x1), "+r"(x2), "+r"(x3) : :
                         "x4", "x5", "x6", "x7", "x8", "x9", "x10", "x11", "x12",
                         "x13", "x14", "x15", "x16", "x17", "memory");
    /* PSCI returns a 32-bit signed value in w0; the upper half of x0 is
     * not promised (a firmware need not sign-extend NOT_PRESENT's -2). */
    return (long)(int32_t)x0;
}

int psci_start_core(const struct psci_config *psci, uintptr_t mpidr, uintptr_t entry,
                    uintptr_t context)
{
    long r = psci_call(psci, PSCI_CPU_ON, mpidr, entry, context);
    if (r == PSCI_SUCCESS)
        return 0;
    if (r != PSCI_INVALID_PARAMETERS)
        printf("psci: CPU_ON(%#lx) failed: %ld\n", (unsigned long)mpidr, r);
    return -1;
}

void psci_system_off(const struct psci_config *psci)
{
    psci_call(psci, PSCI_SYSTEM_OFF, 0, 0, 0);
}
