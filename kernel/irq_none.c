/*
 * TRANSITIONAL: weak stand-ins for the interrupt section of kernel/platform.h,
 * so that a board whose arch has not implemented it yet still links and
 * boots: interrupts stay masked, no timer fires (hive_timer_add refuses
 * timers with HIVE_ESTATE), the doorbell is
 * arch_idle_wake() and the deep sleep arch_idle_wait(), between which
 * hive_port_wait polls the clock. An arch's own definitions replace these.
 * Delete this file once every arch implements the section.
 */
#include "kernel/kernel.h"

#define WEAK __attribute__((weak))

/* Read by kernel/timer.c, which refuses timers that would never fire. */
bool hive_irq_stand_in;

WEAK void arch_irq_init(void) { hive_irq_stand_in = true; }
WEAK void arch_irq_init_cpu(void) {}
WEAK void arch_irq_unmask(void) {}
WEAK void arch_irq_doorbell(unsigned core) { arch_idle_wake(core); }
WEAK int arch_irq_route(unsigned irq, unsigned core, bool on) { (void)irq, (void)core, (void)on; return -1; }
WEAK void arch_timer_set(uint64_t deadline) { (void)deadline; }
WEAK bool arch_park_shallow(atomic_uint *word, unsigned seen) { (void)word, (void)seen; return false; }
WEAK void arch_park_deep(void) { arch_idle_wait(); }

WEAK int board_test_irq(void) { return -1; }
WEAK void board_test_irq_raise(void) {}
WEAK void board_test_irq_ack(void) {}
