/*
 * The first phase of parking that each core found for itself as it came up
 * (kernel/port.c, arch_park_phase1): PARK_PHASE1, the name the build of this
 * image expects - "wfe" on aarch64, "wrs.nto" on riscv64 harts with Zawrs
 * (QEMU -cpu rv64,zawrs=true), "none" on riscv64 harts without (zawrs=false).
 * Then parks on every core with that phase, each ended by a wake from
 * another core, so that a phase-1 wait the hart cannot execute faults here.
 */
#include <stdatomic.h>
#include <stdio.h>
#include <string.h>

#include "harness.h"
#include "kernel/irq.h"
#include "kernel/kernel.h"
#include "sched/port.h"

#ifndef PARK_PHASE1
#error "PARK_PHASE1 (the phase-1 wait this image expects) comes from its CMake target"
#endif

int main(void) { return hive_test_main(); }

HIVE_TEST(every_core_found_the_expected_phase1)
{
    for (unsigned c = 0; c < hive_cpu_count(); c++) {
        const char *got = hive_park_phase1_name(c);
        printf("core %u: phase 1 of parking: %s (expected %s)\n", c, got, PARK_PHASE1);
        CHECK(strcmp(got, PARK_PHASE1) == 0);
    }
}

/* Each core in turn waits, untimed, until the next core wakes it: a ring of
 * ROUNDS passes, every wait going through phase 1 before the wake lands or
 * after. */
#define ROUNDS 200

static atomic_uint turn;

static void pass_the_wake(void *arg)
{
    (void)arg;
    unsigned me = hive_cpu_id(), n = hive_cpu_count();
    /* hive_smp_call_all spent any wake left pending by an earlier case. */
    for (;;) {
        unsigned t = atomic_load(&turn);
        if (t >= ROUNDS * n)
            return;
        if (t % n == me) {
            atomic_store(&turn, t + 1);
            if (t + 1 < ROUNDS * n) {
                hive_port_wake((me + 1) % n);
            } else {
                /* The last pass: everyone else waits still. */
                for (unsigned c = 0; c < n; c++)
                    if (c != me)
                        hive_port_wake(c);
            }
        } else {
            hive_port_wait(0);
        }
    }
}

static void irq_totals(struct hive_irq_counts *sum)
{
    *sum = (struct hive_irq_counts){0};
    for (unsigned c = 0; c < hive_cpu_count(); c++) {
        struct hive_irq_counts one;
        hive_irq_counts(c, &one);
        sum->doorbells += one.doorbells;
        sum->timers += one.timers;
    }
}

HIVE_TEST(wakes_end_parks_on_every_core)
{
    if (hive_cpu_count() < 2)
        HIVE_SKIP("needs 2 cores: a core passes the wake to the next");
    struct hive_irq_counts before, after;
    irq_totals(&before);
    uint64_t t0 = hive_now_ns();
    atomic_store(&turn, 0);
    hive_smp_call_all(pass_the_wake, NULL);
    uint64_t took = hive_now_ns() - t0;
    irq_totals(&after);
    unsigned n = hive_cpu_count();
    CHECK_EQ(atomic_load(&turn), ROUNDS * n);
    /* What a pass costs with this phase 1: how many parks needed the
     * doorbell (woken in WFI), how many took a timer interrupt. */
    printf("figure: %u passes in %lu us: %lu doorbell, %lu timer interrupts\n",
           atomic_load(&turn), (unsigned long)(took / 1000),
           (unsigned long)(after.doorbells - before.doorbells),
           (unsigned long)(after.timers - before.timers));
}
