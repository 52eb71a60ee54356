/*
 * The scheduler on the board: the cases of tests/host/sched_workloads.h on
 * every core QEMU was given (hive_run with cores = 0), at sizes QEMU's TCG
 * gets through in well under a minute at 8 cores on a 2-CPU host.
 */
#include "kernel/irq.h"
#define SW_CORE_SLEEPING(core) hive_park_sleeping(core)
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
    TIMED("nqueens", sched_case_nqueens(0, 10));
}

HIVE_TEST(merge_sort)
{
    TIMED("msort", sched_case_msort(0, 200000));
}

HIVE_TEST(spawn)
{
    TIMED("spawn", sched_case_spawn(0, 100000));
}

HIVE_TEST(spawn_or_run)
{
    sched_case_spawn_or_run();
}

HIVE_TEST(spawn_or_run_chain_keeps_to_half_the_stack)
{
    TIMED("spawn_or_run chain", sched_case_spawn_or_run_chain(1, 20000));
    TIMED("spawn_or_run chain", sched_case_spawn_or_run_chain(0, 20000));
}

HIVE_TEST(group_chain_keeps_to_half_the_stack)
{
    TIMED("group chain", sched_case_group_chain(1, 20000));
    TIMED("group chain", sched_case_group_chain(0, 20000));
}

HIVE_TEST(parallel_for_covers_once)
{
    TIMED("parallel_for", sched_case_parallel_for(0, 50000));
}

HIVE_TEST(group_covers_once)
{
    TIMED("group", sched_case_group(0, 20000));
}

HIVE_TEST(group_spawn_into_a_full_deque)
{
    /* One core fills its deque while a blocker holds every other; then a
     * wait on another core for a task run so. */
    if (hive_cpu_count() < 2)
        HIVE_SKIP("needs 2 cores");
    TIMED("group_full_deque", sched_case_group_full_deque(0, 5));
}

HIVE_TEST(group_spawn_runs_at_once_from_full_to_a_quarter)
{
    /* One core fills its deque while a blocker holds every other, then
     * drains it: its spawns run at once down to a quarter. */
    if (hive_cpu_count() < 2)
        HIVE_SKIP("needs 2 cores");
    TIMED("group_stock", sched_case_group_stock(0));
}

HIVE_TEST(group_chain_from_a_drained_deque_keeps_to_half_the_stack)
{
    TIMED("group_stock_chain", sched_case_group_stock_chain(0));
}

HIVE_TEST(group_spawn_runs_at_once_while_every_core_is_busy)
{
    /* Every core but the entry's held by a blocker; then the cores freed
     * take what the entry queued, and a child of a task it ran at once. */
    if (hive_cpu_count() < 2)
        HIVE_SKIP("needs 2 cores");
    TIMED("group_busy_at_once", sched_case_group_busy_at_once(0));
}

HIVE_TEST(group_with_two_waiters)
{
    /* 1 ms tasks: QEMU's vCPUs, more than the host's CPUs, are held up
     * for longer than the host's threads between the spawns. */
    TIMED("two_waiters", sched_case_two_waiters(0, 10, 1000000));
}

HIVE_TEST(group_waiters_both_sleep)
{
    /* The group's task, the entry and the second waiter each need a core. */
    if (hive_cpu_count() < 3)
        HIVE_SKIP("needs 3 cores");
    TIMED("two_sleepers", sched_case_two_sleepers(0, 5));
}

HIVE_TEST(unwaited_group_is_reported)
{
    TIMED("unwaited_group", sched_case_unwaited_group(0));
}

HIVE_TEST(exactly_once)
{
    TIMED("exactly_once", sched_case_exactly_once(0, 1000000));
}

HIVE_TEST(no_lost_wakeup)
{
    /* The driver occupies one core: it needs another to wake. 2 s per wait. */
    if (hive_cpu_count() < 2)
        HIVE_SKIP("needs 2 cores: the driver occupies one");
    TIMED("no_lost_wakeup", sched_case_no_lost_wakeup(0, 2000, 2000000000ull));
}

HIVE_TEST(deep_wait_runs_own_deque)
{
    /* Built at 2 workers (the others sit it out). 2 s per spin. */
    if (hive_cpu_count() < 2)
        HIVE_SKIP("built at 2 workers");
    TIMED("deep_wait", sched_case_deep_wait_own_deque(20, 2000000000ull));
}

HIVE_TEST(deep_wait_keeps_its_floor)
{
    /* Built at 2 workers (the others sit it out); G holds its core up to
     * 20 ms of guest time a round. */
    if (hive_cpu_count() < 2)
        HIVE_SKIP("built at 2 workers");
    TIMED("deep_wait_floor", sched_case_deep_wait_keeps_its_floor(5, 20000000ull));
}

HIVE_TEST(moved_entry_stays_under)
{
    /* Built at 2 workers (the others sit it out); A holds its core until E
     * has moved (at most 2 s of guest time), B up to 20 ms more a round. */
    if (hive_cpu_count() < 2)
        HIVE_SKIP("built at 2 workers");
    TIMED("moved_entry", sched_case_moved_entry_stays_under(5, 20000000ull));
}

HIVE_TEST(wait_low_on_the_stack_is_deep)
{
    /* Two workers (the others sit it out): one waits, one is held. At one
     * worker the group spawn high on the stack runs its task at once, in no
     * wait. */
    if (hive_cpu_count() < 2)
        HIVE_SKIP("needs 2 cores: one waits, one is held");
    sched_case_low_wait_is_deep();
}

