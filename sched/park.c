/*
 * Parking: a worker that found no work anywhere (find_work.c, step 8), or a
 * join or group waiter that found nothing to help with for a while (wait.c),
 * counts itself parked in the idle state (rule 3 of sched/idle.c; a worker
 * that leaves nobody searching rescans every queue first), then sleeps in hive_port_wait until a
 * waker claims it, the run ends, the configured park timeout passes, or - for
 * a waiter - the work it waits for is done. It leaves counted as awake and
 * searching (rule 4), whoever woke it.
 */
#include "sched/sched_internal.h"

/* Is there work anywhere? The rescan of a worker that parks leaving nobody
 * searching, before it sleeps. */
static bool any_work(void)
{
    if (!hive_global_is_empty(&hive_scheduler.global))
        return true;
    for (unsigned i = 0; i < hive_scheduler.workers; i++)
        if (hive_ring_len(&hive_workers[i].queues.ring) ||
            hive_deque_len(&hive_workers[i].queues.forkjoin))
            return true;
    return false;
}

void hive_park_until(struct hive_worker *w, _Atomic unsigned long *awaited)
{
    HIVE_CHECK_MAY_BLOCK(w->spin_held_at_start);
    /* A sleeping core holds no credits (run.c): this may end the run, and
     * then the loop below leaves at once. */
    hive_credits_return(w);
    uint64_t now = hive_port_now_ns();
    if (awaited) {
        w->stats.wait_parks++;
    } else {
        hive_tick_end(w, now);
        w->stats.parks++;
    }
    HIVE_TRACE_EVENT(HIVE_TRACE_PARK, awaited != NULL, 0);
    bool first_want = false;
    bool rescan = hive_idle_park(&hive_scheduler.idle, w->id, w->searching, &first_want);
    if (first_want)
        hive_latent_want(w); /* as in hive_start_searching */
    if (rescan && any_work())
        hive_notify_idle(w); /* rule 3; may claim and wake ourselves */
    w->searching = false;
    uint64_t timeout = hive_scheduler.park_timeout_ns;
    /* 0: none. A timeout that would carry the deadline past the clock's
     * range saturates rather than wrapping into the past (which would end
     * every park at once: a busy spin). */
    uint64_t deadline = 0;
    if (timeout)
        deadline = timeout > UINT64_MAX - now ? UINT64_MAX : now + timeout;
    for (;;) {
        if (!hive_idle_is_parked(&hive_scheduler.idle, w->id)) {
            HIVE_TRACE_EVENT(HIVE_TRACE_UNPARK, HIVE_TRACE_UNPARK_WOKEN, 0);
            break;
        }
        if (hive_run_done()) {
            HIVE_TRACE_EVENT(HIVE_TRACE_UNPARK, HIVE_TRACE_UNPARK_RUN_DONE, 0);
            break;
        }
        if (awaited && hive_await_count(awaited) == 0) {
            HIVE_TRACE_EVENT(HIVE_TRACE_UNPARK, HIVE_TRACE_UNPARK_AWAITED, 0);
            break;
        }
        uint64_t left = 0;
        if (deadline) {
            now = hive_port_now_ns();
            if (now >= deadline) {
                HIVE_TRACE_EVENT(HIVE_TRACE_UNPARK, HIVE_TRACE_UNPARK_TIMEOUT, 0);
                w->stats.park_timeouts++;
                break;
            }
            left = deadline - now;
        }
        hive_port_wait(left);
    }
    /* Rule 4 of idle.c: count ourselves awake and searching, whoever woke us. */
    hive_idle_unpark(&hive_scheduler.idle, w->id);
    w->searching = true;
    if (!awaited)
        w->tick_start_ns = hive_port_now_ns();
}

void hive_wake_every_core(unsigned except, unsigned why)
{
    for (unsigned core = 0; core < hive_scheduler.workers; core++)
        if (core != except) {
            HIVE_TRACE_EVENT(HIVE_TRACE_WAKE, core, why);
            hive_port_wake(core);
        }
    (void)why; /* read by the trace only */
}

void hive_park(struct hive_worker *w)
{
    hive_park_until(w, NULL);
}
