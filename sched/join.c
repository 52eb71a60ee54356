/*
 * Fork-join without stackful threads: hive_join (hive_parallel_for, in
 * parallel_for.c, is built on it).
 *
 * Design: a join's second half starts latent - private to its core - and is
 * made stealable (shared) only when some core wants work ("Latent frames"
 * below). Shared join work goes to a second per-core queue, a classic
 * Chase-Lev deque (sched/deque.h), beside the FIFO ring that hive_spawn uses:
 * the frame for fb is pushed at the deque's bottom, and when fa returns the
 * joiner pops the bottom: the LIFO pop gives the newest task - our frame,
 * unless a thief took it from the top. The dual-head ring cannot give
 * the newest task back cheaply: an owner pop at its tail would race with batch
 * steals (a thief holding a stale tail can claim an index the owner already
 * popped) unless every owner pop CASes, so the ring stays FIFO for spawns and
 * fork-join gets the deque, whose top (the oldest frame, the largest piece of
 * the tree) is exactly what a thief should take. A full deque hands the frame
 * back and fb runs inline (the Cilk overflow rule).
 *
 * The frame lives on the joiner's stack. Its task header is of kind
 * HIVE_TASK_JOIN_FRAME, so a thief that takes it runs it through
 * hive_join_frame_run (run_task.c), which records who the thief is (for
 * leapfrogging), calls fb and counts the frame's `remaining` down to zero
 * (hive_await_done, wait.c: a release RMW, which also wakes the joiner if it
 * sleeps) as its very last access to the frame.
 *
 * Waiting for a stolen fb (hive_group_wait waits the same way, group.c; the
 * loop, and how a waiter that finds nothing parks, are in wait.c): the
 * joiner runs other work meanwhile (never an idle spin while work exists that
 * it may run). While the wait's frame lies in the upper half of the stack
 * the core's worker loop began with (w->deep_below, from the port's
 * hive_port_stack_room), anything: what is left in the thief's deque first,
 * then its own queues, steals, the global queue - however many waits are
 * nested there, as in TBB. Waits in the lower half - deep ones - run only
 * two kinds of work, which bounds the stack (the kernel's per-core stacks
 * are 32 KiB on the boards):
 *   - leapfrogging: tasks from the deque of the core that took our fb - parts
 *     of fb, so running them cannot grow our stack beyond fb's own depth;
 *   - this core's own deque, popped down to w->forkjoin_floor and no lower: the
 *     bottom index when the innermost task this core is running began
 *     (run_task.c records it). For a join wait the deque is empty
 *     when the wait begins (our frame was stolen, and thieves take the oldest
 *     first, so everything below it went before it), so these are exactly the
 *     entries pushed during the wait, by work the wait itself ran: TBB's rule.
 *
 * Why the own deque: a task leapfrogged inside a deep wait may spawn into a
 * group and return without waiting (a group need only be waited for within
 * the run). Its group task then sits in our deque above our wait. The group's
 * waiter, if it is on another core and deep too, cannot take it (a deep wait
 * steals only from the core running its fb); and if our wait depends on that
 * group (the task we wait for is its waiter) and every other core is deep as
 * well, nobody else can. Waits that only leapfrogged hung there
 * (tests/host/sched_workloads.h, deep_wait_runs_own_deque, builds it at 2
 * cores).
 *
 * The stack bound, with the own deque. Let T be a task running on this core
 * that hosts a deep wait. A wait nested in a deep one is deep (its frame is
 * further down the stack, and hive_wait_for carries the outer wait's verdict
 * in as well), so every wait in T's extent is deep, and by induction on the
 * nesting everything run inside T's extent is a descendant of T in the task
 * tree: leapfrogged parts of an fb of T's, or own entries at or above T's
 * floor. Those were pushed inside T's extent: pushes go to the bottom, and
 * the bottom never drops below the floor there, because every pop inside T's
 * extent stops at a floor of its own (a deep wait's at its task's floor,
 * hive_join's loop below at its own frame) and a floor is never below the one
 * it is nested in. So the tasks nested on a core's stack follow a path down
 * the task tree below the stack's middle (arbitrary work nests only above
 * it): the stack is bounded by half of it plus the tree's depth times the
 * largest task frame plus a wait, whatever the number of tasks. An earlier
 * rule counted waits instead (any work at most two waits deep): it bounded
 * nothing on its own - three levels of big tasks can fill 32 KiB - and it
 * kept a core whose waits nest deeper from the other cores' work: on UTS's
 * binomial tree T3, whose waits nest up to 1,572 deep, the second core idled
 * in them (bench/README.md). Popping the whole deque instead (as deep group
 * waits used to) could nest a group's tasks one inside another's wait: a
 * stack as deep as the group is wide. The one exception, in group.c: a deep
 * group wait may run a task of its own group found under the floor - the
 * newest entry there, or in a run of one worker the group's newest task
 * wherever it lies - the very work it waits for, where a serial run of the
 * group would run it too. To look at that entry it pops it, and puts back
 * what is not its group's; the deque's last entry comes back one index up,
 * maybe at a floor (or a shared frame's index) recorded on this stack while
 * it lay just under it - so each floor and index is read through
 * hive_forkjoin_limit, which keeps such an entry under it (group.c, before
 * own_task_under_floor).
 *
 * Latent frames. Offering every fb to thieves costs two full fences per
 * join (the deque pop's, and the notify's that rule 1 of idle.c needs after
 * any push), paid even when every core is busy and nobody could take it - at
 * fib's grain, most of a join's time. So a join first only links its frame
 * onto the core's latent list (w->latent: plain stores, owner-only). Only
 * when some core wants work - one searching or parked, which the idle word
 * says - is a frame shared: pushed to the deque and published with the
 * whole protocol (hive_publish_forkjoin: the notify, and its backstop). Which frame: the
 * OLDEST latent one this core may share, the biggest piece of work on its
 * stack, and only when the deque holds nothing a thief could take. When fa
 * returns, a frame still latent is run inline with no atomic at all; a
 * shared one takes the deque path above.
 *
 * Who looks at the idle word: not the inline join. A core that starts to
 * want work closes the inline path's gate on every other core
 * (hive_latent_want, latent_gate.c), so their next join comes out of line,
 * here, and shares; while the word says some core wants work the gate stays
 * closed and every join comes here, as every join looked at the word
 * before. latent_gate.c says why no such close is missed.
 *
 * Why nothing is lost: a latent frame is never queued work. It is part of a
 * running task, whose core runs it when fa returns, so the idle protocol's
 * argument (idle.c: no queued task waits while every core parks) is about
 * exactly the same pushes as before, each followed by its notify. What a
 * latent frame can cost is parallelism: it becomes stealable at the next
 * join this core makes after some core started to want work (or when this
 * core enters a wait that has something to wait for, below), not at once -
 * a join whose fa is one long leaf keeps its fb private for that leaf's
 * length. That is why a task's first join - the biggest piece it makes,
 * whose fa may be that long leaf - is shared at once. Rayon pays for its
 * cheap push by letting a sleeper miss it; here nothing is pushed unseen.
 *
 * The list. Each frame links to the one recorded before it on this core
 * (`below`), so the list runs newest first, down the stack, with no bound
 * on its length; bit 0 of a frame's `below` says it has been shared. Frames
 * are shared oldest first: a share walks down from the newest frame to the
 * first that is shared already or is the floor (below), and shares the last
 * latent frame it passed - so the shared frames of a core, in the list, are
 * in the deque in the same order, newest at the bottom, as when every frame
 * was pushed: the LIFO pop and "thieves take the oldest first" above hold as
 * they did. A walk stops after HIVE_LATENT_WALK frames: in a deeper
 * recursion it shares the last frame it reached, and the older latent ones
 * behind it then stay private to their joiners (a later walk stops at the
 * shared one) - parallelism lost in a recursion thousands of joins deep,
 * never order.
 *
 * The floor. A wait (wait.c) first shares every latent frame it can (it is
 * about to run other work; its own frames are the best work to offer), then
 * raises the list's floor to its newest frame for its duration: the work the
 * wait runs shares only frames of its own, above the floor. A deep wait
 * shares none: they would go into its deque above the running task's floor,
 * where the deep wait itself pops (the own-deque rule above) - and run the
 * second half of an enclosing join nested inside its own first half, a
 * sibling, not a descendant, breaking the stack bound: a binary join tree
 * of depth D with a group wait at each leaf nested (D/2 + 1)^2 nodes on
 * one core instead of D + 1 (tests/host/sched_test.c,
 * deep_waits_nest_one_path_down_the_tree). They stay latent, to be run
 * by their joiners; a deep wait offers thieves nothing of its own. So everything a
 * nested task can push is newer than what is under it - the stack bound
 * above depends on that - and frames the wait could not share (a full
 * deque, or past the walk's reach) stay private to their joiner. The frames
 * of a task nested in a wait start right above the floor, so its first join
 * finds the gate closed (newest == floor) and is shared at once, as at the
 * worker loop's level, where the floor is NULL.
 *
 * The inline path. The common case - a join nested in another join of the
 * same task, while nobody wants work - needs none of the above but the
 * frame's three stores, the list's newest (a load and a store each way),
 * and the reload and test of `below` after fa. hive_join itself is that
 * case, compiled into its caller (hive/join_inline.h): fa and fb are then
 * known functions, called directly, and the frame is part of the caller's
 * stack frame. Every other case finds the gate closed and comes to
 * hive_join_full below, which is the whole of the design, the inline case
 * included; a frame shared while fa ran comes back through
 * hive_join_shared. The inline path runs no debug check of its own: what it
 * does is the nesting that HIVE_RULE_LATENT_NESTED checks at the next
 * out-of-line join around it.
 *
 * Cost per join when nobody wants work, inline: the load and test of the
 * gate, the frame's three stores, the list's newest loaded and stored,
 * fa's call, the reload and test of `below`, the newest's store, one
 * statistic, fb's call: no atomic read-modify-write and no fence, and no
 * call of hive's. bench/README.md has the figures. A shared frame costs what
 * every join cost before: a push (a load of top, a slot store and a release
 * store of bottom), the notify (a load of the idle word; an own push has
 * no fence, publish.c), and a pop (a release store of bottom, a seq_cst fence and a load of
 * top; when the frame is the deque's last entry, also a CAS of top and a
 * second store of bottom).
 */
