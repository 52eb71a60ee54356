/*
 * hive_group: spawn any number of tasks, then wait for all of them, running
 * other work meanwhile (as hive_join does).
 *
 * Group tasks go to the spawning core's fork-join deque (sched/deque.h), so
 * the waiter pops its own group's tasks newest first and thieves take the
 * oldest. Where that deque is full the spawn runs the task at once, inline
 * (hive_group_spawn goes on doing so until the deque has drained to a
 * quarter: "Full, then a quarter"); hive_group_spawn looks before it claims
 * the header, so such a task costs a call and at most the group's count up
 * and down (mostly not even that: "Kept holds"), not also a claim, a
 * refused push and a give-back.
 *
 * In a run of one worker a group spawn runs its task at once instead, on
 * the spawner's stack, as OpenMP's task may be run: no other core
 * can take a queued task, and this core would run it at the wait at the
 * latest, so queueing buys nothing but its price - four atomic operations
 * (the group's count up and down, the header's claim and give-back), the
 * deque's push and pop and the wait's search: 75 instructions a node of UTS
 * T3 under callgrind, where libgomp, which ran every task of it at once at
 * one thread, had been 3.6% faster. The task runs before the spawn returns
 * instead of at the wait; the rule in hive.h (a group task waits for
 * nothing its spawner does after spawning it), which a full deque needed
 * already, makes both orders alike. Not past the middle of the stack
 * (at_once, below).
 *
 * Private group tasks. At two workers and more, while no core wants work,
 * a group spawn keeps its task private: pushed above the bottom of the
 * spawner's deque, where thieves do not look (deque.h), and not counted in
 * its group one by one. Instead the spawning core holds one count of the
 * group for all of its private tasks of it in a row (a hold: the first such
 * spawn adds one to the group's count, the last such task to finish takes
 * it off), and its own pops take them back with no fence and no CAS. So a
 * group of k tasks that nobody else wants costs its spawner two atomic
 * operations on the group instead of 2k, and k deque pops without the
 * fence: at two workers UTS T1 ran every one of its 4.1 million tasks
 * through the count and the fence while its cores stole 17 times a run.
 * The claim of the header stays: a refused spawn must still be refused.
 *
 * A hold covers its tasks while they are queued and while they run (a task
 * counts down its hold when it returns), so the group's count cannot reach
 * zero before the last of them has finished: a waiter on another core
 * waits as for queued tasks. Holds nest as the spawning tasks do, a stack
 * per core; a spawn joins the top hold when it is of the same group, and
 * takes a new one otherwise (none left: the task is queued as before).
 *
 * When they are offered. Private tasks become stealable - each counted in
 * its group, then with one release store of the deque's bottom and the
 * notify (publish.c) - while some core wants work (the idle word says so,
 * or a waiter that found nothing here asked: hive_private_wanted, since a
 * core in a wait steals without counting as a searcher - in its steal
 * round, or, deep in its stack, where it never parks (and takes work only
 * from the core that took its join's frame), each HIVE_WAIT_SPIN_NS it
 * finds nothing: wait.c, ask_holders) and none is
 * stealable here: the older half, at this core's next group
 * spawn (a full deque's at-once ones included) or pop of its deque; all of
 * them at a push of anything public into the deque (a shared join frame,
 * which must lie above them), at a deep wait that finds nothing of its own
 * above its floor, and at the heartbeat: the backstop's check, once some
 * core is parked or has asked, has the core publish them from its own
 * interrupt (publish.c, "The heartbeat"), so a spawner that runs long or spins
 * without a spawn, pop or wait offers them all the same, within about two
 * backstop periods. A core never parks holding private tasks (its pops take
 * them first; a deep wait, which never parks, publishes those under its
 * floor), and a private task belongs to a core that is running and will pop
 * it: so nothing is lost, and the argument of idle.c is about the same
 * pushes as before, made later.
 *
 * At once while every core is busy. At two workers and more, a group spawn
 * runs its task at once too while no core wants work and this core's deque
 * already holds HIVE_GROUP_QUEUED_ENOUGH tasks (public or private; above
 * the middle of the stack, as at one worker) - and only after a quiet
 * stretch: HIVE_GROUP_QUIET_SPAWNS group spawns of this core since one of
 * them last saw a core wanting work, or since the run began (the idle word
 * says no core wants work until the other workers have started; a run's
 * first spawns, run at once, would keep its first tasks from them).
 * Queued, the task would wait behind those until this core pops it or a
 * thief takes it, and a thief takes the older ones first; run now, it
 * costs a call instead of the claim, the private push and pop, the run
 * through the worker's dispatch and the hold's end. Under callgrind (both
 * cores running), UTS T1 at depth 8 did 3,013 instructions a node at one
 * worker and 3,243 at two, every node queued; 3,135 with this. A two-worker
 * run that does 7.6% more work than a one-worker run cannot be 1.9 times
 * as fast; one that does 4% more can.
 *
 * The stretch is for trees like UTS T3, where other cores want work all
 * the time and a thief mostly finds a leaf: run at once whenever the
 * wanting core had just been fed, the spawner kept only those few queued
 * tasks for it, each a leaf as a rule, and the thief, soon wanting again,
 * found nothing it could see while the spawner ran on inside a task:
 * hundreds of parks a run instead of 2-5, and runs up to 1.8 times as
 * long. Its length: 1024 spawns, while this path opened a hold for each
 * task and so filled the holds in T3's deep chains, after which the tasks
 * queued in public - so T3 ran it only 35,000-77,000 times a run. Once it
 * ran through the keep with no hold (holds_for_busy), T3 ran 1.7 million
 * of its 4.1 million nodes so, with four tasks left for a thief where a
 * deque full then drained to a quarter leaves it 64: 64,000 steal
 * attempts a run against 20,000, and the run 2.3% slower. At 4,096
 * spawns still 45,000 attempts; at 16,384, 16,000-18,000 and the run as
 * fast as before or faster (0.4003-0.4017 s against 0.4017-0.4027,
 * medians of 18-30 runs interleaved). Where cores rarely want work (T1:
 * 10-50 steals a run) the stretch costs some 16,000 queued spawns a run
 * at the start; skynet at two workers, 1.1 million spawns in 8 ms, ran in
 * 8.6 ms against 10.3 before the keep and 7.5 with a stretch of 1024.
 *
 * What it costs: the tasks spawned after it in the spawner's loop wait
 * until it returns, as at one worker; a core that goes idle meanwhile finds
 * the queued ones (the heartbeat offers them), and once it wants work every
 * spawn queues again. This is OpenMP's rule for its task (a runtime may
 * run it undeferred; libgomp does once 64 a thread are queued), and
 * hive.h's rule for group tasks, already needed at one worker and at a
 * full deque, makes both orders alike: a group task waits for nothing its
 * spawner does after spawning it. The task joins this core's hold of g
 * where the top hold is g's, so a waiter of g on another core waits for
 * it as for a queued task: no count of its own while a task of g spawned
 * before it here is still queued or running; otherwise it is counted as
 * a task run past a full deque is (kept_at_once, below): the count this
 * core keeps of g if it does ("Kept holds"), else a new one, kept again
 * once it returns - with no hold and no mark. Where every hold is taken it
 * is queued instead (holds_for_busy says why). A hive_spawn inside it,
 * which puts its child in this core's LIFO slot, has the child moved to
 * the ring when the task returns (hive_lifo_yield): run from the worker
 * loop, its return would have left the child to the loop, but its spawner
 * runs on.
 *
 * Full, then a quarter. Once a hive_group_spawn finds the deque full, its
 * core's hive_group_spawns run their tasks at once until one finds the
 * deque holding fewer than HIVE_GROUP_STOCK_LOW tasks (a quarter of it),
 * not only while it is full - at two workers and more, and above the
 * middle of the stack (deque_stocked; below it only a full deque, where a
 * push would be refused, runs a task at once, as before: a chain of tasks
 * that each spawn the next must queue there, to keep to half the stack).
 * hive_group_spawn_fn's spawns keep to the full deque: its header comes
 * claimed from the pool, and is queued but where a push is refused.
 * Every task queued is either stolen or popped by its owner,
 * and with the line at full itself, each pop made the room that the next
 * spawn filled: the owner's wait pops its node's queued child, which
 * spawns its own first child into the freed slot and the rest at once,
 * and that child's wait pops it in turn - a chain of first children, each
 * paying the claim, the group's count up and down, the push and the pop's
 * fence, queued only to be taken back by the core that queued it. UTS T3
 * at two workers queued 444,000 of its 4.1 million nodes so, for 9,000
 * steals. Drained to a quarter first, it queues 200,000-330,000 (a
 * quarter of the deque still left queued for thieves, 64 tasks - offered
 * as private tasks are, where private), and its two-worker run is 1-3%
 * faster (the Intel host, rounds of 8-12 pairs of a 1- and a 2-worker run
 * interleaved with the code before: median speedups 1.88-1.91 against
 * 1.84-1.88); a line of 8 tasks starved the thief now and then (runs 5-8%
 * longer), 16 and 32 did no better than 64. Nothing is queued longer for
 * it: a task run at once leaves nothing behind.
 *
 * Kept holds. When the last task of a hold was run at once and returns,
 * or a task run at once with no hold returns (past a full deque, or while
 * every core is busy: kept_at_once), its count of
 * the group is not given back: it stays as the core's keep (one at most:
 * hive_worker.hold_keeping and kept_group; the hold itself ends), and the
 * next task of that group run at once or held here takes it over, with no
 * RMW of the group. In a tree whose nodes' children run at once one after
 * another a node's group then costs one RMW each way, not one each way per
 * child: UTS T1 at two workers, nearly every node run so while every core
 * is busy, took 0.481 s with an RMW pair per child against 0.465 s kept
 * (its speedup over one worker 1.85 against 1.91, interleaved); UTS T3 at
 * two workers runs most of its nodes past a full deque, in chains up to
 * 1,572 levels deep - far deeper than the holds, a stack of
 * HIVE_GROUP_HOLDS - and there the keep, which needs no hold, took its
 * two-worker run from 0.425 s to 0.410 (medians of ten interleaved pairs;
 * its speedup 1.80 against 1.87), most of the cost of an RMW pair per node
 * (run uncounted, as an experiment, 0.40-0.42). The keep holds the
 * group's count while its spawner runs on between spawns, so it must end
 * before anything can wait on it, and before anything long:
 *   - any wait (hive_wait_for; the spawner's own wait for the group would
 *     otherwise wait for its own keep), and the end of a task (run_task.c,
 *     hive_run_at_once): a task that spawned and returned holds nothing;
 *   - a task of another group run at once or held here (keep_of): so a
 *     keep is always of the group this core last spawned into so;
 *   - the heartbeat: a spawner that spins or runs long after its spawn,
 *     calling nothing of hive, would keep a waiter of the group on another
 *     core waiting with it - for good, if it spins until that waiter is
 *     done. So a keep (hold_keeping, which other cores read as a hint)
 *     arms the backstop, as a private push does, and the backstop's
 *     check, once a core is parked (a waiter that parks) or has asked this
 *     core for it (a deep waiter, which polls: after HIVE_WAIT_SPIN_NS of
 *     nothing it asks every core whose hint is set, and has the port run
 *     checks as while a core sleeps - wait.c), pokes the core, and the
 *     poke ends the keep (publish.c, hive_sched_poked). The decrement's
 *     wake, which the host's signal handler may not make, is left to the
 *     check (keep_wake). A waiter elsewhere so waits at most about two
 *     backstop periods after it went to sleep or began to ask.
 * A keep ends with a release RMW of g's count that wakes g's sleepers, as
 * a task's end would (keep_off). The keep is the core's own, as its holds
 * are: taken, begun and ended under the private mark, or by the interrupt
 * outside one - except where a task runs at once with no hold
 * (kept_at_once), which takes and begins it outside the mark in an
 * order the interrupt cannot cut wrongly (keep_take, keep_begin).
 *
 * Group tasks are not counted in hive_scheduler.outstanding (neither are join
 * halves): a group is waited for by a task of the same run, which is counted
 * and cannot finish before its wait returns, so the run cannot end while the
 * group has tasks. Counting them would put a shared atomic on every group
 * spawn (measured: 40 -> 66-113 ns per task at 2-4 cores in a group-per-call
 * fib). The price is the documented rule: wait for a group within the run.
 */
