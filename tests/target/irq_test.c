/*
 * Device interrupts (kernel/irq.c): attach's checks, and a device line that
 * fires again and again (the board's test source) while every other core
 * hammers shared memory: each raise arrives exactly once, in interrupt
 * context, on the attaching core, and its handler can wake a parked core.
 */
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>

#include "harness.h"
#include "hive/irq.h"
#include "hive/spinlock.h"
#include "irq_util.h"
#include "kernel/irq.h"
#include "kernel/kernel.h"
#include "sched/port.h"

int main(void) { return hive_test_main(); }

static void nothing(unsigned irq, void *arg) { (void)irq, (void)arg; }

HIVE_TEST(attach_checks_its_arguments)
{
    int line = board_test_irq();
    CHECK(line >= 0);
    if (line < 0)
        HIVE_SKIP("the board has no test interrupt line");
    CHECK_EQ(hive_irq_attach((unsigned)line, NULL, NULL), HIVE_EINVAL);
    CHECK_EQ(hive_irq_attach(HIVE_IRQ_LINES, nothing, NULL), HIVE_EINVAL);
    /* Below HIVE_IRQ_LINES but no device line: the board's route refuses
     * it (line 0 is none on every controller: a GIC SGI, PLIC source 0,
     * no line of the BCM2836's), and the attach is undone - so the same
     * call is refused again as invalid, not as busy, and nothing is left
     * to detach. */
    CHECK_EQ(hive_irq_attach(0, nothing, NULL), HIVE_EINVAL);
    CHECK_EQ(hive_irq_attach(0, nothing, NULL), HIVE_EINVAL);
    CHECK_EQ(hive_irq_detach(0), HIVE_EINVAL);
    CHECK_EQ(hive_irq_detach((unsigned)line), HIVE_EINVAL);     /* nothing attached */
    CHECK_EQ(hive_irq_attach((unsigned)line, nothing, NULL), HIVE_OK);
    CHECK_EQ(hive_irq_attach((unsigned)line, nothing, NULL), HIVE_EBUSY);
    CHECK_EQ(hive_irq_detach((unsigned)line), HIVE_OK);
    CHECK_EQ(hive_irq_detach((unsigned)line), HIVE_EINVAL);
    CHECK(!hive_in_interrupt());
}

/* ---- a storm of device interrupts while every core is busy ---- */

#define STORM 20000u

struct storm {
    unsigned core;              /* the attaching core */
    unsigned waiter;            /* parked until the storm is over */
    atomic_uint handled;
    atomic_uint wrong_context;
    atomic_bool over;
};

static struct storm storm;
static atomic_ulong hammer;

static void on_storm(unsigned irq, void *arg)
{
    struct storm *s = arg;
    board_test_irq_ack();
    if (!hive_in_interrupt() || hive_cpu_id() != s->core || hive_core_id() != (int)s->core ||
        irq != (unsigned)board_test_irq())
        atomic_fetch_add(&s->wrong_context, 1);
    /* relaxed: only this handler (one core, never nested) counts. */
    unsigned n = atomic_fetch_add_explicit(&s->handled, 1, memory_order_relaxed) + 1;
    if (n < STORM) {
        board_test_irq_raise();     /* the next one, as soon as we complete */
    } else {
        atomic_store(&s->over, true);
        hive_port_wake(s->waiter);
        /* And this core, which may be parked in storm_core too: a source
         * that fires some time after its raise lets it sleep between
         * interrupts (one that fires at once keeps the whole storm inside
         * a single exception, and storm_core never waits). */
        hive_port_wake(s->core);
    }
}

static void storm_core(void *arg)
{
    struct storm *s = arg;
    unsigned me = hive_cpu_id();
    if (me == s->core) {
        board_test_irq_raise();
        while (!atomic_load(&s->over))
            hive_port_wait(0);      /* the handler runs when we sleep, too */
    } else if (me == s->waiter) {
        while (!atomic_load(&s->over))
            hive_port_wait(0);      /* parked: the last handler wakes us */
    } else {
        while (!atomic_load(&s->over))
            /* relaxed: contention for its own sake; read after the join. */
            atomic_fetch_add_explicit(&hammer, 1, memory_order_relaxed);
    }
    if (me == s->core)
        hive_port_wake(s->waiter);  /* in case the waiter is us */
}

HIVE_TEST(device_storm_each_interrupt_once)
{
    int line = board_test_irq();
    if (line < 0)
        HIVE_SKIP("the board has no test interrupt line");
    watchdog_arm("device_storm_each_interrupt_once", MS(60000));
    unsigned n = hive_cpu_count();
    storm.core = 0;
    storm.waiter = n - 1;
    atomic_store(&storm.handled, 0);
    atomic_store(&storm.wrong_context, 0);
    atomic_store(&storm.over, false);
    struct hive_irq_counts before, after;
    hive_irq_counts(0, &before);
    watchdog_progress = &storm.handled;
    CHECK_EQ(hive_irq_attach((unsigned)line, on_storm, &storm), HIVE_OK);
    uint64_t t0 = hive_now_ns();
    hive_smp_call_all(storm_core, &storm);
    uint64_t took = hive_now_ns() - t0;
    CHECK_EQ(hive_irq_detach((unsigned)line), HIVE_OK);
    hive_irq_counts(0, &after);
    CHECK_EQ(atomic_load(&storm.handled), STORM);
    CHECK_EQ(atomic_load(&storm.wrong_context), 0);
    CHECK_EQ(after.devices - before.devices, STORM);
    CHECK_EQ(after.unhandled - before.unhandled, 0);
    printf("figure: %u device interrupts in %lu ms on core 0 (%lu ns each)\n", STORM,
           (unsigned long)(took / MS(1)), (unsigned long)(took / STORM));
    watchdog_disarm();
}

