#ifndef HIVE_RISCV64_TRAP_H
#define HIVE_RISCV64_TRAP_H

#include "layout.h"

/* What trap.S saves: x[n - 1] is register xn; x[1] is sp before the trap. */
struct riscv_frame {
    unsigned long x[RV_FRAME_REGS];
    unsigned long sepc, sstatus, scause, stval;
};

_Static_assert(sizeof(struct riscv_frame) == RV_FRAME_SIZE, "trap.S frame layout");

#endif
