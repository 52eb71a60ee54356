/*
 * Waiting in hive_join for a stolen frame, or in hive_group_wait for a
 * group's tasks: what the waiting core runs meanwhile (hive_wait_find_work),
 * and how it sleeps when there is nothing it may run and is woken when the
 * work it waits for is done (hive_wait_for, hive_await_done).
 *
 * Helping. A waiter runs other work instead of spinning while work exists.
 * Which work it may run depends on how deeply waits are nested on this core's
 * stack; join.c ("Waiting") has the rules and the argument that they bound
 * the stack.
 *
 * Parking. When helping has found nothing for HIVE_WAIT_SPIN_NS, a waiter
 * that is not deep (its frame in the upper half of the core's stack) parks
 * as an idle worker does:
 * it tries to become a searcher, looks once more, and parks through the idle
 * protocol (park.c, rules 3 and 4 of idle.c) - its bit in the parked bitmap,
 * so that any enqueue's notify can claim it like any other parked core. It
 * may: such a waiter runs any task it finds, so once woken it searches as
 * fully as an idle worker (steals from every core, polls the global queue).
 * It leaves the park when it is claimed, when the park times out, or when
 * the awaited count reaches zero. Once awake it is a searcher (rule 4); it
 * stops searching when it finds a task to run, or when its wait is over - its
 * own continuation is the work it found - and in both cases, being perhaps
 * the last searcher, it wakes another (rule 2). So it takes every step the
 * argument of idle.c assumes of an idle worker, and the argument holds as it
 * stands.
 *
 * Deeper waits never park: they keep polling. They may run only parts of
 * their own subtree - their deque above the running task's floor, and
 * leapfrogged work from the deque of the core that took their frame - and the
 * latter can appear at any time without any notify aimed at them, so they
 * could not search as a claimed worker must, and sleeping could strand the
 * leapfrogging that lets a core whose every wait is deep make progress.
 *
 * Why a waiter is woken when its wait ends (no lost wakeup). The awaited
 * count and the waiters that sleep on it share one atomic word
 * (HIVE_AWAIT_*, sched_internal.h). Before it parks, a waiter marks the word
 * with a CAS that succeeds only on a word whose count is not zero: the first
 * installs its core and the SLEEPING bit; one that finds SLEEPING taken by
 * another waiter of the same group sets the OTHERS bit instead. The
 * completer's decrement (hive_await_done) is an RMW of the same word, so in
 * the word's modification order it comes either before that CAS - then the
 * CAS fails, the waiter rereads the word, sees the count at zero and does not
 * park - or after it, and then the value it returns carries the mark: the
 * completer that takes the count to zero wakes the core named, and if OTHERS
 * is set every core, as it does not know which others sleep. A wake sent
 * before the waiter reaches hive_port_wait stays pending (one per core,
 * sched/port.h), and the park loop rereads the count before every wait, so
 * no waiter can sleep through the last completion. The completer needs
 * nothing from the word's object after its RMW, which may be its last
 * access: a join frame lives on the joiner's stack, a group may be gone once
 * its waiters return. The named waiter clears its bits after the park,
 * before its wait returns, and a second may then be named in its turn.
 * OTHERS stays set: a further waiter may still sleep on it, and clearing it
 * is safe only where no wait is in progress - hive_group_init, which hive.h
 * allows only once every wait has returned. So a group that once had two
 * sleeping waiters wakes every core at each last completion until it is
 * re-initialised: spurious wakes, which a parked core answers by looking at
 * its own word or the idle word and sleeping again. A join has one waiter
 * and never sets it. model/await.pml checks the word with two and with three
 * waiters.
 */
#include "sched/sched_internal.h"

struct hive_task *hive_wait_find_work(struct hive_worker *w, int frame_thief)
{
    struct hive_task *t;
    bool deep = w->wait_deep;
    /* Deep: first this core's own entries above the running task's floor -
     * pushed by that task or by work nested in its waits, e.g. group tasks
     * a leapfrogged task spawned and left behind; nobody else may be able to
     * run them (join.c, "Waiting", has the argument). The owner's bottom is
     * exact, so the pop below takes an index at or above forkjoin_floor (a
     * solo deque's holes it passes no lower) or, if thieves emptied the
     * deque meanwhile, nothing: never an entry under the floor. */
    if (deep) {
        /* The floor, or above an entry moved up to it from under it (group.c,
         * own_task_under_floor). */
        uint32_t floor = hive_forkjoin_limit(w, w->forkjoin_floor);
        if ((int32_t)(hive_deque_bottom(&w->queues.forkjoin) - floor) > 0 &&
            (t = hive_forkjoin_pop_above(w, floor)))
            return t;
    }
    /* Private entries left are under the floor, another task's: offered
     * now, as a deep wait never parks and may poll for long (group.c,
     * "Private group tasks"). A wait that is not deep pops them all in
     * hive_find_local before it parks. */
    if (deep)
        hive_publish_private(w);
    if (frame_thief >= 0 && (unsigned)frame_thief != w->id &&
        (unsigned)frame_thief < hive_scheduler.workers) {
        /* Leapfrogging: what the core that took our frame left in its deque
         * is part of the frame's work, so running it cannot deepen our stack
         * beyond the frame's own. */
        if ((t = hive_steal_forkjoin(&hive_workers[frame_thief].queues, &w->stats))) {
            w->stats.steal_attempts++; /* counted when it took work only: it polls */
            return t;
        }
    }
    if (deep)
        return NULL;
    if ((t = hive_find_local(w)))
        return t;
    if ((t = hive_steal_round(w))) {
        /* A waiter mostly steals without being a searcher, and then no
         * "last searcher" hand-off covers the batch the steal moved into
         * its ring: notify as after a push (idle.c, rule 1). One that is a
         * searcher (its look before parking, or woken from a park) gets
         * this notify too, and rule 2's when it stops searching: one spare
         * look at the idle word. */
        if (hive_ring_len(&w->queues.ring))
            hive_notify_idle(w);
        return t;
    }
    return hive_pull_global(w);
}

