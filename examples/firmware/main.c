/*
 * A firmware on hive's public API (hive/hive.h, hive/board.h) alone, built outside hive's
 * tree from the installed package (CMakeLists.txt says how). One run on
 * every core does:
 *   - a sum over an array, split in halves with hive_join;
 *   - a prime count, one task per slice, spawned into a hive_group;
 *   - a tick every TICK_NS: hive_after spawns the tick task from the timer
 *     interrupt, and each tick sets the next;
 *   - a device interrupt (device.h) whose handler spawns a task.
 * The run is an open one (hive_config.until_stopped), as firmware that waits
 * on devices is: it does not end when its tasks are done but when the
 * device's task calls hive_stop() - the device's event means "done" here.
 * Every hive call's result is checked (HIVE_MUST_CHECK), every answer is
 * compared with a serial one, and main's return is the image's exit status
 * (QEMU's): 0 when all of it worked.
 */
#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "hive/board.h" /* HIVE_BOARD_NAME, HIVE_BOARD_MAX_CORES */
#include "hive/hive.h"

#ifdef EXAMPLE_HAS_DEVICE
#include "device.h"
#endif

/* Failures anywhere, interrupt handlers included: main reports them. */
static atomic_uint failures;

static void fail(const char *what, int err)
{
    printf("example: %s: %s\n", what, hive_strerror(err));
    atomic_fetch_add(&failures, 1);
}

/* ---- fork-join: a sum split in halves ---------------------------------------- */

#define N_VALUES 65536
#define SUM_LEAF 1024
static uint32_t values[N_VALUES];

struct sum {
    size_t lo, hi;
    uint64_t total;
};

static void sum(void *arg)
{
    struct sum *s = arg;
    if (s->hi - s->lo <= SUM_LEAF) {
        s->total = 0;
        for (size_t i = s->lo; i < s->hi; i++)
            s->total += values[i];
        return;
    }
    size_t mid = s->lo + (s->hi - s->lo) / 2;
    struct sum left = {s->lo, mid, 0}, right = {mid, s->hi, 0};
    int err = hive_join(sum, &left, sum, &right);
    if (err != HIVE_OK) {
        fail("hive_join", err);
        return;
    }
    s->total = left.total + right.total;
}

/* ---- a group: primes below N_PRIMES, a task per slice -------------------------- */

#define N_PRIMES 40000
#define SLICES 16

struct slice {
    struct hive_task task;
    unsigned lo, hi, primes;
};
static struct slice slices[SLICES];

static bool is_prime(unsigned n)
{
    if (n < 2)
        return false;
    for (unsigned d = 2; d * d <= n; d++)
        if (n % d == 0)
            return false;
    return true;
}

static void count_slice(struct hive_task *task)
{
    struct slice *s = HIVE_CONTAINER_OF(task, struct slice, task);
    s->primes = 0;
    for (unsigned n = s->lo; n < s->hi; n++)
        s->primes += is_prime(n);
}

static unsigned count_primes(void)
{
    struct hive_group group;
    hive_group_init(&group);
    unsigned spawned = 0;
    for (unsigned i = 0; i < SLICES; i++) {
        slices[i].lo = i * (N_PRIMES / SLICES);
        slices[i].hi = (i + 1) * (N_PRIMES / SLICES);
        int err = hive_group_spawn(&group, &slices[i].task, count_slice);
        if (err != HIVE_OK) {
            fail("hive_group_spawn", err);
            continue;
        }
        spawned++;
    }
    /* Wait even after a failed spawn: the spawned ones live in `group`. */
    int err = hive_group_wait(&group);
    if (err != HIVE_OK)
        fail("hive_group_wait", err);
    unsigned total = 0;
    for (unsigned i = 0; i < SLICES; i++)
        total += slices[i].primes;
    return spawned == SLICES ? total : 0;
}

/* ---- a tick from the timer interrupt ------------------------------------------- */

#define TICKS 5
#define TICK_NS 10000000u /* 10 ms */

static struct hive_task tick_task;
static uint64_t tick_due;       /* written by the task that sets the timer, read by the tick */
static unsigned ticks, early_ticks;

static void tick(struct hive_task *task)
{
    /* Each tick runs after the previous one set it: no two touch these at once. */
    if (hive_now_ns() < tick_due)
        early_ticks++;
    if (++ticks == TICKS)
        return;
    tick_due = hive_now_ns() + TICK_NS;
    int err = hive_after(TICK_NS, task, tick);
    if (err != HIVE_OK)
        fail("hive_after (next tick)", err);
}

/* ---- a device interrupt that spawns ------------------------------------------- */

#ifdef EXAMPLE_HAS_DEVICE

static unsigned device_line;
static struct hive_task device_task;
static atomic_uint device_tasks_run;
static atomic_int device_spawn_error;

static void device_deadline(void *arg);
static void stop_run(const char *why);

static void device_work(struct hive_task *task)
{
    (void)task;
    if (atomic_fetch_add(&device_tasks_run, 1) != 0)
        return; /* a later interrupt's: the run is stopping already */
    int err = hive_irq_detach(device_line);
    if (err != HIVE_OK)
        fail("hive_irq_detach", err);
    err = hive_after_irq_cancel(device_deadline, NULL);
    if (err != HIVE_OK)
        fail("hive_after_irq_cancel (device deadline)", err);
    stop_run("hive_stop (device task)");
}

