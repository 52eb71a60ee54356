/*
 * Fork-join without stackful threads: hive_join (hive_parallel_for, in
 * parallel_for.c, is built on it).
 *
 * Design: join work goes to a second per-core queue, a classic Chase-Lev
 * deque (sched/deque.h), beside the FIFO ring that hive_spawn uses.
 * hive_join pushes a frame for fb at the deque's bottom, runs fa inline,
 * then pops the bottom: the LIFO pop gives the newest task - our
 * frame, unless a thief took it from the top. The dual-head ring cannot give
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
 * it may run). While at most HIVE_JOIN_NEST_FREE waits are nested on this
 * core's stack (wait_depth), anything: what is left in the thief's deque
 * first, then its own queues, steals, the global queue. Deeper waits run only
 * two kinds of work, which bounds the stack (the kernel's per-core stacks are
 * 32 KiB on the boards):
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
 * that hosts a deep wait. Waits only nest deeper inside T, so every wait in
 * T's extent is deep, and by induction on the nesting everything run inside
 * T's extent is a descendant of T in the task tree: leapfrogged parts of an
 * fb of T's, or own entries at or above T's floor. Those were pushed inside
 * T's extent: pushes go to the bottom, and the bottom never drops below the
 * floor there, because every pop inside T's extent stops at a floor of its own
 * (a deep wait's at its task's floor, hive_join's loop below at its own
 * frame) and a floor is never below the one it is nested in. So the tasks
 * nested on a core's stack follow a path down the task tree (below at most
 * HIVE_JOIN_NEST_FREE levels of arbitrary work): the stack is bounded by the
 * tree's depth times the largest task frame plus a wait, whatever the number
 * of tasks. Popping the whole deque instead (as deep group waits used to)
 * could nest a group's tasks one inside another's wait: a stack as deep as
 * the group is wide. The one exception, in group.c: a deep group wait may
 * run a task of its own group found at the bottom under the floor - the very
 * work it waits for, where a serial run of the group would run it too.
 *
 * Cost per join when nobody steals: a push (a load of top, a slot store and a
 * release store of bottom), the notify check (a seq_cst fence and a load of
 * the idle word, which no core writes while all are busy), and a pop (a
 * release store of bottom, a seq_cst fence and a load of top; when the frame
 * is the deque's last entry, as in a join that nothing nested in, also a CAS
 * of top and a second store of bottom). bench/README.md has the figures.
 */
#include "sched/sched_internal.h"

struct join_frame {
    struct hive_task task;
    void (*fn)(void *);
    void *arg;
    _Atomic int thief;  /* core that took the frame, or -1 */
    /* 1 until a thief has run fb, then 0; the joiner may sleep on it
     * (an awaited word, wait.c). */
    _Atomic unsigned long remaining;
};

/* The frame leaves the deque for good: run by a thief, or taken back by its
 * joiner. A debug build checks that this happens once (sched/debug_checks.h);
 * the state says QUEUED from the push until then. */
static void frame_taken(struct join_frame *f)
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
    struct join_frame *f = HIVE_CONTAINER_OF(t, struct join_frame, task);
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
    const struct join_frame *f = HIVE_CONTAINER_OF(t, const struct join_frame, task);
    return (uintptr_t)f->fn;
}

/* What a joiner whose frame was stolen may run meanwhile: leapfrogging from
 * the thief first (wait.c). */
static struct hive_task *help_joiner(struct hive_worker *w, void *frame)
{
    struct join_frame *f = frame;
    /* relaxed: a hint (see hive_join_frame_run). */
    int thief = atomic_load_explicit(&f->thief, memory_order_relaxed);
    return hive_wait_find_work(w, thief);
}

int hive_join(void (*fa)(void *a), void *a, void (*fb)(void *b), void *b)
{
    if (!fa || !fb)
        return HIVE_EINVAL;
    struct hive_worker *w = hive_self();
    if (!w)
        return HIVE_ESTATE;
    HIVE_CHECK_MAY_BLOCK(w->spin_held_at_start);
    struct join_frame f;
    f.task.next = NULL;
    f.task.fn = NULL; /* its kind runs it: hive_join_frame_run */
    f.task.group = NULL;
    f.task.kind = HIVE_TASK_JOIN_FRAME;
    atomic_init(&f.task.state, HIVE_TASK_QUEUED);
    f.fn = fb;
    f.arg = b;
    atomic_init(&f.thief, -1);
    atomic_init(&f.remaining, 1);

    if (hive_publish(w, HIVE_PUBLISH_FORKJOIN, &f.task)) {
        /* Deque full: run both here. */
        fa(a);
        fb(b);
        return HIVE_OK;
    }
    /* Our frame's index: exact, only this core moves the bottom. */
    uint32_t frame_index = hive_deque_bottom(&w->queues.forkjoin) - 1;
    w->stats.spawned++;
    fa(a);
    /* Take back what fa left above our frame, and the frame, but nothing
     * under it: that belongs to the frames below us on this stack. The frame
     * is gone if a thief took it (then so is everything older) or if a wait
     * inside fa ran it (then f.remaining is zero already). */
    while ((int32_t)(hive_deque_bottom(&w->queues.forkjoin) - frame_index) > 0) {
        struct hive_task *t = hive_deque_pop(&w->queues.forkjoin);
        if (t == &f.task) {
            frame_taken(&f);
            w->stats.tasks_run++;
            w->stats.joins_inline++;
            fb(b);
            return HIVE_OK;
        }
        if (!t)
            break;
        /* Newer than our frame: group tasks fa spawned and did not wait
         * for. Ready work; run it and look again. */
        hive_run_task(w, t);
    }
    /* Our frame was stolen (thieves take the oldest first, so nothing older
     * is left below it either, and the deque is empty now), or fa's own waits
     * ran it and remaining is zero. */
    w->stats.joins_waited++;
    hive_wait_for(w, &f.remaining, help_joiner, &f);
    return HIVE_OK;
}
