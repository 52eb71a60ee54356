/*
 * Waiting for work on RV64: the two phases of parking that kernel/port.c
 * builds hive_port_wait from.
 *
 * Phase 1, with Zawrs only: LR.W on the wake word registers a reservation
 * set holding it, and WRS.NTO stalls the hart until that reservation is lost
 * - a store to the word by any other hart, which is the waker's own store,
 * no IPI needed - or an interrupt is pending, enabled or not. It may also
 * return early for no reason, so the caller loops. Unlike aarch64's WFE, no
 * event stream bounds it: kernel/port.c arms the core's timer for the end
 * of the phase (arch_park_phase1 says WRS_NTO). A hart without Zawrs has no
 * phase 1 and goes straight to phase 2. (QEMU's WRS.NTO stalls for no time
 * at all: it ends its translation block and carries on, so there phase 1 is
 * a short spin, as WFE is on QEMU's aarch64.)
 *
 * Phase 2, WFI: until sip & sie is non-zero, whatever sstatus.SIE says.
 *
 * Whether a hart has Zawrs: each hart finds out for itself as it comes up
 * (riscv_park_probe, from start.c), by executing WRS.NTO once with its trap
 * vector pointed just past it. Why a trap rather than the device tree's
 * riscv,isa-extensions:
 *  - it asks the hart that will execute the instruction, not a description
 *    of the board: harts of one board can differ (sifive_u's hart 0 is an
 *    E51), and nothing has to keep the DTB or parse it this early;
 *  - it asks under the firmware's settings, as far as a probe can: QEMU
 *    traps S-mode's WRS.NTO whenever mstatus.TW is set, and the probe then
 *    finds it unusable, whatever the extension list says (a real hart traps
 *    only a stall that outlasts its own bound, which the probe's is not; no
 *    SBI firmware hive runs on sets TW);
 *  - its one failure is harmless: a hart that took the encoding as a no-op
 *    without having Zawrs would make phase 1 a spin, bounded by its timer,
 *    exactly what QEMU's Zawrs does.
 * WRS.NTO cannot stall in the probe: it stalls only while a reservation is
 * held, and the SC.W before it drops any that the hart still has.
 */
#include <stdatomic.h>
#include <stdbool.h>

#include "kernel/kernel.h"
#include "park.h"

/* Written by each hart for itself before it counts as online; read after
 * (by itself, or by another core that counted it: kernel/boot.c's release
 * and acquire on the online count order the two). */
static bool has_zawrs[HIVE_MAX_CORES];

/* Dropping a reservation needs an SC.W to some word; it never succeeds here
 * (no LR.W comes before it), so this is never written. */
static unsigned probe_word;

/* WRS.NTO by its encoding: the image's -march has no Zawrs (every hart runs
 * this file, with or without it), and assemblers older than binutils 2.40
 * know no Zawrs at all. (WRS.STO, the wait bounded by the hart itself, would
 * be 0x01d00073.) */
#define WRS_NTO ".4byte 0x00d00073"

void riscv_park_probe(unsigned id)
{
    unsigned long ok, old_stvec, scratch;
    /* Interrupts are masked (entry.S), so the only trap this can take is the
     * probe's own illegal instruction; taking it leaves sstatus.SIE at 0,
     * where it was. The handler is the instruction after the `li ok, 1`:
     * it only puts the vector back (stvec's base is 4-byte aligned). */
    __asm__ volatile(
        "   csrr    %1, stvec\n"
        "   lla     %2, 1f\n"
        "   csrw    stvec, %2\n"
        "   sc.w    x0, x0, (%3)\n"
        "   li      %0, 0\n"
        "   " WRS_NTO "\n"
        "   li      %0, 1\n"
        "   .balign 4\n"
        "1: csrw    stvec, %1\n"
        : "=&r"(ok), "=&r"(old_stvec), "=&r"(scratch)
        : "r"(&probe_word)
        : "memory");
    has_zawrs[id] = ok;
}

enum arch_park_phase1 arch_park_phase1(unsigned core)
{
    return has_zawrs[core] ? ARCH_PHASE1_WRS_NTO : ARCH_PHASE1_NONE;
}

bool arch_park_shallow(atomic_uint *word, unsigned seen)
{
    if (!has_zawrs[hive_cpu_id()])
        return false;
    unsigned v;
    /* A plain LR.W, no acquire: it only decides whether to wait; the
     * caller's atomic exchange on the word is what consumes a wake. The
     * reservation may outlive the call: the next LR.W replaces it, and no
     * SC.W to the word follows one. */
    __asm__ volatile("lr.w %0, (%1)" : "=r"(v) : "r"(word) : "memory");
    if (v == seen)
        __asm__ volatile(WRS_NTO : : : "memory");
    return true;
}

void arch_park_deep(void)
{
    /* Ends when sip & sie is non-zero, whatever sstatus.SIE says. */
    __asm__ volatile("wfi" : : : "memory");
}
