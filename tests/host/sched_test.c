/*
 * Host tests of the scheduler (sched/): the bodies in
 * sched_workloads.h at 1, 2, 4 and 8 workers (pthreads bound as cores; the
 * machine may have fewer CPUs, which exercises parking all the more).
 * Built twice: plain, and with ThreadSanitizer (SCHED_TEST_TSAN: smaller).
 */
#define _GNU_SOURCE /* clock_gettime, CLOCK_THREAD_CPUTIME_ID, gettid */
#include <pthread.h>
#include <signal.h>
#include <sys/wait.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "arch/host/host.h"

/* The shared cases' spins give the CPU away: the thread they wait for may
 * need it (sched_workloads.h). */
#define SW_SPIN_PAUSE() sched_yield()
#define SW_CORE_SLEEPING(core) hive_host_sleeping(core)
#include "host/sched_workloads.h"
#include "sched/sched.h"

#ifdef SCHED_TEST_TSAN
#define SCALE 5u
#else
#define SCALE 1u
#endif

static const unsigned core_counts[] = {1, 2, 4, 8};
#define FOR_CORES(n) for (unsigned ci_ = 0, n; ci_ < 4 && ((n = core_counts[ci_]), 1); ci_++)

int main(void)
{
    hive_host_set_core_count(8);
    setvbuf(stdout, NULL, _IOLBF, 0);
    return hive_test_main();
}

HIVE_TEST(errors)
{
    sched_case_errors();
}

HIVE_TEST(run_return_run_again)
{
    FOR_CORES(n)
        sched_case_run_again(n, 5);
    /* Default core count (4 on the host unless configured): 0 = all. */
    hive_host_set_core_count(4);
    sched_case_run_again(0, 2);
    hive_host_set_core_count(8);
}

HIVE_TEST(fib)
{
    FOR_CORES(n)
        sched_case_fib(n, SCALE > 1 ? 18 : 25);
}

HIVE_TEST(nqueens)
{
    FOR_CORES(n)
        sched_case_nqueens(n, SCALE > 1 ? 8 : 10);
}

HIVE_TEST(merge_sort)
{
    FOR_CORES(n)
        sched_case_msort(n, 1000000 / SCALE);
}

HIVE_TEST(spawn)
{
    FOR_CORES(n)
        sched_case_spawn(n, 200000 / SCALE);
}

HIVE_TEST(spawn_or_run)
{
    sched_case_spawn_or_run();
}

HIVE_TEST(spawn_or_run_chain_keeps_to_half_the_stack)
{
    FOR_CORES(n)
        sched_case_spawn_or_run_chain(n, 200000 / SCALE);
}

HIVE_TEST(group_chain_keeps_to_half_the_stack)
{
    FOR_CORES(n)
        sched_case_group_chain(n, 200000 / SCALE);
}

HIVE_TEST(parallel_for_covers_once)
{
    FOR_CORES(n)
        sched_case_parallel_for(n, 200000 / SCALE);
}

HIVE_TEST(group_covers_once)
{
    FOR_CORES(n)
        sched_case_group(n, 100000 / SCALE);
}

HIVE_TEST(group_spawn_into_a_full_deque)
{
    /* One core fills its deque while a blocker holds every other; then a
     * wait on another core for a task run so. */
    static const unsigned counts[] = {2, 4, 8};
    for (unsigned i = 0; i < 3; i++)
        sched_case_group_full_deque(counts[i], 20 / SCALE);
}

HIVE_TEST(group_spawn_runs_at_once_from_full_to_a_quarter)
{
    sched_case_group_stock(2);
    sched_case_group_stock(4);
    sched_case_group_stock(8);
}

HIVE_TEST(group_chain_from_a_drained_deque_keeps_to_half_the_stack)
{
    sched_case_group_stock_chain(1);
    sched_case_group_stock_chain(2);
}

HIVE_TEST(group_spawn_runs_at_once_while_every_core_is_busy)
{
    sched_case_group_busy_at_once(2);
    sched_case_group_busy_at_once(4);
}

/*
 * The case a task run at once needs its count for (kept_at_once: the top
 * hold is local's, not g's): its spawner is no task of the group, and the
 * group's waiter runs on another core. The entry (core 0) spawns T into h,
 * which core 1 takes, then A into g, and waits for g - running A itself,
 * which spins until B has started. T, on core 1, first
 * makes a quiet stretch of group spawns and queues 4 tasks of a group of
 * its own, so that its spawn of B into g runs B at once (every core busy:
 * core 0 runs A); B runs 20 ms. The entry's wait for g must not return
 * before B has finished: counted in nothing, B would leave g at zero as
 * soon as A returned.
 */
/* Make this core's next group spawn run its task at once while every core
 * is busy (sched/group.c): a quiet stretch of group spawns, each waited
 * for, then HIVE_GROUP_QUEUED_ENOUGH tasks left queued in `local`. */
static void sw_make_busy_at_once(struct hive_group *local, struct hive_task *quiet,
                                 struct hive_task *queued)
{
    sw_quiet_stretch(local, quiet, HIVE_GROUP_QUIET_SPAWNS);
    for (unsigned i = 0; i < HIVE_GROUP_QUEUED_ENOUGH; i++)
        CHECK_EQ(hive_group_spawn(local, &queued[i], sw_err_noop_task), HIVE_OK);
}

/* Spin until every core in `cores` (a bit each) sleeps in hive_port_wait at
 * once, for at most 2 s of this core's running time: the cases below start
 * once the other cores want work. */
static void sw_until_asleep(unsigned cores)
{
    struct sw_active a;
    sw_active_start(&a);
    for (;;) {
        bool all = true;
        for (unsigned c = 0; c < 32; c++)
            if (cores >> c & 1 && !SW_CORE_SLEEPING(c))
                all = false;
        if (all || sw_active_poll(&a) >= 2000000000ull)
            return;
        SW_SPIN_PAUSE();
    }
}

/* Spin until *flag is set: false (and a count in *late) after 2 s of this
 * core's running time; *spent_ns (if given) the running time it spun. */
static bool sw_spin_until_spent(atomic_bool *flag, atomic_uint *late, uint64_t *spent_ns)
{
    struct sw_active act;
    sw_active_start(&act);
    bool set = true;
    while (!atomic_load(flag)) {
        if (sw_active_poll(&act) > 2000000000ull) {
            atomic_fetch_add(late, 1);
            set = false;
            break;
        }
        SW_SPIN_PAUSE();
    }
    if (spent_ns)
        *spent_ns = sw_active_poll(&act);
    return set;
}

static bool sw_spin_until(atomic_bool *flag, atomic_uint *late)
{
    return sw_spin_until_spent(flag, late, NULL);
}

static struct {
    struct hive_group g, h, local;
    struct hive_task t, a, b, quiet, queued[HIVE_GROUP_QUEUED_ENOUGH];
    atomic_bool b_started, b_done;
    atomic_uint b_at_once, late;
    unsigned early;
} sw_elsewhere;

static void sw_elsewhere_b(struct hive_task *t)
{
    (void)t;
    atomic_store(&sw_elsewhere.b_started, true);
    sw_spin_running(20000000);
    atomic_store(&sw_elsewhere.b_done, true);
}

static void sw_elsewhere_a(struct hive_task *t)
{
    (void)t;
    (void)sw_spin_until(&sw_elsewhere.b_started, &sw_elsewhere.late);
}

static void sw_elsewhere_t(struct hive_task *t)
{
    (void)t;
    sw_make_busy_at_once(&sw_elsewhere.local, &sw_elsewhere.quiet, sw_elsewhere.queued);
    CHECK_EQ(hive_group_spawn(&sw_elsewhere.g, &sw_elsewhere.b, sw_elsewhere_b), HIVE_OK);
    atomic_store(&sw_elsewhere.b_at_once, atomic_load(&sw_elsewhere.b_done));
    CHECK_EQ(hive_group_wait(&sw_elsewhere.local), HIVE_OK);
}

static void sw_elsewhere_entry(void *unused)
{
    (void)unused;
    CHECK_EQ(hive_group_spawn(&sw_elsewhere.h, &sw_elsewhere.t, sw_elsewhere_t), HIVE_OK);
    CHECK_EQ(hive_group_spawn(&sw_elsewhere.g, &sw_elsewhere.a, sw_elsewhere_a), HIVE_OK);
    CHECK_EQ(hive_group_wait(&sw_elsewhere.g), HIVE_OK);
    if (!atomic_load(&sw_elsewhere.b_done))
        sw_elsewhere.early++;
    CHECK_EQ(hive_group_wait(&sw_elsewhere.h), HIVE_OK);
}

HIVE_TEST(group_task_run_at_once_counts_for_a_waiter_elsewhere)
{
    unsigned at_once = 0, rounds = 5;
    for (unsigned r = 0; r < rounds; r++) {
        memset(&sw_elsewhere, 0, sizeof sw_elsewhere);
        SW_RUN(2, sw_elsewhere_entry, NULL);
        CHECK_EQ(sw_elsewhere.early, 0);
        CHECK_EQ(atomic_load(&sw_elsewhere.late), 0);
        at_once += atomic_load(&sw_elsewhere.b_at_once);
    }
    /* Every round ran B inside its spawn: the case is the one above. */
    CHECK_EQ(at_once, rounds);
    printf("  %u of %u rounds ran B at once on core 1; the wait on core 0 waited for it\n", at_once,
           rounds);
}

/*
 * Where every hold is taken, the busy path queues its task instead of
 * running it at once (sched/group.c, holds_for_busy: a chain deeper than
 * the holds feeds a thief from there). The entry holds the other core with
 * a blocker, makes a quiet stretch of spawns each waited for, then, below
 * the middle of its stack (where nothing runs at once), spawns one task
 * into each of HIVE_GROUP_HOLDS groups: each is held privately in a hold
 * of its own, which takes them all. Its next spawn, into another group and
 * above the middle, finds every core busy and tasks queued - and no hold
 * left, so its task is queued, not run inside the spawn.
 */
static struct {
    struct hive_group quiet, fill[HIVE_GROUP_HOLDS], g;
    struct hive_task quiet_task, fill_tasks[HIVE_GROUP_HOLDS], t;
    atomic_uint ran;
    unsigned used_before, ran_in_spawn, late;
} sw_full_holds;

static void sw_full_holds_task(struct hive_task *t)
{
    (void)t;
    atomic_fetch_add(&sw_full_holds.ran, 1);
}

static void sw_full_holds_fill(void *unused)
{
    (void)unused;
    for (unsigned i = 0; i < HIVE_GROUP_HOLDS; i++)
        CHECK_EQ(hive_group_spawn(&sw_full_holds.fill[i], &sw_full_holds.fill_tasks[i], sw_err_noop_task),
                 HIVE_OK);
}

static void sw_full_holds_entry(void *unused)
{
    (void)unused;
    sw_hold_spawn(1);
    sw_full_holds.late = !sw_hold_started(1);
    if (!sw_full_holds.late)
        sw_quiet_stretch(&sw_full_holds.quiet, &sw_full_holds.quiet_task, HIVE_GROUP_QUIET_SPAWNS + 8);
    (void)sw_descend(0, sw_full_holds_fill, NULL);
    sw_full_holds.used_before = atomic_load(&hive_tls_worker->holds_used);
    CHECK_EQ(hive_group_spawn(&sw_full_holds.g, &sw_full_holds.t, sw_full_holds_task), HIVE_OK);
    sw_full_holds.ran_in_spawn = atomic_load(&sw_full_holds.ran);
    sw_hold_release();
    for (unsigned i = 0; i < HIVE_GROUP_HOLDS; i++)
        CHECK_EQ(hive_group_wait(&sw_full_holds.fill[i]), HIVE_OK);
    CHECK_EQ(hive_group_wait(&sw_full_holds.g), HIVE_OK);
}