static void on_device(unsigned irq, void *arg)
{
    (void)irq, (void)arg;
    device_ack();
    /* No printing here: the handler interrupted a task that may hold the
     * console. EBUSY: the task from an earlier interrupt is still queued. */
    int err = hive_spawn(&device_task, device_work);
    if (err != HIVE_OK && err != HIVE_EBUSY)
        atomic_store(&device_spawn_error, err);
}

/* The device has said its piece: the open run may end (its other tasks,
 * the ticks among them, still finish first). */
static void stop_run(const char *why)
{
    int err = hive_stop();
    if (err != HIVE_OK)
        fail(why, err);
}

/* Should the interrupt never come, the run must not wait for ever: a
 * deadline, in the timer interrupt, ends it and says so. */
#define DEVICE_DEADLINE_NS 5000000000ull /* 5 s */
static atomic_bool device_deadline_passed;

static void device_deadline(void *arg)
{
    (void)arg;
    atomic_store(&device_deadline_passed, true);
    stop_run("hive_stop (device deadline)");
}

static void start_device(void)
{
    device_line = device_init();
    /* The line goes to this core; the raise below interrupts it. */
    int err = hive_irq_attach(device_line, on_device, NULL);
    if (err != HIVE_OK) {
        fail("hive_irq_attach", err);
        return;
    }
    err = hive_after_irq(DEVICE_DEADLINE_NS, device_deadline, NULL);
    if (err != HIVE_OK) {
        fail("hive_after_irq (device deadline)", err);
        return;
    }
    device_raise();
}
#endif

/* ---- the run ------------------------------------------------------------------ */

static struct sum whole = {0, N_VALUES, 0};
static unsigned primes;

static void entry(void *arg)
{
    (void)arg;
    tick_due = hive_now_ns() + TICK_NS;
    int err = hive_after(TICK_NS, &tick_task, tick);
    if (err != HIVE_OK)
        fail("hive_after (first tick)", err);
#ifdef EXAMPLE_HAS_DEVICE
    start_device(); /* its task ends the open run */
#endif
    sum(&whole);
    primes = count_primes();
#ifndef EXAMPLE_HAS_DEVICE
    /* No device on this board: nothing else will stop the run. */
    err = hive_stop();
    if (err != HIVE_OK)
        fail("hive_stop (entry)", err);
#endif
}

int main(void)
{
    uint32_t x = 12345;
    uint64_t expect_sum = 0;
    for (size_t i = 0; i < N_VALUES; i++) {
        x = x * 1103515245u + 12345u;
        values[i] = x >> 16;
        expect_sum += values[i];
    }
    unsigned expect_primes = 0;
    for (unsigned n = 0; n < N_PRIMES; n++)
        expect_primes += is_prime(n);

    /* Every core, default pools; open until hive_stop (the device's task). */
    struct hive_config cfg = {.until_stopped = true};
    int err = hive_run(entry, NULL, &cfg);
    if (err != HIVE_OK)
        fail("hive_run", err);

    printf("example: hive %s on %s, %u cores (%u came up, at most %u)\n", HIVE_VERSION_STRING,
           HIVE_BOARD_NAME, hive_worker_count(), hive_core_count(), HIVE_BOARD_MAX_CORES);
    /* A run on every core uses every core that came up. */
    if (hive_worker_count() != hive_core_count() || hive_core_count() > HIVE_BOARD_MAX_CORES)
        atomic_fetch_add(&failures, 1);
    printf("example: sum %llu (expected %llu)\n", (unsigned long long)whole.total,
           (unsigned long long)expect_sum);
    if (whole.total != expect_sum)
        atomic_fetch_add(&failures, 1);
    printf("example: primes below %u: %u (expected %u)\n", N_PRIMES, primes, expect_primes);
    if (primes != expect_primes)
        atomic_fetch_add(&failures, 1);
    printf("example: ticks %u of %u, %u early\n", ticks, TICKS, early_ticks);
    if (ticks != TICKS || early_ticks != 0)
        atomic_fetch_add(&failures, 1);
#ifdef EXAMPLE_HAS_DEVICE
    unsigned device_runs = atomic_load(&device_tasks_run);
    printf("example: device interrupt on line %u: %u task(s) run\n", device_line, device_runs);
    if (atomic_load(&device_deadline_passed))
        printf("example: the device interrupt did not come within %llu ms\n",
               (unsigned long long)(DEVICE_DEADLINE_NS / 1000000));
    if (device_runs == 0 || atomic_load(&device_deadline_passed)) {
        atomic_fetch_add(&failures, 1);
        if (atomic_load(&device_spawn_error) != 0)
            fail("hive_spawn from the device interrupt", atomic_load(&device_spawn_error));
    }
#endif
    unsigned failed = atomic_load(&failures);
    printf("example: %s\n", failed == 0 ? "ok" : "FAILED");
    return failed == 0 ? 0 : 1;
}
