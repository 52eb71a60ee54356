/*
 * Firmware that runs until told to stop (hive_config.until_stopped): the
 * entry returns at once and the run stays open; a timer interrupt is the
 * firmware's event source - each tick spawns a task from the handler and
 * sets the next tick - and the last tick ends the run with hive_stop() from
 * the handler. Every event's task runs in the open run, the cores sleep
 * between events, and hive_run returns HIVE_OK after the stop. hive_stop
 * outside an open run is refused.
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
