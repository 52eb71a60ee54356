/*
 * The BCM2836 per-core local interrupt controller ("ARM control logic",
 * Raspberry Pi 2 and 3 at 0x40000000; Broadcom's QA7 document) as a board's
 * interrupt controller (kernel/board.h): the Pi 3 has no GIC.
 *
 * Each of the four cores has its own pending-source register, in which the
 * controller gathers: the core's generic timers (the EL1 virtual timer,
 * CNTV, is the one arch/aarch64/timer.c runs: HIVE_IRQ_TIMER), its four
 * mailboxes (mailbox 0 is the doorbell: HIVE_IRQ_DOORBELL), the GPU's
 * interrupt controller, the PMU, and the block's own "local timer".
 *
 * Device lines are the source register's bit numbers. Two are routed,
 * each to any one core:
 *   - the block's own "local timer", line 11 (BCM2836_LINE_LOCAL_TIMER), a
 *     down counter whose expiry is a level until acknowledged: route sets
 *     its interrupt enable (bit 29 of its control register) and leaves its
 *     count alone, which is the device driver's (examples/firmware);
 *   - mailbox 1 of the routed core, line 5 (BCM2836_LINE_MAILBOX1), the
 *     board's test interrupt: software raises it, it holds until cleared.
 *     A mailbox rather than the local timer because QEMU (7.2) delivers the
 *     timer's expiry from its main-loop thread: on a loaded host that took
 *     tens of milliseconds an interrupt, against microseconds for a mailbox
 *     write, which raises the line in the writing instruction.
 * The GPU's lines (BCM2835 peripherals) would need the second-level
 * controller at 0x3F00B200 and are not routed (route returns -1).
 *
 * Cores are told apart by MPIDR Aff0 (0-3), the controller's core number.
 * One controller per image: bcm2836_local_intc_init remembers its
 * configuration.
 */
#ifndef HIVE_DRIVERS_BCM2836_LOCAL_INTC_H
#define HIVE_DRIVERS_BCM2836_LOCAL_INTC_H

#include <stdbool.h>
#include <stdint.h>

struct bcm2836_local_intc_config {
    uintptr_t base;     /* the register block (0x40000000 on the Pi 2 and 3) */
};

#define BCM2836_LINE_MAILBOX1    5u
#define BCM2836_LINE_LOCAL_TIMER 11u
#define BCM2836_LINES            12u    /* source bits 0-11: HIVE_IRQ_LINES */

/* Boot core, once, interrupts masked: the local timer stopped, its
 * interrupt off; mailbox 1 not routed. */
void bcm2836_local_intc_init(const struct bcm2836_local_intc_config *cfg);
/* Every core, for itself: its mailboxes emptied, mailbox 0 and the CNTV
 * timer signalled as IRQ, nothing as FIQ. */
void bcm2836_local_intc_init_cpu(unsigned core);
/* The local timer's or mailbox 1's interrupt on (to `core` only) or off.
 * Returns 0, or -1 for any other line. */
int bcm2836_local_intc_route(unsigned line, unsigned core, bool on);
/* Mailbox 0 of `core`, after the caller's earlier stores are visible. */
void bcm2836_local_intc_doorbell(unsigned core);
/* This core's next pending source: the doorbell (emptied here, so one
 * raised while it is handled is taken again), the timer, a routed line, or
 * HIVE_IRQ_NONE. A source this driver never enables panics. */
int bcm2836_local_intc_claim(uint32_t *claim);
/* Nothing to do: the timers are level sources their handlers quiet. */
void bcm2836_local_intc_complete(uint32_t claim);

/* Mailbox 1 as the test interrupt (kernel/board.h): its line; raise sets
 * it on the core the line is routed to (core 0 before any route), ack
 * clears it. */
int bcm2836_local_intc_test_irq(void);
void bcm2836_local_intc_test_raise(void);
void bcm2836_local_intc_test_ack(void);

#endif
