/*
 * The one trap vector (stvec, direct mode) of every hart.
 *
 * Every trap saves the register file in a frame (frame.h) on this core's own
 * trap stack, never the interrupted one: after a stack overflow sp points
 * into an unmapped guard page, and a save there would fault again, forever.
 * Then:
 *  - a fault (scause >= 0) goes to trap.c, which prints the frame and never
 *    returns - except the breakpoint of a semihosting call that nobody
 *    listens to (see unheard_semihosting below), which returns at once;
 *  - an interrupt (scause < 0) also saves the caller-saved FP registers -
 *    handlers are ordinary C, which may use them - calls riscv_interrupt
 *    (irq.c) and returns to the interrupted code with sret. Interrupts stay
 *    masked throughout (sstatus.SIE is cleared on entry and set again by
 *    sret from SPIE), so handlers never nest and one trap stack per core is
 *    enough; a fault inside a handler reuses its top, but never returns.
 *    The fault path saves no FP registers: it has no use for them, and an
 *    FP store there would itself fault if FP being off was the fault.
 *
 * Getting there takes two registers before anything is saved: sp (parked in
 * sscratch, which then hands the per-core pointer back) and gp, which holds
 * the link-time constant __global_pointer$ on every hart and is reloaded
 * below. The dump therefore shows no gp. No relaxation anywhere here: the
 * linker would turn `la` into gp-relative adds while gp is clobbered.
 */
#include "frame.h"
#include "layout.h"

#define CAUSE_BREAKPOINT    3
/* The semihosting sequence's words: slli x0, x0, 0x1f; ebreak; srai x0, x0, 7. */
#define SEMIHOSTING_ENTRY   0x01f01013
#define EBREAK              0x00100073
#define SEMIHOSTING_EXIT    0x40705013

/* \op (sd or ld) of every integer register the frame holds but sp and gp. */
.macro gprs op
    .irp n, 1, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, \
            21, 22, 23, 24, 25, 26, 27, 28, 29, 30, 31
    \op     x\n, RV_FRAME_X(\n)(sp)
    .endr
.endm

/* \op (fsd or fld) of the caller-saved FP registers, in frame.h's order. */
.macro fprs op
    .set    .Lfp_slot, 0
    .irp r, ft0, ft1, ft2, ft3, ft4, ft5, ft6, ft7, fa0, fa1, fa2, fa3, fa4, \
            fa5, fa6, fa7, ft8, ft9, ft10, ft11
    \op     \r, RV_FRAME_F(.Lfp_slot)(sp)
    .set    .Lfp_slot, .Lfp_slot + 1
    .endr
    .if .Lfp_slot != RV_FRAME_F_COUNT
    .error "fprs: the list and RV_FRAME_F_COUNT disagree"
    .endif
.endm

    .option norelax
    .section .text.trap, "ax"
    .balign 4                       /* stvec's low 2 bits select the mode */
    .globl riscv_trap_entry
riscv_trap_entry:
    csrrw   sp, sscratch, sp        /* sp = this core's hive_cpu; sscratch = old sp */
    lwu     gp, 0(sp)               /* its id (first field, start.c checks) */
    addi    gp, gp, 1
    slli    gp, gp, RV_TRAP_STACK_SHIFT
    la      sp, hive_irq_stacks
    add     sp, sp, gp              /* top of hive_irq_stacks[id] */
    addi    sp, sp, -RV_FRAME_SIZE
    gprs    sd
    sd      zero, RV_FRAME_X(0)(sp)
    sd      zero, RV_FRAME_X(3)(sp) /* gp: not saved, see above */

    /* The interrupted sp, and sscratch back to &hive_cpus[id]. */
    csrr    t0, sscratch
    sd      t0, RV_FRAME_X(2)(sp)
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
    li      t1, CAUSE_BREAKPOINT
    beq     t0, t1, unheard_semihosting
fault:
    mv      a0, sp
    call    riscv_trap              /* trap.c; never returns */
1:  wfi
    j       1b

/*
 * A semihosting call (drivers/semihosting.c: slli x0, x0, 0x1f; ebreak;
 * srai x0, x0, 7, 16-byte aligned) with nobody listening - QEMU without
 * -semihosting-config enable=on, a board without a debugger - is a
 * breakpoint: it returns -1 in a0 instead, as the host's absence means, so
 * that a board's exit can go on to its fallback. Here rather than in C, and
 * with nothing stored below the frame: semihosting is an exit path, which
 * may run from a panic on this very trap stack (a fault, an interrupt
 * handler), whose live frames lie below the top; only the frame of the trap
 * it panicked in - never returned to, since exits do not return - shares
 * the space this trap's frame takes.
 * Any other breakpoint is a fault. The three words share the EBREAK's page
 * (the alignment), which its fetch just proved mapped.
 */
unheard_semihosting:
    ld      t0, RV_FRAME_SEPC(sp)
    andi    t1, t0, 15
    li      t2, 4
    bne     t1, t2, fault
    lwu     t1, -4(t0)
    li      t2, SEMIHOSTING_ENTRY
    bne     t1, t2, fault
    lwu     t1, 0(t0)
    li      t2, EBREAK
    bne     t1, t2, fault
    lwu     t1, 4(t0)
    li      t2, SEMIHOSTING_EXIT
    bne     t1, t2, fault
    addi    t0, t0, 4               /* on at the closing marker, a no-op */
    sd      t0, RV_FRAME_SEPC(sp)
    li      t0, -1
    sd      t0, RV_FRAME_X(10)(sp)  /* a0 */
    j       restore

interrupt:
    fprs    fsd
    frcsr   t0
    sd      t0, RV_FRAME_FCSR(sp)
    call    riscv_interrupt         /* irq.c */
    ld      t0, RV_FRAME_FCSR(sp)
    fscsr   t0
    fprs    fld

restore:
    /* Back to the interrupted code: sepc (no interrupt handler changes
     * it; unheard_semihosting moves it on), every register but gp - which
     * holds __global_pointer$ there too - and sp last, since it addresses
     * the frame. */
    ld      t0, RV_FRAME_SEPC(sp)
    csrw    sepc, t0
    /* Drop any load reservation before going back. An LR/SC pair is one
     * hart's state across the trap: the interrupted code's LR may have
     * reserved a word that the handler then changed with a plain store
     * (which need not break this hart's own reservation) or re-reserved
     * with a CAS of its own that failed; the interrupted SC would then
     * succeed on a stale value, and an update would be lost. sret may clear
     * the reservation but need not (the privileged spec leaves it to the
     * implementation and tells trap handlers to clear it), so an SC of our
     * own does: to the frame's x0 slot, which holds zero and is never read
     * back, so it writes nothing that matters if it succeeds. */
    sc.d    zero, zero, (sp)
    gprs    ld
    ld      sp, RV_FRAME_X(2)(sp)
    sret
