/*
 * The idle protocol (sched/idle.c) driven step by step from one thread: each
 * case is an interleaving of several workers' calls, written out in the
 * order the spin model (model/idle.pml) found or the rules name, so the
 * outcome of every step is fixed. No run is active: the wakes that a claim
 * sends only leave a pending wake in the host port (arch/host/port.c), which
 * nothing here waits for.
 */
#include "harness.h"

#include "arch/host/host.h"
#include "sched/idle.h"

int main(void)
{
    hive_host_set_core_count(4); /* sets up the port's per-core wake words */
    setvbuf(stdout, NULL, _IOLBF, 0);
    return hive_test_main();
}

static struct hive_idle idle;

/*
 * The counter-example of model/idle.pml -DLONG. Worker 0 finds its queues
 * empty while worker 1 searches, so the cap refuses it: it goes on to park
 * as a non-searcher. Meanwhile worker 1 finds a task, stops searching (the
 * last searcher: its notify finds nobody parked) and runs it; the task
 * pushes work into worker 1's ring (its notify finds everyone awake) and
 * then runs for long, or waits for that work without helping. Worker 0 now
 * parks. Nobody searches any more, so unless worker 0 rescans, the work
 * sits in the ring of a busy core while worker 0 sleeps until some later
 * enqueue - for good if the running task waits for it.
 */
HIVE_TEST(parker_leaving_nobody_searching_rescans)
{
    hive_idle_init(&idle, 2);
    CHECK(hive_idle_start_search(&idle, NULL));  /* worker 1 */
    CHECK(!hive_idle_start_search(&idle, NULL)); /* worker 0: refused, 1 of 2 searches */
    CHECK(hive_idle_stop_search(&idle));         /* worker 1 found work: the last searcher */
    CHECK_EQ(hive_idle_notify(&idle), -1); /* rule 2: nobody parked */
    CHECK_EQ(hive_idle_notify(&idle), -1); /* rule 1, its ring push: all awake */
    /* Worker 0 parks, not searching, and nobody searches after it: it must
     * rescan (rule 3). */
    CHECK(hive_idle_park(&idle, 0, false, NULL));
    /* Its rescan finds the ring's task and notifies: it claims itself. */
    CHECK_EQ(hive_idle_notify(&idle), 0);
    CHECK(!hive_idle_is_parked(&idle, 0));
    CHECK(hive_idle_unpark(&idle, 0)); /* claimed, and counted back as a searcher */
    CHECK(hive_idle_stop_search(&idle));
}

/* The rule as before: the last searcher to park rescans, one that leaves
 * another searcher behind does not (the remaining searcher scans later). */
HIVE_TEST(last_searcher_rescans)
{
    hive_idle_init(&idle, 4);
    CHECK(hive_idle_start_search(&idle, NULL));
    CHECK(hive_idle_start_search(&idle, NULL));
    CHECK(!hive_idle_start_search(&idle, NULL)); /* 2 of 4 search: the cap */
    CHECK(!hive_idle_park(&idle, 3, true, NULL));
    CHECK(hive_idle_park(&idle, 2, true, NULL));
    CHECK(hive_idle_unpark(&idle, 2) == false); /* left on its own */
    CHECK(hive_idle_unpark(&idle, 3) == false);
    CHECK(!hive_idle_stop_search(&idle));
    CHECK(hive_idle_stop_search(&idle));
}

/* A non-searcher that parks while another worker searches need not rescan:
 * that searcher's own scan comes later, and it rescans if it parks last. */
HIVE_TEST(parker_behind_a_searcher_does_not_rescan)
{
    hive_idle_init(&idle, 2);
    CHECK(hive_idle_start_search(&idle, NULL));  /* worker 1 */
    CHECK(!hive_idle_start_search(&idle, NULL)); /* worker 0: refused */
    CHECK(!hive_idle_park(&idle, 0, false, NULL));
    CHECK(hive_idle_park(&idle, 1, true, NULL)); /* worker 1 parks last: rescans */
    CHECK(hive_idle_unpark(&idle, 0) == false);
    CHECK(hive_idle_unpark(&idle, 1) == false);
    CHECK(!hive_idle_stop_search(&idle));
    CHECK(hive_idle_stop_search(&idle));
}
