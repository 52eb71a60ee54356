/*
 * One-shot timers: per core, a binary min-heap of deadlines in a fixed
 * array, so adding and firing cost O(log n) and nothing is allocated. The
 * core's hardware timer (arch_timer_set) is kept armed for the earliest of
 * the heap's top and the core's park deadline (kernel/port.c).
 *
 * A timer lives on the core that set it. The heap's lock masks interrupts,
 * since the timer interrupt takes it too; today only the owning core ever
 * takes it, so it never spins, but it keeps the heap safe for a future
 * "timer on core N" without a second design.
 */
#include "kernel/timer.h"

#include "hive/timer.h"
#include "kernel/kernel.h"
#include "sched/port.h"
#include "sched/spinlock.h"

#define NS_PER_S 1000000000u
#define NEVER UINT64_MAX

struct timer {
    uint64_t deadline;      /* ns */
    uint64_t seq;           /* order of hive_timer_add: ties fire FIFO */
    hive_timer_fire *fire;
    union hive_timer_fn fn;
    void *arg;
};

struct timer_core {
    _Alignas(64) struct hive_spinlock lock;
    unsigned n;             /* timers in the heap */
    uint64_t seq;
    uint64_t park;          /* park deadline, ns, or NEVER */
    uint64_t armed;         /* ticks last given to arch_timer_set, or NEVER */
    struct timer heap[HIVE_TIMERS_PER_CORE];
};

static struct timer_core cores[HIVE_MAX_CORES];

uint64_t hive_now_ns(void)
{
    return hive_port_now_ns();
}

/*
 * ns to counter ticks, rounded up: hive_port_now_ns() rounds ticks down to
 * ns, so at tick ceil(ns * hz / 1e9) the clock already reads >= ns, and a
 * timer never fires early. Split like hive_port_now_ns to stay in 64 bits.
 */
static uint64_t ticks_at(uint64_t ns)
{
    if (ns == NEVER)
        return NEVER;
    uint64_t hz = arch_counter_hz();
    uint64_t rem = ns % NS_PER_S * hz;
    return ns / NS_PER_S * hz + rem / NS_PER_S + (rem % NS_PER_S != 0);
}

static bool before(const struct timer *a, const struct timer *b)
{
    return a->deadline < b->deadline || (a->deadline == b->deadline && a->seq < b->seq);
}

static void swap(struct timer *a, struct timer *b)
{
    struct timer t = *a;
    *a = *b;
    *b = t;
}

static void sift_up(struct timer *h, unsigned i)
{
    while (i > 0 && before(&h[i], &h[(i - 1) / 2])) {
        swap(&h[i], &h[(i - 1) / 2]);
        i = (i - 1) / 2;
    }
}

static void sift_down(struct timer *h, unsigned n, unsigned i)
{
    for (;;) {
        unsigned l = 2 * i + 1, r = l + 1, m = i;
        if (l < n && before(&h[l], &h[m]))
            m = l;
        if (r < n && before(&h[r], &h[m]))
            m = r;
        if (m == i)
            return;
        swap(&h[i], &h[m]);
        i = m;
    }
}

/*
 * Arm the hardware for the earliest deadline. Outside the timer interrupt
 * only an earlier deadline reprograms it: a later one leaves the old one
 * armed, whose interrupt then finds nothing due and re-arms (force) - one
 * spare interrupt instead of an SBI call on every park.
 */
static void rearm(struct timer_core *c, bool force)
{
    uint64_t want = c->park;
    if (c->n && c->heap[0].deadline < want)
        want = c->heap[0].deadline;
    uint64_t ticks = ticks_at(want);
    if (force || ticks < c->armed) {
        c->armed = ticks;
        arch_timer_set(ticks);
    }
}

void hive_timer_cpu_init(void)
{
    struct timer_core *c = &cores[hive_cpu_id()];
    c->n = 0;
    c->park = NEVER;
    c->armed = NEVER;
}

int hive_timer_add(uint64_t deadline_ns, hive_timer_fire *fire, union hive_timer_fn fn, void *arg)
{
    if (!fire)
        return HIVE_EINVAL;
    unsigned long irq = hive_port_irq_save();
    struct timer_core *c = &cores[hive_cpu_id()];
    hive_spin_lock_raw(&c->lock);
    int err = HIVE_ENOMEM;
    if (c->n < HIVE_TIMERS_PER_CORE) {
        c->heap[c->n] = (struct timer){deadline_ns, c->seq++, fire, fn, arg};
        sift_up(c->heap, c->n++);
        rearm(c, false);
        err = HIVE_OK;
    }
    hive_spin_unlock_raw(&c->lock);
    hive_port_irq_restore(irq);
    return err;
}

void hive_timer_park_until(uint64_t deadline_ns)
{
    unsigned long irq = hive_port_irq_save();
    struct timer_core *c = &cores[hive_cpu_id()];
    hive_spin_lock_raw(&c->lock);
    c->park = deadline_ns;
    rearm(c, false);
    hive_spin_unlock_raw(&c->lock);
    hive_port_irq_restore(irq);
}

/* From hive_kernel_irq, interrupts masked: fire what is due, in order. */
void hive_timer_irq(void)
{
    struct timer_core *c = &cores[hive_cpu_id()];
    hive_spin_lock_raw(&c->lock);
    uint64_t now = hive_port_now_ns();
    if (c->park <= now)
        c->park = NEVER;    /* its sleep has ended; the waiter sees the time */
    while (c->n && c->heap[0].deadline <= now) {
        struct timer t = c->heap[0];
        c->heap[0] = c->heap[--c->n];
        sift_down(c->heap, c->n, 0);
        /* Unlocked: the callback may add timers of its own. */
        hive_spin_unlock_raw(&c->lock);
        t.fire(t.fn, t.arg);
        hive_spin_lock_raw(&c->lock);
        now = hive_port_now_ns();
    }
    /* Always: the source stays asserted until the timer is set again. */
    rearm(c, true);
    hive_spin_unlock_raw(&c->lock);
}

static void call_fire(union hive_timer_fn fn, void *arg)
{
    fn.call(arg);
}

int hive_after_irq(uint64_t ns, void (*fn)(void *arg), void *arg)
{
    if (!fn)
        return HIVE_EINVAL;
    union hive_timer_fn f = {.call = fn};
    return hive_timer_add(hive_deadline_after(hive_port_now_ns(), ns), call_fire, f, arg);
}
