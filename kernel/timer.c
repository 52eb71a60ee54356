/*
 * One-shot timers: per core, a binary min-heap of deadlines in a fixed
 * array, so adding and firing cost O(log n) and nothing is allocated. The
 * core's hardware timer (arch_timer_set) is kept armed for the earliest of
 * the heap's top and the core's park deadline (kernel/port.c).
 *
 * A timer lives on the core that set it. The heap's lock masks interrupts,
 * since the timer interrupt takes it too. The owning core takes it to add and
 * fire; a cancel takes it from whichever core cancels (timers are cancelled
 * by what they carry, not by where they are), so it may spin briefly then.
 *
 * Deadlines saturate: a deadline past what the clock can reach is UINT64_MAX,
 * "never", both in ns (hive_deadline_after) and in counter ticks (ticks_at),
 * so no sum wraps around into a deadline that has already passed.
 */
#include "kernel/timer.h"

#include <string.h>

#include "hive/timer.h"
#include "kernel/console.h"
#include "kernel/kernel.h"
#include "hive/spinlock.h"
#include "sched/sched.h"

#define NS_PER_S 1000000000u
#define NEVER UINT64_MAX

struct timer {
    uint64_t deadline;      /* ns */
    uint64_t seq;           /* order of hive_timer_add: ties fire FIFO */
    hive_timer_fire *fire;
    union hive_timer_fn fn;
    void *arg;
};

/* cmake/limits.cmake refuses it first; here for a build that skips it. */
_Static_assert(HIVE_TIMERS_PER_CORE >= 1, "HIVE_TIMERS_PER_CORE must be at least 1");