HIVE_TEST(waiter_parks_and_wakes)
{
    /* The other half runs 200 ms of guest time on another core. */
    if (hive_cpu_count() < 2)
        HIVE_SKIP("needs 2 cores: the other half runs on another");
    TIMED("waiter_parks", sched_case_waiter_parks(0, 200000000ull, NULL));
}

/* ---- from an interrupt handler: spawn works (global queue), waiting is refused ---- */

#include "hive/timer.h"

static struct hive_task isr_task;
static atomic_uint isr_task_ran, isr_checks_done;
static int isr_rc[8];
static struct hive_task isr_group_task;
static void isr_range(size_t lo, size_t hi, void *ctx) { (void)lo, (void)hi, (void)ctx; }
static bool isr_in_task;

static void isr_noop(void *p) { (void)p; }
static void isr_task_fn(struct hive_task *t)
{
    (void)t;
    atomic_fetch_add(&isr_task_ran, 1);
}

static void isr_handler(void *arg)
{
    (void)arg;
    struct hive_group g = HIVE_GROUP_INIT;
    isr_in_task = hive_in_task();
    isr_rc[0] = hive_join(isr_noop, NULL, isr_noop, NULL);
    isr_rc[1] = hive_group_wait(&g);
    isr_rc[2] = hive_group_spawn_fn(&g, isr_noop, NULL);
    isr_rc[3] = hive_run(isr_noop, NULL, NULL);
    isr_rc[4] = hive_parallel_for(0, 1, 1, NULL, NULL); /* EINVAL before the context check */
    isr_rc[5] = hive_spawn(&isr_task, isr_task_fn);
    isr_rc[6] = hive_parallel_for(0, 1, 1, isr_range, NULL);
    isr_rc[7] = hive_group_spawn(&g, &isr_group_task, isr_task_fn);
    atomic_store(&isr_checks_done, 1);
}

/* The entry arms a timer on its core and keeps the run alive (respawning
 * itself, never blocking) until the handler has run and its task too. */
static struct hive_task isr_poller;
static void isr_poll(struct hive_task *t)
{
    if (!atomic_load(&isr_checks_done) || !atomic_load(&isr_task_ran))
        CHECK_EQ(hive_spawn(t, isr_poll), HIVE_OK);
}

static void isr_entry(void *p)
{
    (void)p;
    CHECK_EQ(hive_after_irq(1000000, isr_handler, NULL), HIVE_OK);
    CHECK_EQ(hive_spawn(&isr_poller, isr_poll), HIVE_OK);
}

HIVE_TEST(from_interrupt_handler)
{
    CHECK_EQ(hive_run(isr_entry, NULL, NULL), HIVE_OK);
    CHECK_EQ(atomic_load(&isr_checks_done), 1);
    CHECK(!isr_in_task);
    CHECK_EQ(isr_rc[0], HIVE_ESTATE);
    CHECK_EQ(isr_rc[1], HIVE_ESTATE);
    CHECK_EQ(isr_rc[2], HIVE_ESTATE);
    CHECK_EQ(isr_rc[3], HIVE_ESTATE);
    CHECK_EQ(isr_rc[4], HIVE_EINVAL);
    CHECK_EQ(isr_rc[5], HIVE_OK);
    CHECK_EQ(isr_rc[6], HIVE_ESTATE);
    CHECK_EQ(isr_rc[7], HIVE_ESTATE);
    CHECK_EQ(atomic_load(&isr_task_ran), 1);
    CHECK(hive_stats_last()->injected >= 1);
}

/* The same refusal from an interrupt taken inside a join nested in another
 * join - where hive_join's inline path would run, had the handler found its
 * gate open (hive/join_inline.h): the handler's own join must still be
 * refused, and nothing recorded on the interrupted task's latent list. On
 * one core: with more, the others want work, and that keeps the gate
 * closed around the handler too. */
static atomic_uint nested_isr_done;
static int nested_isr_rc;
static bool nested_isr_gate_open;

static void nested_isr_handler(void *arg)
{
    (void)arg;
    nested_isr_gate_open = hive_latent_here != NULL;
    nested_isr_rc = hive_join(isr_noop, NULL, isr_noop, NULL);
    atomic_store(&nested_isr_done, 1);
}

/* Spins, inside two joins, until the handler has run: the timer interrupt
 * is this core's, so it is taken here (2 s: a lost interrupt fails). */
static void nested_isr_wait(void *p)
{
    (void)p;
    CHECK(hive_latent_here != NULL);
    uint64_t until = hive_now_ns() + 2000000000u;
    while (!atomic_load(&nested_isr_done) && hive_now_ns() < until)
        ;
}

static void nested_isr_outer(void *p)
{
    CHECK_EQ(hive_join(nested_isr_wait, p, isr_noop, NULL), HIVE_OK);
}

static void nested_isr_entry(void *p)
{
    CHECK_EQ(hive_after_irq(1000000, nested_isr_handler, NULL), HIVE_OK);
    CHECK_EQ(hive_join(nested_isr_outer, p, isr_noop, NULL), HIVE_OK);
}

HIVE_TEST(from_interrupt_handler_inside_a_join)
{
    struct hive_config one_core = {0};
    one_core.cores = 1;
    CHECK_EQ(hive_run(nested_isr_entry, NULL, &one_core), HIVE_OK);
    CHECK_EQ(atomic_load(&nested_isr_done), 1);
    CHECK(!nested_isr_gate_open);
    CHECK_EQ(nested_isr_rc, HIVE_ESTATE);
}