/* What announce did to the word. */
enum await_mark {
    AWAIT_OVER,  /* nothing: the count is zero, do not park */
    AWAIT_NAMED, /* the word names this core as its sleeper */
    AWAIT_OTHER, /* another core is named; OTHERS is set */
};

/* Before parking: mark the word as slept on by this core (see the top). */
static enum await_mark announce(_Atomic unsigned long *awaited, unsigned core)
{
    /* relaxed: the CAS below validates it. */
    unsigned long old = atomic_load_explicit(awaited, memory_order_relaxed);
    for (;;) {
        if ((old & HIVE_AWAIT_COUNT_MASK) == 0)
            return AWAIT_OVER;
        bool named = !(old & HIVE_AWAIT_SLEEPING);
        unsigned long want = named ? old | HIVE_AWAIT_SLEEPING |
                                         (unsigned long)core << HIVE_AWAIT_CORE_SHIFT
                                   : old | HIVE_AWAIT_OTHERS;
        /* relaxed (both): only the word's modification order matters here
         * (see the top); what the awaited work wrote is acquired by the
         * count's loads. Where OTHERS is set already (want == old) a load
         * that saw it would do, as only hive_group_init clears it; the CAS
         * all the same keeps one path and the argument at the top as it
         * stands. */
        if (atomic_compare_exchange_weak_explicit(awaited, &old, want, memory_order_relaxed,
                                                  memory_order_relaxed))
            return named ? AWAIT_NAMED : AWAIT_OTHER;
    }
}

/* After the park of the named waiter: no core is named any more. OTHERS
 * stays (see the top). */
static void withdraw(_Atomic unsigned long *awaited)
{
    /* relaxed: only the named waiter clears its bits (SLEEPING and the
     * core), and a completer that still sees them wakes us for nothing. */
    atomic_fetch_and_explicit(awaited, ~(HIVE_AWAIT_SLEEPING | HIVE_AWAIT_CORE_MASK),
                              memory_order_relaxed);
}

unsigned long hive_await_done_unwoken(_Atomic unsigned long *awaited)
{
    /* release: pairs with the waiter's acquire loads of the count
     * (hive_await_count): the work's writes are visible once it is off. */
    unsigned long was = atomic_fetch_sub_explicit(awaited, 1, memory_order_release);
    if ((was & HIVE_AWAIT_COUNT_MASK) != 1 || !(was & (HIVE_AWAIT_OTHERS | HIVE_AWAIT_SLEEPING)))
        return 0;
    return was;
}

void hive_await_done(_Atomic unsigned long *awaited)
{
    hive_await_wake(hive_await_done_unwoken(awaited));
}

void hive_await_wake(unsigned long was)
{
    if (!was)
        return;
    if (was & HIVE_AWAIT_OTHERS) {
        /* Some waiter besides the one named sleeps, or slept, on the word:
         * wake every core - the one named among them - but this one, which
         * runs this task and so is no sleeping waiter. */
        struct hive_worker *self = hive_tls_worker;
        hive_wake_every_core(self ? self->id : HIVE_SCHED_MAX_CORES,
                             HIVE_TRACE_WAKE_AWAITED_ALL);
    } else if (was & HIVE_AWAIT_SLEEPING) {
        unsigned named = (unsigned)((was & HIVE_AWAIT_CORE_MASK) >> HIVE_AWAIT_CORE_SHIFT);
        HIVE_TRACE_EVENT(HIVE_TRACE_WAKE, named, HIVE_TRACE_WAKE_AWAITED);
        hive_port_wake(named);
    }
}