HIVE_TEST(group_busy_spawn_queues_where_every_hold_is_taken)
{
    memset(&sw_full_holds, 0, sizeof sw_full_holds);
    if (!sw_hold_cores(2))
        return;
    SW_RUN(2, sw_full_holds_entry, NULL);
    CHECK(!sw_full_holds.late);
    CHECK_EQ(sw_full_holds.used_before, HIVE_GROUP_HOLDS);
    CHECK_EQ(sw_full_holds.ran_in_spawn, 0);
    CHECK_EQ(atomic_load(&sw_full_holds.ran), 1);
    printf("  %u holds taken: the spawn queued its task, which ran once\n", sw_full_holds.used_before);
}

/*
 * A kept hold must not keep a waiter elsewhere waiting on a spawner that
 * spins. As above, T on core 1 runs B into g at once while the entry on
 * core 0 waits for g (running A, which spins until B has started); B is
 * short, and its count stays as its core's keep of g when it returns
 * (sched/group.c, "Kept holds"). Then T spins, calling nothing of hive,
 * until the entry's wait for g has returned - which only the end of that
 * keep allows: the entry's wait parks, the backstop's check on core 1 sees
 * a core parked and pokes T's core, and the poke ends the keep and has the
 * check wake the entry. Without that T would spin for good; here it gives
 * up after 2 s of its running time and the case fails. Then the same with
 * the entry's wait deep in its stack: it never parks, and ends the keep by
 * asking core 1 for it, which its check sees (sched/wait.c). And both again
 * with T's deque full of its own queued tasks instead, where B runs at once
 * whatever the other cores do and its count is kept all the same.
 */
static struct {
    struct hive_group g, h, local;
    struct hive_task t, a, b, quiet, queued[HIVE_GROUP_QUEUED_ENOUGH], fill[HIVE_DEQUE_CAP];
    atomic_bool b_started, wait_returned;
    atomic_uint b_at_once, stuck, late, a_deep, full_seen;
    uint64_t waited_ns;
    bool deep; /* the entry waits in the lower half of its stack */
    bool full; /* T fills its deque before B's spawn */
} sw_keep;

static void sw_keep_b(struct hive_task *t)
{
    (void)t;
    atomic_store(&sw_keep.b_started, true);
}

static void sw_keep_a(struct hive_task *t)
{
    (void)t;
    /* Run by the entry's wait (not stolen: core 1 runs T): deep or not. */
    atomic_store(&sw_keep.a_deep, hive_tls_worker->wait_deep);
    (void)sw_spin_until(&sw_keep.b_started, &sw_keep.late);
}

static void sw_keep_t(struct hive_task *t)
{
    (void)t;
    if (sw_keep.full) {
        for (unsigned i = 0; i < HIVE_DEQUE_CAP; i++)
            CHECK_EQ(hive_group_spawn(&sw_keep.local, &sw_keep.fill[i], sw_err_noop_task), HIVE_OK);
        atomic_store(&sw_keep.full_seen, hive_deque_full(&hive_tls_worker->queues.forkjoin));
    } else {
        sw_make_busy_at_once(&sw_keep.local, &sw_keep.quiet, sw_keep.queued);
    }
    CHECK_EQ(hive_group_spawn(&sw_keep.g, &sw_keep.b, sw_keep_b), HIVE_OK);
    /* B ran inside the spawn: it started before the spawn returned. */
    atomic_store(&sw_keep.b_at_once, atomic_load(&sw_keep.b_started));
    /* T's running time, not the wall clock: a loaded host may stop the
     * whole process for longer than the bound below (sw_active_poll). */
    (void)sw_spin_until_spent(&sw_keep.wait_returned, &sw_keep.stuck, &sw_keep.waited_ns);
    CHECK_EQ(hive_group_wait(&sw_keep.local), HIVE_OK);
}

static void sw_keep_wait_g(void *unused)
{
    (void)unused;
    CHECK_EQ(hive_group_spawn(&sw_keep.g, &sw_keep.a, sw_keep_a), HIVE_OK);
    CHECK_EQ(hive_group_wait(&sw_keep.g), HIVE_OK);
    atomic_store(&sw_keep.wait_returned, true);
}

static void sw_keep_entry(void *unused)
{
    (void)unused;
    CHECK_EQ(hive_group_spawn(&sw_keep.h, &sw_keep.t, sw_keep_t), HIVE_OK);
    if (sw_keep.deep)
        (void)sw_descend(0, sw_keep_wait_g, NULL);
    else
        sw_keep_wait_g(NULL);
    CHECK_EQ(hive_group_wait(&sw_keep.h), HIVE_OK);
}

/* The waiter parks (its wait is in the upper half of its stack), or, deep,
 * polls - and asks the cores that keep a hold (sched/wait.c). B runs at
 * once as every core is busy, or as T's deque is full. park_timeout_ns: the
 * run's (0: none). */
static void sw_keep_case(bool deep, bool full, uint64_t park_timeout_ns)
{
    unsigned at_once = 0, deep_rounds = 0, full_rounds = 0, rounds = 5;
    uint64_t longest = 0;
    for (unsigned r = 0; r < rounds; r++) {
        memset(&sw_keep, 0, sizeof sw_keep);
        sw_keep.deep = deep;
        sw_keep.full = full;
        struct hive_config c = sw_cfg(2);
        c.park_timeout_ns = park_timeout_ns;
        CHECK_EQ(hive_run(sw_keep_entry, NULL, &c), HIVE_OK);
        CHECK_EQ(atomic_load(&sw_keep.stuck), 0);
        CHECK_EQ(atomic_load(&sw_keep.late), 0);
        at_once += atomic_load(&sw_keep.b_at_once);
        deep_rounds += atomic_load(&sw_keep.a_deep);
        full_rounds += atomic_load(&sw_keep.full_seen);
        if (sw_keep.waited_ns > longest)
            longest = sw_keep.waited_ns;
    }
    CHECK_EQ(at_once, rounds);
    CHECK_EQ(deep_rounds, deep ? rounds : 0);
    CHECK_EQ(full_rounds, full ? rounds : 0);
    /* Parks that time out: the check still comes about two backstop
     * periods (2 ms) after the park - 2-20 ms here on a loaded host, where
     * a build that held the check back reached 0.8-1.9 s in half its runs
     * (the case's limit, 2 s, in some). Counted in T's running time, so a
     * host that stops the process counts nothing; 0.5 s of it leaves the
     * waiter's and the backstop thread's own delays their room while T
     * spins beside them. */
    char parks[48] = "";
    if (park_timeout_ns) {
        CHECK(longest < 500000000u);
        snprintf(parks, sizeof parks, ", parks of %llu us", (unsigned long long)(park_timeout_ns / 1000));
    }
    printf("  %s wait, %s%s: %u of %u rounds ran B at once and spun after it; the wait elsewhere "
           "returned, at most %.1f ms of T's running time after B's spawn\n",
           deep ? "deep" : "shallow", full ? "full deque" : "all busy", parks, at_once, rounds,
           (double)longest / 1e6);
}

HIVE_TEST(kept_hold_ends_for_a_waiter_elsewhere_while_its_spawner_spins)
{
    sw_keep_case(false, false, 0);
    sw_keep_case(true, false, 0);
    sw_keep_case(false, true, 0);
    sw_keep_case(true, true, 0);
}

/* The same with parks that end before the host port's spin (50 us) does:
 * the parked waiter counts as waiting to the port's backstop for a moment
 * at each timeout only, and its check must run all the same (a build whose
 * backstop thread looked for a waiter again once signalled held it back
 * until the thread happened to look within that moment: waits of 0.4-2 s
 * in half its runs on a loaded host, the case's limit in some). */
HIVE_TEST(kept_hold_ends_for_a_waiter_elsewhere_whose_parks_time_out)
{
    sw_keep_case(false, false, 10000);
    sw_keep_case(false, true, 10000);
}

/*
 * A deep join waiter gets the private group tasks of the core that took its
 * frame. The entry descends into the lower half of its stack and, once core
 * 1 sleeps (so that the join shares fb), joins fa with fb: core 1 steals fb,
 * and core 0 runs fa, which waits for fb to start, then waits for fb deep in
 * its stack - where a wait polls, never parks, and takes work only from the
 * frame's thief (leapfrogging). fb spawns SW_DEEP_TASKS group tasks, kept
 * private (no core wants work: core 0 neither searches nor sleeps), then
 * spins until they have all run, calling nothing of hive. Only core 0 can
 * run them, and only once they are public: it asks core 1 for what it holds
 * privately (sched/wait.c), core 1's backstop check sees the ask and pokes
 * it, and the poke publishes them. Without the ask fb spins for good (here:
 * gives up after 2 s of its running time, and the case fails).
 */
#define SW_DEEP_TASKS 4

static struct {
    struct hive_group g;
    struct hive_task tasks[SW_DEEP_TASKS];
    atomic_uint ran_on[2], ran;
    atomic_bool fb_started, all_ran;
    atomic_uint late, gave_up;
    int fa_core, fb_core;
    bool fa_deep;
    unsigned private_after_spawns;
} sw_deep_private;

static void sw_deep_private_task(struct hive_task *t)
{
    (void)t;
    atomic_fetch_add(&sw_deep_private.ran_on[hive_worker_id() & 1], 1);
    if (atomic_fetch_add(&sw_deep_private.ran, 1) + 1 == SW_DEEP_TASKS)
        atomic_store(&sw_deep_private.all_ran, true);
}

static void sw_deep_private_fb(void *unused)
{
    (void)unused;
    sw_deep_private.fb_core = hive_worker_id();
    atomic_store(&sw_deep_private.fb_started, true);
    /* Let core 0 return from fa into its wait. */
    sw_spin_running(2000000);
    for (unsigned i = 0; i < SW_DEEP_TASKS; i++)
        CHECK_EQ(hive_group_spawn(&sw_deep_private.g, &sw_deep_private.tasks[i], sw_deep_private_task),
                 HIVE_OK);
    sw_deep_private.private_after_spawns = hive_deque_private_len(&hive_tls_worker->queues.forkjoin);
    (void)sw_spin_until(&sw_deep_private.all_ran, &sw_deep_private.gave_up);
    CHECK_EQ(hive_group_wait(&sw_deep_private.g), HIVE_OK);
}

static void sw_deep_private_fa(void *unused)
{
    (void)unused;
    char here;
    sw_deep_private.fa_core = hive_worker_id();
    sw_deep_private.fa_deep = (uintptr_t)&here < hive_tls_worker->deep_below;
    (void)sw_spin_until(&sw_deep_private.fb_started, &sw_deep_private.late);
}

static void sw_deep_private_join(void *unused)
{
    (void)unused;
    CHECK_EQ(hive_join(sw_deep_private_fa, NULL, sw_deep_private_fb, NULL), HIVE_OK);
}

static void sw_deep_private_entry(void *unused)
{
    (void)unused;
    /* Core 1 asleep first: the join's fb (a task's first join is shared)
     * wakes it, and it takes fb at once. */
    sw_until_asleep(1u << 1);
    (void)sw_descend(0, sw_deep_private_join, NULL);
}