#include "sched/latent_gate.h"
#include "sched/sched_internal.h"

/* The frame leaves the deque for good: run by a thief, or taken back by its
 * joiner. A debug build checks that this happens once (sched/debug_checks.h);
 * the state says QUEUED from the push until then. */
static void frame_taken(struct hive_join_frame *f)
{
#ifdef HIVE_DEBUG_CHECKS
    /* relaxed: the frame's own deque push and pop or steal order its header;
     * this only detects a second taker, whose exchange reads IDLE. */
    unsigned was = atomic_exchange_explicit(&f->task.state, HIVE_TASK_IDLE, memory_order_relaxed);
    HIVE_CHECK(was == HIVE_TASK_QUEUED, HIVE_RULE_JOIN_ONCE);
#else
    (void)f;
#endif
}

void hive_join_frame_run(struct hive_task *t)
{
    struct hive_join_frame *f = HIVE_CONTAINER_OF(t, struct hive_join_frame, task);
    frame_taken(f);
    struct hive_worker *w = hive_tls_worker;
    /* relaxed: a hint for the joiner's leapfrogging, nothing depends on it. */
    atomic_store_explicit(&f->thief, (int)w->id, memory_order_relaxed);
    f->fn(f->arg);
    /* Releases fb's writes to the joiner and wakes it if it sleeps. The
     * frame may be gone right after: this is our last access to it. */
    hive_await_done(&f->remaining);
}

