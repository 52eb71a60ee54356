/*
 * The watchdog (hive_config.watchdog_ns, sched/watchdog.c) on the host port.
 * A stuck task or a stalled run must end the process with the panic line
 * naming the stuck core, the task's own function (not the scheduler's
 * wrapper around it) and how long it ran; each case runs in a child process,
 * which must die by that panic (abort) - a child still alive after 30 s is
 * killed by its alarm and the case fails. Runs that only look like faults -
 * a long wait for work done elsewhere, a task that runs forever by its own
 * word, a run waiting for a deferred spawn - must end normally.
 *
 * White-box where it must be: a stall is made with a group whose count says
 * one task is pending when none was spawned (a wait whose work never ends),
 * and a deferred spawn with the halves of sched/sched.h, as kernel/after.c
 * makes hive_after's.
 */
#define _POSIX_C_SOURCE 200809L
#include <inttypes.h>
#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "arch/host/host.h"
#include "harness.h"
#include "hive/hive.h"
#include "sched/sched.h"

#define MS(n) ((uint64_t)(n) * 1000000u)
/* The limit of the cases that must be caught, and of those that must not.
 * The watchdog measures wall time, and on a loaded 2-core host a thread has
 * been seen descheduled for over a second: the limits are about that (a core
 * that has not yet started the entry for a limit is a stall), and the quiet
 * cases' waits still last well over theirs. */
#define CAUGHT_LIMIT MS(1000)
#define QUIET_LIMIT MS(2000)
#define QUIET_WAIT (3 * QUIET_LIMIT / 2)

int main(void)
{
    hive_host_set_core_count(4);
    setvbuf(stdout, NULL, _IOLBF, 0);
    return hive_test_main();
}

/* Run body() in a child with stdout and stderr captured (failed checks print
 * on stdout); *status gets the wait status. Returns what the child wrote
 * (static buffer). */
static const char *in_child(void (*body)(void), int *status)
{
    static char out[4096];
    int fd[2];
    out[0] = 0;
    if (pipe(fd) != 0)
        return out;
    fflush(stdout);
    fflush(stderr);
    pid_t pid = fork();
    if (pid == 0) {
        close(fd[0]);
        dup2(fd[1], 1);
        dup2(fd[1], 2);
        alarm(30); /* a hang is a failure, not a stuck test */
        body();
        _exit(0);
    }
    close(fd[1]);
    size_t n = 0;
    ssize_t r;
    while (n < sizeof out - 1 && (r = read(fd[0], out + n, sizeof out - 1 - n)) > 0)
        n += (size_t)r;
    out[n] = 0;
    close(fd[0]);
    waitpid(pid, status, 0);
    return out;
}

static void run_or_exit(void (*entry)(void *), unsigned cores, uint64_t limit)
{
    struct hive_config c = {0};
    c.cores = cores;
    c.watchdog_ns = limit;
    int rc = hive_run(entry, NULL, &c);
    if (rc != HIVE_OK) {
        fprintf(stderr, "hive_run returned %s\n", hive_strerror(rc));
        _exit(3);
    }
}

static uintptr_t address(void (*fn)(void *))
{
    return (uintptr_t)fn;
}

/* The child must have died by the watchdog's panic for a task of function
 * fn that it said (on stderr) was stuck on its core. */
static void expect_stuck_report(void (*body)(void), void (*fn)(void *))
{
    int status = 0;
    const char *err = in_child(body, &status);
    CHECK(WIFSIGNALED(status) && WTERMSIG(status) == SIGABRT);
    int core = -1;
    const char *said = strstr(err, "stuck on core ");
    CHECK(said && sscanf(said, "stuck on core %d", &core) == 1);
    char want[96];
    snprintf(want, sizeof want, "hive: panic: core %d: task 0x%" PRIxPTR " has run for ", core,
             address(fn));
    const char *line = strstr(err, want);
    CHECK(line != NULL);
    unsigned long ran = 0, limit = 0;
    if (line)
        CHECK(sscanf(line + strlen(want), "%lu ms (watchdog limit %lu ms)", &ran, &limit) == 2);
    CHECK_EQ(limit, CAUGHT_LIMIT / 1000000u);
    /* Normally at most 1.25 limits, but the watchdog's thread may itself
     * have been descheduled on a loaded host: no upper bound but the alarm. */
    CHECK(ran >= limit);
    if (!line)
        printf("  child's stderr: %s\n", err);
    else
        printf("  %.*s\n", (int)strcspn(line, "\n"), line);
}

static void stuck_here(void)
{
    fprintf(stderr, "stuck on core %d\n", hive_worker_id());
    for (;;)
        hive_port_cpu_relax();
}

/* ---- a task spawned with hive_spawn_fn spins for ever ----------------------- */

static void stuck_spawned(void *p)
{
    (void)p;
    stuck_here();
}