HIVE_TEST(deep_join_waiter_gets_private_tasks_of_its_frame_thief)
{
    unsigned rounds = 5, private_rounds = 0, on_core0 = 0;
    for (unsigned r = 0; r < rounds; r++) {
        memset(&sw_deep_private, 0, sizeof sw_deep_private);
        hive_group_init(&sw_deep_private.g);
        SW_RUN(2, sw_deep_private_entry, NULL);
        CHECK_EQ(atomic_load(&sw_deep_private.late), 0);
        CHECK_EQ(atomic_load(&sw_deep_private.gave_up), 0);
        CHECK_EQ(sw_deep_private.fa_core, 0);
        CHECK_EQ(sw_deep_private.fb_core, 1);
        CHECK(sw_deep_private.fa_deep);
        private_rounds += sw_deep_private.private_after_spawns > 0;
        on_core0 += atomic_load(&sw_deep_private.ran_on[0]);
    }
    /* Core 1 spun throughout: core 0 ran every task. And the case is the
     * one it is about: the tasks were private when fb began to spin (a
     * round where core 0 had asked already may have seen some go public). */
    CHECK_EQ(on_core0, rounds * SW_DEEP_TASKS);
    CHECK(private_rounds > 0);
    printf("  %u of %u rounds held tasks private after the spawns; core 0 ran all %u tasks\n",
           private_rounds, rounds, on_core0);
}

/*
 * A deep group wait in a run of one worker reaches its group's task under
 * another group's entry. P, deep in its stack (where group spawns queue even
 * at one worker), spawns G1 into g, H2 into h, then Q into q and waits for q;
 * its wait runs Q, which waits for g (G1 was spawned before Q: allowed). Q's
 * wait finds nothing above its floor, and under it H2 is the newest entry: a
 * wait that looked at the newest entry only put H2 back and found it again
 * at every look, for good. In a child process, killed if it is not done in
 * 20 s (the run takes microseconds).
 */
#ifndef SCHED_TEST_TSAN
/* Runs entry at one worker in a child process, killed if it is not done in
 * 20 s (these runs take microseconds); the child exits with what verdict
 * says of the run and its hive_run result (0: as the case wants), or 5 if
 * a check of its own failed (counted in the child, not here). Checks that
 * it neither hung nor failed; returns whether it hung. */
static bool sw_one_worker_in_child(void (*entry)(void *), int (*verdict)(int err))
{
    fflush(stdout);
    pid_t child = fork();
    CHECK(child >= 0);
    if (child == 0) {
        alarm(20);
        int failed_before = hive_test_case_failures();
        struct hive_config c = sw_cfg(1);
        int v = verdict(hive_run(entry, NULL, &c));
        fflush(stdout);
        _exit(v ? v : hive_test_case_failures() != failed_before ? 5 : 0);
    }
    int status = 0;
    CHECK_EQ(waitpid(child, &status, 0), child);
    bool hung = WIFSIGNALED(status) && WTERMSIG(status) == SIGALRM;
    CHECK(!hung);
    CHECK(WIFEXITED(status) && WEXITSTATUS(status) == 0);
    return hung;
}

static struct {
    struct hive_group g, h, q;
    struct hive_task g1, h2, qt;
    atomic_bool g1_ran;
    bool q_deep;
} sw_under;

static void sw_under_g1(struct hive_task *t)
{
    (void)t;
    atomic_store(&sw_under.g1_ran, true);
}

static void sw_under_q(struct hive_task *t)
{
    (void)t;
    sw_under.q_deep = hive_tls_worker->wait_deep;
    CHECK_EQ(hive_group_wait(&sw_under.g), HIVE_OK);
}

static void sw_under_p(void *unused)
{
    (void)unused;
    CHECK_EQ(hive_group_spawn(&sw_under.g, &sw_under.g1, sw_under_g1), HIVE_OK);
    CHECK_EQ(hive_group_spawn(&sw_under.h, &sw_under.h2, sw_err_noop_task), HIVE_OK);
    CHECK_EQ(hive_group_spawn(&sw_under.q, &sw_under.qt, sw_under_q), HIVE_OK);
    CHECK_EQ(hive_group_wait(&sw_under.q), HIVE_OK);
    CHECK_EQ(hive_group_wait(&sw_under.h), HIVE_OK);
}

static void sw_under_entry(void *unused)
{
    (void)unused;
    memset(&sw_under, 0, sizeof sw_under);
    (void)sw_descend(0, sw_under_p, NULL);
}

static int sw_under_verdict(int err)
{
    return err == HIVE_OK && atomic_load(&sw_under.g1_ran) && sw_under.q_deep ? 0 : 3;
}

HIVE_TEST(deep_group_wait_at_one_worker_reaches_its_task_under_another_groups)
{
    bool hung = sw_one_worker_in_child(sw_under_entry, sw_under_verdict);
    printf("  1 worker: Q's deep wait for g %s\n", hung ? "never ended (killed after 20 s)" : "ran G1 and returned");
}

/*
 * The same at one worker, with g's task under a join frame. O, deep,
 * spawns G1 into g and P into h, and waits for h, which runs P; P joins fa
 * with fb (its first join in a wait: the frame goes into the deque above
 * G1); fa spawns Q into q and waits for q, which runs Q; Q waits for g.
 * Nothing lies above Q's floor, and under it the frame that fa's joiner
 * finds by its index: G1 cannot move up past it, or the frame down into its
 * slot. The wait must still run G1, or it waits for good.
 */
static struct {
    struct hive_group g, h, q;
    struct hive_task g1, p, qt;
    atomic_bool g1_ran, fb_ran;
    bool q_deep, frame_queued;
} sw_frame;

static void sw_frame_g1(struct hive_task *t)
{
    (void)t;
    atomic_store(&sw_frame.g1_ran, true);
}

static void sw_frame_q(struct hive_task *t)
{
    (void)t;
    sw_frame.q_deep = hive_tls_worker->wait_deep;
    CHECK_EQ(hive_group_wait(&sw_frame.g), HIVE_OK);
}

static void sw_frame_fa(void *unused)
{
    (void)unused;
    /* G1 and the frame: the case is the one it is about. */
    sw_frame.frame_queued = hive_deque_len(&hive_tls_worker->queues.forkjoin) == 2;
    CHECK_EQ(hive_group_spawn(&sw_frame.q, &sw_frame.qt, sw_frame_q), HIVE_OK);
    CHECK_EQ(hive_group_wait(&sw_frame.q), HIVE_OK);
}

static void sw_frame_fb(void *unused)
{
    (void)unused;
    atomic_store(&sw_frame.fb_ran, true);
}

static void sw_frame_p(struct hive_task *t)
{
    (void)t;
    CHECK_EQ(hive_join(sw_frame_fa, NULL, sw_frame_fb, NULL), HIVE_OK);
}

static void sw_frame_o(void *unused)
{
    (void)unused;
    CHECK_EQ(hive_group_spawn(&sw_frame.g, &sw_frame.g1, sw_frame_g1), HIVE_OK);
    CHECK_EQ(hive_group_spawn(&sw_frame.h, &sw_frame.p, sw_frame_p), HIVE_OK);
    CHECK_EQ(hive_group_wait(&sw_frame.h), HIVE_OK);
    CHECK_EQ(hive_group_wait(&sw_frame.g), HIVE_OK);
}

static void sw_frame_entry(void *unused)
{
    (void)unused;
    memset(&sw_frame, 0, sizeof sw_frame);
    (void)sw_descend(0, sw_frame_o, NULL);
}

static int sw_frame_verdict(int err)
{
    bool ok = err == HIVE_OK && atomic_load(&sw_frame.g1_ran) && atomic_load(&sw_frame.fb_ran);
    return !ok ? 3 : !sw_frame.q_deep || !sw_frame.frame_queued ? 4 : 0;
}

HIVE_TEST(deep_group_wait_at_one_worker_reaches_its_task_under_a_join_frame)
{
    bool hung = sw_one_worker_in_child(sw_frame_entry, sw_frame_verdict);
    printf("  1 worker: Q's deep wait for g %s\n", hung ? "never ended (killed after 20 s)" : "ran G1 from under the frame and returned");
}

/* A run of `workers` whose entry calls deep() in the lower half of the
 * stack (sw_descend), where a wait is deep and a group spawn queues. */
static void (*sw_deep_fn)(void *);

static void sw_deep_entry(void *unused)
{
    (void)unused;
    (void)sw_descend(0, sw_deep_fn, NULL);
}

static int sw_run_deep(unsigned workers, void (*deep)(void *))
{
    sw_deep_fn = deep;
    struct hive_config c = sw_cfg(workers);
    return hive_run(sw_deep_entry, NULL, &c);
}

/*
 * A deep wait's pop stops at its task's floor, also where a hole lies at
 * it (the pop's limit). At one worker: O, deep, spawns K into k, X into x, T into t,
 * and waits for t, which runs T (T's floor: above K and X). T spawns G into
 * g, H into h, T2 into t2, and waits for t2, which runs T2; T2 waits for g
 * and takes G from under H, leaving a hole. T's wait for h pops H; then T
 * waits for k: its pop drops the hole, and must stop at its floor - X, O's
 * task under it, is not part of what T waits for and may not run nested in
 * T's wait (the stack bound, sched/join.c) - before the wait takes K from
 * under X. A pop that passed the floor ran X there: no hang, only a task
 * run where it may not be, which the case sees.
 */
static struct {
    struct hive_group k, x, t, g, h, t2;
    struct hive_task kt, xt, tt, gt, ht, t2t;
    bool in_t_wait_for_k, x_in_t_wait, k_ran, deep, hole_left;
} sw_hole_floor;

static void sw_hole_floor_k(struct hive_task *t)
{
    (void)t;
    sw_hole_floor.k_ran = true;
}

static void sw_hole_floor_x(struct hive_task *t)
{
    (void)t;
    sw_hole_floor.x_in_t_wait = sw_hole_floor.in_t_wait_for_k;
}

static void sw_hole_floor_t2(struct hive_task *t)
{
    (void)t;
    CHECK_EQ(hive_group_wait(&sw_hole_floor.g), HIVE_OK);
}

static void sw_hole_floor_t(struct hive_task *t)
{
    (void)t;
    sw_hole_floor.deep = hive_tls_worker->wait_deep;
    CHECK_EQ(hive_group_spawn(&sw_hole_floor.g, &sw_hole_floor.gt, sw_err_noop_task), HIVE_OK);
    CHECK_EQ(hive_group_spawn(&sw_hole_floor.h, &sw_hole_floor.ht, sw_err_noop_task), HIVE_OK);
    CHECK_EQ(hive_group_spawn(&sw_hole_floor.t2, &sw_hole_floor.t2t, sw_hole_floor_t2), HIVE_OK);
    CHECK_EQ(hive_group_wait(&sw_hole_floor.t2), HIVE_OK);
    CHECK_EQ(hive_group_wait(&sw_hole_floor.h), HIVE_OK);
    /* K, X, then G's hole: the case is the one it is about. */
    struct hive_deque *d = &hive_tls_worker->queues.forkjoin;
    sw_hole_floor.hole_left =
        hive_deque_len(d) == 3 && hive_deque_at(d, hive_deque_bottom(d) - 1) == &hive_deque_hole;
    sw_hole_floor.in_t_wait_for_k = true;
    CHECK_EQ(hive_group_wait(&sw_hole_floor.k), HIVE_OK);
    sw_hole_floor.in_t_wait_for_k = false;
}

static void sw_hole_floor_o(void *unused)
{
    (void)unused;
    CHECK_EQ(hive_group_spawn(&sw_hole_floor.k, &sw_hole_floor.kt, sw_hole_floor_k), HIVE_OK);
    CHECK_EQ(hive_group_spawn(&sw_hole_floor.x, &sw_hole_floor.xt, sw_hole_floor_x), HIVE_OK);
    CHECK_EQ(hive_group_spawn(&sw_hole_floor.t, &sw_hole_floor.tt, sw_hole_floor_t), HIVE_OK);
    CHECK_EQ(hive_group_wait(&sw_hole_floor.t), HIVE_OK);
    CHECK_EQ(hive_group_wait(&sw_hole_floor.x), HIVE_OK);
}

