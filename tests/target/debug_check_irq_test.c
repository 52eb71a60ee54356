/*
 * The debug check that nothing which may block runs in an interrupt handler
 * (sched/debug_checks.h), on real interrupts: a timer interrupt's handler on
 * a worker core calls the scheduler's park step itself, which must panic
 * naming the rule. (The public blocking calls refuse interrupt context with
 * HIVE_ESTATE before they get there - tests/target/sched_test.c - so this
 * reaches into the scheduler as a buggy caller inside it would.) The host has
 * no interrupts, so this check is tested here only.
 *
 * Passes only as an expected failure (tests/target/CMakeLists.txt): if the
 * handler returned, the case fails without the panic line.
 */
#include <stdatomic.h>

#include "harness.h"
#include "hive/hive.h"
#include "sched/sched_internal.h"

int main(void) { return hive_test_main(); }

static atomic_int handler_returned;

static void park_from_handler(void *arg)
{
    (void)arg;
    hive_park(hive_tls_worker);
    atomic_store(&handler_returned, 1);
}

static void entry(void *arg)
{
    (void)arg;
    CHECK_EQ(hive_after_irq(1000000, park_from_handler, NULL), HIVE_OK);
    /* Stay in a task on this core until the interrupt has come, bounded. */
    uint64_t end = hive_now_ns() + 5000000000ull;
    while (!atomic_load(&handler_returned) && hive_now_ns() < end)
        hive_port_cpu_relax();
}

HIVE_TEST(park_in_an_interrupt_handler_panics)
{
    CHECK_EQ(hive_run(entry, NULL, NULL), HIVE_OK);
    CHECK(!"the handler's park returned without the panic");
}
