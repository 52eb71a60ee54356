/*
 * Waiting for work on aarch64: the two phases of parking that kernel/port.c
 * builds hive_port_wait from.
 *
 * Phase 1, WFE: cheap to enter and leave (no interrupt, no GIC), for the
 * common case of work arriving within microseconds. The core waits on its
 * wake word: LDXR marks the word's granule in this core's exclusive
 * monitor, and a store to it by any other core clears the monitor, which is
 * a WFE wake-up event - the waker's store is its own doorbell, no SEV or IPI
 * needed. Other wake-up events (an SEV, an exception return, an interrupt
 * becoming pending) only make the caller look again; the generic timer's
 * event stream (timer.c) ends every WFE within ~8 us, so the caller's time
 * limit on the phase holds. (QEMU implements neither the event stream nor a
 * sleeping WFE: there each call returns at once and phase 1 is a short spin.)
 *
 * Phase 2, WFI: the deep sleep, until an interrupt is pending - the doorbell
 * SGI or this core's timer. A pending interrupt ends a WFI even while
 * PSTATE.I masks it (Arm ARM, "Wait For Interrupt"), which is what makes
 * kernel/port.c's "mask, check, WFI, unmask" race-free.
 */
#include <stdatomic.h>

#include "aarch64.h"
#include "kernel/kernel.h"

bool arch_park_shallow(atomic_uint *word, unsigned seen)
{
    unsigned v;
    /* A plain exclusive load, no acquire: it only decides whether to wait;
     * the caller's atomic exchange on the word is what consumes a wake. The
     * monitor may stay armed on return: the next exclusive load re-arms it,
     * and nothing stores conditionally to the word without one. */
    __asm__ volatile("ldxr %w0, [%1]" : "=r"(v) : "r"(word) : "memory");
    if (v == seen)
        __asm__ volatile("wfe" : : : "memory");
    return true;
}

enum arch_park_phase1 arch_park_phase1(unsigned core)
{
    /* WFE is in every ARMv8-A core, and timer.c turns on every core's
     * event stream as it comes up. */
    (void)core;
    return ARCH_PHASE1_WFE;
}

void arch_park_deep(void)
{
    /* dsb: every earlier access - the "sleeping" announcement, a GIC EOI, a
     * timer write - is complete before the core stops, not left in a write
     * buffer of a sleeping core. */
    __asm__ volatile("dsb sy\n\twfi" : : : "memory");
}
