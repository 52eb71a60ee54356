/*
 * Firmware that runs until told to stop (hive_config.until_stopped): the
 * entry returns at once and the run stays open; a timer interrupt is the
 * firmware's event source - each tick spawns a task from the handler and
 * sets the next tick - and the last tick ends the run with hive_stop() from
 * the handler. Every event's task runs in the open run, the cores sleep
 * between events, and hive_run returns HIVE_OK after the stop. hive_stop
 * outside an open run is refused. And a run whose only event is the stop,
 * from the interrupt of a parked core, ends too.
 */
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>

#include "harness.h"
#include "hive/hive.h"

int main(void) { return hive_test_main(); }

#define EVENTS 30u
#define TICK_NS 2000000ull /* 2 ms: long enough for every core to park */

static atomic_uint ticks, ran, failures;
static int stop_rc = 1;

static void event_task(void *p)
{
    (void)p;
    atomic_fetch_add(&ran, 1);
}

static void tick(void *p)
{
    (void)p;
    /* In the timer interrupt, as a device's handler would be. */
    if (!hive_in_interrupt())
        atomic_fetch_add(&failures, 1);
    if (hive_spawn_fn(event_task, NULL) != HIVE_OK)
        atomic_fetch_add(&failures, 1);
    if (atomic_fetch_add(&ticks, 1) + 1 < EVENTS) {
        if (hive_after_irq(TICK_NS, tick, NULL) != HIVE_OK)
            atomic_fetch_add(&failures, 1);
    } else {
        stop_rc = hive_stop();
    }
}

static void entry(void *p)
{
    (void)p;
    CHECK_EQ(hive_after_irq(TICK_NS, tick, NULL), HIVE_OK);
    /* Returns: the run stays open for the ticks. */
}

HIVE_TEST(open_run_ends_at_hive_stop_from_an_interrupt)
{
    CHECK_EQ(hive_stop(), HIVE_ESTATE); /* no open run */
    struct hive_config c = {.until_stopped = true};
    CHECK_EQ(hive_run(entry, NULL, &c), HIVE_OK);
    CHECK_EQ(stop_rc, HIVE_OK);
    CHECK_EQ(atomic_load(&failures), 0);
    CHECK_EQ(atomic_load(&ticks), EVENTS);
    CHECK_EQ(atomic_load(&ran), EVENTS); /* every event's task ran in the open run */
    const struct hive_stats *st = hive_stats_last();
    CHECK_EQ(st->injected, EVENTS);
    /* Between events the cores slept (one core: the only one, parking). */
    CHECK(st->total.parks >= st->cores);
    printf("open run: %u events, %llu parks on %u cores, %llu ms\n", EVENTS,
           (unsigned long long)st->total.parks, st->cores,
           (unsigned long long)(st->elapsed_ns / 1000000));
    CHECK_EQ(hive_stop(), HIVE_ESTATE); /* over */
}

/* The stop is the run's last count, from the timer interrupt of a core that
 * sleeps: nothing else is left to wake that core, so the stop itself must,
 * or the core sleeps on with the run over (core 0: hive_run never returns). */
static int quiet_stop_rc = 1;

static void quiet_tick(void *p)
{
    (void)p;
    quiet_stop_rc = hive_stop();
}

static void quiet_entry(void *p)
{
    (void)p;
    /* Ten ticks' time: every core is asleep by then, unless the host
     * starves this machine for that long. */
    CHECK_EQ(hive_after_irq(10 * TICK_NS, quiet_tick, NULL), HIVE_OK);
}

HIVE_TEST(open_run_ends_at_hive_stop_from_the_interrupt_of_a_parked_core)
{
    struct hive_config c = {.until_stopped = true};
    CHECK_EQ(hive_run(quiet_entry, NULL, &c), HIVE_OK);
    CHECK_EQ(quiet_stop_rc, HIVE_OK);
    printf("open run ended by its only event: %llu parks\n",
           (unsigned long long)hive_stats_last()->total.parks);
}
