/*
 * A panic stops every core, not only its own: core 1 panics while core 0
 * runs on for 2 s and would then say so. On a board whose exit ends the
 * machine (semihosting, a test finisher) that is moot; on one without (a
 * Raspberry Pi without a debugger: QEMU's raspi3b with semihosting off),
 * board_exit halts only the panicking core, so core 0 must be stopped by
 * the panic's doorbell and never print its line (tests/tools/panic_halts.sh).
 * Core 0 prints nothing before: a line of its own could fall into the middle
 * of the panic's, which is written past the console's lock.
 */
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>

#include "hive/timer.h"
#include "kernel/kernel.h"
#include "sched/port.h"

static atomic_bool started;

static void each_core(void *arg)
{
    (void)arg;
    if (hive_cpu_id() == 1) {
        while (!atomic_load(&started))
            hive_port_cpu_relax();
        uint64_t end = hive_now_ns() + 50000000u;
        while (hive_now_ns() < end)
            hive_port_cpu_relax();
        hive_panic("panic_halts: core 1 panics on purpose");
    } else if (hive_cpu_id() == 0) {
        atomic_store(&started, true);
        uint64_t end = hive_now_ns() + 2000000000u;
        while (hive_now_ns() < end)
            hive_port_cpu_relax();
        printf("panic_halts: core 0 was never stopped\n");
    }
}

int main(void)
{
    if (hive_cpu_count() < 2) {
        printf("panic_halts: needs 2 cores\n");
        return 1;
    }
    hive_smp_call_all(each_core, NULL);
    return 0;
}
