/*
 * The one trap vector (stvec, direct mode) of every hart.
 *
 * Interrupts stay masked in S-mode today, so every trap that arrives here is
 * a fault: save the whole register file where trap.c can print it, and never
 * return. The frame goes on the interrupted stack: a write into a guard page
 * misses the live stack, so sp is still good. (A real overflow, with sp
 * itself inside the guard, would fault again here; see trap.c.)
 */
#include "layout.h"

    .section .text.trap, "ax"
    .balign 4                       /* stvec's low 2 bits select the mode */
    .globl riscv_trap_entry
riscv_trap_entry:
    addi    sp, sp, -RV_FRAME_SIZE
    sd      x1, 0*8(sp)
    sd      x3, 2*8(sp)
    sd      x4, 3*8(sp)
    sd      x5, 4*8(sp)
    sd      x6, 5*8(sp)
    sd      x7, 6*8(sp)
    sd      x8, 7*8(sp)
    sd      x9, 8*8(sp)
    sd      x10, 9*8(sp)
    sd      x11, 10*8(sp)
    sd      x12, 11*8(sp)
    sd      x13, 12*8(sp)
    sd      x14, 13*8(sp)
    sd      x15, 14*8(sp)
    sd      x16, 15*8(sp)
    sd      x17, 16*8(sp)
    sd      x18, 17*8(sp)
    sd      x19, 18*8(sp)
    sd      x20, 19*8(sp)
    sd      x21, 20*8(sp)
    sd      x22, 21*8(sp)
    sd      x23, 22*8(sp)
    sd      x24, 23*8(sp)
    sd      x25, 24*8(sp)
    sd      x26, 25*8(sp)
    sd      x27, 26*8(sp)
    sd      x28, 27*8(sp)
    sd      x29, 28*8(sp)
    sd      x30, 29*8(sp)
    sd      x31, 30*8(sp)
    /* The sp at the time of the trap, in x2's slot. */
    addi    t0, sp, RV_FRAME_SIZE
    sd      t0, 1*8(sp)
    csrr    t0, sepc
    sd      t0, RV_FRAME_SEPC(sp)
    csrr    t0, sstatus
    sd      t0, RV_FRAME_SSTATUS(sp)
    csrr    t0, scause
    sd      t0, RV_FRAME_SCAUSE(sp)
    csrr    t0, stval
    sd      t0, RV_FRAME_STVAL(sp)

    /* The faulting code may have broken gp; C needs it (relaxation). */
    .option push
    .option norelax
    la      gp, __global_pointer$
    .option pop
    mv      a0, sp
    call    riscv_trap              /* trap.c; never returns */
1:  wfi
    j       1b
