/*
 * Entry of every core: the boot core at _start (first byte of the image), the
 * others at arch_secondary_entry with their logical id in x0 (PSCI CPU_ON's
 * context). Until the MMU is on, every data access is Device-nGnRnE: only
 * aligned accesses and no exclusives, hence assembly up to mmu_enable (and
 * mmu.c, built with -mstrict-align).
 */
#include "aarch64.h"
#include "regs.h"

/* Address of a symbol within +/-4 GiB, without a literal pool load. */
.macro adr_l reg, sym
    adrp    \reg, \sym
    add     \reg, \reg, :lo12:\sym
.endm

/* SP_EL1 = top of exception stack \id, SP_EL0 = top of kernel stack \id,
 * and run on SP_EL0 from here on. */
.macro set_stacks id, t0, t1
    adr_l   \t0, hive_irq_stacks
    mov     \t1, #AARCH64_IRQ_STACK_SLOT
    madd    \t0, \id, \t1, \t0
    add     \t0, \t0, \t1
    sub     \t0, \t0, #(AARCH64_IRQ_STACK_SLOT - AARCH64_IRQ_STACK_TOP)
    msr     spsel, #1
    mov     sp, \t0
    adr_l   \t0, hive_stacks
    ldr     \t1, =AARCH64_STACK_SLOT
    madd    \t0, \id, \t1, \t0
    add     \t0, \t0, \t1
    msr     spsel, #0
    mov     sp, \t0
.endm

    .section .text.boot, "ax"
    .global _start
    .type _start, %function
_start:
    msr     daifset, #0xf
    /* What the firmware handed over (a device tree's address, or 0). */
    mov     x21, x0
    /* Hardware id = affinity fields Aff3..Aff0 of MPIDR_EL1
     * (AARCH64_MPIDR_AFFINITY, built in two moves). */
    mrs     x19, mpidr_el1
    mov     x1, #0xffffff
    movk    x1, #0xff, lsl #32
    and     x19, x19, x1
    bl      el_to_el1
    mov     x20, x0
    bl      cpu_early

    /* .data: only when a loader left it at another address than it runs at. */
    adr_l   x0, __data_start
    adr_l   x1, __data_end
    adr_l   x2, __data_source
    cmp     x0, x2
    b.eq    2f
1:  cmp     x0, x1
    b.hs    2f
    ldp     x3, x4, [x2], #16
    stp     x3, x4, [x0], #16
    b       1b
2:
    /* What the machine has (kernel/machine.c), before .bss is cleared: .bss
     * and the stacks in it may lie beyond the RAM there is. On a stack in
     * .data; the result lands in .data too. */
    adr_l   x0, hive_machine_probe_stack
    add     x0, x0, #AARCH64_PROBE_STACK
    mov     sp, x0
    mov     x0, x21
    bl      hive_machine_probe
    /* Its stores went to memory (caches are off): discard any stale cached
     * copy an earlier boot stage left, or it could reappear once the
     * caches are on. */
    adr_l   x0, __data_start
    adr_l   x1, __data_end
    bl      dcache_invalidate

    /* .bss, once; it holds every stack, so nothing may be pushed before this. */
    adr_l   x0, __bss_start
    adr_l   x1, __bss_end
    mov     x2, x0
3:  cmp     x2, x1
    b.hs    4f
    stp     xzr, xzr, [x2], #16
    b       3b
4:
    /* The same for the zeros. */
    bl      dcache_invalidate
    dsb     sy          /* invalidation done before the stack (in .bss) is used */

    adr_l   x0, aarch64_entry_el
    str     w20, [x0]
    mov     x0, #0
    set_stacks x0, x1, x2
    /* SErrors are reported from now on: only now is there a stack for the
     * vector to report one on (an SError left pending by an earlier boot
     * stage is taken at this very instruction). */
    msr     daifclr, #4
    bl      aarch64_mmu_build
    bl      mmu_enable
    mov     x0, x19
    bl      hive_kernel_main
    b       arch_halt
    .size _start, . - _start

    .text
    .global arch_secondary_entry
    .type arch_secondary_entry, %function
arch_secondary_entry:
    msr     daifset, #0xf
    mov     x19, x0
    bl      el_to_el1
    bl      cpu_early
    set_stacks x19, x1, x2
    msr     daifclr, #4         /* SErrors reported from now on, as on core 0 */
    bl      mmu_enable
    mov     x0, x19
    bl      hive_kernel_secondary
    b       arch_halt
    .size arch_secondary_entry, . - arch_secondary_entry

/*
 * Invalidate the data cache lines of [x0, x1) to the point of coherency
 * (line size from CTR_EL0.DminLine). Uses no stack. Clobbers x2-x4.
 */
    .type dcache_invalidate, %function
dcache_invalidate:
    mrs     x3, ctr_el0
    ubfx    x3, x3, #16, #4
    mov     x4, #4
    lsl     x3, x4, x3
    sub     x4, x3, #1
    bic     x2, x0, x4
1:  cmp     x2, x1
    b.hs    2f
    dc      ivac, x2
    add     x2, x2, x3
    b       1b
2:  ret
    .size dcache_invalidate, . - dcache_invalidate

/*
 * Leave EL2 for EL1 if entered at EL2 (QEMU with virtualization=on, real
 * boards such as the Raspberry Pi); returns x0 = the EL entered at, at EL1.
 * Uses no stack. Clobbers x0-x2.
 */
    .type el_to_el1, %function
el_to_el1:
    mrs     x0, CurrentEL
    lsr     x0, x0, #2
    cmp     x0, #2
    b.eq    1f
    b.hi    el3_unsupported
    ret
