/*
 * The one trap vector (stvec, direct mode) of every hart.
 *
 * Every trap saves the register file on this core's own trap stack, never
 * the interrupted one: after a stack overflow sp points into an unmapped
 * guard page, and a save there would fault again, forever. Then:
 *  - a fault (scause >= 0) goes to trap.c, which prints the frame and never
 *    returns;
 *  - an interrupt (scause < 0) also saves the caller-saved FP registers -
 *    handlers are ordinary C, which may use them - calls riscv_interrupt
 *    (irq.c) and returns to the interrupted code with sret. Interrupts stay
 *    masked throughout (sstatus.SIE is cleared on entry and set again by
 *    sret from SPIE), so handlers never nest and one trap stack per core is
 *    enough; a fault inside a handler reuses its top, but never returns.
 *
 * Getting there takes two registers before anything is saved: sp (parked in
 * sscratch, which then hands the per-core pointer back) and gp, which holds
 * the link-time constant __global_pointer$ on every hart and is reloaded
 * below. The dump therefore shows no gp. No relaxation anywhere here: the
 * linker would turn `la` into gp-relative adds while gp is clobbered.
 */
#include "layout.h"

    .option norelax
    .section .text.trap, "ax"
    .balign 4                       /* stvec's low 2 bits select the mode */
    .globl riscv_trap_entry
riscv_trap_entry:
    csrrw   sp, sscratch, sp        /* sp = this core's hive_cpu; sscratch = old sp */
    lwu     gp, 0(sp)               /* its id (first field, start.c checks) */
    addi    gp, gp, 1
    slli    gp, gp, RV_TRAP_STACK_SHIFT
    la      sp, riscv_trap_stacks
    add     sp, sp, gp              /* top of riscv_trap_stacks[id] */
    addi    sp, sp, -RV_FRAME_SIZE
    sd      x1, 0*8(sp)
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
    sd      zero, 2*8(sp)           /* gp: not saved, see above */

    /* The interrupted sp, and sscratch back to &hive_cpus[id]. */
    csrr    t0, sscratch
    sd      t0, 1*8(sp)
    srli    t0, gp, RV_TRAP_STACK_SHIFT
    addi    t0, t0, -1
    li      t1, RV_CPU_SIZE
    mul     t0, t0, t1
    la      t1, hive_cpus
    add     t0, t0, t1
    csrw    sscratch, t0

    csrr    t0, sepc
    sd      t0, RV_FRAME_SEPC(sp)
    csrr    t0, sstatus
    sd      t0, RV_FRAME_SSTATUS(sp)
    csrr    t0, scause
    sd      t0, RV_FRAME_SCAUSE(sp)
    csrr    t0, stval
    sd      t0, RV_FRAME_STVAL(sp)

    la      gp, __global_pointer$   /* C needs it (relaxed gp-relative accesses) */
    ld      t0, RV_FRAME_SCAUSE(sp)
    bltz    t0, interrupt           /* scause's sign bit marks an interrupt */
    mv      a0, sp
    call    riscv_trap              /* trap.c; never returns */
1:  wfi
    j       1b

interrupt:
    addi    sp, sp, -RV_FP_SAVE_SIZE
    fsd     ft0, 0*8(sp)
    fsd     ft1, 1*8(sp)
    fsd     ft2, 2*8(sp)
    fsd     ft3, 3*8(sp)
    fsd     ft4, 4*8(sp)
    fsd     ft5, 5*8(sp)
    fsd     ft6, 6*8(sp)
    fsd     ft7, 7*8(sp)
    fsd     fa0, 8*8(sp)
    fsd     fa1, 9*8(sp)
    fsd     fa2, 10*8(sp)
    fsd     fa3, 11*8(sp)
    fsd     fa4, 12*8(sp)
    fsd     fa5, 13*8(sp)
    fsd     fa6, 14*8(sp)
    fsd     fa7, 15*8(sp)
    fsd     ft8, 16*8(sp)
    fsd     ft9, 17*8(sp)
    fsd     ft10, 18*8(sp)
    fsd     ft11, 19*8(sp)
    frcsr   t0
    sd      t0, 20*8(sp)
    call    riscv_interrupt         /* irq.c */
    ld      t0, 20*8(sp)
    fscsr   t0
    fld     ft0, 0*8(sp)
    fld     ft1, 1*8(sp)
    fld     ft2, 2*8(sp)
    fld     ft3, 3*8(sp)
    fld     ft4, 4*8(sp)
    fld     ft5, 5*8(sp)
    fld     ft6, 6*8(sp)
    fld     ft7, 7*8(sp)
    fld     fa0, 8*8(sp)
    fld     fa1, 9*8(sp)
    fld     fa2, 10*8(sp)
    fld     fa3, 11*8(sp)
    fld     fa4, 12*8(sp)
    fld     fa5, 13*8(sp)
    fld     fa6, 14*8(sp)
    fld     fa7, 15*8(sp)
    fld     ft8, 16*8(sp)
    fld     ft9, 17*8(sp)
    fld     ft10, 18*8(sp)
    fld     ft11, 19*8(sp)
    addi    sp, sp, RV_FP_SAVE_SIZE

    /* Back to the interrupted code: sepc (no handler changes it, but a
     * reload costs nothing), every register but gp - which holds
     * __global_pointer$ there too - and sp last, since it addresses the frame. */
    ld      t0, RV_FRAME_SEPC(sp)
    csrw    sepc, t0
    ld      x1, 0*8(sp)
    ld      x4, 3*8(sp)
    ld      x5, 4*8(sp)
    ld      x6, 5*8(sp)
    ld      x7, 6*8(sp)
    ld      x8, 7*8(sp)
    ld      x9, 8*8(sp)
    ld      x10, 9*8(sp)
    ld      x11, 10*8(sp)
    ld      x12, 11*8(sp)
    ld      x13, 12*8(sp)
    ld      x14, 13*8(sp)
    ld      x15, 14*8(sp)
    ld      x16, 15*8(sp)
    ld      x17, 16*8(sp)
    ld      x18, 17*8(sp)
    ld      x19, 18*8(sp)
    ld      x20, 19*8(sp)
    ld      x21, 20*8(sp)
    ld      x22, 21*8(sp)
    ld      x23, 22*8(sp)
    ld      x24, 23*8(sp)
    ld      x25, 24*8(sp)
    ld      x26, 25*8(sp)
    ld      x27, 26*8(sp)
    ld      x28, 27*8(sp)
    ld      x29, 28*8(sp)
    ld      x30, 29*8(sp)
    ld      x31, 30*8(sp)
    ld      sp, 1*8(sp)
    sret
