/*
 * The trap frame: what trap.S saves on this hart's trap stack and what the
 * C handlers read. One layout, named once here for both the assembly (the
 * RV_FRAME_* offsets) and C (the struct).
 *
 * Why #defines checked by _Static_assert, not a generated asm-offsets
 * header: generating one means compiling a C file to assembly with the
 * image's exact flags and parsing compiler-specific output in a build step,
 * for a handful of fields. The asserts below give the same guarantee - the
 * assembly and the struct cannot disagree without the build failing - in
 * every C file that includes this header, with nothing extra to build.
 */
#ifndef HIVE_RISCV64_FRAME_H
#define HIVE_RISCV64_FRAME_H

#define RV_FRAME_X(n)     ((n) * 8)     /* x0..x31 */
#define RV_FRAME_SEPC     (32 * 8)
#define RV_FRAME_SSTATUS  (33 * 8)
#define RV_FRAME_SCAUSE   (34 * 8)
#define RV_FRAME_STVAL    (35 * 8)
#define RV_FRAME_F(i)     (36 * 8 + (i) * 8)    /* the caller-saved FP registers */
#define RV_FRAME_F_COUNT  20
#define RV_FRAME_FCSR     RV_FRAME_F(RV_FRAME_F_COUNT)
#define RV_FRAME_SIZE     RV_FRAME_F(RV_FRAME_F_COUNT + 2)  /* padded: sp stays 16-byte aligned */

#ifndef __ASSEMBLER__
#include <stddef.h>

struct riscv_frame {
    /* x[n] is register xn. x[2] is sp before the trap. x[0] (zero) and
     * x[3] (gp, which trap.S needs before it can save anything) hold 0. */
    unsigned long x[32];
    unsigned long sepc, sstatus, scause, stval;
    /* Interrupts only (a fault never returns, so nothing needs them back):
     * ft0-ft7, fa0-fa7, ft8-ft11 in that order, and fcsr. The callee-saved
     * fs0-fs11 are preserved by the C handlers themselves. */
    unsigned long f[RV_FRAME_F_COUNT];
    unsigned long fcsr;
    unsigned long pad;
};

_Static_assert(offsetof(struct riscv_frame, x) == RV_FRAME_X(0), "frame: x");
_Static_assert(sizeof(((struct riscv_frame *)0)->x) == RV_FRAME_X(32), "frame: x");
_Static_assert(offsetof(struct riscv_frame, sepc) == RV_FRAME_SEPC, "frame: sepc");
_Static_assert(offsetof(struct riscv_frame, sstatus) == RV_FRAME_SSTATUS, "frame: sstatus");
_Static_assert(offsetof(struct riscv_frame, scause) == RV_FRAME_SCAUSE, "frame: scause");
_Static_assert(offsetof(struct riscv_frame, stval) == RV_FRAME_STVAL, "frame: stval");
_Static_assert(offsetof(struct riscv_frame, f) == RV_FRAME_F(0), "frame: f");
_Static_assert(offsetof(struct riscv_frame, fcsr) == RV_FRAME_FCSR, "frame: fcsr");
_Static_assert(sizeof(struct riscv_frame) == RV_FRAME_SIZE, "frame: size");
_Static_assert(RV_FRAME_SIZE % 16 == 0, "frame: sp stays 16-byte aligned");
#endif

#endif
