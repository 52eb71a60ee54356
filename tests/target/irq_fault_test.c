/*
 * A fault inside an interrupt handler is reported like any other: the panic
 * names the core it happened on (aarch64 takes it as an exception on the
 * exception stack, which has its own report path; riscv64 as a trap taken
 * inside the interrupt's trap). A timer callback stores through a null
 * pointer; page 0 is unmapped on both architectures.
 *
 * Passes only as an expected failure (tests/target/CMakeLists.txt): if the
 * store did not fault, the case fails without the panic line.
 */
#include <stdatomic.h>
#include <stdint.h>

#include "harness.h"
#include "hive/hive.h"

int main(void) { return hive_test_main(); }

static atomic_int handler_returned;
/* volatile: the store must happen, through a pointer the compiler cannot
 * prove null. */
static int *volatile null_pointer;

static void store_through_null(void *arg)
{
    (void)arg;
    *null_pointer = 1;
    atomic_store(&handler_returned, 1);
}

HIVE_TEST(fault_in_an_interrupt_handler_names_its_core)
{
    CHECK_EQ(hive_after_irq(1000000, store_through_null, NULL), HIVE_OK);
    uint64_t end = hive_now_ns() + 5000000000ull;
    while (!atomic_load(&handler_returned) && hive_now_ns() < end)
        ;
    CHECK(!"the handler's store through NULL did not fault");
}