HIVE_TEST(deep_wait_at_one_worker_pops_no_lower_than_its_floor_past_a_hole)
{
    memset(&sw_hole_floor, 0, sizeof sw_hole_floor);
    CHECK_EQ(sw_run_deep(1, sw_hole_floor_o), HIVE_OK);
    CHECK(sw_hole_floor.deep);
    CHECK(sw_hole_floor.hole_left);
    CHECK(sw_hole_floor.k_ran);
    CHECK(!sw_hole_floor.x_in_t_wait);
    printf("  1 worker: T's wait for k %s\n", sw_hole_floor.x_in_t_wait
                                                 ? "ran X, O's task under its floor"
                                                 : "dropped the hole and took K, not X");
}

/*
 * A join's take-back pops no lower than its own frame, also where holes lie
 * from its frame's index up (join.c, join_shared: the pop's limit). At one
 * worker: O, deep, spawns H into h, X into x, T into t, and waits for t,
 * which runs T. T joins fa with fb (its first join in a wait: the frame goes
 * into the deque right above X). fa waits for h, and its wait pops the
 * frame and runs fb. fb waits for h too and takes H from under X (a hole,
 * below X); then it spawns Y into y, V into v, Z into z and waits for z,
 * which runs Z; Z waits for y and takes Y - at the frame's index - from
 * under V, leaving a hole there; fb's wait for v pops V. So when fa's wait
 * (h is done) and fa return, the deque holds X, then the hole at the
 * frame's index: the join's take-back must drop the hole and stop there. X
 * is O's task, not part of T's join, and may not run nested in it (the
 * stack bound, sched/join.c); O's wait for x runs it. A pop that passed the
 * frame's index ran X there: no hang, only a task run where it may not be,
 * which the case sees.
 */
static struct {
    struct hive_group h, x, t, y, v, z;
    struct hive_task ht, xt, tt, yt, vt, zt;
    bool deep, fb_ran, fb_ran_in_fa, hole_above_x, in_t_join, x_ran, x_in_t_join;
} sw_join_limit;

static void sw_join_limit_x(struct hive_task *t)
{
    (void)t;
    sw_join_limit.x_ran = true;
    sw_join_limit.x_in_t_join = sw_join_limit.in_t_join;
}

static void sw_join_limit_z(struct hive_task *t)
{
    (void)t;
    CHECK_EQ(hive_group_wait(&sw_join_limit.y), HIVE_OK);
}

/* Y's hole at the frame's index, with V above it gone: what fb leaves. */
static void sw_join_limit_leave_a_hole(void)
{
    CHECK_EQ(hive_group_spawn(&sw_join_limit.y, &sw_join_limit.yt, sw_err_noop_task), HIVE_OK);
    CHECK_EQ(hive_group_spawn(&sw_join_limit.v, &sw_join_limit.vt, sw_err_noop_task), HIVE_OK);
    CHECK_EQ(hive_group_spawn(&sw_join_limit.z, &sw_join_limit.zt, sw_join_limit_z), HIVE_OK);
    CHECK_EQ(hive_group_wait(&sw_join_limit.z), HIVE_OK);
    CHECK_EQ(hive_group_wait(&sw_join_limit.v), HIVE_OK);
}

static void sw_join_limit_fb(void *unused)
{
    (void)unused;
    /* Done here, fa's wait for h ends as soon as fb returns: no look of
     * its own drops the hole first. */
    CHECK_EQ(hive_group_wait(&sw_join_limit.h), HIVE_OK);
    sw_join_limit_leave_a_hole();
    sw_join_limit.fb_ran = true;
}

static void sw_join_limit_fa(void *unused)
{
    (void)unused;
    CHECK_EQ(hive_group_wait(&sw_join_limit.h), HIVE_OK);
    /* The frame ran in the wait, and what is left is X under a hole: the
     * case is the one it is about. */
    sw_join_limit.fb_ran_in_fa = sw_join_limit.fb_ran;
    struct hive_deque *d = &hive_tls_worker->queues.forkjoin;
    uint32_t bottom = hive_deque_bottom(d);
    sw_join_limit.hole_above_x = hive_deque_at(d, bottom - 1) == &hive_deque_hole &&
                                 hive_deque_at(d, bottom - 2) == &sw_join_limit.xt;
}

static void sw_join_limit_t(struct hive_task *t)
{
    (void)t;
    sw_join_limit.deep = hive_tls_worker->wait_deep;
    sw_join_limit.in_t_join = true;
    CHECK_EQ(hive_join(sw_join_limit_fa, NULL, sw_join_limit_fb, NULL), HIVE_OK);
    sw_join_limit.in_t_join = false;
}

static void sw_join_limit_o(void *unused)
{
    (void)unused;
    CHECK_EQ(hive_group_spawn(&sw_join_limit.h, &sw_join_limit.ht, sw_err_noop_task), HIVE_OK);
    CHECK_EQ(hive_group_spawn(&sw_join_limit.x, &sw_join_limit.xt, sw_join_limit_x), HIVE_OK);
    CHECK_EQ(hive_group_spawn(&sw_join_limit.t, &sw_join_limit.tt, sw_join_limit_t), HIVE_OK);
    CHECK_EQ(hive_group_wait(&sw_join_limit.t), HIVE_OK);
    CHECK_EQ(hive_group_wait(&sw_join_limit.x), HIVE_OK);
    CHECK_EQ(hive_group_wait(&sw_join_limit.h), HIVE_OK);
}

HIVE_TEST(join_at_one_worker_takes_back_no_lower_than_its_frame_past_a_hole)
{
    memset(&sw_join_limit, 0, sizeof sw_join_limit);
    CHECK_EQ(sw_run_deep(1, sw_join_limit_o), HIVE_OK);
    CHECK(sw_join_limit.deep);
    CHECK(sw_join_limit.fb_ran_in_fa);
    CHECK(sw_join_limit.hole_above_x);
    CHECK(sw_join_limit.x_ran);
    CHECK(!sw_join_limit.x_in_t_join);
    printf("  1 worker: T's join %s\n", sw_join_limit.x_in_t_join
                                            ? "ran X, O's task under its frame"
                                            : "dropped the hole at its frame and left X to O");
}
#endif

/*
 * A child that a task run inside a deep wait left in the LIFO slot reaches
 * another core once that task returns. 3 cores: a blocker holds one; the
 * entry, deep, joins fa with fb and the other core takes fb; core 0 waits
 * for fb deep. fb spawns T into a group (kept private), then spins until X
 * has run; core 0 asks for T, leapfrogs it once it is public, and T does
 * hive_spawn(X) and returns: X in core 0's LIFO slot, which a deep wait
 * never looks at. The blocker then ends and its core wants work: it must
 * get X (moved to the ring as T returned), or fb spins for good (gives up
 * after 2 s of its running time here, and the case fails).
 */
static struct {
    struct hive_group g, hb;
    struct hive_task blocker, t, x;
    atomic_bool blocker_started, fb_started, t_ran, x_ran;
    atomic_uint late, gave_up;
    int blocker_core, x_core, other;
    bool fa_deep;
} sw_lifo;

static void sw_lifo_x(struct hive_task *t)
{
    (void)t;
    sw_lifo.x_core = hive_worker_id();
    atomic_store(&sw_lifo.x_ran, true);
}

static void sw_lifo_t(struct hive_task *t)
{
    (void)t;
    CHECK_EQ(hive_spawn(&sw_lifo.x, sw_lifo_x), HIVE_OK);
    atomic_store(&sw_lifo.t_ran, true);
}

static void sw_lifo_blocker(struct hive_task *t)
{
    (void)t;
    sw_lifo.blocker_core = hive_worker_id();
    atomic_store(&sw_lifo.blocker_started, true);
    struct sw_active a;
    sw_active_start(&a);
    while (!atomic_load(&sw_lifo.t_ran) && sw_active_poll(&a) < 10000000000ull)
        SW_SPIN_PAUSE();
}

static void sw_lifo_fb(void *unused)
{
    (void)unused;
    atomic_store(&sw_lifo.fb_started, true);
    sw_spin_running(2000000);
    CHECK_EQ(hive_group_spawn(&sw_lifo.g, &sw_lifo.t, sw_lifo_t), HIVE_OK);
    (void)sw_spin_until(&sw_lifo.x_ran, &sw_lifo.gave_up);
    CHECK_EQ(hive_group_wait(&sw_lifo.g), HIVE_OK);
}

static void sw_lifo_fa(void *unused)
{
    (void)unused;
    char here;
    sw_lifo.fa_deep = (uintptr_t)&here < hive_tls_worker->deep_below;
    (void)sw_spin_until(&sw_lifo.fb_started, &sw_lifo.late);
}

static void sw_lifo_spawn_blocker(void *unused)
{
    (void)unused;
    CHECK_EQ(hive_group_spawn(&sw_lifo.hb, &sw_lifo.blocker, sw_lifo_blocker), HIVE_OK);
}

static void sw_lifo_join(void *unused)
{
    (void)unused;
    CHECK_EQ(hive_join(sw_lifo_fa, NULL, sw_lifo_fb, NULL), HIVE_OK);
}

static void sw_lifo_entry(void *unused)
{
    (void)unused;
    sw_until_asleep(1u << 1 | 1u << 2);
    (void)sw_descend(0, sw_lifo_spawn_blocker, NULL);
    (void)sw_spin_until(&sw_lifo.blocker_started, &sw_lifo.late);
    sw_lifo.other = sw_lifo.blocker_core == 1 ? 2 : 1;
    sw_until_asleep(1u << sw_lifo.other);
    (void)sw_descend(0, sw_lifo_join, NULL);
    CHECK_EQ(hive_group_wait(&sw_lifo.hb), HIVE_OK);
}

HIVE_TEST(lifo_child_of_a_task_run_in_a_deep_wait_reaches_another_core)
{
    unsigned rounds = 3, elsewhere = 0;
    for (unsigned r = 0; r < rounds; r++) {
        memset(&sw_lifo, 0, sizeof sw_lifo);
        hive_group_init(&sw_lifo.g);
        hive_group_init(&sw_lifo.hb);
        SW_RUN(3, sw_lifo_entry, NULL);
        CHECK_EQ(atomic_load(&sw_lifo.late), 0);
        CHECK_EQ(atomic_load(&sw_lifo.gave_up), 0);
        CHECK(sw_lifo.fa_deep);
        elsewhere += sw_lifo.x_core != 0;
    }
    CHECK_EQ(elsewhere, rounds);
    printf("  %u of %u rounds: X ran on another core while fb spun\n", elsewhere, rounds);
}

HIVE_TEST(group_with_two_waiters)
{
    FOR_CORES(n)
        sched_case_two_waiters(n, 40 / SCALE, 300000);
}

HIVE_TEST(group_waiters_both_sleep)
{
    /* The group's task, the entry and the second waiter each need a core. */
    static const unsigned counts[] = {3, 4, 8};
    for (unsigned i = 0; i < 3; i++)
        sched_case_two_sleepers(counts[i], 20 / SCALE);
}

HIVE_TEST(unwaited_group_is_reported)
{
    FOR_CORES(n)
        sched_case_unwaited_group(n);
}

HIVE_TEST(exactly_once)
{
    FOR_CORES(n)
        sched_case_exactly_once(n, 1000000 / SCALE);
}

HIVE_TEST(no_lost_wakeup)
{
    /* 10^4 rounds in all; 5 s per wait before it counts as lost. */
    sched_case_no_lost_wakeup(2, 4000 / SCALE, 5000000000ull);
    sched_case_no_lost_wakeup(4, 3000 / SCALE, 5000000000ull);
    sched_case_no_lost_wakeup(8, 3000 / SCALE, 5000000000ull);
}

