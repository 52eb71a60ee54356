/* Semihosting calls: see semihosting.h. SYS_EXIT, and SYS_GET_CMDLINE. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "drivers/semihosting.h"

#define SYS_EXIT                    0x18
#define ADP_STOPPED_APPLICATION_EXIT 0x20026

#if defined(__aarch64__)
static long semihost(unsigned long op, void *arg)
{
    register unsigned long x0 __asm__("x0") = op;
    register void *x1 __asm__("x1") = arg;
    __asm__ volatile("hlt #0xf000" : "+r"(x0) : "r"(x1) : "memory");
    return (long)x0;
}
#elif defined(__riscv) && __riscv_xlen == 64
/* The RISC-V semihosting sequence: slli x0, x0, 0x1f; ebreak; srai x0,
 * x0, 7 - uncompressed (the markers are what tell it from a debugger's
 * breakpoint) and within one page, hence a function of its own, 16-byte
 * aligned, that nothing (no compiler, no linker relaxation) rearranges.
 * a0 = op, a1 = arg; the result comes back in a0. */
long riscv_semihost_call(unsigned long op, void *arg);
__asm__(".pushsection .text.riscv_semihost_call, \"ax\"\n"
        ".option push\n"
        ".option norvc\n"
        ".option norelax\n"
        ".balign 16\n"
        ".globl riscv_semihost_call\n"
        "riscv_semihost_call:\n"
        "    slli x0, x0, 0x1f\n"
        "    ebreak\n"
        "    srai x0, x0, 7\n"
        "    ret\n"
        ".option pop\n"
        ".popsection");

static long semihost(unsigned long op, void *arg)
{
    return riscv_semihost_call(op, arg);
}
#else
#error "drivers/semihosting.c speaks the AArch64 (HLT #0xF000) and RV64 (EBREAK) flavours only"
#endif

void semihosting_exit(int status)
{
    /* SYS_EXIT on a 64-bit target takes a block: reason, then the status
     * (subcode). */
    uint64_t block[2] = { ADP_STOPPED_APPLICATION_EXIT, (uint64_t)(int64_t)status };
    semihost(SYS_EXIT, block);
}

#define SYS_GET_CMDLINE             0x15

int semihosting_cmdline(char *buf, unsigned long size)
{
    /* The block: the buffer, and its size in; the length written out. */
    uint64_t block[2] = { (uintptr_t)buf, size };
    if (size == 0 || semihost(SYS_GET_CMDLINE, block) != 0)
        return -1;
    buf[block[1] < size ? block[1] : size - 1] = '\0';
    return 0;
}

unsigned semihosting_cores_wanted(unsigned most)
{
    static unsigned wanted;     /* 0: not read yet */
    if (wanted == 0) {
        char line[128];
        const char *arg;
        wanted = most;
        if (semihosting_cmdline(line, sizeof line) == 0 && (arg = strstr(line, "cores=")) != NULL) {
            long n = strtol(arg + 6, NULL, 10);
            if (n >= 1 && n <= (long)most)
                wanted = (unsigned)n;
        }
    }
    return wanted;
}