uintptr_t hive_join_frame_fn(const struct hive_task *t)
{
    const struct hive_join_frame *f = HIVE_CONTAINER_OF(t, const struct hive_join_frame, task);
    return (uintptr_t)f->fn;
}

static struct hive_join_frame *frame_below(const struct hive_join_frame *f)
{
    return (struct hive_join_frame *)(f->below & ~HIVE_JOIN_FRAME_SHARED);
}

static bool frame_shared(const struct hive_join_frame *f)
{
    return f->below & HIVE_JOIN_FRAME_SHARED;
}

/* Push latent frame f to the deque and mark it shared. False if the deque is
 * full (f stays latent). */
static bool share(struct hive_worker *w, struct hive_join_frame *f)
{
    f->task.next = NULL;
    f->task.fn = NULL; /* its kind runs it: hive_join_frame_run */
    f->task.group = NULL;
    f->task.kind = HIVE_TASK_JOIN_FRAME;
    atomic_init(&f->task.state, HIVE_TASK_QUEUED);
    atomic_init(&f->thief, -1);
    atomic_init(&f->remaining, 1);
    /* Its index: exact, only this core moves the bottom. */
    f->deque_index = hive_deque_bottom(&w->queues.forkjoin);
    if (hive_publish_forkjoin(w, &f->task))
        return false;
    f->below |= HIVE_JOIN_FRAME_SHARED;
    w->stats.spawned++;
    return true;
}

