/*
 * One-shot timers (kernel/timer.c, and hive_after_irq on it): on every core
 * at once, timers fire in deadline order (ties in the order set), never before
 * their deadline, on the core that set them; a full pool is an error, not a
 * drop; a timer wakes a fully parked system. Lateness is printed as figures.
 */
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>

#include "harness.h"
#include "hive/irq.h"
#include "irq_util.h"
#include "kernel/kernel.h"
#include "kernel/timer.h"
#include "sched/port.h"

int main(void) { return hive_test_main(); }

/* ---- order, never early, lateness ---- */

#define PER_CORE 200u

struct shot {
    uint64_t deadline;
    unsigned index;         /* order set */
    unsigned core;          /* the core that set it */
    struct fired *f;
};

struct fired {
    unsigned count;
    unsigned order[PER_CORE];   /* indices, in firing order */
    uint64_t at[PER_CORE];      /* hive_now_ns() when fired, by index */
    unsigned wrong_core;
};

static struct shot shots[HIVE_MAX_CORES][PER_CORE];
static struct fired fired[HIVE_MAX_CORES];
static uint32_t lateness[HIVE_MAX_CORES * PER_CORE];
static atomic_uint errors;

static void on_shot(void *arg)
{
    struct shot *s = arg;
    struct fired *f = s->f;
    f->at[s->index] = hive_now_ns();
    if (hive_cpu_id() != s->core || !hive_in_interrupt())
        f->wrong_core++;
    f->order[f->count++] = s->index;
    if (f->count == PER_CORE)
        hive_port_wake(s->core);    /* from interrupt context, to this very core */
}

static void call_shot(union hive_timer_fn fn, void *arg)
{
    fn.call(arg);
}

static void set_and_wait(void *arg)
{
    (void)arg;
    unsigned me = hive_cpu_id();
    struct fired *f = &fired[me];
    f->count = 0;
    f->wrong_core = 0;
    uint32_t rnd = 0x2545f491u * (me + 1);
    /* Masked while setting, so all are pending together: the order is only
     * promised among timers that are. */
    unsigned long irq = hive_port_irq_save();
    uint64_t base = hive_now_ns();
    for (unsigned i = 0; i < PER_CORE; i++) {
        rnd ^= rnd << 13, rnd ^= rnd >> 17, rnd ^= rnd << 5;
        struct shot *s = &shots[me][i];
        /* Up to 20 ms ahead; every fourth one ties with its predecessor. */
        uint64_t ahead = i % 4 == 3 ? shots[me][i - 1].deadline - base : rnd % MS(20);
        *s = (struct shot){base + ahead, i, me, f};
        /* Absolute deadlines (the layer under hive_after_irq), so that the
         * check below knows each one exactly, ties included. */
        union hive_timer_fn fn = {.call = on_shot};
        if (hive_timer_add(s->deadline, call_shot, fn, s) != HIVE_OK)
            atomic_fetch_add(&errors, 1);
    }
    hive_port_irq_restore(irq);
    /* Parked (deep sleep) until the last one wakes us. */
    while (*(volatile unsigned *)&f->count < PER_CORE)
        hive_port_wait(0);
}

HIVE_TEST(timers_fire_in_order_never_early_on_their_core)
{
    watchdog_arm("timers_fire_in_order_never_early_on_their_core", MS(30000));
    atomic_store(&errors, 0);
    hive_smp_call_all(set_and_wait, NULL);
    unsigned n = hive_cpu_count(), late = 0;
    for (unsigned c = 0; c < n; c++) {
        struct fired *f = &fired[c];
        CHECK_EQ(f->count, PER_CORE);
        CHECK_EQ(f->wrong_core, 0);
        for (unsigned k = 0; k < f->count; k++) {
            struct shot *s = &shots[c][f->order[k]];
            CHECK(f->at[s->index] >= s->deadline);     /* never early */
            if (k > 0) {
                struct shot *p = &shots[c][f->order[k - 1]];
                /* In order: by deadline, ties in the order they were set. */
                CHECK(p->deadline < s->deadline ||
                      (p->deadline == s->deadline && p->index < s->index));
            }
            lateness[late++] = (uint32_t)(f->at[s->index] - s->deadline);
        }
    }
    CHECK_EQ(atomic_load(&errors), 0);
    print_figures("hive_after_irq lateness (fired - deadline)", lateness, late);
    watchdog_disarm();
}

/* ---- hive_after_irq: relative, never early by the caller's clock ---- */

static uint64_t after_set_at, after_fired_at;
static atomic_bool after_fired;

static void on_after(void *arg)
{
    (void)arg;
    after_fired_at = hive_now_ns();
    atomic_store(&after_fired, true);
}

HIVE_TEST(after_irq_waits_at_least_its_delay)
{
    watchdog_arm("after_irq_waits_at_least_its_delay", MS(10000));
    for (unsigned i = 0; i < 20; i++) {
        atomic_store(&after_fired, false);
        after_set_at = hive_now_ns();
        CHECK_EQ(hive_after_irq(MS(1) + i * 1000, on_after, NULL), HIVE_OK);
        while (!atomic_load(&after_fired))
            hive_port_wait(MS(1));
        CHECK(after_fired_at - after_set_at >= MS(1) + i * 1000);
    }
    CHECK_EQ(hive_after_irq(1, NULL, NULL), HIVE_EINVAL);
    watchdog_disarm();
}