HIVE_TEST(deep_wait_runs_own_deque)
{
    /* 2 workers by construction; 2 s per spin before it counts as stuck. */
    sched_case_deep_wait_own_deque(200 / SCALE, 2000000000ull);
}

HIVE_TEST(deep_wait_keeps_its_floor)
{
    /* 2 workers by construction; G holds its core up to 20 ms a round. */
    sched_case_deep_wait_keeps_its_floor(10, 20000000ull);
}

HIVE_TEST(moved_entry_stays_under)
{
    /* 2 workers by construction; A holds its core until E has moved (at
     * most 2 s), B up to 20 ms more a round. */
    sched_case_moved_entry_stays_under(10, 20000000ull);
}

/* A chain of joins deeper than a share's walk (host only: its 3,000 nested
 * frames would not fit a board's 32 KiB stack). Level k joins level k+1 (fa, deeper) with a mark of its own (fb), SW_CHAIN
 * levels down: a latent list longer than HIVE_LATENT_WALK. Level 0's fb,
 * shared at once as the task's first join, keeps the second core busy
 * until the chain is at its deepest; then the deepest level joins again,
 * one join at a time, while the second core wants work: each comes out of
 * line and shares - the first walk stops at HIVE_LATENT_WALK frames, so
 * the older latent frames behind the one it shares stay private to their
 * joiners for good (join.c, "The list"). Every mark must run exactly once,
 * and every join return HIVE_OK. */
#define SW_CHAIN 3000u
#define SW_CHAIN_LEAF_JOINS 64u

struct sw_chain {
    unsigned level;
    _Atomic unsigned *marks;
};

static _Atomic unsigned sw_chain_marks[SW_CHAIN + SW_CHAIN_LEAF_JOINS];
static atomic_bool sw_chain_deepest; /* the chain is at its deepest */
static atomic_bool sw_chain_first_done; /* level 0's mark has run */

static void sw_chain_mark(void *p)
{
    struct sw_chain *c = p;
    if (c->level == 0) {
        /* The other core, most likely: stay busy until the chain is deep,
         * so that no one wants work while it grows (2 s at most). */
        uint64_t until = hive_port_now_ns() + 2000000000ull;
        while (!atomic_load(&sw_chain_deepest) && hive_port_now_ns() < until)
            ;
        atomic_store(&sw_chain_first_done, true);
    }
    atomic_fetch_add(&c->marks[c->level], 1);
}

static void sw_chain_nop(void *p) { (void)p; }

static void sw_chain_down(void *p)
{
    struct sw_chain *c = p;
    if (c->level + 1 == SW_CHAIN) {
        atomic_store(&sw_chain_deepest, true);
        /* Until the other core wants work again (or 2 s), then joins that
         * come out of line and share. */
        uint64_t until = hive_port_now_ns() + 2000000000ull;
        while (!atomic_load(&sw_chain_first_done) && hive_port_now_ns() < until)
            ;
        for (unsigned i = 0; i < SW_CHAIN_LEAF_JOINS; i++) {
            struct sw_chain leaf = {SW_CHAIN + i, c->marks};
            CHECK_EQ(hive_join(sw_chain_nop, NULL, sw_chain_mark, &leaf), HIVE_OK);
        }
        return;
    }
    struct sw_chain next = {c->level + 1, c->marks};
    CHECK_EQ(hive_join(sw_chain_down, &next, sw_chain_mark, c), HIVE_OK);
}

static void sched_case_join_chain(unsigned cores)
{
    for (unsigned i = 0; i < SW_CHAIN + SW_CHAIN_LEAF_JOINS; i++)
        atomic_store(&sw_chain_marks[i], 0);
    atomic_store(&sw_chain_deepest, false);
    atomic_store(&sw_chain_first_done, false);
    struct sw_chain top = {0, sw_chain_marks};
    SW_RUN(cores, sw_chain_down, &top);
    unsigned wrong = 0;
    /* Every level but the deepest marks itself; then the leaf's joins. */
    for (unsigned i = 0; i < SW_CHAIN + SW_CHAIN_LEAF_JOINS; i++)
        wrong += atomic_load(&sw_chain_marks[i]) != (i != SW_CHAIN - 1);
    CHECK_EQ(wrong, 0);
    const struct hive_stats *s = hive_stats_last();
    CHECK_EQ(s->total.joins_inline + s->total.joins_waited, SW_CHAIN - 1 + SW_CHAIN_LEAF_JOINS);
}

HIVE_TEST(join_chain_deeper_than_a_walk)
{
    sched_case_join_chain(2);
    sched_case_join_chain(4);
}

HIVE_TEST(wait_low_on_the_stack_is_deep)
{
    sched_case_low_wait_is_deep();
}

/* The calling thread's CPU time: the waiting core's, in the case below. */
static uint64_t thread_cpu_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
    return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

HIVE_TEST(waiter_parks_and_wakes)
{
    /* The other half runs 200 ms; at 2 workers and at 4. */
    sched_case_waiter_parks(2, 200000000ull, thread_cpu_ns);
    sched_case_waiter_parks(4, 200000000ull, thread_cpu_ns);
}

/* ---- host only: spawns from threads that are not workers, during a run ---------- */

#define EXT_THREADS 3
static atomic_uint ext_hits;
static atomic_bool ext_go;
static struct hive_task ext_anchor;

static void ext_fn(void *p)
{
    (void)p;
    atomic_fetch_add(&ext_hits, 1);
}

static void *ext_thread(void *p)
{
    unsigned n = *(unsigned *)p;
    while (!atomic_load(&ext_go))
        sched_yield();
    for (unsigned i = 0; i < n; i++) {
        int rc;
        while ((rc = hive_spawn_fn(ext_fn, NULL)) == HIVE_ENOMEM)
            sched_yield(); /* the pool refills as tasks run */
        if (rc != HIVE_OK)
            CHECK_EQ(rc, HIVE_OK);
        if (i % 64 == 0)
            sched_yield();
    }
    return NULL;
}

/* The run stays alive until the outside threads are done: a poller task that
 * respawns itself (without ever blocking its core) while they work. */
static atomic_uint ext_threads_done;
static void ext_poll(struct hive_task *t)
{
    if (atomic_load(&ext_threads_done) < EXT_THREADS)
        CHECK_EQ(hive_spawn(t, ext_poll), HIVE_OK);
}

static void ext_entry(void *p)
{
    (void)p;
    memset(&ext_anchor, 0, sizeof ext_anchor);
    atomic_store(&ext_go, true);
    CHECK_EQ(hive_spawn(&ext_anchor, ext_poll), HIVE_OK);
}

static void *ext_joiner(void *p)
{
    pthread_t *t = p;
    for (unsigned i = 0; i < EXT_THREADS; i++) {
        pthread_join(t[i], NULL);
        atomic_fetch_add(&ext_threads_done, 1);
    }
    return NULL;
}

HIVE_TEST(spawn_from_outside_threads)
{
    unsigned per = 20000 / SCALE;
    FOR_CORES(n) {
        pthread_t t[EXT_THREADS], j;
        atomic_store(&ext_hits, 0);
        atomic_store(&ext_go, false);
        atomic_store(&ext_threads_done, 0);
        for (unsigned i = 0; i < EXT_THREADS; i++)
            pthread_create(&t[i], NULL, ext_thread, &per);
        pthread_create(&j, NULL, ext_joiner, t);
        struct hive_config c = sw_cfg(n);
        CHECK_EQ(hive_run(ext_entry, NULL, &c), HIVE_OK);
        pthread_join(j, NULL);
        /* Whatever the run did not get to runs in the next one. */
        c.cores = 1;
        CHECK_EQ(hive_run(ext_fn, NULL, &c), HIVE_OK);
        CHECK_EQ(atomic_load(&ext_hits), EXT_THREADS * per + 1);
    }
}

/* A thread that is not a worker takes its hive_spawn_fn headers from a pool
 * of its own: it can exhaust that pool, and the worker's own stays whole. */
#define OWN_POOL 8
static atomic_bool own_pool_outside_full;
static atomic_bool own_pool_worker_done;
static atomic_uint own_pool_runs;

static void own_pool_fn(void *p)
{
    (void)p;
    atomic_fetch_add(&own_pool_runs, 1);
}

static void *own_pool_thread(void *p)
{
    unsigned *got = p;
    while (hive_spawn_fn(own_pool_fn, NULL) == HIVE_OK)
        ++*got;
    atomic_store(&own_pool_outside_full, true);
    return NULL;
}

static void own_pool_entry(void *p)
{
    (void)p;
    pthread_t t;
    static unsigned outside_got;
    outside_got = 0;
    pthread_create(&t, NULL, own_pool_thread, &outside_got);
    /* The only worker is busy here, so nothing the thread queued can run and
     * give its header back: the thread fills its pool and stops. */
    while (!atomic_load(&own_pool_outside_full))
        sched_yield();
    pthread_join(t, NULL);
    CHECK_EQ(outside_got, OWN_POOL);
    unsigned mine = 0;
    while (mine < OWN_POOL + 1 && hive_spawn_fn(own_pool_fn, NULL) == HIVE_OK)
        mine++;
    CHECK_EQ(mine, OWN_POOL); /* the worker's pool, untouched by the thread */
    atomic_store(&own_pool_worker_done, true);
}

HIVE_TEST(outside_threads_have_their_own_pool)
{
    atomic_store(&own_pool_outside_full, false);
    atomic_store(&own_pool_runs, 0);
    struct hive_config c = sw_cfg(1);
    c.pool_size = OWN_POOL;
    CHECK_EQ(hive_run(own_pool_entry, NULL, &c), HIVE_OK);
    CHECK(atomic_load(&own_pool_worker_done));
    CHECK_EQ(atomic_load(&own_pool_runs), 2 * OWN_POOL);
}

/* Each run has the pool size it asks for, whether it changes between runs
 * or stays (a run with the last run's size skips the pools' rebuild). */
static unsigned pool_size_got;

static void pool_size_entry(void *p)
{
    (void)p;
    /* The only worker is here: no header comes back until this returns. */
    pool_size_got = 0;
    while (pool_size_got <= HIVE_POOL_MAX && hive_spawn_fn(own_pool_fn, NULL) == HIVE_OK)
        pool_size_got++;
}

HIVE_TEST(pool_size_per_run)
{
    static const unsigned sizes[] = {8, 8, 16, 3, 3, 8};
    for (unsigned i = 0; i < sizeof sizes / sizeof sizes[0]; i++) {
        struct hive_config c = sw_cfg(1);
        c.pool_size = sizes[i];
        atomic_store(&own_pool_runs, 0);
        CHECK_EQ(hive_run(pool_size_entry, NULL, &c), HIVE_OK);
        CHECK_EQ(pool_size_got, sizes[i]);
        CHECK_EQ(atomic_load(&own_pool_runs), sizes[i]);
    }
}

/* A run's statistics name its own cores only: those of a bigger run before
 * it are gone, not left above the smaller run's count. The bigger run puts
 * a task on each of its 3 cores (each waits until all 3 run), so each of
 * them has counted something that the smaller run must not show. */
#define GATHER_CORES 3
static atomic_uint gathered;

static void gather_fn(void *p)
{
    (void)p;
    atomic_fetch_add(&gathered, 1);
    uint64_t t0 = hive_port_now_ns();
    while (atomic_load(&gathered) < GATHER_CORES && hive_port_now_ns() - t0 < 10000000000u)
        sched_yield();
}

static void gather_entry(void *p)
{
    (void)p;
    for (unsigned i = 0; i < GATHER_CORES; i++)
        CHECK_EQ(hive_spawn_fn(gather_fn, NULL), HIVE_OK);
}

