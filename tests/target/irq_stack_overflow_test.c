/*
 * A stack overflow inside an interrupt handler stops the system with a panic
 * that names the core and says so, like an overflow in a task: a timer
 * callback (interrupt context) recurses without bound. Each level keeps a
 * small array live across the call so that the recursion cannot become a
 * loop. The interrupt stack has a guard page below it on both architectures;
 * without one the recursion ran down into the next core's stack and .data.
 *
 * Passes only as an expected failure (tests/target/CMakeLists.txt).
 */
#include <stdatomic.h>
#include <stdint.h>

#include "harness.h"
#include "hive/hive.h"

int main(void) { return hive_test_main(); }

static atomic_int handler_returned;

__attribute__((noinline)) static unsigned recurse(volatile unsigned depth)
{
    volatile unsigned char level[64];
    for (unsigned i = 0; i < sizeof level; i++)
        level[i] = (unsigned char)(depth + i);
    if (depth == 0xffffffffu)
        return level[0];
    return recurse(depth + 1) + level[depth % sizeof level];
}

static void overflow_in_handler(void *arg)
{
    (void)arg;
    recurse(0);
    atomic_store(&handler_returned, 1);
}

HIVE_TEST(overflow_in_an_interrupt_handler_is_caught)
{
    CHECK_EQ(hive_after_irq(1000000, overflow_in_handler, NULL), HIVE_OK);
    uint64_t end = hive_now_ns() + 5000000000ull;
    while (!atomic_load(&handler_returned) && hive_now_ns() < end)
        ;
    CHECK(!"an unbounded recursion in an interrupt handler returned");
}
