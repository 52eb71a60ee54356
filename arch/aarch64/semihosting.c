/*
 * Arm semihosting, AArch64 flavour (HLT #0xF000): the only call used is
 * SYS_EXIT, which hands an exit status to QEMU (-semihosting-config
 * enable=on) or a debugger. Without a listener HLT is an undefined
 * instruction; exceptions.c then skips it and the call returns.
 */
#include <stdint.h>

#include "aarch64.h"

#define SYS_EXIT                    0x18
#define ADP_STOPPED_APPLICATION_EXIT 0x20026

static long semihost(unsigned long op, void *arg)
{
    register unsigned long x0 __asm__("x0") = op;
    register void *x1 __asm__("x1") = arg;
    __asm__ volatile("hlt #0xf000" : "+r"(x0) : "r"(x1) : "memory");
    return (long)x0;
}

void aarch64_semihost_exit(int status)
{
    /* AArch64 SYS_EXIT takes a block: reason, then the status (subcode). */
    uint64_t block[2] = { ADP_STOPPED_APPLICATION_EXIT, (uint64_t)(int64_t)status };
    semihost(SYS_EXIT, block);
}