#include "sched/sched_internal.h"
#include "sched/sched.h"

void hive_group_init(struct hive_group *g)
{
    atomic_init(&g->pending, 0);
}

void hive_group_task_done(struct hive_group *g)
{
    /* Releases the task's writes to the waiters, and wakes those that sleep.
     * After this the group may be gone (its wait returned): the last access. */
    hive_await_done(&g->pending);
}

/* At once (the top): at one worker, and with the stack above its middle.
 * Below it the task is queued instead, and a wait higher up, or the worker
 * loop, runs it: so a chain of tasks that each spawn the next, or a task
 * that spawns itself again, keeps to half the stack (as hive_spawn_or_run
 * does), where running each inside the last would take a frame a link.
 * here: an address in the spawner's frame. */
static inline bool at_once(const struct hive_worker *w, const char *here)
{
    return w->queues.forkjoin.solo && (uintptr_t)here >= w->deep_below;
}

/* A hold whose last task is done ends: the stack sheds its ended holds
 * from the top. Holds end out of order only where a wait popped an older
 * hold's task inside a newer one's: the stack shrinks once its top ends. */
static void holds_shed_ended(struct hive_worker *w)
{
    /* relaxed (both): holds_used is this core's, as private_busy. */
    unsigned used = atomic_load_explicit(&w->holds_used, memory_order_relaxed);
    while (used && w->holds[used - 1].tasks == 0)
        used--;
    atomic_store_explicit(&w->holds_used, used, memory_order_relaxed);
}

