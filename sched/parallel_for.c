/*
 * hive_parallel_for: a range split in halves with hive_join down to the
 * grain, so thieves take the largest pieces first (join.c).
 */
#include "sched/sched_internal.h"

struct parallel_for {
    void (*fn)(size_t lo, size_t hi, void *ctx);
    void *ctx;
    size_t grain;
};

struct parallel_for_range {
    const struct parallel_for *loop;
    size_t lo, hi;
};

static void split_and_run(void *arg)
{
    const struct parallel_for_range *r = arg;
    if (r->hi - r->lo <= r->loop->grain) {
        r->loop->fn(r->lo, r->hi, r->loop->ctx);
        return;
    }
    size_t mid = r->lo + (r->hi - r->lo) / 2;
    struct parallel_for_range left = {r->loop, r->lo, mid};
    struct parallel_for_range right = {r->loop, mid, r->hi};
    /* hive_parallel_for checked task context and fn, so the join cannot be
     * refused; a refused join runs neither half, so they would run here. */
    if (hive_join(split_and_run, &left, split_and_run, &right) != HIVE_OK) {
        split_and_run(&left);
        split_and_run(&right);
    }
}

int hive_parallel_for(size_t lo, size_t hi, size_t grain,
                      void (*fn)(size_t lo, size_t hi, void *ctx), void *ctx)
{
    if (!fn)
        return HIVE_EINVAL;
    if (!hive_self())
        return HIVE_ESTATE;
    if (lo >= hi)
        return HIVE_OK;
    if (grain == 0) {
        /* About 8 chunks per worker: enough slack for stealing to balance. */
        size_t chunks = (size_t)hive_scheduler.workers * 8;
        size_t n = hi - lo;
        /* Rounded up without n + chunks - 1, which wraps for a range near
         * SIZE_MAX (a grain of 1: some 2^64 calls). n > 0: grain >= 1. */
        grain = n / chunks + (n % chunks != 0);
    }
    struct parallel_for loop = {fn, ctx, grain};
    struct parallel_for_range all = {&loop, lo, hi};
    split_and_run(&all);
    return HIVE_OK;
}
