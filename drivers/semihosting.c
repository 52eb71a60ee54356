/* The semihosting exit: see semihosting.h. The only call used is SYS_EXIT. */
#include <stdint.h>

#include "drivers/semihosting.h"

#ifndef __aarch64__
#error "drivers/semihosting.c speaks the AArch64 flavour (HLT #0xF000) only"
#endif

#define SYS_EXIT                    0x18
#define ADP_STOPPED_APPLICATION_EXIT 0x20026

static long semihost(unsigned long op, void *arg)
{
    register unsigned long x0 __asm__("x0") = op;
    register void *x1 __asm__("x1") = arg;
    __asm__ volatile("hlt #0xf000" : "+r"(x0) : "r"(x1) : "memory");
    return (long)x0;
}

void semihosting_exit(int status)
{
    /* AArch64 SYS_EXIT takes a block: reason, then the status (subcode). */
    uint64_t block[2] = { ADP_STOPPED_APPLICATION_EXIT, (uint64_t)(int64_t)status };
    semihost(SYS_EXIT, block);
}
