/*
 * The debug checks of sched/debug_checks.h: each case breaks one ownership
 * rule in a child process, which must die by the panic (abort) with a line on
 * stderr naming that rule. The same scenario with the rule kept is run too,
 * and must exit cleanly, so that a check which fires on everything fails as
 * surely as one that never fires.
 *
 * White-box: the cases reach into the scheduler (sched_internal.h) to do what
 * a buggy scheduler or a buggy caller would - a second take of a queued task,
 * a push onto another core's ring. The rule against blocking in an interrupt
 * handler has no case here: the host's one interrupt, the poke's signal
 * handler, runs only hive_sched_poked, which a test cannot make break it;
 * tests/target checks it.
 */
#define _POSIX_C_SOURCE 200809L
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "arch/host/host.h"
#include "harness.h"
#include "sched/sched_internal.h"

/* Run body(broken) in a child with stderr captured. The child exits 0 if body
 * returns. Returns what it wrote to stderr (static buffer); *status gets the
 * wait status. */
static const char *in_child(void (*body)(int broken), int broken, int *status)
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
        dup2(fd[1], 2);
        body(broken);
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

/* body(1) must panic naming rule; body(0) must exit 0 and print no panic. */
static void expect_panic_only_when_broken(void (*body)(int broken), const char *rule)
{
    int status = 0;
    const char *err = in_child(body, 1, &status);
    CHECK(WIFSIGNALED(status) && WTERMSIG(status) == SIGABRT);
    CHECK(strstr(err, "hive: panic: core ") != NULL);
    CHECK(strstr(err, rule) != NULL);
    if (!strstr(err, rule))
        printf("  child's stderr: %s\n", err);
    err = in_child(body, 0, &status);
    CHECK(WIFEXITED(status) && WEXITSTATUS(status) == 0);
    CHECK(strstr(err, "panic") == NULL);
}

static void noop_entry(void *arg) { (void)arg; }

static void run_one_worker(void (*entry)(void *), void *arg)
{
    struct hive_config c = {0};
    c.cores = 1;
    if (hive_run(entry, arg, &c) != HIVE_OK)
        _exit(3);
}

/* ---- only the owner pushes and pops its ring and its deque ------------------ */

static struct hive_core_queues owned;
static struct hive_task loose[4];
static struct hive_global spill = HIVE_GLOBAL_INIT;

static void ring_push_by(int broken)
{
    hive_core_queues_init_at(&owned, 1, 0);
    hive_host_bind_core(broken ? 0 : 1);
    hive_ring_push(&owned.ring, &loose[0], &spill);
    hive_host_bind_core(1);
    (void)hive_ring_pop(&owned.ring);
}

static void ring_pop_by(int broken)
{
    hive_core_queues_init_at(&owned, 1, 0);
    hive_host_bind_core(1);
    hive_ring_push(&owned.ring, &loose[0], &spill);
    hive_host_bind_core(broken ? 2 : 1);
    (void)hive_ring_pop(&owned.ring);
}

/* A steal fills the thief's own ring: the thief must own it. */
static void ring_steal_into(int broken)
{
    static struct hive_core_queues victim;
    struct hive_core_stats stats = {0};
    hive_core_queues_init_at(&victim, 0, 0);
    hive_core_queues_init_at(&owned, 1, 0);
    hive_host_bind_core(0);
    for (unsigned i = 0; i < 4; i++)
        hive_ring_push(&victim.ring, &loose[i], &spill);
    hive_host_bind_core(broken ? 2 : 1);
    (void)hive_steal_from(&victim, &owned, &stats);
}

static void deque_push_by(int broken)
{
    hive_core_queues_init_at(&owned, 1, 0);
    hive_host_bind_core(broken ? 0 : 1);
    (void)hive_deque_push(&owned.forkjoin, &loose[0]);
}

static void deque_pop_by(int broken)
{
    hive_core_queues_init_at(&owned, 1, 0);
    hive_host_bind_core(1);
    (void)hive_deque_push(&owned.forkjoin, &loose[0]);
    hive_host_bind_core(broken ? 3 : 1);
    (void)hive_deque_pop(&owned.forkjoin);
}

/* A deque set up for a run of one worker (solo: its pops skip the race
 * with thieves) is never stolen from; a steal would race them unseen. */
static void deque_solo_stolen(int broken)
{
    struct hive_core_stats stats = {0};
    hive_core_queues_init_at(&owned, 1, 0);
    hive_core_queues_reset(&owned, 1, broken);
    hive_host_bind_core(1);
    (void)hive_deque_push(&owned.forkjoin, &loose[0]);
    hive_host_bind_core(0);
    (void)hive_steal_forkjoin(&owned, &stats);
}

