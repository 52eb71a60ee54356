/*
 * The EL1 vector table (VBAR_EL1, the same on every core). Each entry saves
 * x0/x1 on the exception stack (SP_EL1), puts its number (group * 4 + type)
 * in x1 and joins one common path that saves the rest and calls
 * aarch64_exception(frame, kind). If that returns (a fixed-up trap), the
 * frame, possibly modified, is restored.
 *
 * Groups: 0 current EL on SP_EL0 (the kernel), 1 current EL on SP_EL1 (an
 * exception handler), 2 lower EL AArch64, 3 lower EL AArch32.
 * Types: 0 synchronous, 1 IRQ, 2 FIQ, 3 SError.
 *
 * The one expected asynchronous exception, an IRQ taken from the kernel
 * (kind 1), has a path of its own: irq_common saves only what a C call may
 * clobber - x0-x18, x30, and all 32 FP/SIMD registers with FPCR/FPSR, since
 * GCC uses SIMD registers in ordinary code (memcpy, struct copies) - plus
 * ELR/SPSR, then calls aarch64_irq(). The callee-saved x19-x29 are preserved
 * by aarch64_irq itself, as for any C call; v8-v15 are not, whole: a callee
 * need only preserve their low 64 bits (d8-d15), and the interrupted code
 * may hold 128-bit values in them.
 *
 * It runs on the exception stack (SP_EL1), which the CPU selects on entry:
 * the interrupted code's stack may be close to its guard page, and a
 * handler's depth should not have to be budgeted into every stack the
 * scheduler hands out. One stack per core is enough because handlers never
 * nest: PSTATE.I stays set from the exception entry until the ERET (an IRQ
 * from SP_EL1, kind 5, would mean someone unmasked inside a handler, and
 * is reported as unexpected).
 */
#include "aarch64.h"