HIVE_TEST(stats_of_a_smaller_run)
{
    struct hive_core_stats zero = {0};
    atomic_store(&gathered, 0);
    SW_RUN(GATHER_CORES, gather_entry, NULL);
    CHECK_EQ(atomic_load(&gathered), GATHER_CORES);
    const struct hive_stats *st = hive_stats_last();
    CHECK_EQ(st->cores, GATHER_CORES);
    for (unsigned i = 0; i < GATHER_CORES; i++)
        CHECK(st->core[i].tasks_run > 0);
    sched_case_fib(1, 18);
    CHECK_EQ(st->cores, 1);
    for (unsigned i = 1; i < HIVE_MAX_WORKERS; i++)
        CHECK(memcmp(&st->core[i], &zero, sizeof zero) == 0);
}

/* A park timeout near UINT64_MAX is a long sleep, not a deadline that wraps
 * into the past and makes every park return at once (a busy spin). */
static void huge_timeout_entry(void *p)
{
    (void)p;
    /* The other worker finds nothing to do meanwhile and parks. */
    uint64_t t0 = hive_port_now_ns();
    while (hive_port_now_ns() - t0 < 200u * 1000 * 1000)
        sched_yield();
}

HIVE_TEST(huge_park_timeout_sleeps)
{
    struct hive_config c = sw_cfg(2);
    c.park_timeout_ns = UINT64_MAX - 1;
    CHECK_EQ(hive_run(huge_timeout_entry, NULL, &c), HIVE_OK);
    /* Each park ends only when it is woken: a handful in 200 ms. A wrapped
     * deadline made it hundreds of thousands. */
    CHECK(hive_stats_last()->total.parks < 100);
    CHECK_EQ(hive_stats_last()->total.park_timeouts, 0);
}

/* A short park timeout ends the idle worker's sleeps, and each such end is
 * counted as a timeout, on the core that slept. The task runs until the host
 * port has seen the other core's sleep time out twice: the first park's
 * timeout is then counted (its loop ended before the second park began) while
 * the run still went on. Waiting for that rather than for a fixed time keeps
 * the case honest on a loaded host, where the other core's thread may not run
 * at all for longer than any fixed window (it failed so once, under ctest
 * -j3 with ThreadSanitizer); if timeouts never end a sleep, this hangs and
 * ctest's limit fails it. */
static unsigned long timed_out_before;
static int two_timeouts_core;

static void two_timeouts_entry(void *p)
{
    (void)p;
    two_timeouts_core = hive_core_id();
    while (hive_host_waits_timed_out(1) < timed_out_before + 2)
        sched_yield();
}

HIVE_TEST(park_timeouts_are_counted)
{
    struct hive_config c = sw_cfg(2);
    c.park_timeout_ns = 1000000; /* 1 ms */
    /* The entry starts in core 0's LIFO slot, which no other core takes:
     * core 1 is the one that sleeps, and between runs it does not. */
    timed_out_before = hive_host_waits_timed_out(1);
    CHECK_EQ(hive_run(two_timeouts_entry, NULL, &c), HIVE_OK);
    CHECK_EQ(two_timeouts_core, 0);
    const struct hive_stats *st = hive_stats_last();
    CHECK(st->core[1].park_timeouts >= 1);
    CHECK(st->total.park_timeouts <= st->total.parks + st->total.wait_parks);
    for (unsigned i = 0; i < st->cores; i++)
        CHECK(st->core[i].park_timeouts <= st->core[i].parks + st->core[i].wait_parks);
}

/* More workers than one bitmap word holds: the idle bitmap's later words. */
HIVE_TEST(many_workers)
{
    hive_host_set_core_count(HIVE_MAX_WORKERS);
    sched_case_fib(130, 18);
    sched_case_exactly_once(130, 20000);
    sched_case_no_lost_wakeup(130, 50 / (SCALE > 1 ? 5 : 1), 10000000000ull);
    sched_case_run_again(HIVE_MAX_WORKERS, 1);
    hive_host_set_core_count(8);
}

/* ---- host only: the core threads outlive a run --------------------------------- */

/* The kernel's id of the thread each core ran on, recorded straight through
 * the port (hive_run runs its workers the same way). */
#define TID_CORES 4
static pid_t core_tid[TID_CORES];

static _Atomic unsigned tids_recorded;

static void record_tid(void *p)
{
    unsigned cores = *(unsigned *)p;
    core_tid[hive_port_core_id()] = gettid();
    atomic_fetch_add(&tids_recorded, 1);
    /* Core 0 waits for the others to begin: the port may leave out a core
     * that has not begun when core 0 returns (sched/port.h). */
    if (hive_port_core_id() == 0) {
        uint64_t until = hive_port_now_ns() + 10000000000u;
        while (atomic_load(&tids_recorded) < cores && hive_port_now_ns() < until)
            ;
    }
}

static void run_and_record(unsigned cores, pid_t tids[TID_CORES])
{
    memset(core_tid, 0, sizeof core_tid);
    atomic_store(&tids_recorded, 0);
    hive_port_run_on_cores(cores, record_tid, &cores);
    memcpy(tids, core_tid, sizeof core_tid);
}

/* A run costs what its tasks cost: no thread is created or joined per run. */
HIVE_TEST(core_threads_outlive_a_run)
{
    pid_t first[TID_CORES], smaller[TID_CORES], second[TID_CORES];
    run_and_record(TID_CORES, first);
    /* A smaller run in between leaves cores 2 and 3 out: they wait. */
    run_and_record(2, smaller);
    run_and_record(TID_CORES, second);
    CHECK_EQ(first[0], gettid()); /* core 0 is the caller */
    CHECK_EQ(smaller[1], first[1]);
    CHECK_EQ(smaller[2], 0);
    for (unsigned i = 0; i < TID_CORES; i++) {
        CHECK(first[i] != 0);
        CHECK_EQ(second[i], first[i]);
        for (unsigned j = 0; j < i; j++)
            CHECK(first[i] != first[j]);
    }
    /* And hive_run on them still works. */
    sched_case_run_again(TID_CORES, 2);
}

/* A child of fork() has none of its parent's core threads: its runs make
 * their own, and the parent's keep working. Not under ThreadSanitizer, which
 * refuses to start threads in the child of a multi-threaded process. */
#ifndef SCHED_TEST_TSAN
HIVE_TEST(runs_after_fork)
{
    pid_t before[TID_CORES], after[TID_CORES];
    run_and_record(TID_CORES, before);
    fflush(stdout);
    pid_t child = fork();
    CHECK(child >= 0);
    if (child == 0) {
        pid_t in_child[TID_CORES];
        run_and_record(TID_CORES, in_child);
        bool own = in_child[0] == gettid();
        for (unsigned i = 1; i < TID_CORES; i++)
            own = own && in_child[i] != 0 && in_child[i] != before[i];
        struct hive_config c = sw_cfg(TID_CORES);
        bool runs = hive_run(sw_err_noop, NULL, &c) == HIVE_OK;
        _exit(own && runs ? 0 : 3);
    }
    int status = 0;
    CHECK_EQ(waitpid(child, &status, 0), child);
    CHECK(WIFEXITED(status) && WEXITSTATUS(status) == 0);
    run_and_record(TID_CORES, after);
    for (unsigned i = 0; i < TID_CORES; i++)
        CHECK_EQ(after[i], before[i]);
}
#endif

/* ---- a run kept open until hive_stop ----------------------------------------------- */

#define OPEN_EVENTS 20u
static atomic_uint open_ran;
static atomic_bool open_started; /* the open run's entry has run */
static int open_stop_rc, open_stop_again_rc;
static unsigned open_spawn_failures;

static void open_task(void *p)
{
    (void)p;
    atomic_fetch_add(&open_ran, 1);
}

static void open_entry_returns(void *p)
{
    (void)p; /* the run stays open: it waits for its events */
    atomic_store(&open_started, true);
}

/* Events from outside (an interrupt's part on a board): spaced so that the
 * cores park between them; then the stop, right behind the last one. */
static void *open_events_thread(void *p)
{
    (void)p;
    /* Every event inside the run (a spawn before it would count for it, but
     * not as spawned from outside during it: hive_stats.injected). */
    while (!atomic_load(&open_started))
        sched_yield();
    for (unsigned i = 0; i < OPEN_EVENTS; i++) {
        struct timespec ts = {0, 5 * 1000 * 1000};
        nanosleep(&ts, NULL);
        if (hive_spawn_fn(open_task, NULL) != HIVE_OK)
            open_spawn_failures++;
    }
    open_stop_rc = hive_stop();
    open_stop_again_rc = hive_stop();
    return NULL;
}

static void open_entry_stops(void *p)
{
    (void)p;
    for (unsigned i = 0; i < OPEN_EVENTS; i++)
        CHECK_EQ(hive_spawn_fn(open_task, NULL), HIVE_OK);
    /* The tasks just spawned still run: the run ends when they are done. */
    CHECK_EQ(hive_stop(), HIVE_OK);
}

static void entry_stop_refused(void *p)
{
    (void)p;
    CHECK_EQ(hive_stop(), HIVE_ESTATE); /* this run is not an open one */
}

HIVE_TEST(open_run_until_stopped)
{
    CHECK_EQ(hive_stop(), HIVE_ESTATE); /* no run at all */
    struct hive_config c = sw_cfg(2);
    CHECK_EQ(hive_run(entry_stop_refused, NULL, &c), HIVE_OK);

    c.until_stopped = true;
    atomic_store(&open_ran, 0);
    atomic_store(&open_started, false);
    open_spawn_failures = 0;
    pthread_t events;
    CHECK_EQ(pthread_create(&events, NULL, open_events_thread, NULL), 0);
    CHECK_EQ(hive_run(open_entry_returns, NULL, &c), HIVE_OK);
    CHECK_EQ(pthread_join(events, NULL), 0);
    CHECK_EQ(open_stop_rc, HIVE_OK);
    CHECK_EQ(open_stop_again_rc, HIVE_ESTATE);
    CHECK_EQ(open_spawn_failures, 0);
    CHECK_EQ(atomic_load(&open_ran), OPEN_EVENTS); /* every event ran in the open run */
    const struct hive_stats *st = hive_stats_last();
    CHECK_EQ(st->injected, OPEN_EVENTS);
    /* Between events the cores slept: more than one park per core. */
    CHECK(st->total.parks >= 2 * c.cores);
    CHECK_EQ(hive_stop(), HIVE_ESTATE); /* and it is over */

    /* Stopped from a task, with tasks still queued. */
    atomic_store(&open_ran, 0);
    CHECK_EQ(hive_run(open_entry_stops, NULL, &c), HIVE_OK);
    CHECK_EQ(atomic_load(&open_ran), OPEN_EVENTS);
}

/* A stop from another thread that is the run's last count ends the run
 * inside that thread's hive_stop, which may still be finishing - its store
 * of the end, its wakes, its reads of the run's core count - when hive_run
 * has returned and the next run starts. The next run is whole: its entry
 * and every task it spawns run (and under ThreadSanitizer, the late stop
 * and the next run's setup do not race). */
#define NEXT_TASKS 64u
static atomic_uint next_ran;

static void *late_stop_thread(void *p)
{
    (void)p;
    while (!atomic_load(&open_started))
        sched_yield();
    open_stop_rc = hive_stop();
    return NULL;
}

static void next_task(void *p)
{
    (void)p;
    atomic_fetch_add(&next_ran, 1);
}

static void next_entry(void *p)
{
    (void)p;
    for (unsigned i = 0; i < NEXT_TASKS; i++)
        CHECK_EQ(hive_spawn_fn(next_task, NULL), HIVE_OK);
}