/* The same for the ring: its solo pops skip the CAS that settles a race
 * with a thief. */
static void ring_solo_stolen(int broken)
{
    static struct hive_core_queues thief;
    struct hive_core_stats stats = {0};
    hive_core_queues_init_at(&owned, 1, 0);
    hive_core_queues_reset(&owned, 1, broken);
    hive_core_queues_init_at(&thief, 0, 0);
    hive_host_bind_core(1);
    hive_ring_push(&owned.ring, &loose[0], &spill);
    hive_host_bind_core(0);
    (void)hive_steal_from(&owned, &thief, &stats);
}

HIVE_TEST(only_the_owner_pushes_and_pops_its_ring)
{
    expect_panic_only_when_broken(ring_push_by, HIVE_RULE_RING_OWNER);
    expect_panic_only_when_broken(ring_pop_by, HIVE_RULE_RING_OWNER);
    expect_panic_only_when_broken(ring_steal_into, HIVE_RULE_RING_OWNER);
    expect_panic_only_when_broken(ring_solo_stolen, HIVE_RULE_RING_SOLO);
}

HIVE_TEST(only_the_owner_pushes_and_pops_its_deque)
{
    expect_panic_only_when_broken(deque_push_by, HIVE_RULE_DEQUE_OWNER);
    expect_panic_only_when_broken(deque_pop_by, HIVE_RULE_DEQUE_OWNER);
    expect_panic_only_when_broken(deque_solo_stolen, HIVE_RULE_DEQUE_SOLO);
}

/* ---- private entries of the fork-join deque ----------------------------------- */

/* A public push lies above the private entries under it and so would publish
 * them unconverted (group.c counts each in its group first): they must be
 * published before it. */
static void deque_public_onto_private(int broken)
{
    hive_core_queues_init_at(&owned, 1, 0);
    hive_host_bind_core(1);
    (void)hive_deque_push_private(&owned.forkjoin, &loose[0]);
    if (!broken)
        hive_deque_publish_oldest(&owned.forkjoin, 1);
    (void)hive_deque_push(&owned.forkjoin, &loose[1]);
}

/* The heartbeat's publish runs in the core's interrupt, outside the private
 * mark; task code publishes inside it. Broken: the interrupt's handler
 * called from task code, which an interrupt could then cut in two. In a run
 * of one worker, so no thief takes the entry before the task pops it back. */
static int mark_broken;

static void private_publish_entry(void *arg)
{
    (void)arg;
    struct hive_worker *w = hive_tls_worker;
    loose[0].kind = HIVE_TASK_GROUP; /* not held: nothing to count */
    (void)hive_deque_push_private(&w->queues.forkjoin, &loose[0]);
    if (mark_broken)
        hive_sched_poked();
    else
        hive_publish_private(w);
    if (hive_deque_pop(&w->queues.forkjoin) != &loose[0])
        _exit(4);
}

static void private_publish_outside_mark(int broken)
{
    mark_broken = broken;
    run_one_worker(private_publish_entry, NULL);
}

/* An entry is taken from the middle of a deque (leaving a hole in its slot)
 * only where no other core takes from it: a run of one worker. */
static void deque_take_not_solo(int broken)
{
    hive_core_queues_init_at(&owned, 1, 0);
    hive_core_queues_reset(&owned, 1, !broken);
    hive_host_bind_core(1);
    (void)hive_deque_push(&owned.forkjoin, &loose[0]);
    (void)hive_deque_push(&owned.forkjoin, &loose[1]);
    if (hive_deque_take_solo(&owned.forkjoin, hive_deque_bottom(&owned.forkjoin) - 2) != &loose[0])
        _exit(4);
}

HIVE_TEST(deque_entries_are_taken_and_published_by_the_rules)
{
    expect_panic_only_when_broken(deque_take_not_solo, HIVE_RULE_DEQUE_TAKE_SOLO);
    expect_panic_only_when_broken(deque_public_onto_private, HIVE_RULE_DEQUE_PRIVATE);
    expect_panic_only_when_broken(private_publish_outside_mark, HIVE_RULE_PRIVATE_MARK);
}

/* ---- a run starts with every core's queues empty ----------------------------- */

/* Broken: a task left in core 0's ring after a run (pushed behind the
 * scheduler's back), which the next run would reuse as it stands. */
