/*
 * What one trace event costs (README.md, "Tracing"): a one-core run records
 * EVENTS events in a loop, timed with the port's clock, and the same loop
 * without them; prints ns per event. A measurement, not a test. Built for the
 * host (tests/host: trace_cost) and the boards (tests/target: trace_cost.elf),
 * against the scheduler compiled with HIVE_TRACE.
 */
#include <inttypes.h>
#include <stdint.h>
#include <stdio.h>

#include "hive/hive.h"
#include "sched/port.h"
#include "sched/trace.h"

#ifndef HIVE_TRACE
#error "trace_cost measures the trace: build it with HIVE_TRACE"
#endif

#define EVENTS 10000u /* under one core's buffer: none dropped */
#define ROUNDS 5

static uint64_t best_traced = UINT64_MAX, best_bare = UINT64_MAX;
static volatile uint64_t sink;

static void measure(void *arg)
{
    (void)arg;
    for (int r = 0; r < ROUNDS; r++) {
        /* Each round refills the buffer from the start. */
        hive_trace_core_end();
        hive_trace_core_begin();
        uint64_t t0 = hive_port_now_ns();
        for (uint32_t i = 0; i < EVENTS; i++)
            hive_trace_emit(HIVE_TRACE_SPAWN, i, HIVE_TRACE_AT_RING);
        uint64_t t1 = hive_port_now_ns();
        for (uint32_t i = 0; i < EVENTS; i++)
            sink = i;
        uint64_t t2 = hive_port_now_ns();
        if (t1 - t0 < best_traced)
            best_traced = t1 - t0;
        if (t2 - t1 < best_bare)
            best_bare = t2 - t1;
    }
}

int main(void)
{
    struct hive_config cfg = {.cores = 1};
    int rc = hive_run(measure, NULL, &cfg);
    if (rc != HIVE_OK) {
        printf("trace_cost: FAILED hive_run: %s\n", hive_strerror(rc));
        return 1;
    }
    uint64_t per = best_traced > best_bare ? best_traced - best_bare : 0;
    printf("trace_cost: %" PRIu64 ".%02" PRIu64 " ns per event (best of %d rounds of %u; "
           "loop alone %" PRIu64 " ns)\n",
           per / EVENTS, per * 100 / EVENTS % 100, ROUNDS, EVENTS, best_bare);
    return 0;
}