/* The latent frame a share takes: the oldest of those passed walking down
 * from the newest frame to the first shared one or the floor, at most
 * HIVE_LATENT_WALK of them ("The list"); NULL if there is none. Once it is
 * shared, the next walk stops there and returns the one above it: so
 * shares, one walk each, go oldest first. */
static struct hive_join_frame *oldest_shareable(struct hive_latent_stack *stack)
{
    struct hive_join_frame *oldest = NULL;
    unsigned seen = 0;
    for (struct hive_join_frame *f = stack->newest;
         f != stack->floor && !frame_shared(f) && seen < HIVE_LATENT_WALK; f = frame_below(f)) {
        oldest = f;
        seen++;
    }
    return oldest;
}

void hive_latent_share(struct hive_worker *w)
{
    /* Only when the deque is empty: a hungry core has something to take
     * already otherwise, and one join must not drain the whole list into
     * the deque while a woken core is on its way. hive_deque_len costs no
     * fence, and for the owner 0 means empty. */
    struct hive_join_frame *oldest;
    if (hive_deque_private_len(&w->queues.forkjoin)) {
        /* Private group tasks: offered first, and then the deque holds
         * something to take (group.c, "Private group tasks"). */
        hive_publish_private(w);
        return;
    }
    if (hive_deque_len(&w->queues.forkjoin) == 0 && (oldest = oldest_shareable(&w->latent)))
        share(w, oldest);
}

struct hive_join_frame *hive_latent_begin_wait(struct hive_worker *w)
{
    /* A walk per share, and no buffer of frames on the stack: the list
     * above the floor is about the task's join depth (a walk is bounded by
     * HIVE_LATENT_WALK all the same). Stops at a full deque: the frame
     * stays latent. A deep wait shares nothing ("The floor"). */
    unsigned shared = 0;
    struct hive_join_frame *f;
    while (!w->wait_deep && shared < HIVE_LATENT_SHARE_MAX && (f = oldest_shareable(&w->latent)) &&
           share(w, f))
        shared++;
    struct hive_join_frame *floor = w->latent.floor;
    w->latent.floor = w->latent.newest;
    hive_latent_gate_update(&w->latent); /* closed: newest == floor */
    return floor;
}

void hive_latent_end_wait(struct hive_worker *w, struct hive_join_frame *floor)
{
    w->latent.floor = floor;
    hive_latent_gate_update(&w->latent);
}

void hive_latent_want(struct hive_worker *w)
{
    /* After the caller's seq_cst RMW of the idle word: pairs with the fence
     * in latent_gate.c's hive_latent_gate_reopen (see there). */
    atomic_thread_fence(memory_order_seq_cst);
    for (unsigned i = 0; i < hive_scheduler.workers; i++) {
        if (i == w->id)
            continue;
        /* acquire: pairs with the release store in hive_latent_gate_begin
         * (the gate's first value is written before its address). */
        _Atomic(struct hive_latent_stack *) *gate =
            atomic_load_explicit(&hive_workers[i].latent.gate, memory_order_acquire);
        /* relaxed (both): the fences order what matters; a stale address
         * only closes a gate for nothing (latent_gate.c). */
        if (gate && atomic_load_explicit(gate, memory_order_relaxed))
            atomic_store_explicit(gate, NULL, memory_order_relaxed);
    }
}

/* What a joiner whose frame was stolen may run meanwhile: leapfrogging from
 * the thief first (wait.c). */
static struct hive_task *help_joiner(struct hive_worker *w, void *frame)
{
    struct hive_join_frame *f = frame;
    /* relaxed: a hint (see hive_join_frame_run). */
    int thief = atomic_load_explicit(&f->thief, memory_order_relaxed);
    return hive_wait_find_work(w, thief);
}

/* fa has returned and f had been shared: take it back from the deque and run
 * it, or wait for the thief that took it. */
