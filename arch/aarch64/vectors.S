/*
 * The EL1 vector table (VBAR_EL1, the same on every core). Each entry makes
 * room for the frame (frame.h) on the exception stack, saves x0/x1 there,
 * puts its number (group * 4 + type) in x1 and joins exc_common, the one
 * path that saves the rest, calls C and restores the frame, possibly
 * modified by C, before the ERET.
 *
 * Groups: 0 current EL on SP_EL0 (the kernel), 1 current EL on SP_EL1 (an
 * exception handler), 2 lower EL AArch64, 3 lower EL AArch32.
 * Types: 0 synchronous, 1 IRQ, 2 FIQ, 3 SError.
 *
 * The one expected asynchronous exception, an IRQ taken from the kernel
 * (kind 1), goes to aarch64_irq() (irq.c); every other kind goes to
 * aarch64_exception(frame, kind) (exceptions.c). Both get the same full
 * frame: one layout and one save/restore sequence for every entry costs an
 * IRQ a few more stores than saving only what a C call may clobber, and
 * leaves nothing for the paths to disagree on.
 *
 * It runs on the exception stack (SP_EL1), which the CPU selects on entry:
 * the interrupted code's stack may be close to its guard page, and a
 * handler's depth should not have to be budgeted into every stack the
 * scheduler hands out. One stack per core is enough because handlers never
 * nest: PSTATE.I stays set from the exception entry until the ERET (an IRQ
 * from SP_EL1, kind 5, would mean someone unmasked inside a handler, and
 * is reported as unexpected). FP/SIMD is usable here: cpu_early (entry.S)
 * enables it before it installs this table.
 */
#include "aarch64.h"
#include "frame.h"

/* \op (stp or ldp) of each pair of registers x\a, x\b at its frame slot. */
.macro x_pairs op, a, b, rest:vararg
    \op     x\a, x\b, [sp, #FRAME_X(\a)]
    .ifnb \rest
    x_pairs \op, \rest
    .endif
.endm

/* The same for q\a, q\b. */
.macro q_pairs op, a, b, rest:vararg
    \op     q\a, q\b, [sp, #FRAME_Q(\a)]
    .ifnb \rest
    q_pairs \op, \rest
    .endif
.endm

/*
 * Before anything is stored: would the frame reach into the guard page at
 * the bottom of this core's exception stack (an interrupt handler that
 * recursed or a frame too deep)? The slot is aligned to its size, so sp's
 * offset in it says so: sp starts 16 bytes below the slot's end
 * (AARCH64_IRQ_STACK_TOP), so no sp of this slot reads as offset 0 of the
 * next, and a sp anywhere in the guard reads as an offset below it. x0 is
 * parked in TPIDRRO_EL0 meanwhile, a register nothing else uses. Without
 * this check the save itself would fault, and that fault's save again,
 * forever.
 */
.macro ventry kind
    .balign 0x80
    msr     tpidrro_el0, x0
    mov     x0, sp
    and     x0, x0, #(AARCH64_IRQ_STACK_SLOT - 1)
    subs    x0, x0, #FRAME_SIZE     /* the offset once the frame is pushed */
    b.lo    irq_stack_overflow
    cmp     x0, #AARCH64_IRQ_STACK_GUARD
    b.lo    irq_stack_overflow
    mrs     x0, tpidrro_el0
    sub     sp, sp, #FRAME_SIZE
    stp     x0, x1, [sp, #FRAME_X(0)]
    mov     x1, #\kind
    b       exc_common
.endm

    .text
    .balign 2048
    .global aarch64_vectors
aarch64_vectors:
    .irp kind, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15
    ventry \kind
    .endr

    /* x0/x1 are saved, x1 = kind; the rest of the frame, in frame.h order. */
    .type exc_common, %function
exc_common:
    x_pairs stp, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, \
                 18, 19, 20, 21, 22, 23, 24, 25, 26, 27, 28, 29
    mrs     x2, sp_el0
    stp     x30, x2, [sp, #FRAME_X(30)]
    mrs     x2, elr_el1
    mrs     x3, spsr_el1
    stp     x2, x3, [sp, #FRAME_ELR]
    mrs     x2, esr_el1
    mrs     x3, far_el1
    stp     x2, x3, [sp, #FRAME_ESR]
    mrs     x2, fpcr
    mrs     x3, fpsr
    stp     x2, x3, [sp, #FRAME_FPCR]
    q_pairs stp, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, \
                 16, 17, 18, 19, 20, 21, 22, 23, 24, 25, 26, 27, 28, 29, 30, 31

    cmp     x1, #1                  /* an IRQ from the kernel */
    b.ne    1f
    bl      aarch64_irq
    b       2f
1:  mov     x0, sp                  /* x1 is still the kind */
    bl      aarch64_exception

2:  q_pairs ldp, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, \
                 16, 17, 18, 19, 20, 21, 22, 23, 24, 25, 26, 27, 28, 29, 30, 31
    ldp     x2, x3, [sp, #FRAME_FPCR]
    msr     fpcr, x2
    msr     fpsr, x3
    ldp     x2, x3, [sp, #FRAME_ELR]
    msr     elr_el1, x2
    msr     spsr_el1, x3
    ldp     x30, x2, [sp, #FRAME_X(30)]
    msr     sp_el0, x2
    x_pairs ldp, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, \
                 18, 19, 20, 21, 22, 23, 24, 25, 26, 27, 28, 29
    add     sp, sp, #FRAME_SIZE
    eret
    .size exc_common, . - exc_common

    /* The exception stack ran into its guard. What was on it is lost anyway
     * (the system stops): start again at the top of this core's slot, with
     * the fault's registers as arguments, in C that never returns. */
    .type irq_stack_overflow, %function
irq_stack_overflow:
    mov     x0, sp
    and     x0, x0, #~(AARCH64_IRQ_STACK_SLOT - 1)
    add     x0, x0, #AARCH64_IRQ_STACK_SLOT
    sub     x0, x0, #(AARCH64_IRQ_STACK_SLOT - AARCH64_IRQ_STACK_TOP)
    mov     sp, x0
    mrs     x0, esr_el1
    mrs     x1, elr_el1
    mrs     x2, far_el1
    bl      aarch64_irq_stack_overflow
1:  wfi
    b       1b
    .size irq_stack_overflow, . - irq_stack_overflow
