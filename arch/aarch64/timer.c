/*
 * The per-core generic timer: one one-shot deadline per core, and the event
 * stream that bounds a WFE.
 *
 * Which timer: the EL1 virtual timer (CNTV_*; its interrupt is a PPI the
 * board names, 27 on QEMU virt and the Raspberry Pi 4). It compares against
 * CNTVCT_EL0, the counter arch_counter() reads, so a deadline is in the same
 * units as every timestamp; and it is the timer an OS at EL1 owns (a
 * hypervisor keeps the EL2 timer, and may trap or take the EL1 physical
 * timer, CNTP, PPI 30, via CNTHCTL_EL2). Entered at EL2, entry.S sets
 * CNTVOFF_EL2 = 0, so virtual and physical time agree anyway.
 *
 * One-shot: CNTV_CVAL_EL0 holds the absolute deadline and the interrupt
 * stays asserted (level) while CVAL <= CNTVCT and the timer is enabled and
 * unmasked. The kernel's timer interrupt handler always sets it again (a
 * later deadline, or off) before aarch64_irq completes the interrupt at the
 * board's controller, so each deadline fires once.
 */
#include <stdint.h>

#include "aarch64.h"
#include "kernel/kernel.h"

#define CNTV_CTL_ENABLE     1u          /* IMASK (bit 1) stays clear */

#define CNTKCTL_EVNTEN      (1u << 2)
#define CNTKCTL_EVNTDIR     (1u << 3)
#define CNTKCTL_EVNTI_SHIFT 4
#define CNTKCTL_EVNTI_MASK  (0xfu << CNTKCTL_EVNTI_SHIFT)

/* The event stream's target period (see event_stream_bit). */
#define EVENT_STREAM_NS     10000u

static void timer_ctl(uint64_t ctl)
{
    /* isb: the new control value (timer off, or on with a new CVAL) is in
     * effect before whatever follows, e.g. the GIC EOI or a WFI. */
    __asm__ volatile("msr cntv_ctl_el0, %0\n\tisb" : : "r"(ctl) : "memory");
}

/*
 * This core's timer, always with interrupts masked here (from the timer
 * interrupt itself, or under the kernel timer queue's interrupt-masking
 * lock), so CVAL and CTL are written as a pair. A deadline already past
 * asserts the interrupt at once.
 */
void arch_timer_set(uint64_t deadline)
{
    if (deadline == UINT64_MAX) {
        timer_ctl(0);
        return;
    }
    __asm__ volatile("msr cntv_cval_el0, %0" : : "r"(deadline) : "memory");
    timer_ctl(CNTV_CTL_ENABLE);
}

/*
 * The event stream raises a WFE wake-up event every time counter bit EVNTI
 * goes from 0 to 1, i.e. every 2^(EVNTI+1) ticks. It is what guarantees that
 * a core in the WFE phase of parking (arch_park_shallow, park.c) comes back
 * to look at the clock even when nothing else happens, so that phase ends on
 * time and the core moves on to its deep WFI sleep.
 *
 * The period wanted is short next to the WFE phase (tens of microseconds),
 * so the phase overruns by a fraction of itself at most, and long next to
 * the cost of a WFE wake-up (well under a microsecond), so the stream's
 * wake-ups (about 120 000 a second, and only while a core sits in WFE) cost
 * little. (Linux's 100 us serves a different purpose, bounding WFE-based
 * polling loops in general.) We take the largest bit whose period does not
 * exceed EVENT_STREAM_NS: 8.2 us at QEMU's 62.5 MHz (bit 8), 6.7 us at
 * 19.2 MHz, 9.5 us at 54 MHz (Raspberry Pi 4), 8.2 us at 1 GHz (Armv8.6).
 */
static unsigned event_stream_bit(uint64_t hz)
{
    uint64_t ticks = hz * EVENT_STREAM_NS / 1000000000u;   /* ticks per period wanted */
    unsigned bit = 0;
    while (bit < 15 && (2ull << (bit + 1)) <= ticks)
        bit++;
    return bit;
}

void aarch64_timer_init_cpu(void)
{
    timer_ctl(0);
    uint64_t k;
    __asm__ volatile("mrs %0, cntkctl_el1" : "=r"(k));
    k &= ~(uint64_t)(CNTKCTL_EVNTI_MASK | CNTKCTL_EVNTDIR);
    k |= CNTKCTL_EVNTEN | (uint64_t)event_stream_bit(arch_counter_hz()) << CNTKCTL_EVNTI_SHIFT;
    __asm__ volatile("msr cntkctl_el1, %0" : : "r"(k) : "memory");
}