/* ---- detach waits for a handler running on another core ---- */

/* Core 1 attaches a handler that runs for 50 ms; core 0 detaches the line
 * while it runs: detach returns only after the handler has finished (its
 * caller may free arg or attach anew). The handler then detaches its own
 * line from inside - at once, waiting for nobody. */
struct slow_line {
    atomic_bool attached, inside, finished, released, detaching;
    atomic_int detach_rc, self_detach_rc;
    atomic_bool finished_at_detach;
    /* Core 2: an attach while the detach waits for the handler must be
     * refused (1: it was, 2: it was not, 0: it came too late to tell). */
    atomic_int attach_during_detach;
    unsigned rounds;
};

static struct slow_line slow;

static void on_slow(unsigned irq, void *arg)
{
    struct slow_line *l = arg;
    board_test_irq_ack();
    if (l->rounds++ == 0) {
        atomic_store(&l->inside, true);
        uint64_t end = hive_now_ns() + MS(50);
        while (hive_now_ns() < end)
            hive_port_cpu_relax();
        atomic_store(&l->finished, true);
    } else {
        atomic_store(&l->self_detach_rc, hive_irq_detach(irq));
        atomic_store(&l->finished, true);
    }
}

static void slow_line_core(void *arg)
{
    struct slow_line *l = arg;
    int line = board_test_irq();
    if (hive_cpu_id() == 1) {
        if (hive_irq_attach((unsigned)line, on_slow, l) != HIVE_OK)
            hive_panic("detach_waits_for_a_running_handler: attach failed");
        atomic_store(&l->attached, true);
        board_test_irq_raise();
        while (!atomic_load(&l->released))
            hive_port_cpu_relax();
        /* Again, for the handler that detaches its own line. */
        atomic_store(&l->finished, false);
        if (hive_irq_attach((unsigned)line, on_slow, l) != HIVE_OK)
            hive_panic("detach_waits_for_a_running_handler: attach failed");
        board_test_irq_raise();
        while (!atomic_load(&l->finished))
            hive_port_cpu_relax();
    } else if (hive_cpu_id() == 0) {
        while (!atomic_load(&l->inside))
            hive_port_cpu_relax();
        atomic_store(&l->detaching, true);
        atomic_store(&l->detach_rc, hive_irq_detach((unsigned)line));
        atomic_store(&l->finished_at_detach, atomic_load(&l->finished));
        atomic_store(&l->released, true);
    } else if (hive_cpu_id() == 2) {
        /* Attach the line anew while core 0's detach waits for core 1's
         * handler: its arg would be written under that handler. Only an
         * attach that returned while the handler still ran tells. */
        while (!atomic_load(&l->detaching))
            hive_port_cpu_relax();
        uint64_t end = hive_now_ns() + MS(5);
        while (hive_now_ns() < end)
            hive_port_cpu_relax();
        int rc = hive_irq_attach((unsigned)line, on_slow, NULL);
        bool still_inside = !atomic_load(&l->finished);
        atomic_store(&l->attach_during_detach, !still_inside ? 0 : rc == HIVE_EBUSY ? 1 : 2);
        if (rc == HIVE_OK && hive_irq_detach((unsigned)line) != HIVE_OK)
            hive_panic("detach_waits_for_a_running_handler: core 2's detach failed");
    }
}

HIVE_TEST(detach_waits_for_a_running_handler)
{
    int line = board_test_irq();
    if (line < 0 || hive_cpu_count() < 2)
        HIVE_SKIP("needs a test interrupt line and 2 cores");
    watchdog_arm("detach_waits_for_a_running_handler", MS(60000));
    slow.rounds = 0;
    atomic_store(&slow.attached, false);
    atomic_store(&slow.inside, false);
    atomic_store(&slow.finished, false);
    atomic_store(&slow.released, false);
    atomic_store(&slow.detach_rc, 1);
    atomic_store(&slow.self_detach_rc, 1);
    atomic_store(&slow.detaching, false);
    atomic_store(&slow.attach_during_detach, 0);
    hive_smp_call_all(slow_line_core, &slow);
    CHECK(atomic_load(&slow.attach_during_detach) != 2);
    if (hive_cpu_count() >= 3)
        printf("figure: attach during a detach's wait: %s\n",
               (const char *[]){"too late to tell", "refused", "taken"}[atomic_load(&slow.attach_during_detach)]);
    CHECK_EQ(atomic_load(&slow.detach_rc), HIVE_OK);
    CHECK(atomic_load(&slow.finished_at_detach));
    CHECK_EQ(atomic_load(&slow.self_detach_rc), HIVE_OK);
    CHECK_EQ(slow.rounds, 2);
    /* Both detaches took: the line is free. */
    CHECK_EQ(hive_irq_detach((unsigned)line), HIVE_EINVAL);
    watchdog_disarm();
}