1:  mov     x1, #HCR_EL2_RW
    msr     hcr_el2, x1
    /* EL1 may read the physical counter/timer; virtual == physical. */
    mrs     x1, cnthctl_el2
    orr     x1, x1, #3
    msr     cnthctl_el2, x1
    msr     cntvoff_el2, xzr
    /* EL1 reads of MIDR/MPIDR return these (their reset values are UNKNOWN). */
    mrs     x1, midr_el1
    msr     vpidr_el2, x1
    mrs     x1, mpidr_el1
    msr     vmpidr_el2, x1
    mov     x1, #CPTR_EL2_NO_TRAPS
    msr     cptr_el2, x1
    msr     hstr_el2, xzr
    /* A GICv3 driver at EL1 needs the system-register interface, which only
     * EL2 can grant (ID_AA64PFR0_EL1.GIC != 0 when it exists). */
    mrs     x1, id_aa64pfr0_el1
    ubfx    x1, x1, #24, #4
    cbz     x1, 2f
    mrs     x1, ICC_SRE_EL2
    mov     x2, #ICC_SRE_EL2_SRE_EN
    orr     x1, x1, x2
    msr     ICC_SRE_EL2, x1
2:  ldr     x1, =SCTLR_EL1_MMU_OFF
    msr     sctlr_el1, x1
    mov     x1, #SPSR_EL1H_MASKED
    msr     spsr_el2, x1
    msr     elr_el2, x30        /* "return" to the caller, at EL1 */
    eret
    .size el_to_el1, . - el_to_el1

/*
 * Entered at EL3 (QEMU's secure=on, or a board with no EL3 firmware): hive
 * has no secure monitor and would need one to drop to EL1. Say so and stop
 * with status 1. Nothing is set up yet - no console, no .bss, MMU and caches
 * off - so: stack 0 (its memory, uncleared, is just memory) on SP_EL3; the
 * board's polled UART through hive_console_emergency, which keeps no state;
 * board_exit, semihosting at any EL. Until the MMU is on, memory is Device
 * and faults on unaligned accesses; these paths make only aligned ones.
 * Should board_exit come back (no semihosting), an exception is caught by
 * el3_halt_vectors rather than by whatever VBAR_EL3 held.
 *
 * Every core may be here at once: with no firmware at EL3 nothing holds the
 * secondaries back (QEMU starts them all at _start). With the MMU off there
 * is no atomic to elect one that works on every memory system (exclusives
 * on Device memory are IMPLEMENTATION DEFINED), so the core with affinity
 * 0.0.0.0 - QEMU's first, and the usual boot core - reports, and the others
 * stop at once.
 */
el3_unsupported:
    adr_l   x0, el3_halt_vectors
    msr     vbar_el3, x0
    isb
    mrs     x0, mpidr_el1
    mov     x1, #0xffffff
    movk    x1, #0xff, lsl #32
    tst     x0, x1
    b.ne    el3_halt
    adr_l   x0, hive_stacks
    ldr     x1, =AARCH64_STACK_SLOT
    add     sp, x0, x1
    bl      board_console_init
    adr_l   x0, el3_message
    bl      hive_console_emergency
    mov     w0, #1
    bl      board_exit
el3_halt:
    wfe
    b       el3_halt

    .section .rodata.el3_message, "a"
el3_message:
    .asciz  "hive: entered at EL3; hive runs at EL2 or EL1\n"

    .text
    /* 16 vectors of 128 bytes, 2 KiB aligned (VBAR_EL3's low 11 bits are 0). */
    .balign 2048
el3_halt_vectors:
    .rept   16
    b       el3_halt
    .balign 128
    .endr

/*
 * Per-core state every core needs before C: FP/SIMD on (GCC uses SIMD
 * registers in memcpy and friends), a known SCTLR_EL1 with the MMU off, the
 * vectors, and no per-core block yet. Clobbers x1.
 */
    .type cpu_early, %function
cpu_early:
    mov     x1, #CPACR_EL1_FPEN
    msr     cpacr_el1, x1
    ldr     x1, =SCTLR_EL1_MMU_OFF
    msr     sctlr_el1, x1
    adr_l   x1, aarch64_vectors
    msr     vbar_el1, x1
    msr     tpidr_el1, xzr
    isb                         /* FP enable and VBAR in effect before any C */
    ret
    .size cpu_early, . - cpu_early

/*
 * MMU and caches on with the tables aarch64_mmu_build made (the same ones on
 * every core). Uses no stack and no data: secondaries call it with their
 * caches off. Clobbers x1, x2.
 */
    .type mmu_enable, %function
mmu_enable:
    ldr     x1, =MAIR_EL1_VALUE
    msr     mair_el1, x1
    ldr     x1, =TCR_EL1_VALUE
    mrs     x2, id_aa64mmfr0_el1
    bfi     x1, x2, #TCR_IPS_SHIFT, #3
    msr     tcr_el1, x1
    adr_l   x1, aarch64_l1_table
    msr     ttbr0_el1, x1
    tlbi    vmalle1             /* no translations left over from a loader */
    ic      iallu               /* nor instructions fetched before the image was loaded */
    dsb     sy                  /* those, and the table writes, done before the walker runs */
    isb                         /* MAIR/TCR/TTBR0 in effect before SCTLR turns the MMU on */
    ldr     x1, =SCTLR_EL1_MMU_ON
    msr     sctlr_el1, x1
    isb                         /* fetch what follows through the new mapping */
    ret
    .size mmu_enable, . - mmu_enable