/* A hold's task is done (one of its count's tasks): the hold ends once it
 * has none, and so does its count of the group. Returns what that
 * decrement owes (hive_await_done_unwoken: the caller wakes), else 0.
 * Under the private mark, or from the core's interrupt outside one. */
static unsigned long hold_task_done(struct hive_worker *w, unsigned hold)
{
    struct hive_group_hold *h = &w->holds[hold];
    if (--h->tasks)
        return 0;
    struct hive_group *g = h->group;
    holds_shed_ended(w);
    /* The last access to g: a release RMW. */
    return hive_await_done_unwoken(&g->pending);
}

/* This core is about to hold private tasks or keep a count, which the
 * heartbeat's poke must be able to offer or end: the run's first such
 * spawn here tells the port that the poke must reach it from now on
 * (sched/port.h; on the host the thread that called hive_run may block
 * SIGURG until then). Outside the private mark: a poke held back until now
 * may be taken at once. */
static inline void pokes_needed(struct hive_worker *w)
{
    if (!w->poke_ready) {
        hive_port_poke_ready();
        w->poke_ready = true;
    }
}

/* The keep ends (see "Kept holds"): its count of the group goes, and what
 * that decrement owes is returned (hive_await_done_unwoken: the caller
 * wakes). Under the mark, or from the interrupt outside one. kept_group is
 * cleared with the flag, not left to go stale: keep_take, which reads it
 * after clearing the flag itself, must find NULL where the interrupt has
 * ended the keep. relaxed: this core's own flag, as private_busy; what
 * other cores read of it is a hint (the check's look pairs through its
 * fence: keep_begin). */
static unsigned long keep_off(struct hive_worker *w)
{
    atomic_store_explicit(&w->hold_keeping, 0, memory_order_relaxed);
    struct hive_group *g = atomic_load_explicit(&w->kept_group, memory_order_relaxed);
    atomic_store_explicit(&w->kept_group, NULL, memory_order_relaxed);
    /* The last access to g: a release RMW, as a task's end. */
    return hive_await_done_unwoken(&g->pending);
}