/* The same detach from a timer callback on core 0 (interrupt context, but no
 * handler of the line) right after core 0 itself handled the line: it must
 * wait for core 1's handler all the same. */
static struct slow_line slow2;
static atomic_bool timer_detached;

static void on_quick(unsigned irq, void *arg)
{
    (void)irq;
    board_test_irq_ack();
    atomic_store((atomic_bool *)arg, true);
}

static void detach_from_timer(void *arg)
{
    struct slow_line *l = arg;
    atomic_store(&l->detach_rc, hive_irq_detach((unsigned)board_test_irq()));
    atomic_store(&l->finished_at_detach, atomic_load(&l->finished));
    atomic_store(&timer_detached, true);
}

static void timer_detach_core(void *arg)
{
    struct slow_line *l = arg;
    int line = board_test_irq();
    if (hive_cpu_id() == 0) {
        /* Core 0 handles the line once, then gives it to core 1. */
        atomic_bool quick = false;
        if (hive_irq_attach((unsigned)line, on_quick, &quick) != HIVE_OK)
            hive_panic("detach_from_a_timer_callback_waits: attach failed");
        board_test_irq_raise();
        while (!atomic_load(&quick))
            hive_port_cpu_relax();
        if (hive_irq_detach((unsigned)line) != HIVE_OK)
            hive_panic("detach_from_a_timer_callback_waits: detach failed");
        atomic_store(&l->released, true);
        while (!atomic_load(&l->inside))
            hive_port_cpu_relax();
        if (hive_after_irq(1, detach_from_timer, l) != HIVE_OK)
            hive_panic("detach_from_a_timer_callback_waits: no timer");
        while (!atomic_load(&timer_detached))
            hive_port_cpu_relax();
    } else if (hive_cpu_id() == 1) {
        while (!atomic_load(&l->released))
            hive_port_cpu_relax();
        l->rounds = 0;
        if (hive_irq_attach((unsigned)line, on_slow, l) != HIVE_OK)
            hive_panic("detach_from_a_timer_callback_waits: attach failed");
        board_test_irq_raise();
        while (!atomic_load(&timer_detached))
            hive_port_cpu_relax();
    }
}

HIVE_TEST(detach_from_a_timer_callback_waits)
{
    int line = board_test_irq();
    if (line < 0 || hive_cpu_count() < 2)
        HIVE_SKIP("needs a test interrupt line and 2 cores");
    watchdog_arm("detach_from_a_timer_callback_waits", MS(60000));
    atomic_store(&slow2.inside, false);
    atomic_store(&slow2.finished, false);
    atomic_store(&slow2.released, false);
    atomic_store(&slow2.detach_rc, 1);
    atomic_store(&slow2.finished_at_detach, false);
    atomic_store(&timer_detached, false);
    hive_smp_call_all(timer_detach_core, &slow2);
    CHECK_EQ(atomic_load(&slow2.detach_rc), HIVE_OK);
    CHECK(atomic_load(&slow2.finished_at_detach));
    CHECK_EQ(hive_irq_detach((unsigned)line), HIVE_EINVAL);
    watchdog_disarm();
}


/* ---- hive_spin_trylock: held, refused, and interrupts as they were ---- */

/* Unmasked, in the state arch_irq_save returned. */
static bool irqs_on(unsigned long state)
{
#if defined(__aarch64__)
    return !(state & (1ul << 7)); /* DAIF.I */
#else
    return (state & 2ul) != 0;    /* sstatus.SIE */
#endif
}

static unsigned long irq_state_now(void)
{
    unsigned long s = arch_irq_save();
    arch_irq_restore(s);
    return s;
}

HIVE_TEST(spin_trylock_refused_leaves_interrupts_as_they_were)
{
    static struct hive_spinlock lock = HIVE_SPINLOCK_INIT;
    unsigned long before = irq_state_now();
    CHECK(irqs_on(before)); /* else a restore could not be told from none */
    unsigned long held;
    CHECK(hive_spin_trylock(&lock, &held));
    CHECK(!irqs_on(irq_state_now()));          /* held: masked */
    unsigned long other;
    CHECK(!hive_spin_trylock(&lock, &other));  /* refused... */
    CHECK(!hive_spin_trylock_raw(&lock));
    CHECK(!irqs_on(irq_state_now()));          /* ...and still masked, as it was */
    hive_spin_unlock(&lock, held);
    CHECK_EQ(irq_state_now(), before);
    /* Refused with interrupts on: they stay on. */
    hive_spin_lock_raw(&lock);
    CHECK(!hive_spin_trylock(&lock, &other));
    CHECK(irqs_on(irq_state_now()));
    hive_spin_unlock_raw(&lock);
    CHECK(hive_spin_trylock_raw(&lock));
    hive_spin_unlock_raw(&lock);
}
