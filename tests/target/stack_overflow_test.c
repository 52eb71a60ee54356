/*
 * A task that recurses without end overflows its core's stack, frame by
 * frame as real code does (no frame larger than the guard page, so nothing
 * is jumped): the first store below the stack lands in the guard page, and
 * the fault is reported as a stack overflow naming the core and the limit,
 * "panic: core N: stack overflow (HIVE_STACK_SIZE = ...)", with a non-zero
 * exit. Passes only as an expected failure (tests/target/CMakeLists.txt).
 */
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "harness.h"
#include "hive/hive.h"

int main(void) { return hive_test_main(); }

/* 1 KiB a frame: under riscv64's 4 KiB frame limit, and many frames to a
 * stack. The array is written and read after the call, so neither it nor
 * the call can be optimised away or turned into a loop. */
__attribute__((noinline)) static unsigned recurse(volatile unsigned depth)
{
    volatile char frame[1024];
    if (depth == UINT32_MAX) /* never: keeps the compiler from calling it endless */
        return 0;
    memset((char *)frame, (int)(depth & 0xff), sizeof frame);
    return recurse(depth + 1) + frame[depth % sizeof frame];
}

static unsigned result;

static void task(void *arg)
{
    (void)arg;
    printf("recursing on core %u past its %u-byte stack\n", hive_core_id(), (unsigned)HIVE_STACK_SIZE);
    result = recurse(0);
}

HIVE_TEST(a_task_that_recurses_without_end_overflows_its_stack)
{
    CHECK_EQ(hive_run(task, NULL, &(struct hive_config){.cores = 1}), HIVE_OK);
    CHECK(!"the recursion returned instead of overflowing the stack");
}