/* A count of g that this core has just finished with (a task of g run at
 * once returned) stays as the keep, if none is kept: true if it did.
 * Under the mark, or outside it (kept_at_once): kept_group is
 * stored before the flag, and the interrupt ends only a keep whose flag it
 * sees - so it finds the group there, and before the flag's store it
 * leaves both alone. relaxed (all): this core's own flag, which the
 * backstop's check also reads as it reads private_held: the store before
 * the arming's load of backstop_armed pairs with the check's clear of that
 * flag and its fence before its look (publish.c, "The heartbeat") - the
 * check's fence (hive_port_backstop_fence) is what orders this core's
 * store and load at the hardware, and the signal fence between them
 * keeps the compiler from swapping them. */
static inline bool keep_begin(struct hive_worker *w, struct hive_group *g)
{
    if (atomic_load_explicit(&w->hold_keeping, memory_order_relaxed))
        return false;
    atomic_store_explicit(&w->kept_group, g, memory_order_relaxed);
    atomic_signal_fence(memory_order_seq_cst); /* the group before the flag */
    atomic_store_explicit(&w->hold_keeping, 1, memory_order_relaxed);
    atomic_signal_fence(memory_order_seq_cst); /* the flag before the arm's look */
    hive_backstop_arm(w);
    return true;
}

/* The keep taken outside the mark, its count now the caller's: the group
 * it was of, or NULL if none was kept (or the interrupt has just ended
 * it). The flag's store comes first: from then on the interrupt leaves the
 * keep alone, so kept_group, read after it, is this core's - NULL where
 * the interrupt ended the keep between the look and the store (keep_off
 * clears it). So kept_at_once takes no mark: two marks a task,
 * each two loads and two stores of private_busy, a look at private_asked
 * and three signal fences (which make the compiler load again what it
 * held), were a fifth of that path's cost at two workers. relaxed: as
 * keep_off. */
static inline struct hive_group *keep_take(struct hive_worker *w)
{
    if (!atomic_load_explicit(&w->hold_keeping, memory_order_relaxed))
        return NULL;
    atomic_store_explicit(&w->hold_keeping, 0, memory_order_relaxed);
    atomic_signal_fence(memory_order_seq_cst); /* the flag before the look */
    struct hive_group *kept = atomic_load_explicit(&w->kept_group, memory_order_relaxed);
    atomic_store_explicit(&w->kept_group, NULL, memory_order_relaxed);
    return kept;
}

/* A task of g is about to run at once or be held here: a keep of another
 * group ends (so a keep is only ever of the group this core spawns into
 * last); true if g's count is kept here. Under the mark. relaxed: as
 * keep_off. */
static inline bool keep_of(struct hive_worker *w, struct hive_group *g)
{
    if (!atomic_load_explicit(&w->hold_keeping, memory_order_relaxed))
        return false;
    if (atomic_load_explicit(&w->kept_group, memory_order_relaxed) == g)
        return true;
    hive_await_wake(keep_off(w));
    return false;
}

/* A count of g for a task about to run at once here, or for a new hold of
 * g: the keep's if keep_of found g's kept (no RMW), else a new one. Under
 * the mark. relaxed (the flag): as keep_off; (the count) as a queued task's
 * (group_push): it has to be there before the task can finish, which runs
 * on this core or is published by a release, and every later RMW of the
 * count orders after it. */
static void count_of(struct hive_worker *w, struct hive_group *g, bool kept)
{
    if (kept) {
        atomic_store_explicit(&w->hold_keeping, 0, memory_order_relaxed);
        atomic_store_explicit(&w->kept_group, NULL, memory_order_relaxed);
    } else {
        atomic_fetch_add_explicit(&g->pending, 1, memory_order_relaxed);
    }
}

unsigned long hive_group_keep_poked(struct hive_worker *w)
{
    /* relaxed: this core's own flag, in an interrupt of it. */
    return atomic_load_explicit(&w->hold_keeping, memory_order_relaxed) ? keep_off(w) : 0;
}

void hive_group_keep_end(struct hive_worker *w)
{
    hive_private_enter(w);
    /* Again under the mark: the interrupt may have ended it. relaxed: as
     * keep_off. (A deep waiter's ask for it is answered by the next check,
     * which finds nothing held: publish.c.) */
    if (atomic_load_explicit(&w->hold_keeping, memory_order_relaxed))
        hive_await_wake(keep_off(w));
    hive_private_leave(w);
}

/* The hold a private task of g joins: the top one if it holds g, else a new
 * one, whose count of g is the keep's if it keeps g, else a new one; -1 if
 * none is left. Under the mark. */
static int hold_for(struct hive_worker *w, struct hive_group *g)
{
    bool kept = keep_of(w, g);
    /* relaxed (and the store below): this core's, under the mark. */
    unsigned used = atomic_load_explicit(&w->holds_used, memory_order_relaxed);
    if (used && w->holds[used - 1].group == g) {
        w->holds[used - 1].tasks++;
        return (int)(used - 1);
    }
    if (used == HIVE_GROUP_HOLDS)
        return -1;
    count_of(w, g, kept);
    w->holds[used] = (struct hive_group_hold){.group = g, .tasks = 1};
    atomic_store_explicit(&w->holds_used, used + 1, memory_order_relaxed);
    return (int)used;
}