struct timer_core {
    _Alignas(64) struct hive_spinlock lock;
    unsigned n;             /* timers in the heap */
    uint64_t seq;
    uint64_t park;          /* park deadline, ns, or NEVER */
    uint64_t watch;         /* next periodic watch call, ns, or NEVER */
    uint64_t watch_period;
    void (*watch_fn)(void);
    uint64_t backstop;      /* the scheduler's backstop check, ns, or NEVER */
    uint64_t backstop_period; /* for a check that asks to be called again */
    bool (*backstop_fn)(unsigned core);
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
    /* Whole seconds first; past 64 bits of ticks the deadline is never.
     * (rem < 1e9 * hz fits for any counter below 18 GHz.) */
    if (ns / NS_PER_S > UINT64_MAX / hz)
        return NEVER;
    uint64_t whole = ns / NS_PER_S * hz;
    uint64_t rem = ns % NS_PER_S * hz;
    uint64_t part = rem / NS_PER_S + (rem % NS_PER_S != 0);
    return part > NEVER - whole ? NEVER : whole + part;
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

/* Take out heap[i], keeping the heap ordered: its slot gets the last timer,
 * which then moves up or down to where it belongs. */
static void heap_remove(struct timer_core *c, unsigned i)
{
    c->heap[i] = c->heap[--c->n];
    if (i == c->n)
        return;
    if (i > 0 && before(&c->heap[i], &c->heap[(i - 1) / 2]))
        sift_up(c->heap, i);
    else
        sift_down(c->heap, c->n, i);
}

/*
 * Arm the hardware for the earliest deadline. Outside the timer interrupt
 * only an earlier deadline reprograms it: a later one leaves the old one
 * armed, whose interrupt then finds nothing due and re-arms (force) - one
 * spare interrupt instead of an SBI call on every park.
 */
static void rearm(struct timer_core *c, bool force)
{
    uint64_t want = c->park < c->watch ? c->park : c->watch;
    if (c->backstop < want)
        want = c->backstop;
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
    c->watch = NEVER;
    c->backstop = NEVER;
    c->armed = NEVER;
}

int hive_timer_add_and(uint64_t deadline_ns, hive_timer_fire *fire, union hive_timer_fn fn,
                       void *arg, void (*also)(void))
{
    if (!fire)
        return HIVE_EINVAL;
    /* Masked before the lock: this core's timer interrupt takes it too
     * (hive_timer_irq), and would spin on it forever. */
    unsigned long irq = arch_irq_save();
    struct timer_core *c = &cores[hive_cpu_id()];
    hive_spin_lock_raw(&c->lock);
    int err = HIVE_ENOMEM;
    if (c->n < HIVE_TIMERS_PER_CORE) {
        c->heap[c->n] = (struct timer){deadline_ns, c->seq++, fire, fn, arg};
        sift_up(c->heap, c->n++);
        if (also)
            also();
        rearm(c, false);
        err = HIVE_OK;
    }
    hive_spin_unlock_raw(&c->lock);
    arch_irq_restore(irq);
    return err;
}

int hive_timer_add(uint64_t deadline_ns, hive_timer_fire *fire, union hive_timer_fn fn, void *arg)
{
    return hive_timer_add_and(deadline_ns, fire, fn, arg, NULL);
}

static bool matches(const struct timer *t, hive_timer_fire *fire, union hive_timer_fn fn,
                    void *arg)
{
    /* fn by its bytes: either member, both function pointers, no padding. */
    return t->fire == fire && t->arg == arg && memcmp(&t->fn, &fn, sizeof fn) == 0;
}

int hive_timer_cancel(hive_timer_fire *fire, union hive_timer_fn fn, void *arg)
{
    unsigned long irq = arch_irq_save();
    unsigned self = hive_cpu_id(), n = hive_cpu_count();
    int err = HIVE_ESTATE;
    for (unsigned k = 0; k < n && err != HIVE_OK; k++) {
        struct timer_core *c = &cores[(self + k) % n];
        hive_spin_lock_raw(&c->lock);
        unsigned first = c->n;
        for (unsigned i = 0; i < c->n; i++)
            if (matches(&c->heap[i], fire, fn, arg) &&
                (first == c->n || before(&c->heap[i], &c->heap[first])))
                first = i;
        if (first < c->n) {
            /* The hardware stays armed as it was: if this was the earliest
             * timer, its interrupt comes, finds nothing due and re-arms. */
            heap_remove(c, first);
            err = HIVE_OK;
        }
        hive_spin_unlock_raw(&c->lock);
    }
    arch_irq_restore(irq);
    return err;
}

static void park_until(uint64_t deadline_ns, bool force)
{
    unsigned long irq = arch_irq_save();
    struct timer_core *c = &cores[hive_cpu_id()];
    hive_spin_lock_raw(&c->lock);
    c->park = deadline_ns;
    rearm(c, force);
    hive_spin_unlock_raw(&c->lock);
    arch_irq_restore(irq);
}

void hive_timer_park_until(uint64_t deadline_ns)
{
    park_until(deadline_ns, false);
}

void hive_timer_park_until_rearmed(uint64_t deadline_ns)
{
    park_until(deadline_ns, true);
}

void hive_timer_watch(uint64_t period_ns, void (*fn)(void))
{
    unsigned long irq = arch_irq_save();
    struct timer_core *c = &cores[hive_cpu_id()];
    hive_spin_lock_raw(&c->lock);
    c->watch_period = period_ns;
    c->watch_fn = fn;
    c->watch = period_ns && fn ? hive_deadline_after(hive_port_now_ns(), period_ns) : NEVER;
    rearm(c, false);
    hive_spin_unlock_raw(&c->lock);
    arch_irq_restore(irq);
}

void hive_timer_backstop(uint64_t period_ns, bool (*fn)(unsigned core))
{
    unsigned long irq = arch_irq_save();
    struct timer_core *c = &cores[hive_cpu_id()];
    hive_spin_lock_raw(&c->lock);
    if (!fn) {
        /* Dropped: the hardware stays armed as it was; if this was the
         * earliest deadline its interrupt finds nothing due and re-arms. */
        c->backstop = NEVER;
    } else if (c->backstop == NEVER) {
        c->backstop = hive_deadline_after(hive_port_now_ns(), period_ns);
        c->backstop_period = period_ns;
        c->backstop_fn = fn;
        rearm(c, false);
    }
    hive_spin_unlock_raw(&c->lock);
    arch_irq_restore(irq);
}

/* From hive_kernel_irq, interrupts masked: fire what is due, in order. */
void hive_timer_irq(void)
{
    struct timer_core *c = &cores[hive_cpu_id()];
    hive_spin_lock_raw(&c->lock);
    uint64_t now = hive_port_now_ns();
    if (c->park <= now)
        c->park = NEVER;    /* its sleep has ended; the waiter sees the time */
    if (c->watch <= now) {
        /* The next call a period from now, not from when this one was due:
         * a core that was held up does not catch up in a burst. */
        c->watch = hive_deadline_after(now, c->watch_period);
        void (*fn)(void) = c->watch_fn;
        /* Unlocked, as any callback: it may panic, or read the clock. */
        hive_spin_unlock_raw(&c->lock);
        HIVE_TRACE_EVENT(HIVE_TRACE_TIMER, fn, 0);
        fn();
        hive_spin_lock_raw(&c->lock);
        now = hive_port_now_ns();
    }
    if (c->backstop <= now) {
        c->backstop = NEVER;
        bool (*fn)(unsigned) = c->backstop_fn;
        hive_spin_unlock_raw(&c->lock);
        HIVE_TRACE_EVENT(HIVE_TRACE_TIMER, fn, 0);
        bool again = fn(hive_cpu_id());
        hive_spin_lock_raw(&c->lock);
        now = hive_port_now_ns();
        /* Asked again: a period from now (none was set meanwhile: only this
         * core sets it, and its code below this interrupt waits). */
        if (again && c->backstop == NEVER)
            c->backstop = hive_deadline_after(now, c->backstop_period);
    }
    while (c->n && c->heap[0].deadline <= now) {
        struct timer t = c->heap[0];
        c->heap[0] = c->heap[--c->n];
        sift_down(c->heap, c->n, 0);
        /* Unlocked: the callback may add timers of its own. */
        hive_spin_unlock_raw(&c->lock);
        /* Both members are function pointers: call names either. A timer
         * with none (hive_after's: the task holds its fn) is traced by its
         * fire, which knows what to name. */
        if (t.fn.call) {
            HIVE_TRACE_EVENT(HIVE_TRACE_TIMER, t.fn.call, t.arg);
        }
        t.fire(t.fn, t.arg);
        /* Each callback is a handler of its own: its unfinished line ends
         * here, not in the next one's (kernel/console.c). */
        hive_console_handler_end();
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

int hive_after_irq_cancel(void (*fn)(void *arg), void *arg)
{
    if (!fn)
        return HIVE_EINVAL;
    union hive_timer_fn f = {.call = fn};
    return hive_timer_cancel(call_fire, f, arg);
}