/* ---- a full pool is an error, never a drop ---- */

static atomic_uint pool_fired;

static void on_pool(void *arg)
{
    (void)arg;
    atomic_fetch_add(&pool_fired, 1);
}

HIVE_TEST(full_pool_is_an_error)
{
    watchdog_arm("full_pool_is_an_error", MS(10000));
    atomic_store(&pool_fired, 0);
    unsigned added = 0;
    int err;
    /* Earlier cases' watchdogs still sit in this core's pool: fill the rest. */
    while ((err = hive_after_irq(MS(5), on_pool, NULL)) == HIVE_OK)
        added++;
    CHECK_EQ(err, HIVE_ENOMEM);
    CHECK(added > HIVE_TIMERS_PER_CORE - 10);
    /* Every one accepted fires; then there is room again. */
    while (atomic_load(&pool_fired) < added)
        hive_port_wait(MS(1));
    CHECK_EQ(hive_after_irq(MS(1), on_pool, NULL), HIVE_OK);
    while (atomic_load(&pool_fired) < added + 1)
        hive_port_wait(MS(1));
    printf("figure: %u of %u timers free after earlier cases\n", added, HIVE_TIMERS_PER_CORE);
    watchdog_disarm();
}

/* ---- a timer ends the sleep of a fully parked system ---- */

static atomic_bool idle_done;
static atomic_uint idle_back;

static void on_idle_timer(void *arg)
{
    (void)arg;
    atomic_store(&idle_done, true);
    for (unsigned c = 0; c < hive_cpu_count(); c++)
        hive_port_wake(c);
}

static void park_until_done(void *arg)
{
    (void)arg;
    if (hive_cpu_id() == 0)
        CHECK_EQ(hive_after_irq(MS(50), on_idle_timer, NULL), HIVE_OK);
    while (!atomic_load(&idle_done))
        hive_port_wait(0);  /* no timeout: only the timer's wakes end it */
    atomic_fetch_add(&idle_back, 1);
}

HIVE_TEST(timer_wakes_a_fully_parked_system)
{
    watchdog_arm("timer_wakes_a_fully_parked_system", MS(10000));
    atomic_store(&idle_done, false);
    atomic_store(&idle_back, 0);
    uint64_t t0 = hive_now_ns();
    hive_smp_call_all(park_until_done, NULL);
    CHECK(hive_now_ns() - t0 >= MS(50));
    CHECK_EQ(atomic_load(&idle_back), hive_cpu_count());
    watchdog_disarm();
}

/* ---- a handler's line and the interrupted task's line both stay whole ---- */

/* Each core writes long lines a character at a time, slowly, while its own
 * timer interrupt prints short lines every 20 us: most of the handler's
 * lines come while the task is halfway through one of its own. Every line
 * is "<<...>>", which tools/run-image requires to arrive whole: a handler
 * line inside a task line ("<<core 1 task AAAA<<core 1 irq 3>>") fails the
 * run, and so does one handler's line after another's on one line. */
#define LINE_SHOTS 40u
#define LINE_GAP_NS 20000u

static atomic_uint line_shots[HIVE_MAX_CORES];

static void print_from_handler(void *arg)
{
    unsigned me = hive_cpu_id();
    unsigned n = atomic_fetch_add(&line_shots[me], 1) + 1;
    /* Every other line without its newline: the handler's end must end it,
     * or the next handler's line would follow it on the same line. */
    printf("<<core %u irq %u>>%s", me, n, n % 2 ? "" : "\n");
    if (n < LINE_SHOTS && hive_after_irq(LINE_GAP_NS, print_from_handler, arg) != HIVE_OK)
        atomic_fetch_add(&errors, 1);
}

static void print_slowly(void *arg)
{
    (void)arg;
    unsigned me = hive_cpu_id();
    atomic_store(&line_shots[me], 0);
    if (hive_after_irq(LINE_GAP_NS, print_from_handler, NULL) != HIVE_OK) {
        atomic_fetch_add(&errors, 1);
        return;
    }
    while (atomic_load(&line_shots[me]) < LINE_SHOTS) {
        printf("<<core %u task ", me);
        for (unsigned i = 0; i < 60; i++) {
            putchar('A');
            uint64_t until = hive_now_ns() + 2000;
            while (hive_now_ns() < until)
                hive_port_cpu_relax();
        }
        printf(">>\n");
    }
}

HIVE_TEST(handler_lines_stay_whole_beside_a_task_line)
{
    watchdog_arm("handler_lines_stay_whole_beside_a_task_line", MS(60000));
    atomic_store(&errors, 0);
    hive_smp_call_all(print_slowly, NULL);
    CHECK_EQ(atomic_load(&errors), 0);
    watchdog_disarm();
}