/* hive_private_wanted, noted: the quiet stretch starts again. */
static inline bool wanted_here(struct hive_worker *w)
{
    if (!hive_private_wanted(w))
        return false;
    w->wanted_seen_at = w->group_spawns;
    return true;
}

/* At once while every core is busy (the top): at two workers and more (the
 * caller looks at solo), with the stack above its middle, at least
 * HIVE_GROUP_QUEUED_ENOUGH tasks queued here for a thief, and no core
 * wanting work (the idle word, as push_private reads it), now or at this
 * core's last HIVE_GROUP_QUIET_SPAWNS group spawns. */
static inline bool busy_at_once(struct hive_worker *w, const char *here)
{
    return (uintptr_t)here >= w->deep_below &&
           hive_deque_owned(&w->queues.forkjoin) >= HIVE_GROUP_QUEUED_ENOUGH &&
           !wanted_here(w) && w->group_spawns - w->wanted_seen_at >= HIVE_GROUP_QUIET_SPAWNS;
}

/* The hold a task run at once joins (hold_for), taken under the private
 * mark: the heartbeat's publish (publish.c) ends holds' tasks from this
 * core's interrupt. -1 if none is left. */
static int hold_at_once(struct hive_worker *w, struct hive_group *g)
{
    hive_private_enter(w);
    int hold = hold_for(w, g);
    hive_private_leave(w);
    return hold;
}

void hive_group_hold_done(struct hive_worker *w, unsigned hold)
{
    /* The wake under the mark, as a queued group task's end wakes: the
     * interrupt only publishes or ends a keep meanwhile. */
    hive_await_wake(hold_task_done(w, hold));
}

/* A task run at once through hold (the top, as hold_at_once left it,
 * unless a wait inside the task left holds above it) returned: if it was
 * the hold's last task, the hold ends and its count of the group becomes
 * the keep, so the group's next task run at once or held here costs no RMW
 * of it (see "Kept holds"); else the task is done. Under the mark. (The
 * task's end gave back any keep of its own: none is kept here now.) */
static void at_once_done(struct hive_worker *w, unsigned hold)
{
    struct hive_group_hold *h = &w->holds[hold];
    /* relaxed: holds_used is this core's, read under the mark. */
    if (h->tasks == 1 && hold + 1 == atomic_load_explicit(&w->holds_used, memory_order_relaxed) &&
        keep_begin(w, h->group)) {
        /* The hold's last task: its count is the keep's now, and the hold
         * ends with no RMW. */
        h->tasks = 0;
        holds_shed_ended(w);
        return;
    }
    hive_group_hold_done(w, hold);
}

void hive_group_task_count(struct hive_worker *w, struct hive_task *t)
{
    /* relaxed: the publish's release store of bottom orders it before any
     * thief can run t; and it comes before the hold's decrement below in
     * the count's modification order (both are RMWs of this core's), so
     * the count never passes through zero. */
    atomic_fetch_add_explicit(&t->group->pending, 1, memory_order_relaxed);
    t->kind = HIVE_TASK_GROUP;
    hive_group_hold_done(w, t->chunk_len);
}

/* Queue t privately (see "Private group tasks"): true if it was. */
static bool push_private(struct hive_worker *w, struct hive_group *g, struct hive_task *t)
{
    struct hive_deque *d = &w->queues.forkjoin;
    if (d->solo)
        return false;
    bool wanted = wanted_here(w);
    if (wanted && !hive_deque_private_len(d)) {
        hive_work_asked_answered(w); /* queued public: what the asker wants */
        return false;
    }
    pokes_needed(w);
    hive_private_enter(w);
    int hold = hold_for(w, g);
    if (hold < 0) {
        hive_private_leave(w);
        return false;
    }
    t->kind = HIVE_TASK_GROUP_HELD;
    t->chunk_len = (unsigned char)hold;
    HIVE_TRACE_EVENT(HIVE_TRACE_SPAWN, t, HIVE_TRACE_AT_FORKJOIN);
    struct hive_task *refused = hive_deque_push_private(&w->queues.forkjoin, t);
    /* relaxed: a hint for the backstop's check, which pairs with the arming
     * below through its fence (publish.c, "The heartbeat"). */
    if (!refused && !atomic_load_explicit(&w->private_held, memory_order_relaxed))
        atomic_store_explicit(&w->private_held, true, memory_order_relaxed);
    hive_private_leave(w);
    if (refused) {
        /* Full: run it now, as a refused push is (group_push). */
        hive_run_task_at_once(w, t);
        return true;
    }
    w->stats.spawned++;
    /* Some core wants work and finds none here: offer the older half. The
     * rest, or all, the heartbeat offers should this task run long without
     * a spawn, pop or wait (publish.c). */
    if (wanted && !hive_deque_len(d))
        hive_publish_oldest_private(w);
    hive_backstop_arm(w);
    return true;
}

