/*
 * idle: every core has nothing to do for 2 s of guest time, then one timer
 * ends the run and the image prints "idle: ok". What it is for: measuring
 * what an idle hive costs the host (QEMU's CPU time), with the cores parked
 * in a deep sleep (idle) or, for contrast, parking by spinning (idle_spin,
 * built from this file with IDLE_SPIN).
 */
#include <stdatomic.h>
#include <stdio.h>

#include "hive/timer.h"
#include "kernel/irq.h"
#include "kernel/kernel.h"
#include "sched/port.h"

#define IDLE_NS 2000000000u

static atomic_bool done;
static atomic_uint back;
static unsigned returns[HIVE_MAX_CORES];

static void end_of_idle(void *arg)
{
    (void)arg;
    atomic_store(&done, true);
    for (unsigned c = 0; c < hive_cpu_count(); c++)
        hive_port_wake(c);
}

static void park(void *arg)
{
    (void)arg;
    unsigned me = hive_cpu_id();
    if (me == 0 && hive_after_irq(IDLE_NS, end_of_idle, NULL) != HIVE_OK)
        hive_panic("idle: no timer");
    while (!atomic_load(&done)) {
        hive_port_wait(0);
        returns[me]++;
    }
    atomic_fetch_add(&back, 1);
}

int main(void)
{
#ifdef IDLE_SPIN
    hive_park_spin = true;
#endif
    unsigned n = hive_cpu_count();
    printf("idle: %u cores parked for %u ms (%s)\n", n, IDLE_NS / 1000000u,
           hive_park_spin ? "spinning" : "deep sleep");
    uint64_t t0 = hive_now_ns();
    hive_smp_call_all(park, NULL);
    uint64_t took = hive_now_ns() - t0;
    unsigned wakeups = 0;
    for (unsigned c = 0; c < n; c++)
        wakeups += returns[c];
    if (atomic_load(&back) != n || took < IDLE_NS) {
        printf("idle: FAILED back=%u of %u after %lu ns\n", atomic_load(&back), n,
               (unsigned long)took);
        return 1;
    }
    printf("idle: ok cores=%u guest_ms=%lu wakeups=%u\n", n, (unsigned long)(took / 1000000u),
           wakeups);
    return 0;
}
