/*
 * One frame larger than the guard page below each stack must not jump it.
 * A task's frame holds a 40 KiB array (the stacks are 32 KiB, the guard
 * 4 KiB) and writes its lowest byte first: without stack probing that store
 * lands in the stack of the core below, silently. aarch64 images are built
 * with -fstack-clash-protection (cmake/toolchain-aarch64.cmake), whose
 * prologue touches every 4 KiB page it allocates, so the first touch hits
 * the guard and the panic names it. riscv64's GCC 12 has no stack-clash
 * probes, so there the board build refuses any frame above 4 KiB (and VLAs,
 * alloca): this file must not compile (ctest big_frame_refused).
 *
 * Passes only as an expected failure (tests/target/CMakeLists.txt).
 */
#include <stdint.h>
#include <string.h>

#include "harness.h"
#include "hive/hive.h"

int main(void) { return hive_test_main(); }

#define BIG_FRAME (40 * 1024)

/* noinline and the volatile index: the frame stays whole and its lowest
 * byte is written before anything above it. */
__attribute__((noinline)) static unsigned deep_frame(volatile unsigned low)
{
    char big[BIG_FRAME];
    big[low] = 1;
    memset(big + 1, 2, sizeof big - 1);
    return (unsigned)big[low] + (unsigned)big[BIG_FRAME - 1];
}

static unsigned result;

static void task(void *arg)
{
    (void)arg;
    result = deep_frame(0);
}

HIVE_TEST(a_frame_larger_than_the_guard_faults)
{
    CHECK_EQ(hive_run(task, NULL, NULL), HIVE_OK);
    CHECK(!"a 40 KiB frame ran without hitting the stack guard");
}
