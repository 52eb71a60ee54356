/*
 * The scheduler on the board: the cases of tests/host/sched_workloads.h on
 * every core QEMU was given (hive_run with cores = 0), at sizes QEMU's TCG
 * gets through in well under a minute at 8 cores on a 2-CPU host.
 */
#include "host/sched_workloads.h"
#include "kernel/kernel.h"

int main(void)
{
    return hive_test_main();
}

/* Each case prints its guest time: what to shrink if the image gets slow. */
#define TIMED(what, call)                                                        \
    do {                                                                         \
        uint64_t t0_ = hive_port_now_ns();                                       \
        call;                                                                    \
        printf("  %s: %llu ms\n", what,                                          \
               (unsigned long long)((hive_port_now_ns() - t0_) / 1000000));      \
    } while (0)

HIVE_TEST(errors)
{
    sched_case_errors();
}

HIVE_TEST(run_return_run_again)
{
    sched_case_run_again(0, 3);
    /* Fewer cores than the board has: the others sit the run out. */
    if (hive_cpu_count() > 1)
        sched_case_run_again(hive_cpu_count() - 1, 2);
}

HIVE_TEST(fib)
{
    TIMED("fib", sched_case_fib(0, 25));
}

HIVE_TEST(nqueens)
{
    TIMED("nqueens", sched_case_nqueens(0, 10, 724));
}

HIVE_TEST(merge_sort)
{
    TIMED("msort", sched_case_msort(0, 200000));
}

HIVE_TEST(parallel_for_covers_once)
{
    TIMED("parallel_for", sched_case_parallel_for(0, 50000));
}

HIVE_TEST(group_covers_once)
{
    TIMED("group", sched_case_group(0, 20000));
}

HIVE_TEST(exactly_once)
{
    TIMED("exactly_once", sched_case_exactly_once(0, 250000));
}

HIVE_TEST(no_lost_wakeup)
{
    /* The driver occupies one core: it needs another to wake. 2 s per wait. */
    if (hive_cpu_count() > 1)
        TIMED("no_lost_wakeup", sched_case_no_lost_wakeup(0, 2000, 2000000000ull));
}
