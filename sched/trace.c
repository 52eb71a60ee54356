/*
 * The per-core trace buffers (sched/trace.h): recording only. Writing them
 * out is trace_dump.c's. This file needs nothing but the port, so the queue
 * sources that carry trace points (steal.c) link with it alone.
 */
#include "sched/trace.h"

#ifdef HIVE_TRACE

#include <stdbool.h>

#include "sched/cache.h"
#include "sched/port.h"

/* The buffer's state, written only by its core (by its worker and by the
 * interrupt handlers that run on it, which is why an event masks them). */
struct trace_core {
    _Alignas(HIVE_CACHE_LINE) uint32_t n;
    uint32_t dropped;
    bool on; /* between hive_trace_core_begin and hive_trace_core_end */
};

static struct trace_core cores[HIVE_MAX_CORES];
static struct hive_trace_event events[HIVE_MAX_CORES][HIVE_TRACE_EVENTS];

void hive_trace_emit(unsigned kind, uint64_t a, uint64_t b)
{
    unsigned id = hive_port_core_id();
    if (id >= HIVE_MAX_CORES) /* a thread that is no core (host port) */
        return;
    struct trace_core *c = &cores[id];
    unsigned long irq = hive_port_irq_save();
    if (c->on) {
        uint32_t i = c->n;
        if (i < HIVE_TRACE_EVENTS) {
            struct hive_trace_event *e = &events[id][i];
            e->stamp = hive_port_ticks() << 8 | (kind & 0xffu);
            e->a = a;
            e->b = b;
            c->n = i + 1;
        } else {
            c->dropped++;
        }
    }
    hive_port_irq_restore(irq);
}

void hive_trace_core_begin(void)
{
    struct trace_core *c = &cores[hive_port_core_id()];
    unsigned long irq = hive_port_irq_save();
    c->on = true; /* on a buffer hive_trace_run_begin emptied */
    hive_port_irq_restore(irq);
}

void hive_trace_run_begin(unsigned workers)
{
    /* No core records between runs (on is false), so the caller of
     * hive_run may clear every buffer of the run's cores. */
    for (unsigned i = 0; i < workers && i < HIVE_MAX_CORES; i++)
        cores[i].n = cores[i].dropped = 0;
}

void hive_trace_core_end(void)
{
    struct trace_core *c = &cores[hive_port_core_id()];
    unsigned long irq = hive_port_irq_save();
    c->on = false;
    hive_port_irq_restore(irq);
}

const struct hive_trace_event *hive_trace_core_events(unsigned core, uint32_t *n,
                                                      uint32_t *dropped)
{
    *n = cores[core].n;
    *dropped = cores[core].dropped;
    return events[core];
}

#endif
