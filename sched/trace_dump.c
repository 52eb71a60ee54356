/*
 * Writing the per-core trace buffers out (the encoding is described in
 * include/hive/trace.h): at the end of every hive_run of a traced build, and
 * on request between runs (hive_trace_dump).
 */
#include "hive/trace.h"

#include <inttypes.h>

#include "sched/sched_internal.h"
#include "sched/trace.h"

#ifdef HIVE_TRACE

static uint64_t rotl(uint64_t x, unsigned k)
{
    return x << k | x >> (64 - k);
}

static uint32_t check(unsigned core, const struct hive_trace_event *e)
{
    uint64_t x = e->stamp ^ rotl(e->a, 21) ^ rotl(e->b, 42) ^ core * 0x9E3779B97F4A7C15u;
    return (uint32_t)(x ^ x >> 32);
}

static void dump(FILE *f)
{
    unsigned cores = hive_scheduler.workers;
    uint64_t lines = 0;
    fprintf(f, "hive-trace: begin v=1 cores=%u hz=%" PRIu64 " anchor=%" PRIxPTR " capacity=%u\n",
            cores, hive_port_ticks_hz(), (uintptr_t)hive_run, (unsigned)HIVE_TRACE_EVENTS);
    for (unsigned c = 0; c < cores; c++) {
        uint32_t n, dropped;
        const struct hive_trace_event *ev = hive_trace_core_events(c, &n, &dropped);
        const struct hive_core_stats *s = &hive_workers[c].stats;
        fprintf(f,
                "hive-trace: core %u n=%" PRIu32 " dropped=%" PRIu32 " tasks=%" PRIu64
                " steals=%" PRIu64 " stolen=%" PRIu64 " pulls=%" PRIu64 " overflows=%" PRIu64
                " parks=%" PRIu64 " wait_parks=%" PRIu64 " wakes=%" PRIu64 "\n",
                c, n, dropped, s->tasks_run, s->steals, s->stolen_tasks, s->global_pulls,
                s->overflows, s->parks, s->wait_parks, s->wakes);
        for (uint32_t i = 0; i < n; i++) {
            const struct hive_trace_event *e = &ev[i];
            fprintf(f, "hive-trace: e %x %" PRIx64 " %x %" PRIx64 " %" PRIx64 " %" PRIx32 "\n", c,
                    e->stamp >> 8, (unsigned)(e->stamp & 0xffu), e->a, e->b, check(c, e));
        }
        lines += n;
    }
    fprintf(f, "hive-trace: end lines=%" PRIu64 "\n", lines);
    fflush(f);
}

int hive_trace_dump(FILE *f)
{
    if (!f)
        return HIVE_EINVAL;
    int phase = atomic_load(&hive_scheduler.phase);
    if (phase == HIVE_PHASE_STARTING || phase == HIVE_PHASE_RUNNING)
        return HIVE_ESTATE;
    dump(f);
    return HIVE_OK;
}

void hive_trace_run_end(void)
{
    /* Not hive_trace_dump: the phase is still STOPPING here. */
    FILE *f = hive_port_trace_open();
    dump(f);
    hive_port_trace_close(f);
}

#else

int hive_trace_dump(FILE *f)
{
    (void)f;
    return HIVE_ESTATE;
}

#endif
