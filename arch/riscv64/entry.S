/*
 * First instructions of every hart, in S-mode, MMU off, straight from OpenSBI.
 *
 * Boot hart (whichever won OpenSBI's lottery): a0 = hart id, a1 = DTB.
 * Started harts (sbi_hart_start): a0 = hart id, a1 = our opaque = logical id.
 * Each hart sets up what C needs and cannot do itself (gp, FP, a stack, a
 * trap vector, its per-core pointer) and then calls into start.c.
 */
#include "layout.h"

    /* No linker relaxation in bring-up code: it would rewrite `la` into
     * gp-relative adds, which only work once gp is set. */
    .option norelax

/* What any C needs of a hart's own registers (no memory touched). Uses t0. */
.macro setup_regs
    /* Nothing may interrupt bring-up; kernel/ unmasks when it wants to. */
    csrci   sstatus, SSTATUS_SIE
    csrw    sie, zero
    la      gp, __global_pointer$
    /* TLS comes later from kernel/boot.c; until then tp points nowhere. */
    li      tp, 0
    /* FP on before any C: GCC uses FP registers in memcpy and friends. */
    li      t0, SSTATUS_FS_MASK
    csrc    sstatus, t0
    li      t0, SSTATUS_FS_INIT
    csrs    sstatus, t0
    fscsr   zero
.endm
    .section .text.boot, "ax"
    .globl _start
_start:
    /* S-mode or M-mode? Reading mstatus traps in S-mode (the SBI firmware
     * hands the illegal instruction back to stvec: label 1 below) and just
     * works in M-mode, where hive cannot run: there is no SBI to start
     * harts, set timers or send IPIs. One trap per boot; a0/a1 survive. */
    la      t0, 1f
    csrw    stvec, t0
    csrr    t0, mstatus
    j       mmode_entry
    .balign 4                       /* stvec's base: the low 2 bits are its mode */
1:
    /* One hart boots; any later arrival here is a hart we started. OpenSBI
     * before 1.3 marks a hart START_PENDING before it stores the address
     * and argument the hart is to start at; a hart that reaches its wait
     * late (its vCPU thread descheduled on a loaded host, or a real hart
     * slow through the firmware) sees START_PENDING at once and leaves
     * with the defaults from boot - this entry, and the DTB in a1 instead
     * of our logical id. Booting a second time would clear .bss under the
     * running cores; such a hart joins as the secondary it was started as. */
    la      t0, boot_claimed
    li      t1, 1
    amoswap.w.aq t1, t1, (t0)
    bnez    t1, raced_start
    mv      s0, a0                  /* hart id, for hive_kernel_main */
    mv      s2, a1                  /* the device tree, for hive_machine_probe */
    li      s1, 0
    setup_regs

    /* Copy .data only if the loader left it elsewhere (QEMU does not). */
    la      t0, __data_source
    la      t1, __data_start
    la      t2, __data_end
    beq     t0, t1, 2f
1:  bgeu    t1, t2, 2f
    ld      t3, 0(t0)
    sd      t3, 0(t1)
    addi    t0, t0, 8
    addi    t1, t1, 8
    j       1b
2:
    /* The copy wrote the claim's initial 0 back: claim it again. (A board
     * whose loader leaves .data elsewhere must not start a hart into this
     * entry before here; none that hive supports does.) */
    la      t0, boot_claimed
    li      t1, 1
    sw      t1, 0(t0)
    /* What the machine has (kernel/machine.c), before .bss is cleared: .bss
     * and the stacks in it may lie beyond the RAM there is, and nothing of
     * it is touched before the answer. On a stack in .data; a trap here
     * (a device tree that points past the RAM there is) is reported and
     * ends the run rather than re-entering _start. */
    la      t0, probe_trapped
    csrw    stvec, t0
    la      sp, hive_machine_probe_stack
    li      t0, RV_PROBE_STACK
    add     sp, sp, t0
    mv      a0, s2
    call    hive_machine_probe
    /* Same per-hart set-up as a started hart, for logical id 0. */
    jal     ra, hart_setup_early
    /* .bss holds stack 0, so clear it before the first push. Once, here:
     * started harts find their data already live. */
    la      t0, __bss_start
    la      t1, __bss_end
3:  bgeu    t0, t1, 4f
    sd      zero, 0(t0)
    addi    t0, t0, 8
    j       3b
4:
    jal     ra, hart_setup_stack
    mv      a0, s0
    tail    riscv_boot_main         /* start.c; never returns */