.macro ventry kind
    .balign 0x80
    sub     sp, sp, #FRAME_SIZE
    stp     x0, x1, [sp, #0]
    mov     x1, #\kind
    b       exc_common
.endm

.macro virq
    .balign 0x80
    sub     sp, sp, #IRQ_FRAME_SIZE
    stp     x0, x1, [sp, #0]
    b       irq_common
.endm

    .text
    .balign 2048
    .global aarch64_vectors
aarch64_vectors:
    ventry 0
    virq                        /* kind 1: IRQ from the kernel on SP_EL0 */
    .irp kind, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15
    ventry \kind
    .endr

    .type irq_common, %function
irq_common:
    stp     x2, x3, [sp, #16]
    stp     x4, x5, [sp, #32]
    stp     x6, x7, [sp, #48]
    stp     x8, x9, [sp, #64]
    stp     x10, x11, [sp, #80]
    stp     x12, x13, [sp, #96]
    stp     x14, x15, [sp, #112]
    stp     x16, x17, [sp, #128]
    stp     x18, x30, [sp, #144]
    mrs     x0, elr_el1
    mrs     x1, spsr_el1
    stp     x0, x1, [sp, #IRQ_FRAME_ELR]
    mrs     x0, fpcr
    mrs     x1, fpsr
    stp     x0, x1, [sp, #IRQ_FRAME_FPCR]
    add     x0, sp, #IRQ_FRAME_V
    stp     q0, q1, [x0, #0]
    stp     q2, q3, [x0, #32]
    stp     q4, q5, [x0, #64]
    stp     q6, q7, [x0, #96]
    stp     q8, q9, [x0, #128]
    stp     q10, q11, [x0, #160]
    stp     q12, q13, [x0, #192]
    stp     q14, q15, [x0, #224]
    stp     q16, q17, [x0, #256]
    stp     q18, q19, [x0, #288]
    stp     q20, q21, [x0, #320]
    stp     q22, q23, [x0, #352]
    stp     q24, q25, [x0, #384]
    stp     q26, q27, [x0, #416]
    stp     q28, q29, [x0, #448]
    stp     q30, q31, [x0, #480]

    bl      aarch64_irq

    add     x0, sp, #IRQ_FRAME_V
    ldp     q0, q1, [x0, #0]
    ldp     q2, q3, [x0, #32]
    ldp     q4, q5, [x0, #64]
    ldp     q6, q7, [x0, #96]
    ldp     q8, q9, [x0, #128]
    ldp     q10, q11, [x0, #160]
    ldp     q12, q13, [x0, #192]
    ldp     q14, q15, [x0, #224]
    ldp     q16, q17, [x0, #256]
    ldp     q18, q19, [x0, #288]
    ldp     q20, q21, [x0, #320]
    ldp     q22, q23, [x0, #352]
    ldp     q24, q25, [x0, #384]
    ldp     q26, q27, [x0, #416]
    ldp     q28, q29, [x0, #448]
    ldp     q30, q31, [x0, #480]
    ldp     x0, x1, [sp, #IRQ_FRAME_FPCR]
    msr     fpcr, x0
    msr     fpsr, x1
    ldp     x0, x1, [sp, #IRQ_FRAME_ELR]
    msr     elr_el1, x0
    msr     spsr_el1, x1
    ldp     x18, x30, [sp, #144]
    ldp     x16, x17, [sp, #128]
    ldp     x14, x15, [sp, #112]
    ldp     x12, x13, [sp, #96]
    ldp     x10, x11, [sp, #80]
    ldp     x8, x9, [sp, #64]
    ldp     x6, x7, [sp, #48]
    ldp     x4, x5, [sp, #32]
    ldp     x2, x3, [sp, #16]
    ldp     x0, x1, [sp, #0]
    add     sp, sp, #IRQ_FRAME_SIZE
    eret
    .size irq_common, . - irq_common

    .type exc_common, %function
exc_common:
    stp     x2, x3, [sp, #16]
    stp     x4, x5, [sp, #32]
    stp     x6, x7, [sp, #48]
    stp     x8, x9, [sp, #64]
    stp     x10, x11, [sp, #80]
    stp     x12, x13, [sp, #96]
    stp     x14, x15, [sp, #112]
    stp     x16, x17, [sp, #128]
    stp     x18, x19, [sp, #144]
    stp     x20, x21, [sp, #160]
    stp     x22, x23, [sp, #176]
    stp     x24, x25, [sp, #192]
    stp     x26, x27, [sp, #208]
    stp     x28, x29, [sp, #224]
    mrs     x2, sp_el0
    stp     x30, x2, [sp, #240]
    mrs     x2, elr_el1
    mrs     x3, spsr_el1
    stp     x2, x3, [sp, #FRAME_ELR]
    mrs     x2, esr_el1
    mrs     x3, far_el1
    stp     x2, x3, [sp, #FRAME_ESR]
    mov     x0, sp
    bl      aarch64_exception

    ldp     x2, x3, [sp, #FRAME_ELR]
    msr     elr_el1, x2
    msr     spsr_el1, x3
    ldp     x30, x2, [sp, #240]
    msr     sp_el0, x2
    ldp     x28, x29, [sp, #224]
    ldp     x26, x27, [sp, #208]
    ldp     x24, x25, [sp, #192]
    ldp     x22, x23, [sp, #176]
    ldp     x20, x21, [sp, #160]
    ldp     x18, x19, [sp, #144]
    ldp     x16, x17, [sp, #128]
    ldp     x14, x15, [sp, #112]
    ldp     x12, x13, [sp, #96]
    ldp     x10, x11, [sp, #80]
    ldp     x8, x9, [sp, #64]
    ldp     x6, x7, [sp, #48]
    ldp     x4, x5, [sp, #32]
    ldp     x2, x3, [sp, #16]
    ldp     x0, x1, [sp, #0]
    add     sp, sp, #FRAME_SIZE
    eret
    .size exc_common, . - exc_common