/* A deep wait found nothing for a while: ask each other core that may keep
 * a hold to end it, or that may hold private group tasks to offer them (its
 * backstop check sees the ask: publish.c). A deep wait never parks and so
 * never shows in the idle word, and takes work only from the core that
 * took its join's frame: without the ask, group tasks that core keeps
 * private while it runs on (spinning, say, until they have run) would reach
 * no core (model/heartbeat.pml, -DDEEP_JOIN). Once each HIVE_WAIT_SPIN_NS
 * of nothing, not at every look: the hints share a line with the private
 * mark, which its owner writes at every private push and pop. relaxed
 * (both): hints; the asker asks again each period. */
static void ask_holders(struct hive_worker *w)
{
    for (unsigned v = 0; v < hive_scheduler.workers; v++) {
        struct hive_worker *holder = &hive_workers[v];
        if (v != w->id && (atomic_load_explicit(&holder->hold_keeping, memory_order_relaxed) ||
                           atomic_load_explicit(&holder->private_held, memory_order_relaxed)))
            hive_ask(holder);
    }
}

void hive_wait_for(struct hive_worker *w, _Atomic unsigned long *awaited,
                   struct hive_task *(*help)(struct hive_worker *w, void *ctx), void *ctx)
{
    /* A wait may last: a hold kept here would keep its group's waiters
     * elsewhere waiting with it - this wait's own group's, this task's own
     * count (group.c, "Kept holds"). */
    hive_group_keep_drop(w);
    w->wait_depth++;
    /* Deep if in the lower half of the stack, or nested in a deep wait
     * (join.c, "Waiting"). The stack only grows inside a wait, so the second
     * is the first again; carried in all the same, because the stack bound's
     * induction rests on it, not on where a compiler puts a local. */
    bool outer_deep = w->wait_deep;
    char here;
    w->wait_deep = outer_deep || (uintptr_t)&here < w->deep_below;
    /* The latent frames of the joins this wait is nested in are the best
     * work this core can offer while it waits; and the work the wait runs
     * must share only frames of its own (join.c, "The floor"). */
    struct hive_join_frame *latent_floor = hive_latent_begin_wait(w);
    /* A wait is a scheduling point: while it lasts, the waiting task is not
     * running, and its time starts again when it resumes (watchdog.c). */
    struct hive_watch_mark watch = {0, 0};
    if (w->watch)
        watch = hive_watch_suspend(w->id);
    bool may_park = !w->wait_deep;
    bool polling = false; /* hive_port_poll_begin called (a deep wait) */
    uint64_t fruitless_since = 0; /* 0: the last look found work */
    while (hive_await_count(awaited) != 0) {
        struct hive_task *t = help(w, ctx);
        if (t) {
            if (w->searching)
                hive_stop_searching(w);
            if (polling) {
                /* Busy again: the port may hold checks back again (a
                 * wait inside t polls on its own account). */
                hive_port_poll_end();
                polling = false;
            }
            hive_run_task_nested(w, t);
            fruitless_since = 0;
            continue;
        }
        if (!may_park) {
            /* A deep wait polls. Fruitless for HIVE_WAIT_SPIN_NS, it asks
             * every core that may keep a hold (group.c, "Kept holds") or
             * hold private group tasks (ask_holders): what it waits for may
             * be such a keep's count, or such tasks of the core that took
             * its frame, held by a spawner that runs on without calling
             * hive - which only that core's backstop check ends, once it
             * sees a core parked or asked. So the port runs checks
             * meanwhile as while a core sleeps. */
            uint64_t now = hive_port_now_ns();
            if (!fruitless_since) {
                fruitless_since = now;
            } else if (now - fruitless_since >= HIVE_WAIT_SPIN_NS) {
                ask_holders(w);
                if (!polling) {
                    hive_port_poll_begin();
                    polling = true;
                }
                fruitless_since = now;
            }
            hive_port_cpu_relax();
            continue;
        }
        uint64_t now = hive_port_now_ns();
        if (!fruitless_since)
            fruitless_since = now;
        if (now - fruitless_since < HIVE_WAIT_SPIN_NS) {
            hive_port_cpu_relax();
            continue;
        }
        /* As an idle worker before it parks (find_work.c): become a
         * searcher if the cap allows, and look once more as one. */
        if ((w->searching || hive_start_searching(w)) && (t = help(w, ctx))) {
            hive_stop_searching(w);
            hive_run_task_nested(w, t);
            fruitless_since = 0;
            continue;
        }
        enum await_mark mark = announce(awaited, w->id);
        if (mark != AWAIT_OVER) {
            hive_park_until(w, awaited);
            if (mark == AWAIT_NAMED)
                withdraw(awaited);
        }
        fruitless_since = hive_port_now_ns();
    }
    if (w->searching)
        hive_stop_searching(w); /* our own continuation is the work we found */
    if (polling)
        hive_port_poll_end();
    if (w->watch)
        hive_watch_resume(w->id, watch);
    hive_latent_end_wait(w, latent_floor);
    w->wait_deep = outer_deep;
    w->wait_depth--;
}