static void spawn_stuck(void *p)
{
    (void)p;
    CHECK_EQ(hive_spawn_fn(stuck_spawned, NULL), HIVE_OK);
}

static void spawned_body(void) { run_or_exit(spawn_stuck, 2, CAUGHT_LIMIT); }

HIVE_TEST(stuck_spawned_task_is_reported)
{
    expect_stuck_report(spawned_body, stuck_spawned);
}

/* ---- the run's entry itself, on one core: only the watchdog's thread looks ---- */

static void stuck_entry(void *p)
{
    (void)p;
    stuck_here();
}

static void entry_body(void) { run_or_exit(stuck_entry, 1, CAUGHT_LIMIT); }

HIVE_TEST(stuck_entry_is_reported)
{
    expect_stuck_report(entry_body, stuck_entry);
}

/* ---- a join's other half, stolen: its thief is stuck, the joiner waits ------- */

static atomic_bool fb_started;

static void stuck_fb(void *p)
{
    (void)p;
    atomic_store(&fb_started, true);
    stuck_here();
}

/* Returns once another core has taken fb: then the joiner only waits. A
 * loaded host may take longer than the limit to run the thief, so it waits
 * at a scheduling point (an empty group's wait), not as a task that runs on. */
static void fa_until_stolen(void *p)
{
    (void)p;
    struct hive_group none = HIVE_GROUP_INIT;
    while (!atomic_load(&fb_started))
        CHECK(hive_group_wait(&none) == HIVE_OK);
}

static void join_stuck(void *p)
{
    (void)p;
    CHECK(hive_join(fa_until_stolen, NULL, stuck_fb, NULL) == HIVE_OK);
}

static void join_body(void) { run_or_exit(join_stuck, 2, CAUGHT_LIMIT); }

HIVE_TEST(stuck_join_half_is_reported)
{
    expect_stuck_report(join_body, stuck_fb);
}

/* ---- a stall: a wait whose work never ends, every core idle ------------------ */

static void wait_for_nothing(void *p)
{
    (void)p;
    /* A group that counts one task nobody spawned: its wait never returns,
     * as one whose completion was lost. */
    struct hive_group g = HIVE_GROUP_INIT;
    atomic_store(&g.pending, 1);
    CHECK(hive_group_wait(&g) == HIVE_OK);
}

static void stall_body(void) { run_or_exit(wait_for_nothing, 2, CAUGHT_LIMIT); }

/* The same while a timer is pending (a task claimed and counted as
 * hive_after's is, never queued): the timer's task is no excuse for the
 * wait's. */
static struct hive_task pending_timer;
static void pending_timer_fn(struct hive_task *t) { (void)t; }

static void wait_for_nothing_beside_a_timer(void *p)
{
    CHECK_EQ(hive_spawn_claim(&pending_timer, pending_timer_fn), HIVE_OK);
    hive_spawn_count();
    wait_for_nothing(p);
}

static void stall_beside_timer_body(void)
{
    run_or_exit(wait_for_nothing_beside_a_timer, 2, CAUGHT_LIMIT);
}

static void expect_stall_report(void (*body)(void))
{
    int status = 0;
    const char *err = in_child(body, &status);
    CHECK(WIFSIGNALED(status) && WTERMSIG(status) == SIGABRT);
    const char *want = "hive: panic: core 0: run stalled: no task has run or finished on any "
                       "core for ";
    const char *line = strstr(err, want);
    CHECK(line != NULL);
    unsigned long still = 0, limit = 0;
    if (line)
        CHECK(sscanf(line + strlen(want), "%lu ms (watchdog limit %lu ms)", &still, &limit) == 2);
    CHECK_EQ(limit, CAUGHT_LIMIT / 1000000u);
    CHECK(still >= limit);
    if (!line)
        printf("  child's stderr: %s\n", err);
    else
        printf("  %.*s\n", (int)strcspn(line, "\n"), line);
}

HIVE_TEST(stalled_run_is_reported)
{
    expect_stall_report(stall_body);
    expect_stall_report(stall_beside_timer_body);
}

/* ---- what must not be reported ------------------------------------------------ */

static void spin_ns(uint64_t ns)
{
    uint64_t end = hive_port_now_ns() + ns;
    while (hive_port_now_ns() < end)
        hive_port_cpu_relax();
}

/* A waiter whose wait lasts longer than the limit while the work it waits
 * for runs as many short tasks (some of them nested in the wait) on four
 * workers: nobody is stuck. */
#define LONG_WAIT_TASKS 600u
static struct hive_task long_wait_tasks[LONG_WAIT_TASKS];

static void short_task(struct hive_task *t)
{
    (void)t;
    spin_ns(4 * QUIET_WAIT / LONG_WAIT_TASKS);
}