/*
 * A started hart that came in at _start (see above): a0 = its hart id, a1
 * is not ours. Its logical id is the slot of hive_cpus holding its hart id:
 * kernel/boot.c stores hw_id, then a full fence, then asks the firmware to
 * start the hart, and the firmware's START_PENDING, which this hart saw
 * before leaving, comes after that. The fence here orders our loads after
 * that observation. Slots are handed out in increasing order and each
 * before its start, so the first slot from 1 that holds this hart id is
 * this hart's, even for hart id 0 (later slots may still read 0).
 */
raced_start:
    fence   rw, rw
    la      t0, hive_cpus
    li      t1, 1
    li      t2, HIVE_MAX_CORES
1:  bgeu    t1, t2, 3f
    li      t3, RV_CPU_SIZE
    mul     t3, t1, t3
    add     t3, t0, t3
    ld      t3, RV_CPU_HW_ID(t3)
    beq     t3, a0, 2f
    addi    t1, t1, 1
    j       1b
2:
    mv      a1, t1
    j       arch_secondary_entry
3:
    /* No slot: the boot core never started this hart. Stay out of the way;
     * the boot core reports any core it started that does not arrive. */
    wfi
    j       3b

    .globl arch_secondary_entry
arch_secondary_entry:
    mv      s0, a0                  /* hart id */
    mv      s1, a1                  /* logical id */
    jal     ra, hart_setup_early
    jal     ra, hart_setup_stack
    mv      a0, s1
    tail    riscv_secondary_main    /* start.c; never returns */

/*
 * Entered in M-mode (QEMU -bios none, or a board with no SBI firmware): say
 * so and stop. Without firmware every hart arrives here; the first to swap
 * the word below reports (with stack 0 and the usual per-hart set-up, which
 * M-mode can do too: its CSR accesses reach the same state), the others
 * wait for good. Any M-mode trap lands in the same wait, not at mtvec's
 * reset value. start.c's riscv_mmode_entry prints and ends through the
 * board's exit (QEMU: the test finisher, plain MMIO, works from M-mode).
 */
mmode_entry:
    la      t0, mmode_halt
    csrw    mtvec, t0
    la      t0, riscv_mmode_reporter
    li      t1, 1
    amoswap.w t1, t1, (t0)
    bnez    t1, mmode_halt
    li      s1, 0
    jal     ra, hart_setup_early
    jal     ra, hart_setup_stack
    tail    riscv_mmode_entry

    .balign 4                       /* stvec's base */
probe_trapped:
    /* The probe's own stack again (whatever sp the trap left), then a
     * panic line and the board's exit: start.c. */
    la      sp, hive_machine_probe_stack
    li      t0, RV_PROBE_STACK
    add     sp, sp, t0
    csrr    a0, scause
    csrr    a1, sepc
    csrr    a2, stval
    tail    riscv_probe_trapped

    .balign 4                       /* mtvec's base, as stvec's */
mmode_halt:
    wfi
    j       mmode_halt

    /* In .data, not .bss: the loader writes its 0; .bss is not cleared yet.
     * riscv_mmode_reporter stays 0 on the S-mode path (start.c's
     * riscv_entered_in_mmode reads it). */
    .pushsection .data
    .balign 4
    .globl riscv_mmode_reporter
riscv_mmode_reporter:
    .word   0
boot_claimed:
    .word   0
    .popsection

/*
 * Per-hart registers, for logical id s1. Uses t0 and t1.
 */
hart_setup_early:
    setup_regs
    /* sscratch = &hive_cpus[s1] before stvec: trap.S finds its trap stack
     * through it. The boot hart's store is wiped by the .bss clear, which
     * leaves the same id, 0. */
    li      t1, RV_CPU_SIZE
    mul     t0, s1, t1
    la      t1, hive_cpus
    add     t0, t0, t1
    sw      s1, 0(t0)               /* id: the block's first field (start.c checks) */
    csrw    sscratch, t0
    la      t0, riscv_trap_entry    /* trap.S; aligned, so direct mode */
    csrw    stvec, t0
    ret

/*
 * sp = top of hive_stacks[s1]. After the .bss clear, since the stacks live
 * there.
 */
hart_setup_stack:
    addi    t0, s1, 1
    li      t1, RV_STACK_SLOT
    mul     t0, t0, t1
    la      sp, hive_stacks
    add     sp, sp, t0
    ret