HIVE_TEST(open_run_stopped_from_outside_then_the_next_run)
{
    for (unsigned round = 0; round < 40; round++) {
        struct hive_config c = sw_cfg(2);
        c.until_stopped = true;
        atomic_store(&open_started, false);
        open_stop_rc = -1;
        pthread_t stopper;
        CHECK_EQ(pthread_create(&stopper, NULL, late_stop_thread, NULL), 0);
        CHECK_EQ(hive_run(open_entry_returns, NULL, &c), HIVE_OK);
        /* The stopper may still be inside hive_stop: no join before this. */
        struct hive_config next = sw_cfg(2);
        atomic_store(&next_ran, 0);
        CHECK_EQ(hive_run(next_entry, NULL, &next), HIVE_OK);
        CHECK_EQ(atomic_load(&next_ran), NEXT_TASKS);
        CHECK_EQ(pthread_join(stopper, NULL), 0);
        CHECK_EQ(open_stop_rc, HIVE_OK);
    }
}

/* A spawn refused with HIVE_EBUSY promises that the queued run sees what the
 * caller wrote before it: one task drains everything that came (hive/irq.h).
 * An outside thread writes a number and spawns the drain task, in bursts;
 * after each burst the drain must come to see the burst's last number. A
 * burst whose last number is never seen while the task has gone idle (no run
 * queued that could still see it) lost its event: the store-buffering
 * outcome of a plain store of IDLE against a plain refusal (spawn.c). */
#define EBUSY_BURST 50u
/* Bursts: up to EBUSY_ROUNDS; past EBUSY_SPAN_NS of wall time the case
 * stops once it has done EBUSY_ROUNDS_LEAST. Quiet, all of them take about
 * 3 s. On a host loaded past its CPUs (a soak beside the suite) each burst
 * waits for the OS to run a woken worker thread - 220 us a burst against 7
 * quiet, measured: 88 s for the whole count - and no spin of the producer
 * can shorten that. A lost event is decided per burst, so fewer bursts
 * only lower the odds of meeting one (a planted refusal without its fence
 * lost one within 74 to 1,384 bursts, three runs of three); the count
 * done is printed. */
#define EBUSY_ROUNDS (400000u / SCALE)
#define EBUSY_ROUNDS_LEAST (EBUSY_ROUNDS / 40)
#define EBUSY_SPAN_NS 10000000000ull
static _Atomic unsigned long ebusy_data, ebusy_seen;
static struct hive_task ebusy_task;
static unsigned long ebusy_lost, ebusy_refused, ebusy_rounds;

/* Two runs of the task may overlap: it is idle again from just before its
 * fn, so a spawn may queue it and another core run it while this run is
 * still inside. So the highest number seen is raised with a CAS: a load
 * then a store let a run that read an older number, held up between the
 * two, store it over a newer run's - the number seen went back, and the
 * wait below took its own test's race for a lost event (once, under
 * ThreadSanitizer beside the whole suite). relaxed: a maximum; the
 * producer's wait orders nothing by it. */
static void ebusy_drain(struct hive_task *t)
{
    (void)t;
    unsigned long v = atomic_load_explicit(&ebusy_data, memory_order_relaxed);
    unsigned long seen = atomic_load_explicit(&ebusy_seen, memory_order_relaxed);
    while (v > seen && !atomic_compare_exchange_weak_explicit(&ebusy_seen, &seen, v,
                                                              memory_order_relaxed,
                                                              memory_order_relaxed))
        ;
}

static void *ebusy_producer(void *unused)
{
    (void)unused;
    unsigned long n = 0;
    while (!atomic_load(&open_started))
        sched_yield();
    uint64_t began = hive_port_now_ns();
    for (ebusy_rounds = 0; ebusy_rounds < EBUSY_ROUNDS; ebusy_rounds++) {
        if (ebusy_lost || (ebusy_rounds >= EBUSY_ROUNDS_LEAST &&
                           hive_port_now_ns() - began > EBUSY_SPAN_NS))
            break; /* one loss decides it */
        for (unsigned k = 0; k < EBUSY_BURST; k++) {
            atomic_store_explicit(&ebusy_data, ++n, memory_order_relaxed);
            int rc = hive_spawn(&ebusy_task, ebusy_drain);
            if (rc == HIVE_EBUSY)
                ebusy_refused++;
            else if (rc != HIVE_OK)
                abort();
        }
        /* A correct run sees n within microseconds. A task idle with n
         * unseen has lost its event for good - no queued run can see it -
         * unless the worker that gave it back is still between its store
         * of IDLE and the drain's read, held there by the host. So the
         * wait only decides how soon a loss is seen, and 5 s leaves room
         * for a host that stalls a thread. (Two losses counted under
         * ThreadSanitizer beside the whole suite, with limits of 1 s and
         * 5 s, were the drain's own race: see ebusy_drain.) When idle
         * that long, queue it again, to go on. Past 20 us the spin yields
         * its CPU to the workers: on a loaded host a spin that kept it for
         * 20 ms a round kept the very workers it waits for off it. */
        uint64_t since = hive_port_now_ns(), idle_since = 0;
        while (atomic_load(&ebusy_seen) < n) {
            uint64_t now = hive_port_now_ns();
            if (now - since < 20000ull)
                continue;
            sched_yield();
            if (atomic_load(&ebusy_task.state) != 0)
                idle_since = 0;
            else if (!idle_since)
                idle_since = now;
            else if (now - idle_since > 5000000000ull) {
                ebusy_lost++;
                while (hive_spawn(&ebusy_task, ebusy_drain) == HIVE_EBUSY)
                    sched_yield();
                idle_since = 0;
            }
        }
    }
    open_stop_rc = hive_stop();
    return NULL;
}

HIVE_TEST(ebusy_spawn_is_seen_by_the_queued_run)
{
    struct hive_config c = sw_cfg(2);
    c.until_stopped = true;
    atomic_store(&open_started, false);
    atomic_store(&ebusy_data, 0);
    atomic_store(&ebusy_seen, 0);
    ebusy_lost = ebusy_refused = ebusy_rounds = 0;
    pthread_t producer;
    CHECK_EQ(pthread_create(&producer, NULL, ebusy_producer, NULL), 0);
    CHECK_EQ(hive_run(open_entry_returns, NULL, &c), HIVE_OK);
    CHECK_EQ(pthread_join(producer, NULL), 0);
    CHECK_EQ(open_stop_rc, HIVE_OK);
    printf("  %lu bursts, %lu spawns refused with EBUSY, %lu events lost\n", ebusy_rounds,
           ebusy_refused, ebusy_lost);
    CHECK(ebusy_lost || ebusy_rounds >= EBUSY_ROUNDS_LEAST);
    CHECK(ebusy_refused > 0); /* the case did exercise the refusal */
    CHECK_EQ(ebusy_lost, 0);
}

/* A claim given back unqueued (sched/sched.h's halves: hive_after's with no
 * timer slot, a cancelled hive_after) while a hive_spawn of the task was
 * refused: the refusal was promised a run, so the task is queued after all,
 * once. A refused claim of the halves' own (hive_after's, a group spawn's)
 * promises none: given back, the task is idle. */
static struct hive_task given_back_task;
static atomic_uint given_back_runs;
static atomic_int given_back_rc[8];

static void given_back_fn(struct hive_task *t)
{
    (void)t;
    atomic_fetch_add(&given_back_runs, 1);
}

static void give_back_entry(void *arg)
{
    (void)arg;
    struct hive_task *t = &given_back_task;
    /* Nothing refused but another claim: idle again, no run. */
    atomic_store(&given_back_rc[0], hive_spawn_claim(t, given_back_fn));
    if (hive_spawn_claim(t, given_back_fn) != HIVE_EBUSY)
        atomic_store(&given_back_rc[0], -100);
    atomic_store(&given_back_rc[1], hive_spawn_unclaim(t));
    /* Refused twice while claimed, then given back: queued, one run. */
    (void)hive_spawn_claim(t, given_back_fn);
    atomic_store(&given_back_rc[2], hive_spawn(t, given_back_fn));
    atomic_store(&given_back_rc[3], hive_spawn(t, given_back_fn));
    atomic_store(&given_back_rc[4], hive_spawn_unclaim(t));
}

static void cancel_entry(void *arg)
{
    (void)arg;
    struct hive_task *t = &given_back_task;
    /* Claimed and counted (a pending hive_after), cancelled: no run. */
    atomic_store(&given_back_rc[0], hive_spawn_claim(t, given_back_fn));
    hive_spawn_count();
    atomic_store(&given_back_rc[1], hive_spawn_cancel(t));
    /* The same with a refusal meanwhile: queued on its count, one run. */
    (void)hive_spawn_claim(t, given_back_fn);
    hive_spawn_count();
    atomic_store(&given_back_rc[2], hive_spawn(t, given_back_fn));
    atomic_store(&given_back_rc[3], hive_spawn(t, given_back_fn));
    atomic_store(&given_back_rc[4], hive_spawn_cancel(t));
}

HIVE_TEST(refused_spawn_of_a_claim_given_back_runs)
{
    void (*entries[2])(void *) = {give_back_entry, cancel_entry};
    for (unsigned e = 0; e < 2; e++) {
        FOR_CORES(n) {
            struct hive_config c = sw_cfg(n);
            atomic_store(&given_back_runs, 0);
            CHECK_EQ(hive_run(entries[e], NULL, &c), HIVE_OK);
            CHECK_EQ(atomic_load(&given_back_rc[0]), HIVE_OK);
            CHECK_EQ(atomic_load(&given_back_rc[1]), HIVE_OK);
            CHECK_EQ(atomic_load(&given_back_rc[2]), HIVE_EBUSY);
            CHECK_EQ(atomic_load(&given_back_rc[3]), HIVE_EBUSY);
            CHECK_EQ(atomic_load(&given_back_rc[4]), HIVE_EBUSY);
            CHECK_EQ(atomic_load(&given_back_runs), 1);
            /* Idle after its run: a spawn is taken. */
            CHECK_EQ(hive_spawn(&given_back_task, given_back_fn), HIVE_OK);
            CHECK_EQ(hive_run(sw_err_noop, NULL, &c), HIVE_OK);
            CHECK_EQ(atomic_load(&given_back_runs), 2);
        }
    }
}

/* Two tasks in the global queue, the first waiting for the second: a core
 * that pulls both and runs the first must leave the second where a parked
 * core is told of it and can take it (find_work.c, "The global batch"),
 * not on a list of its own - else the first waits for ever beside a core
 * asleep. The wait gives up after 2 s of running (against the backstop's
 * periods of a millisecond) and counts that as the failure. */
static atomic_bool pair_second_ran;
static atomic_uint pair_gave_up;
static struct hive_task pair_first, pair_second;

static void pair_second_fn(struct hive_task *t)
{
    (void)t;
    atomic_store(&pair_second_ran, true);
}

static void pair_first_fn(struct hive_task *t)
{
    (void)t;
    /* Running time, not the wall clock: a loaded host may stop the whole
     * process for longer than the limit (sw_active_poll). */
    struct sw_active a;
    sw_active_start(&a);
    while (!atomic_load(&pair_second_ran)) {
        if (sw_active_poll(&a) > 2000000000u) {
            atomic_fetch_add(&pair_gave_up, 1);
            return;
        }
    }
}

static void pair_entry(void *arg)
{
    (void)arg;
}

HIVE_TEST(pulled_task_is_not_stranded_beside_a_parked_core)
{
    atomic_store(&pair_gave_up, 0);
    /* 2 cores: a pull takes 2 / 2 + 1 tasks, both (at 4 it would take 1). */
    for (unsigned cores = 2; cores <= 2; cores++) {
        struct hive_config c = sw_cfg(cores);
        for (unsigned round = 0; round < 20 / SCALE; round++) {
            atomic_store(&pair_second_ran, false);
            CHECK_EQ(hive_spawn(&pair_first, pair_first_fn), HIVE_OK);
            CHECK_EQ(hive_spawn(&pair_second, pair_second_fn), HIVE_OK);
            CHECK_EQ(hive_run(pair_entry, NULL, &c), HIVE_OK);
            CHECK(atomic_load(&pair_second_ran));
        }
    }
    CHECK_EQ(atomic_load(&pair_gave_up), 0);
}