static void queues_left_full(int broken)
{
    run_one_worker(noop_entry, NULL);
    if (broken) {
        struct hive_ring *ring = &hive_workers[0].queues.ring;
        hive_host_bind_core(ring->owner); /* whoever took it over at the end */
        hive_ring_push(ring, &loose[0], &spill);
        /* So the panic names a core, as hive_run's caller does on a board. */
        hive_host_bind_core(0);
    }
    run_one_worker(noop_entry, NULL);
}

HIVE_TEST(a_run_starts_with_empty_queues)
{
    expect_panic_only_when_broken(queues_left_full, HIVE_RULE_QUEUES_EMPTY_AT_START);
}

/* ---- a queued task is run by one core, once per spawn ---------------------- */

static struct hive_task twice;
static void twice_fn(struct hive_task *t) { (void)t; }

/* The entry spawns a task (into its LIFO slot) and, broken, runs it at once
 * itself as a second core taking it from a queue would. The worker then takes
 * it from the slot: the second run of one spawn. The extra count stands for
 * the second run's own end, so the run lasts until the worker gets there. */
static void twice_entry(void *arg)
{
    int broken = *(int *)arg;
    if (hive_spawn(&twice, twice_fn) != HIVE_OK)
        _exit(4);
    if (broken) {
        hive_outstanding_add(hive_tls_worker);
        hive_run_task(hive_tls_worker, &twice);
    }
}

static void run_twice(int broken)
{
    run_one_worker(twice_entry, &broken);
}

HIVE_TEST(a_queued_task_runs_once)
{
    expect_panic_only_when_broken(run_twice, HIVE_RULE_RUN_ONCE);
}

/* ---- a join frame is joined once -------------------------------------------- */

static void noop(void *arg) { (void)arg; }

/* fa, broken, runs the join's frame - the newest entry of this core's deque -
 * as a thief would, while it is still queued; the joiner then takes it back
 * too. */
static void run_own_frame(void *arg)
{
    if (!*(int *)arg)
        return;
    struct hive_worker *w = hive_tls_worker;
    struct hive_deque *d = &w->queues.forkjoin;
    uint32_t bottom = hive_deque_bottom(d);
    struct hive_task *frame = atomic_load(&d->slot[(bottom - 1) & HIVE_DEQUE_MASK]);
    hive_run_task(w, frame);
}

static void join_entry(void *arg)
{
    if (hive_join(run_own_frame, arg, noop, NULL) != HIVE_OK)
        _exit(4);
}

static void join_twice(int broken)
{
    run_one_worker(join_entry, &broken);
}

HIVE_TEST(a_join_frame_is_joined_once)
{
    expect_panic_only_when_broken(join_twice, HIVE_RULE_JOIN_ONCE);
}

/* fa, broken, leaves a join of its own begun and never ended (as a longjmp
 * out of a nested join's fa would): its frame is still the core's newest
 * when the outer join's fa returns. */
static void leave_a_join_open(void *arg)
{
    static struct hive_join_frame open_frame;
    if (!*(int *)arg)
        return;
    struct hive_latent_stack *stack = &hive_tls_worker->latent;
    open_frame.fn = noop;
    open_frame.below = (uintptr_t)stack->newest;
    stack->newest = &open_frame;
}

static void nested_join_entry(void *arg)
{
    if (hive_join(leave_a_join_open, arg, noop, NULL) != HIVE_OK)
        _exit(4);
}

static void join_out_of_order(int broken)
{
    run_one_worker(nested_join_entry, &broken);
}

HIVE_TEST(joins_on_one_core_end_in_reverse_order)
{
    expect_panic_only_when_broken(join_out_of_order, HIVE_RULE_LATENT_NESTED);
}

/* ---- no spinlock held across a join, a group spawn or wait, or a park ------- */

static struct hive_spinlock lock = HIVE_SPINLOCK_INIT;

static void join_locked_entry(void *arg)
{
    int broken = *(int *)arg;
    unsigned long irq = 0;
    if (broken)
        irq = hive_spin_lock(&lock);
    if (hive_join(noop, NULL, noop, NULL) != HIVE_OK)
        _exit(4);
    if (broken)
        hive_spin_unlock(&lock, irq);
    /* Taken and released before: nothing held at the join. */
    irq = hive_spin_lock(&lock);
    hive_spin_unlock(&lock, irq);
    if (hive_join(noop, NULL, noop, NULL) != HIVE_OK)
        _exit(4);
}

/* The same with the join nested in another join of the task: one that
 * hive_join's inline path would take if its gate stayed open under the lock
 * (hive/join_inline.h). The gate is closed exactly while the lock is held. */
