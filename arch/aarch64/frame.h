/*
 * The exception frame: what vectors.S saves on the exception stack for every
 * exception (IRQ or not) and what the C handlers read. One layout, named
 * once here for both the assembly (the FRAME_* offsets) and C (the struct).
 *
 * Why #defines checked by _Static_assert, not a generated asm-offsets
 * header: generating one means compiling a C file to assembly with the
 * image's exact flags and parsing compiler-specific output in a build step,
 * for a dozen fields. The asserts below give the same guarantee - the
 * assembly and the struct cannot disagree without the build failing - in
 * every C file that includes this header, with nothing extra to build.
 *
 * Everything is saved, the callee-saved registers too: aarch64_exception
 * prints them all, and may return (a fixed-up trap) after its C callees
 * used any register the AAPCS lets them. All 32 vector registers are saved
 * in full, since a callee preserves only the low 64 bits of v8-v15.
 */
#ifndef HIVE_ARCH_AARCH64_FRAME_H
#define HIVE_ARCH_AARCH64_FRAME_H

#define FRAME_X(n)      ((n) * 8)       /* x0..x30 */
#define FRAME_SP_EL0    (31 * 8)        /* the kernel's stack pointer */
#define FRAME_ELR       (32 * 8)
#define FRAME_SPSR      (33 * 8)
#define FRAME_ESR       (34 * 8)        /* ESR/FAR: meaningful for synchronous */
#define FRAME_FAR       (35 * 8)        /* exceptions and SErrors only */
#define FRAME_FPCR      (36 * 8)
#define FRAME_FPSR      (37 * 8)
#define FRAME_Q(n)      (38 * 8 + (n) * 16) /* q0..q31, 16-byte aligned */
#define FRAME_SIZE      FRAME_Q(32)     /* a multiple of 16, as sp must be */

#ifndef __ASSEMBLER__
#include <stddef.h>
#include <stdint.h>

struct aarch64_frame {
    uint64_t x[31];
    uint64_t sp_el0;
    uint64_t elr, spsr, esr, far;
    uint64_t fpcr, fpsr;
    uint64_t q[32][2];      /* q[n] is qn: low, then high 64 bits */
};

_Static_assert(offsetof(struct aarch64_frame, x) == FRAME_X(0), "frame: x");
_Static_assert(sizeof(((struct aarch64_frame *)0)->x) == FRAME_X(31), "frame: x");
_Static_assert(offsetof(struct aarch64_frame, sp_el0) == FRAME_SP_EL0, "frame: sp_el0");
_Static_assert(offsetof(struct aarch64_frame, elr) == FRAME_ELR, "frame: elr");
_Static_assert(offsetof(struct aarch64_frame, spsr) == FRAME_SPSR, "frame: spsr");
_Static_assert(offsetof(struct aarch64_frame, esr) == FRAME_ESR, "frame: esr");
_Static_assert(offsetof(struct aarch64_frame, far) == FRAME_FAR, "frame: far");
_Static_assert(offsetof(struct aarch64_frame, fpcr) == FRAME_FPCR, "frame: fpcr");
_Static_assert(offsetof(struct aarch64_frame, fpsr) == FRAME_FPSR, "frame: fpsr");
_Static_assert(offsetof(struct aarch64_frame, q) == FRAME_Q(0), "frame: q");
_Static_assert(FRAME_Q(0) % 16 == 0, "frame: q registers 16-byte aligned for stp q");
_Static_assert(sizeof(struct aarch64_frame) == FRAME_SIZE, "frame: size");
_Static_assert(FRAME_SIZE % 16 == 0, "frame: sp stays 16-byte aligned");
_Static_assert(FRAME_SP_EL0 == FRAME_X(30) + 8 && FRAME_SPSR == FRAME_ELR + 8 &&
               FRAME_FAR == FRAME_ESR + 8 && FRAME_FPSR == FRAME_FPCR + 8,
               "frame: vectors.S saves these with one stp a pair");
#endif

#endif