static void join_shared(struct hive_worker *w, struct hive_join_frame *f)
{
    /* Take back what fa left above our frame, and the frame, but nothing
     * under it: that belongs to the frames below us on this stack. The frame
     * is gone if a thief took it (then so is everything older) or if a wait
     * inside fa ran it (then f->remaining is zero already). */
    /* The frame's index, or above an entry moved up to it from under it
     * after the frame left (group.c, own_task_under_floor). */
    uint32_t limit = hive_forkjoin_limit(w, f->deque_index);
    while ((int32_t)(hive_deque_bottom(&w->queues.forkjoin) - limit) > 0) {
        struct hive_task *t = hive_forkjoin_pop_above(w, limit);
        if (t == &f->task) {
            frame_taken(f);
            w->stats.tasks_run++;
            w->stats.joins_inline++;
            HIVE_TRACE_EVENT(HIVE_TRACE_TASK_START, &f->task, f->fn);
            f->fn(f->arg);
            HIVE_TRACE_EVENT(HIVE_TRACE_TASK_END, &f->task, 0);
            return;
        }
        if (!t)
            break;
        /* Newer than our frame: group tasks fa spawned and did not wait
         * for. Ready work; run it and look again. */
        hive_run_task_nested(w, t);
    }
    /* Our frame was stolen (thieves take the oldest first, so nothing older
     * is left below it either, and the deque is empty now), or fa's own waits
     * ran it and remaining is zero. */
    w->stats.joins_waited++;
    HIVE_TRACE_EVENT(HIVE_TRACE_WAIT, &f->remaining, 0);
    hive_wait_for(w, &f->remaining, help_joiner, f);
    HIVE_TRACE_EVENT(HIVE_TRACE_WAIT_END, &f->remaining, 0);
}

int hive_join_shared(struct hive_latent_stack *stack)
{
    /* The caller's frame is the newest: everything fa joined has been
     * joined and unlinked (joins on one core end in the reverse order they
     * began). So the inline path need not pass its frame's address, and
     * keeps it in no register across fa: a register saved and restored on
     * every join for a call that happens on a few. A frame found here that
     * is not shared is a broken nesting. */
    struct hive_join_frame *f = stack->newest;
    HIVE_CHECK(f && frame_shared(f), HIVE_RULE_LATENT_NESTED);
    struct hive_worker *w = HIVE_CONTAINER_OF(stack, struct hive_worker, latent);
    /* Shared, and everything above it has been joined. What is below it is
     * no floor: the inline path records only above a frame of the task's
     * own, so the gate stays as it is. */
    stack->newest = frame_below(f);
    join_shared(w, f);
    return HIVE_OK;
}

int hive_join_full(void (*fa)(void *a), void *a, void (*fb)(void *b), void *b)
{
    if (!fa || !fb)
        return HIVE_EINVAL;
    struct hive_worker *w = hive_self();
    if (!w)
        return HIVE_ESTATE;
    HIVE_CHECK_MAY_BLOCK(w->spin_held_at_start);
    struct hive_latent_stack *stack = &w->latent;
    struct hive_join_frame f;
    f.fn = fb;
    f.arg = b;
    f.below = (uintptr_t)stack->newest;
    /* In the trace, a latent frame is held by this core like a queued one. */
    HIVE_TRACE_EVENT(HIVE_TRACE_SPAWN, &f.task, HIVE_TRACE_AT_LATENT);
    bool first = stack->newest == stack->floor;
    stack->newest = &f;
    if (first) {
        /* The first join of the running task (nothing of its own under it):
         * its second half is the biggest piece this task will make, and
         * its fa may be one long leaf that never joins again, so it is
         * shared at once, as if someone wanted it. One such share per task
         * (and per join on its last spine) keeps the cost per join where a
         * divide-and-conquer run makes most of them: deeper down. */
        share(w, &f);
    } else if (hive_idle_wanted(&hive_scheduler.idle, stack->all_busy)) {
        hive_latent_share(w);
    }
    /* The joins nested in fa may take the inline path now, unless some
     * core wants work. */
    hive_latent_gate_update(stack);
    fa(a);
    /* Everything fa joined has been joined: the list is back at our frame. */
    HIVE_CHECK(stack->newest == &f, HIVE_RULE_LATENT_NESTED);
    stack->newest = frame_below(&f);
    if (first)
        /* fb, and this task's next join, start again from the floor. */
        hive_latent_gate_update(stack); /* closed: newest == floor */
    if (!frame_shared(&f)) {
        /* Still latent: nobody else ever saw it. */
        w->stats.tasks_run++;
        w->stats.joins_inline++;
        HIVE_TRACE_EVENT(HIVE_TRACE_TASK_START, &f.task, fb);
        fb(b);
        HIVE_TRACE_EVENT(HIVE_TRACE_TASK_END, &f.task, 0);
        return HIVE_OK;
    }
    join_shared(w, &f);
    return HIVE_OK;
}