static void group_push(struct hive_worker *w, struct hive_group *g, struct hive_task *t)
{
    char here;
    t->group = g;
    if (!at_once(w, &here) && push_private(w, g, t))
        return;
    t->kind = HIVE_TASK_GROUP;
    /* relaxed: the count only has to be there before the task can finish,
     * which the deque push (release) orders. */
    atomic_fetch_add_explicit(&g->pending, 1, memory_order_relaxed);
    if (at_once(w, &here)) {
        HIVE_TRACE_EVENT(HIVE_TRACE_SPAWN, t, HIVE_TRACE_AT_ONCE);
    } else if (!hive_publish_forkjoin(w, t)) {
        w->stats.spawned++;
        return;
    }
    /* At once (the top), or a full deque (whose refused push the trace
     * has as a spawn to it; mostly hive_group_spawn_fn's, as
     * hive_group_spawn looks for one first - unless its header was still
     * queued then and ran before its claim): now, as hive_run_at_once
     * would, but through the count, as t's header is claimed. */
    hive_run_task_at_once(w, t);
}

/* A task of g run at once with no hold, counted in g: past a full deque
 * ("Full, then a quarter"), or while every core is busy where the top hold
 * is not g's (holds_for_busy). Its count is the keep's if this
 * core keeps g, else a new one (a keep of another group ends, as keep_of's
 * does); once fn returns it stays as the keep ("Kept holds"), which the
 * group's next task run at once here takes: a chain of such spawns too
 * deep for the holds (UTS T3 at 2 workers: up to 1,572 levels, each
 * spawning into its own group) pays one RMW each way per group, not per
 * task. No mark: keep_take, keep_begin. relaxed (the count): the decrement
 * after fn (a release RMW, later in the count's modification order) is
 * what a waiter's acquire load pairs with. */
static inline void kept_at_once(struct hive_worker *w, struct hive_group *g,
                                struct hive_task *task, void (*fn)(struct hive_task *task))
{
    pokes_needed(w);
    struct hive_group *kept = keep_take(w);
    if (kept != g) {
        atomic_fetch_add_explicit(&g->pending, 1, memory_order_relaxed);
        if (kept)
            hive_group_task_done(kept);
    }
    hive_run_at_once_yielding(w, task, fn);
    if (!keep_begin(w, g))
        hive_group_task_done(g);
}

/* Does a group spawn here run its task at once for a full deque: where the
 * deque is full, and from then until a spawn finds it under
 * HIVE_GROUP_STOCK_LOW ("Full, then a quarter") - but past full only where
 * the stock is for thieves (not in a run of one worker) and above the
 * middle of the stack: below it a push that is not refused must queue, so
 * that a chain of tasks that each spawn the next keeps to half the stack
 * (at_once). One look at the deque, a hint as hive_deque_full's. */
static inline bool deque_stocked(struct hive_worker *w, const char *here)
{
    uint32_t queued = hive_deque_owned(&w->queues.forkjoin);
    if (queued == HIVE_DEQUE_CAP) /* full */
        return w->deque_stocked = true;
    if (queued < HIVE_GROUP_STOCK_LOW)
        w->deque_stocked = false;
    return w->deque_stocked && !w->queues.forkjoin.solo && (uintptr_t)here >= w->deep_below;
}

/* Does the busy path (busy_at_once) take a hold: where the top hold is g's,
 * whose count covers the task with no RMW and no keep - or where every
 * hold is taken, so that hold_at_once fails and the task is queued. Else
 * the task runs as past a full deque (kept_at_once): the hold it would
 * open alone is the keep's count moved into a hold and back, under the
 * mark twice, where the keep alone needs neither (UTS T1 at two workers,
 * nearly every node so, under callgrind: 149 instructions a node more
 * than at one worker, 72 with this; the 2-worker run 1.8-3.4% faster).
 * Queued where every hold is taken: a chain deeper than the holds (UTS
 * T3's) feeds the thief from there, and run at once it starved it -
 * 86,000-158,000 steal attempts a run against 16,000-60,000, the run 4%
 * slower. A look outside the mark, a hint:
 * the interrupt only sheds ended holds, and hold_at_once looks again
 * under it. relaxed: holds_used is this core's (its interrupt's too). */
static inline bool holds_for_busy(struct hive_worker *w, struct hive_group *g)
{
    unsigned used = atomic_load_explicit(&w->holds_used, memory_order_relaxed);
    return used == HIVE_GROUP_HOLDS || (used && w->holds[used - 1].group == g);
}