static void join_locked_nested_fa(void *arg)
{
    int broken = *(int *)arg;
    if (!hive_latent_here)
        _exit(5); /* in task context, no lock held: the gate is open */
    unsigned long irq = 0;
    if (broken) {
        irq = hive_spin_lock(&lock);
        if (hive_latent_here)
            _exit(5);
    }
    if (hive_join(noop, NULL, noop, NULL) != HIVE_OK)
        _exit(4);
    if (broken)
        hive_spin_unlock(&lock, irq);
    if (!hive_latent_here)
        _exit(5);
}

static void join_locked_nested_entry(void *arg)
{
    if (hive_join(join_locked_nested_fa, arg, noop, NULL) != HIVE_OK)
        _exit(4);
}

static void group_task(struct hive_task *t) { (void)t; }

static void group_locked_entry(void *arg)
{
    int broken = *(int *)arg;
    static struct hive_task t;
    struct hive_group g = HIVE_GROUP_INIT;
    if (hive_group_spawn(&g, &t, group_task) != HIVE_OK)
        _exit(4);
    unsigned long irq = 0;
    if (broken)
        irq = hive_spin_lock(&lock);
    if (hive_group_wait(&g) != HIVE_OK)
        _exit(4);
    if (broken)
        hive_spin_unlock(&lock, irq);
}

/* A group spawn may run its task at once (a full deque), which may join:
 * checked at every spawn, not only when the deque happens to be full. */
static void group_spawn_locked_entry(void *arg)
{
    int broken = *(int *)arg;
    struct hive_group g = HIVE_GROUP_INIT;
    unsigned long irq = 0;
    if (broken)
        irq = hive_spin_lock(&lock);
    if (hive_group_spawn_fn(&g, noop, NULL) != HIVE_OK)
        _exit(4);
    if (broken)
        hive_spin_unlock(&lock, irq);
    if (hive_group_wait(&g) != HIVE_OK)
        _exit(4);
}

/* hive_spawn_or_run may run its task at once (full queues), which may join:
 * checked at every call. */
static struct hive_task or_run_task;
static void noop_task(struct hive_task *t) { (void)t; }

static void spawn_or_run_locked_entry(void *arg)
{
    int broken = *(int *)arg;
    unsigned long irq = 0;
    if (broken)
        irq = hive_spin_lock(&lock);
    if (hive_spawn_or_run(&or_run_task, noop_task) != HIVE_OK)
        _exit(4);
    if (broken)
        hive_spin_unlock(&lock, irq);
}

/* White-box: the park itself, as a worker that ran out of work would. */
static void park_locked_entry(void *arg)
{
    int broken = *(int *)arg;
    struct hive_worker *w = hive_tls_worker;
    unsigned long irq = 0;
    if (broken)
        irq = hive_spin_lock(&lock);
    /* A lone worker that parks is woken by nobody: let the park time out. */
    hive_scheduler.park_timeout_ns = 1000000;
    hive_park(w);
    if (broken)
        hive_spin_unlock(&lock, irq);
    /* hive_park leaves us a searcher; a worker stops searching when it
     * finds work, as this one has (it runs the entry). */
    w->searching = false;
    hive_idle_stop_search(&hive_scheduler.idle);
}

static void join_locked(int broken) { run_one_worker(join_locked_entry, &broken); }
static void join_locked_nested(int broken) { run_one_worker(join_locked_nested_entry, &broken); }
static void group_locked(int broken) { run_one_worker(group_locked_entry, &broken); }
static void group_spawn_locked(int broken) { run_one_worker(group_spawn_locked_entry, &broken); }
static void spawn_or_run_locked(int broken) { run_one_worker(spawn_or_run_locked_entry, &broken); }
static void park_locked(int broken) { run_one_worker(park_locked_entry, &broken); }

HIVE_TEST(no_spinlock_held_across_a_wait_or_park)
{
    expect_panic_only_when_broken(join_locked, HIVE_RULE_NO_LOCK_HELD);
    expect_panic_only_when_broken(join_locked_nested, HIVE_RULE_NO_LOCK_HELD);
    expect_panic_only_when_broken(group_locked, HIVE_RULE_NO_LOCK_HELD);
    expect_panic_only_when_broken(group_spawn_locked, HIVE_RULE_NO_LOCK_HELD);
    expect_panic_only_when_broken(spawn_or_run_locked, HIVE_RULE_NO_LOCK_HELD);
    expect_panic_only_when_broken(park_locked, HIVE_RULE_NO_LOCK_HELD);
}

int main(void)
{
    setvbuf(stdout, NULL, _IOLBF, 0);
    return hive_test_main();
}