/* A group task kept private by its spawner (group.c, "Private group tasks")
 * reaches a core that wants work while the spawner spins, with no spawn, pop
 * or wait to offer it: the heartbeat (publish.c) - the backstop's check pokes
 * the spawner, whose poke handler (SIGURG on the host) publishes it. The
 * spawner is core 0, the thread that called hive_run, and the case runs once
 * with SIGURG blocked in that thread: the run must unblock it, or the poke
 * never lands, and give the caller its mask back. Core 1 is kept busy in a
 * task of its own while core 0 spawns, so that no core wants work then and
 * the spawn stays private. The spin gives up after 2 s of running (against
 * the heartbeat's few milliseconds) and counts that as the failure. */
static atomic_bool keeper_running, keeper_release, grabbed;
static atomic_int grabbed_on;
static atomic_uint private_gave_up, private_keeper_gave_up, private_not_core0;
static atomic_bool private_round_gave_up;
static struct hive_task keeper_task, grab_task;

static void keeper_fn(struct hive_task *t)
{
    (void)t;
    atomic_store(&keeper_running, true);
    while (!atomic_load(&keeper_release))
        SW_SPIN_PAUSE();
}

static void grab_fn(struct hive_task *t)
{
    (void)t;
    atomic_store(&grabbed_on, hive_worker_id());
    atomic_store(&grabbed, true);
}

/* Spin until *flag, for at most 2 s of running time: false if it gave up. */
static bool private_spin_until(atomic_bool *flag)
{
    struct sw_active a;
    sw_active_start(&a);
    while (!atomic_load(flag)) {
        if (sw_active_poll(&a) > 2000000000u)
            return false;
        SW_SPIN_PAUSE();
    }
    return true;
}

static void private_entry(void *arg)
{
    (void)arg;
    if (hive_worker_id() != 0)
        atomic_fetch_add(&private_not_core0, 1);
    struct hive_group kept = HIVE_GROUP_INIT, held = HIVE_GROUP_INIT;
    /* Core 1 asleep first, so that it wants work and the keeper is queued
     * in public: spawned while core 1 is still starting, it would be kept
     * private and reach core 1 by the heartbeat alone. */
    sw_until_asleep(1u << 1);
    CHECK_EQ(hive_group_spawn(&kept, &keeper_task, keeper_fn), HIVE_OK);
    if (!private_spin_until(&keeper_running)) {
        /* Never taken: the wait below runs it. */
        atomic_fetch_add(&private_keeper_gave_up, 1);
        atomic_store(&keeper_release, true);
    } else {
        CHECK_EQ(hive_group_spawn(&held, &grab_task, grab_fn), HIVE_OK);
        atomic_store(&keeper_release, true);
        if (!private_spin_until(&grabbed))
            atomic_store(&private_round_gave_up, true);
    }
    CHECK_EQ(hive_group_wait(&held), HIVE_OK);
    CHECK_EQ(hive_group_wait(&kept), HIVE_OK);
}

HIVE_TEST(private_group_task_reaches_an_idle_core_while_its_spawner_spins)
{
    atomic_store(&private_gave_up, 0);
    atomic_store(&private_keeper_gave_up, 0);
    atomic_store(&private_not_core0, 0);
    struct hive_config c = sw_cfg(2);
    for (unsigned blocked = 0; blocked < 2; blocked++) {
        sigset_t urg, before, after;
        sigemptyset(&urg);
        sigaddset(&urg, SIGURG);
        CHECK_EQ(pthread_sigmask(blocked ? SIG_BLOCK : SIG_UNBLOCK, &urg, &before), 0);
        for (unsigned round = 0; round < 5; round++) {
            atomic_store(&keeper_running, false);
            atomic_store(&keeper_release, false);
            atomic_store(&grabbed, false);
            atomic_store(&grabbed_on, -1);
            atomic_store(&private_round_gave_up, false);
            CHECK_EQ(hive_run(private_entry, NULL, &c), HIVE_OK);
            CHECK(atomic_load(&grabbed) || atomic_load(&private_keeper_gave_up));
            if (atomic_load(&private_round_gave_up))
                atomic_fetch_add(&private_gave_up, 1);
            else if (atomic_load(&grabbed))
                CHECK_EQ(atomic_load(&grabbed_on), 1); /* after a give-up, core 0's wait ran it */
        }
        CHECK_EQ(pthread_sigmask(SIG_SETMASK, &before, &after), 0);
        CHECK_EQ(sigismember(&after, SIGURG), (int)blocked);
    }
    CHECK_EQ(atomic_load(&private_gave_up), 0);
    CHECK_EQ(atomic_load(&private_keeper_gave_up), 0);
    CHECK_EQ(atomic_load(&private_not_core0), 0);
}

/* The stack bound of deep waits (join.c, "Waiting"): what runs nested on a
 * core's stack below its middle follows one path down the task tree. A
 * binary join tree of depth D whose leaves each spawn a group and wait for
 * it, built below the stack's middle (the entry first uses 2.5 MiB of a
 * 4 MiB stack, so every wait is deep; ThreadSanitizer's frames need more
 * than 1 MiB left): at most D + 1 tree nodes may be
 * nested on the core at once. Before deep waits stopped sharing the
 * enclosing joins' latent frames, a leaf's deep wait popped them from its
 * own deque and ran siblings inside it: (D/2 + 1)^2 nodes nested. */
#define BOUND_DEPTH 12u
static unsigned bound_nest[HIVE_HOST_MAX_CORES], bound_max[HIVE_HOST_MAX_CORES];

static void bound_leaf(void *arg) { (void)arg; }

static void bound_node(void *arg)
{
    unsigned c = (unsigned)hive_worker_id();
    if (++bound_nest[c] > bound_max[c])
        bound_max[c] = bound_nest[c];
    uintptr_t d = (uintptr_t)arg;
    if (d == 0) {
        struct hive_group g = HIVE_GROUP_INIT;
        for (int i = 0; i < 2; i++)
            if (hive_group_spawn_fn(&g, bound_leaf, NULL) != HIVE_OK)
                abort();
        if (hive_group_wait(&g) != HIVE_OK)
            abort();
    } else if (hive_join(bound_node, (void *)(d - 1), bound_node, (void *)(d - 1)) != HIVE_OK) {
        abort();
    }
    bound_nest[c]--;
}

static __attribute__((noinline)) void bound_below(size_t burn)
{
    volatile char used[64 * 1024];
    used[0] = 1;
    if (burn > sizeof used)
        bound_below(burn - sizeof used);
    else
        bound_node((void *)(uintptr_t)BOUND_DEPTH);
    used[sizeof used - 1] = used[0];
}

static void bound_entry(void *arg)
{
    (void)arg;
    bound_below(2560 * 1024);
}

static void *bound_thread(void *cores)
{
    struct hive_config c = sw_cfg((unsigned)(uintptr_t)cores);
    return (void *)(uintptr_t)(hive_run(bound_entry, NULL, &c) != HIVE_OK);
}

HIVE_TEST(deep_waits_nest_one_path_down_the_tree)
{
    for (unsigned cores = 1; cores <= 2; cores++) {
        memset(bound_nest, 0, sizeof bound_nest);
        memset(bound_max, 0, sizeof bound_max);
        pthread_attr_t attr;
        pthread_t th;
        void *failed;
        CHECK_EQ(pthread_attr_init(&attr), 0);
        CHECK_EQ(pthread_attr_setstacksize(&attr, 4096 * 1024), 0);
        CHECK_EQ(pthread_create(&th, &attr, bound_thread, (void *)(uintptr_t)cores), 0);
        CHECK_EQ(pthread_join(th, &failed), 0);
        pthread_attr_destroy(&attr);
        CHECK(failed == NULL);
        /* Core 0, the caller's thread, ran every wait deep. */
        CHECK(bound_max[0] <= BOUND_DEPTH + 1);
        printf("  %u core(s): at most %u tree nodes nested on core 0 (bound %u)\n", cores,
               bound_max[0], BOUND_DEPTH + 1);
    }
}

/* hive_parallel_for's own grain over the widest ranges: about 8 chunks a
 * worker, covering every index once. Its rounding once wrapped for a range
 * within 8 * workers of SIZE_MAX, to a grain of 1 - some 2^64 calls, which
 * this case stops after 1000. */
static atomic_ulong wide_calls, wide_covered;

static void wide_chunk(size_t lo, size_t hi, void *ctx)
{
    (void)ctx;
    if (atomic_fetch_add(&wide_calls, 1) >= 1000) {
        fprintf(stderr, "parallel_for over a wide range: over 1000 calls (grain wrapped)\n");
        abort();
    }
    atomic_fetch_add(&wide_covered, hi - lo);
}

static size_t wide_lo, wide_hi;

static void wide_entry(void *arg)
{
    (void)arg;
    if (hive_parallel_for(wide_lo, wide_hi, 0, wide_chunk, NULL) != HIVE_OK)
        abort();
}

HIVE_TEST(parallel_for_grain_over_the_widest_ranges)
{
    const size_t his[] = {SIZE_MAX, SIZE_MAX - 1, SIZE_MAX - 6, SIZE_MAX - 15, SIZE_MAX / 2};
    for (unsigned cores = 1; cores <= 2; cores++) {
        struct hive_config c = sw_cfg(cores);
        for (unsigned i = 0; i < sizeof his / sizeof his[0]; i++) {
            wide_lo = i == 4 ? 7 : 0;
            wide_hi = his[i];
            atomic_store(&wide_calls, 0);
            atomic_store(&wide_covered, 0);
            CHECK_EQ(hive_run(wide_entry, NULL, &c), HIVE_OK);
            CHECK(atomic_load(&wide_calls) <= 8 * cores);
            CHECK(atomic_load(&wide_covered) == wide_hi - wide_lo);
        }
    }
}

#ifndef SCHED_TEST_TSAN
/* An open run that waits for its next event is idle, not stalled: with the
 * watchdog on (2 s) it sits through 3 s without one. (2 s, as watchdog_test's
 * quiet cases: a loaded host has descheduled a thread for over a second, and
 * a core that has not started the entry for a limit is a stall.) In a child process,
 * where a watchdog panic (abort) is a failed exit status; not under
 * ThreadSanitizer, which refuses threads after a multi-threaded fork. */
static void *open_late_stop_thread(void *p)
{
    (void)p;
    while (!atomic_load(&open_started))
        sched_yield();
    struct timespec ts = {3, 0};
    nanosleep(&ts, NULL);
    if (hive_spawn_fn(open_task, NULL) != HIVE_OK || hive_stop() != HIVE_OK)
        abort();
    return NULL;
}

HIVE_TEST(open_run_is_no_stall)
{
    fflush(stdout);
    pid_t child = fork();
    CHECK(child >= 0);
    if (child == 0) {
        struct hive_config c = sw_cfg(2);
        c.until_stopped = true;
        c.watchdog_ns = 2000000000ull;
        atomic_store(&open_ran, 0);
        atomic_store(&open_started, false);
        pthread_t t;
        if (pthread_create(&t, NULL, open_late_stop_thread, NULL) != 0)
            _exit(4);
        int rc = hive_run(open_entry_returns, NULL, &c);
        pthread_join(t, NULL);
        _exit(rc == HIVE_OK && atomic_load(&open_ran) == 1 ? 0 : 3);
    }
    int status = 0;
    CHECK_EQ(waitpid(child, &status, 0), child);
    CHECK(WIFEXITED(status) && WEXITSTATUS(status) == 0);
}
#endif