int hive_group_spawn(struct hive_group *g, struct hive_task *task,
                     void (*fn)(struct hive_task *task))
{
    if (!g || !task || !fn)
        return HIVE_EINVAL;
    struct hive_worker *w = hive_self();
    if (!w)
        return HIVE_ESTATE;
    /* It may run the task at once (one worker, every core busy, or a full
     * deque - until it drains to a quarter). */
    HIVE_CHECK_MAY_BLOCK(w->spin_held_at_start);
    w->group_spawns++;
    /* At once, with the header untouched, unless it is still queued - then
     * the claim below refuses it: at the top of the stack in a run of one
     * worker, or where the deque is full, or was and has not yet drained
     * to a quarter (deque_stocked).
     * acquire: pairs with the release store or exchange of IDLE by the
     * task's last run (run_task.c), give-back (spawn.c) or drop at a run's
     * end (run.c), as the claim's CAS does. */
    char here;
    bool solo = at_once(w, &here);
    bool kept; /* run at once through the keep: kept_at_once, once below */
    if ((solo || deque_stocked(w, &here)) &&
        atomic_load_explicit(&task->state, memory_order_acquire) == HIVE_TASK_IDLE) {
        if (solo) {
            /* Uncounted too: the only other waiters of g are tasks below
             * this one on this core's stack, which cannot resume before fn
             * has returned. */
            hive_run_at_once(w, task, fn);
            return HIVE_OK;
        }
        /* Not one of the quiet stretch's spawns (busy_at_once): it does
         * not look whether a core wants work - a look per spawn, at a line
         * other cores write, cost T3 about 1% at two workers - and the
         * stretch must not count a draining deque's spawns as quiet while
         * a thief may have wanted work all along. It looks only where a
         * deque of private tasks may have to offer some, as a private
         * spawn would (push_private). */
        w->wanted_seen_at++;
        struct hive_deque *d = &w->queues.forkjoin;
        if (hive_deque_private_len(d) && !hive_deque_len(d) && wanted_here(w))
            hive_publish_oldest_private(w);
        /* Counted: a task of another core may wait for g meanwhile, and must
         * not see its count reach zero while fn runs. relaxed: the decrement
         * after fn (a release RMW, later in the count's modification order)
         * is what a waiter's acquire load pairs with. Without the claim and
         * the give-back (the task is never queued, so no spawn of it can be
         * refused as still queued: its run has started, as hive.h puts it)
         * and the refused push, where a full deque paid all three and then
         * ran the task all the same: a group that spawns past the deque's
         * room (UTS T3's root, 2,000 children: most of its 4 million nodes
         * at 2 workers) runs all but the first 256 so. */
        if (d->solo) {
            /* One worker, in the lower half of the stack: no keep, which
             * only another core's waiter could need. */
            atomic_fetch_add_explicit(&g->pending, 1, memory_order_relaxed);
            hive_run_at_once_yielding(w, task, fn);
            hive_group_task_done(g);
            return HIVE_OK;
        }
        kept = true;
    } else {
        /* At once while every core is busy (the top), the header untouched
         * as above: through the top hold where it is g's, else as past a
         * full deque - or queued where every hold is taken
         * (holds_for_busy). */
        kept = !solo && busy_at_once(w, &here) &&
               atomic_load_explicit(&task->state, memory_order_acquire) == HIVE_TASK_IDLE;
        if (kept && holds_for_busy(w, g)) {
            pokes_needed(w); /* its count may become the keep */
            int hold = hold_at_once(w, g);
            if (hold >= 0) {
                hive_run_at_once_yielding(w, task, fn);
                hive_private_enter(w);
                at_once_done(w, (unsigned)hold);
                hive_private_leave(w);
                return HIVE_OK;
            }
            kept = false; /* every hold taken: queued */
        }
    }
    if (kept) {
        kept_at_once(w, g, task, fn);
        return HIVE_OK;
    }
    int err = hive_spawn_claim(task, fn);
    if (err != HIVE_OK)
        return err;
    group_push(w, g, task);
    return HIVE_OK;
}

int hive_group_spawn_fn(struct hive_group *g, void (*fn)(void *arg), void *arg)
{
    if (!g || !fn)
        return HIVE_EINVAL;
    struct hive_worker *w = hive_self();
    if (!w)
        return HIVE_ESTATE;
    HIVE_CHECK_MAY_BLOCK(w->spin_held_at_start); /* as hive_group_spawn's */
    w->group_spawns++;
    struct hive_task *t = hive_pool_get(fn, arg);
    if (!t)
        return HIVE_ENOMEM;
    char here;
    int hold;
    if (!w->queues.forkjoin.solo && busy_at_once(w, &here) && (hold = hold_at_once(w, g)) >= 0) {
        /* At once while every core is busy, as hive_group_spawn's (which
         * looks before its claim; this header is claimed from the pool):
         * run through a hold - joined, or opened alone where
         * hive_group_spawn's would take the keep (kept_at_once) - as a
         * private task is: its end is a hold's task's (run_task.c). */
        t->group = g;
        t->kind = HIVE_TASK_GROUP_HELD;
        t->chunk_len = (unsigned char)hold;
        HIVE_TRACE_EVENT(HIVE_TRACE_SPAWN, t, HIVE_TRACE_AT_ONCE);
        hive_run_task_at_once(w, t);
        return HIVE_OK;
    }
    group_push(w, g, t);
    return HIVE_OK;
}

/*
 * A deep wait found nothing at or above its floor. If the newest entry under
 * it is a task of g - spawned by a frame below us on this stack, e.g. by the
 * parent of the task that is waiting - take it: it is the very work we wait
 * for, and a wait that only spun could wait forever when the other cores are
 * deep in waits of their own. Anything else goes back, under the floor. The
 * pop makes the task ours alone (thieves lose the CAS on top for it), so
 * reading its header is safe; the push back cannot find the deque full, the
 * pop just freed a slot; meanwhile the entry was only invisible to thieves.
 * The push back lands where the entry was unless it was the deque's last:
 * the pop of a last entry settles the race with thieves by moving top past
 * it, so the push lands one index up - maybe at this task's floor, or at a
 * floor of a task under it on this stack (or a shared frame's index there)
 * that was recorded while the entry lay just under it. A deep wait of that
 * task (or that frame's join) would then take it for its own work and run
 * it nested, against the stack bound (join.c). So the worker records the
 * move (moved_from, moved_to), and every floor and frame index in
 * (moved_from, moved_to] reads as moved_to + 1 (hive_forkjoin_limit): which
 * hides nothing of theirs, because no entry lies at an index up to
 * moved_to but the moved one - the pop left the deque empty with top at
 * moved_to, and what is pushed since lands above it, for good (top only
 * rises, and the entry, the oldest, leaves by moving top past it). Floors
 * at or under moved_from saw the entry above them before it moved, so it
 * stays theirs. The record is forgotten once the entry has left, and at
 * each tick of the worker loop (no floor is recorded there). So at several
 * workers a task of g under another group's entry
 * is left to the thieves, which take the oldest first; in a run of one
 * worker, which has none, the wait takes g's newest task wherever it lies
 * in the deque (hive_deque_take_solo).
 */
