/*
 * The watchdog (hive_config.watchdog_ns) must stop a run that has stalled -
 * every core idle, nothing finished for the limit, a counted task still
 * outstanding and no timer pending - with a panic saying so (EXPECT_FAIL).
 * The stall: the entry waits for a group whose count says one task is
 * pending, though none was spawned - a wait whose work never ends, as one
 * whose completion was lost. Without a watchdog this image would hang until
 * its timeout.
 */
#include <stdatomic.h>
#include <stdio.h>

#include "harness.h"
#include "hive/hive.h"

int main(void) { return hive_test_main(); }

static void wait_for_nothing(void *arg)
{
    (void)arg;
    struct hive_group g = HIVE_GROUP_INIT;
    atomic_store(&g.pending, 1);
    CHECK(hive_group_wait(&g) == HIVE_OK);
}

HIVE_TEST(stalled_run_is_reported)
{
    struct hive_config c = {0};
    c.watchdog_ns = 1000000000ull; /* 1 s */
    int rc = hive_run(wait_for_nothing, NULL, &c);
    printf("hive_run returned %d\n", rc);
    CHECK(!"hive_run returned: the stall was not reported");
}
