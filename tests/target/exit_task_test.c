/*
 * A task that calls exit(3) mid-run ends the system with a line naming its
 * core and status: "hive: core N called exit(3)". On the boot core status 3
 * stands; on a secondary it is a panic (status 1). Either way the run does
 * not pass. ctest expects failure plus the line (EXPECT_FAIL).
 */
#include <stdio.h>
#include <stdlib.h>

#include "harness.h"
#include "hive/hive.h"

int main(void) { return hive_test_main(); }

static void exits(void *arg)
{
    (void)arg;
    exit(3);
}

static void spawn_exiting_task(void *arg)
{
    (void)arg;
    CHECK_EQ(hive_spawn_fn(exits, NULL), HIVE_OK);
}

HIVE_TEST(task_exit_is_reported)
{
    CHECK_EQ(hive_run(spawn_exiting_task, NULL, NULL), HIVE_OK);
    CHECK(!"the run ended although a task called exit(3)");
}
