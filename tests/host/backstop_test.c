/*
 * The backstop of a worker's own pushes (sched/publish.c): a push that wakes
 * nobody, while a core is parked, is found by the pushing core's check about
 * HIVE_BACKSTOP_NS later, which wakes the parked core - the one bound on how
 * long a core sleeps beside a busy core's work, since own pushes have no
 * fence.
 *
 * The race the backstop is for (a core parks just as the push reads the idle
 * state) cannot be made to happen on demand, so the case makes the push's
 * notify decide as that race would: with core 1 parked, core 0 counts a
 * phantom searcher into the idle state around its spawn, so the notify sees
 * someone searching and wakes nobody. Nothing else wakes core 1 - no park
 * timeout, no other push - so the task is run by core 1 only if the backstop
 * wakes it; core 0 meanwhile runs "long" (it spins until the task has run,
 * with a 10 s limit that fails the case rather than hanging).
 *
 * The phantom is no real searcher - it never scans, parks or hands off - so
 * a check that saw it would rightly leave the task to it, and then nobody
 * would look again. The case holds the backstop's checks while the phantom
 * is there (on a board: masks the core's interrupts), so the check sees only
 * states the real protocol makes. (A real searcher counted there scans, or
 * parks and rescans, after the check's fence: sched/idle.c.)
 *
 * Core 1 must be asleep in hive_port_wait, not only counted parked: a core
 * that has set its parked bit still rescans every queue before it waits
 * (rule 3 of sched/idle.c), and a rescan that finds the task after the
 * phantom is gone wakes core 1 itself - the protocol working, but not the
 * backstop (seen once on a board image under load: tests/target).
 */
#define _POSIX_C_SOURCE 200809L
#include <sched.h>
#include <stdatomic.h>
#include <stdio.h>

#include "arch/host/host.h"
#include "harness.h"
#include "sched/sched_internal.h"

int main(void)
{
    hive_host_set_core_count(2);
    setvbuf(stdout, NULL, _IOLBF, 0);
    return hive_test_main();
}

static _Atomic int ran_on = -1;
static uint64_t waited_ns;
static bool parked_seen;

static void pushed_task(void *arg)
{
    (void)arg;
    atomic_store(&ran_on, hive_core_id());
}

static void nothing(void *arg) { (void)arg; }

static void entry_missed_push(void *arg)
{
    (void)arg;
    struct hive_idle *idle = &hive_scheduler.idle;
    /* Core 1 finds nothing and parks: no timeout, so until it is claimed. */
    uint64_t t0 = hive_port_now_ns();
    while (!(hive_idle_is_parked(idle, 1) && hive_host_sleeping(1)) &&
           hive_port_now_ns() - t0 < 10000000000u)
        sched_yield();
    parked_seen = hive_idle_is_parked(idle, 1) && hive_host_sleeping(1);
    if (!parked_seen)
        return;
    /* The phantom searcher: the notify of the push below sees searching 1. */
    hive_host_backstop_hold(true);
    atomic_fetch_add(&idle->state, 1);
    /* The first spawn fills the empty LIFO slot; the second evicts it into
     * the ring: the push whose notify wakes nobody and arms the backstop. */
    int err1 = hive_spawn_fn(pushed_task, NULL), err2 = hive_spawn_fn(nothing, NULL);
    atomic_fetch_sub(&idle->state, 1);
    hive_host_backstop_hold(false);
    if (err1 != HIVE_OK || err2 != HIVE_OK)
        return;
    /* Running long: only core 1 can run the task now. */
    t0 = hive_port_now_ns();
    while (atomic_load(&ran_on) < 0 && hive_port_now_ns() - t0 < 10000000000u)
        sched_yield();
    waited_ns = hive_port_now_ns() - t0;
}

HIVE_TEST(backstop_wakes_a_core_that_missed_a_push)
{
    struct hive_config c = {0};
    c.cores = 2;
    CHECK_EQ(hive_run(entry_missed_push, NULL, &c), HIVE_OK);
    CHECK(parked_seen);
    CHECK_EQ(atomic_load(&ran_on), 1);
    const struct hive_stats *st = hive_stats_last();
    CHECK_EQ(st->core[0].backstop_wakes, 1);
    /* The push's own notify woke nobody: core 0's only wake is the backstop's. */
    CHECK_EQ(st->core[0].wakes, 0);
    printf("  the task waited %llu us for the backstop (HIVE_BACKSTOP_NS %u us)\n",
           (unsigned long long)(waited_ns / 1000), HIVE_BACKSTOP_NS / 1000);
}