static void long_group_wait(void *p)
{
    (void)p;
    struct hive_group g = HIVE_GROUP_INIT;
    uint64_t t0 = hive_port_now_ns();
    for (unsigned i = 0; i < LONG_WAIT_TASKS; i++)
        CHECK_EQ(hive_group_spawn(&g, &long_wait_tasks[i], short_task), HIVE_OK);
    CHECK_EQ(hive_group_wait(&g), HIVE_OK);
    CHECK(hive_port_now_ns() - t0 > QUIET_LIMIT); /* it did wait longer than the limit */
}

/* A joiner whose other half was stolen and runs longer than the limit on
 * another core, giving the joiner nothing to help with: the joiner is not
 * running while it waits. The half itself passes a scheduling point (a wait)
 * every 1/30 of that, so it is no one task that runs too long either. */
static atomic_bool long_half_started;

static void long_half(void *p)
{
    (void)p;
    atomic_store(&long_half_started, true);
    struct hive_group none = HIVE_GROUP_INIT;
    for (unsigned i = 0; i < 30; i++) {
        spin_ns(QUIET_WAIT / 30);
        CHECK_EQ(hive_group_wait(&none), HIVE_OK);
    }
}

static void until_long_half_started(void *p)
{
    (void)p;
    while (!atomic_load(&long_half_started))
        hive_port_cpu_relax();
}

static void long_join_wait(void *p)
{
    (void)p;
    uint64_t t0 = hive_port_now_ns();
    CHECK_EQ(hive_join(until_long_half_started, NULL, long_half, NULL), HIVE_OK);
    CHECK(hive_port_now_ns() - t0 > QUIET_LIMIT);
}

/* A firmware main loop: it says it runs forever, then runs longer than the
 * limit (and ends, so that the test does too). */
static void main_loop(void *p)
{
    (void)p;
    CHECK_EQ(hive_task_runs_forever(), HIVE_OK);
    spin_ns(QUIET_WAIT);
}

/* A spawn promised now and queued 1.5 limits later, as hive_after's: the
 * run waits for it with every core idle, and is not stalled. */
static struct hive_task deferred;
static atomic_bool deferred_ran;

static void deferred_fn(struct hive_task *t)
{
    (void)t;
    atomic_store(&deferred_ran, true);
}

static void *queue_later(void *p)
{
    (void)p;
    struct timespec ts = {0, 0};
    uint64_t ns = QUIET_WAIT;
    ts.tv_sec = (time_t)(ns / 1000000000u);
    ts.tv_nsec = (long)(ns % 1000000000u);
    nanosleep(&ts, NULL);
    hive_spawn_queue(&deferred);
    return NULL;
}

static void defer_spawn(void *p)
{
    pthread_t *thread = p;
    CHECK_EQ(hive_spawn_claim(&deferred, deferred_fn), HIVE_OK);
    hive_spawn_count();
    pthread_create(thread, NULL, queue_later, NULL);
}

static void quiet_body(void)
{
    run_or_exit(long_group_wait, 4, QUIET_LIMIT);
    run_or_exit(long_join_wait, 2, QUIET_LIMIT);
    run_or_exit(main_loop, 2, QUIET_LIMIT);
    pthread_t thread;
    struct hive_config c = {0};
    c.cores = 2;
    c.watchdog_ns = QUIET_LIMIT;
    if (hive_run(defer_spawn, &thread, &c) != HIVE_OK)
        _exit(3);
    pthread_join(thread, NULL);
    if (!atomic_load(&deferred_ran))
        _exit(4);
}

HIVE_TEST(long_waits_and_forever_tasks_are_not_reported)
{
    int status = 0;
    const char *err = in_child(quiet_body, &status);
    CHECK(WIFEXITED(status) && WEXITSTATUS(status) == 0);
    CHECK(strstr(err, "panic") == NULL);
    CHECK(strstr(err, "check failed") == NULL);
    if (status != 0 || err[0])
        printf("  child's stderr: %s\n", err);
}

/* ---- configuration and context --------------------------------------------------- */

static void noop(void *p) { (void)p; }

static void shortest_limit_body(void) { run_or_exit(noop, 1, HIVE_WATCHDOG_MIN_NS); }

HIVE_TEST(watchdog_config_and_context)
{
    struct hive_config c = {0};
    c.cores = 1;
    c.watchdog_ns = HIVE_WATCHDOG_MIN_NS - 1;
    CHECK_EQ(hive_run(noop, NULL, &c), HIVE_EINVAL);
    /* The shortest limit is taken. A loaded host may keep the core's thread
     * from starting the entry for longer than 1 ms, which the watchdog then
     * rightly calls a stall: either way the run was not refused (status 3). */
    int status = 0;
    in_child(shortest_limit_body, &status);
    CHECK(!(WIFEXITED(status) && WEXITSTATUS(status) == 3));
    CHECK_EQ(hive_task_runs_forever(), HIVE_ESTATE);
}