static struct hive_task *own_task_under_floor(struct hive_worker *w, struct hive_group *g)
{
    struct hive_deque *d = &w->queues.forkjoin;
    if (!hive_deque_owned(d))
        return NULL;
    if (d->solo) {
        /* One worker: no thief will take g's task from under another
         * group's entry, and the newest-only look below would find that
         * entry again at every look, for good (a task P spawns G1 into g,
         * H2 into h, then Q, whose deep wait for g finds H2). No other core
         * takes from this deque, so take g's newest task wherever it lies,
         * under other groups' tasks or under join frames: still only the
         * very work this wait waits for. Every other entry keeps its index
         * (the take leaves a hole), so the frames' joiners find them, and
         * the floors of the tasks on this stack still part the deque as
         * they did. */
        uint32_t top = hive_deque_top_solo(d);
        for (uint32_t i = hive_deque_bottom(d); i != top;) {
            struct hive_task *t = hive_deque_at(d, --i);
            if (t != &hive_deque_hole && hive_task_is_group(t->kind) && t->group == g)
                return hive_deque_take_solo(d, i);
        }
        return NULL;
    }
    uint32_t was = hive_deque_bottom(d) - 1u; /* the newest entry's index */
    struct hive_task *t = hive_forkjoin_pop(w);
    if (t && t->group != g) {
        /* The push back is a new enqueue (idle.c, rule 1): while the entry
         * was out, the rescan of a parking worker may have found this deque
         * empty and parked, and nobody else would look for it. */
        (void)hive_publish_forkjoin(w, t);
        uint32_t now = hive_deque_bottom(d) - 1u;
        if (now != was) {
            /* Moved up (it was the last): an entry further up again, the
             * same one, widens the record; another starts it anew - by
             * then the first has left and no entry lies at its index or
             * under it, so nothing is left there to hide. */
            if (w->moved_from == w->moved_to || w->moved_to != was)
                w->moved_from = was;
            w->moved_to = now;
        }
        t = NULL;
    }
    return t;
}

/* What a group's waiter may run meanwhile (wait.c). */
static struct hive_task *help_group_waiter(struct hive_worker *w, void *group)
{
    struct hive_group *g = group;
    bool deep = w->wait_deep;
    /* Our own deque first: this group's tasks are most likely there. Deep,
     * hive_wait_find_work pops it, but only down to the running task's floor
     * (join.c, "Waiting") - where this group's tasks are when the waiting
     * task spawned them, the usual case. */
    struct hive_task *t = NULL;
    if (!deep && hive_deque_owned(&w->queues.forkjoin))
        t = hive_forkjoin_pop(w);
    if (!t)
        t = hive_wait_find_work(w, -1);
    if (!t && deep)
        t = own_task_under_floor(w, g);
    return t;
}

int hive_group_wait(struct hive_group *g)
{
    if (!g)
        return HIVE_EINVAL;
    struct hive_worker *w = hive_self();
    if (!w)
        return HIVE_ESTATE;
    HIVE_CHECK_MAY_BLOCK(w->spin_held_at_start);
    /* A wait ends this core's keep first (hive_wait_for, and "Kept holds"
     * above), here before the look below: past a full deque or while
     * every core is busy, g's last task run at once leaves g's count kept,
     * and the look would find the wait's own keep. */
    hive_group_keep_drop(w);
    /* Every task of g has finished already - at one worker, high on the
     * stack, where a group spawn runs its task at once, and wherever all of
     * them ran at once: no wait, and none of what a wait does for its time
     * (the latent frames' offer and floor): 58 instructions a wait, 15 a
     * node of UTS T3 at one worker. Still a scheduling point for the
     * watchdog, as hive.h promises every group wait: the task's time
     * starts again (a task that waits on an empty group to say it is
     * alive relies on it). acquire: pairs with the release decrements of
     * g's tasks' ends (hive_await_done) and keeps' (keep_off), so what g's
     * tasks wrote is visible, as after a wait - reading the keep's
     * decrement just made here too: an RMW continues the release
     * sequences of those before it. */
    if (hive_await_count(&g->pending) == 0) {
        if (w->watch)
            hive_watch_restart(w->id);
        return HIVE_OK;
    }
    HIVE_TRACE_EVENT(HIVE_TRACE_WAIT, &g->pending, 1);
    hive_wait_for(w, &g->pending, help_group_waiter, g);
    HIVE_TRACE_EVENT(HIVE_TRACE_WAIT_END, &g->pending, 0);
    return HIVE_OK;
}
