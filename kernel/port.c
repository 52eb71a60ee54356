/*
 * sched/port.h on bare metal: the scheduler's view of a core, built from the
 * arch layer. Parking here is the first version (a pending-wake flag plus
 * arch_idle_wait); timer-bounded, interrupt-driven parking replaces it.
 */
#include <stdatomic.h>
#include <stdbool.h>

#include "kernel/kernel.h"
#include "sched/port.h"

unsigned hive_port_core_id(void) { return hive_cpu_id(); }
unsigned hive_port_core_count(void) { return hive_cpu_count(); }
unsigned long hive_port_irq_save(void) { return arch_irq_save(); }
void hive_port_irq_restore(unsigned long state) { arch_irq_restore(state); }
void hive_port_cpu_relax(void) { arch_cpu_relax(); }

uint64_t hive_port_now_ns(void)
{
    uint64_t c = arch_counter(), hz = arch_counter_hz();
    /* Split to avoid overflowing c * 1e9 (after ~5 minutes at 62.5 MHz). */
    return c / hz * 1000000000u + c % hz * 1000000000u / hz;
}

static atomic_bool wake_pending[HIVE_MAX_CORES];

void hive_port_wait(uint64_t timeout_ns)
{
    unsigned me = hive_cpu_id();
    uint64_t deadline = timeout_ns ? hive_port_now_ns() + timeout_ns : UINT64_MAX;
    /* acq_rel exchange: consumes a wake and pairs with the release store in
     * hive_port_wake, so what the waker wrote before waking us is visible. */
    while (!atomic_exchange_explicit(&wake_pending[me], false, memory_order_acq_rel)) {
        if (hive_port_now_ns() >= deadline)
            return;
        arch_idle_wait();
    }
}

void hive_port_wake(unsigned core)
{
    /* release: pairs with the acq_rel exchange in hive_port_wait. */
    atomic_store_explicit(&wake_pending[core], true, memory_order_release);
    arch_idle_wake(core);
}
