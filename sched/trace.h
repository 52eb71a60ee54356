/*
 * Tracing: what the scheduler did, per core, over time.
 *
 * Built only with HIVE_TRACE defined (CMake option HIVE_TRACE, off by
 * default). Without it HIVE_TRACE_EVENT expands to nothing: its arguments are
 * not even evaluated, so a trace point costs nothing at all, and nothing here
 * is compiled.
 *
 * With it, each core appends events to a fixed buffer of its own
 * (HIVE_TRACE_EVENTS entries): a stamp (the port's tick counter,
 * hive_port_ticks), a kind and two arguments. Only the core itself writes its
 * buffer, with plain stores - no lock, no atomic that another core touches;
 * interrupts are masked for the few stores of one event, so that a handler
 * tracing on the same core cannot take the same slot. A full buffer keeps its
 * first events and counts the rest as dropped (a trace with a hole is worse
 * than a short one: every slice, steal and wake before the end is there).
 *
 * A core records from the start of its worker in a run until the worker
 * leaves (hive_trace_core_begin/end, worker.c), and its buffer starts empty
 * at each run; interrupt handlers on the core record in that window too.
 * Events from outside it (a thread that is no core, a core between runs) are
 * not recorded. After the run, hive_run writes every buffer out
 * (trace_dump.c; the encoding is in include/hive/trace.h), and the boot core
 * reads them only after every worker has left: hive_port_run_on_cores orders
 * their last stores before its return.
 *
 * The events, with their arguments a and b:
 */
#ifndef HIVE_SCHED_TRACE_H
#define HIVE_SCHED_TRACE_H

#include <stdint.h>

enum hive_trace_kind {
    HIVE_TRACE_TASK_START = 1, /* a task's fn begins here: a task header, b its fn
                                  (the caller's function: a spawn_fn's fn, a join's fb) */
    HIVE_TRACE_TASK_END = 2,   /* ... and has returned: a the header */
    HIVE_TRACE_SPAWN = 3,      /* this core queued a: b where (enum hive_trace_place);
                                  stamped before the task is visible to others */
    HIVE_TRACE_STEAL = 4,      /* this core stole from core a, b tasks: a STOLEN
                                  event follows for each */
    HIVE_TRACE_STOLEN = 5,     /* one task of the steal before: a the header, b the victim */
    HIVE_TRACE_PULL = 6,       /* a batch from the global queue: a tasks, each in a
                                  PULLED event after this one */
    HIVE_TRACE_PULLED = 7,     /* one task of that batch: a the header */
    HIVE_TRACE_OVERFLOW = 8,   /* pushing a found the ring full: half of it and a went
                                  to the global queue */
    HIVE_TRACE_PARK = 9,       /* this core sleeps: a 0 idle, 1 in a join or group wait */
    HIVE_TRACE_UNPARK = 10,    /* ... and is awake: a why (enum hive_trace_unpark) */
    HIVE_TRACE_WAKE = 11,      /* this core woke core a: b why (enum hive_trace_wake).
                                  Stamped just after the wake was sent (sched/idle.c
                                  picks whom), so a quick sleeper's UNPARK may come
                                  first: wake latencies are a little short */
    HIVE_TRACE_WAIT = 12,      /* a join or group wait begins: a the awaited word,
                                  b 0 join, 1 group */
    HIVE_TRACE_WAIT_END = 13,  /* ... and ends: a the awaited word */
    HIVE_TRACE_IRQ = 14,       /* an interrupt handler begins: a its source: a line,
                                  ffffffff the doorbell, fffffffe the core's timer */
    HIVE_TRACE_IRQ_END = 15,   /* ... and ends: a the source */
    HIVE_TRACE_TIMER = 16,     /* a timer fires (in its interrupt): a its function, b its arg */
};

enum hive_trace_place {
    HIVE_TRACE_AT_LIFO = 0,     /* the core's LIFO slot (never stolen) */
    HIVE_TRACE_AT_RING = 1,     /* its ring */
    HIVE_TRACE_AT_FORKJOIN = 2, /* its fork-join deque (join frames, group tasks) */
    HIVE_TRACE_AT_GLOBAL = 3,   /* the global queue */
    HIVE_TRACE_AT_LATENT = 4,   /* its latent join frames (join.c): private until
                                   shared, then queued again at FORKJOIN */
    HIVE_TRACE_AT_ONCE = 5,     /* nowhere: its spawner runs it at once, on this
                                   core (its TASK_START follows): hive_spawn_or_run,
                                   hive_group_spawn at one worker or into a full
                                   deque (hive_group_spawn_fn's into a full deque
                                   shows as FORKJOIN: its push was tried) */
};

enum hive_trace_unpark {
    HIVE_TRACE_UNPARK_WOKEN = 0,    /* claimed by a waker (or claimed itself) */
    HIVE_TRACE_UNPARK_RUN_DONE = 1, /* the run ended */
    HIVE_TRACE_UNPARK_AWAITED = 2,  /* the work a waiter waited for is done */
    HIVE_TRACE_UNPARK_TIMEOUT = 3,  /* hive_config.park_timeout_ns passed */
};

enum hive_trace_wake {
    HIVE_TRACE_WAKE_NOTIFY = 0,  /* work for a parked core (sched/idle.c) */
    HIVE_TRACE_WAKE_AWAITED = 1, /* the last awaited piece of work finished */
    HIVE_TRACE_WAKE_RUN_END = 2, /* the run's last task finished */
    HIVE_TRACE_WAKE_OUTSIDE = 3, /* a spawn from outside task context (an
                                    interrupt handler) notified */
    HIVE_TRACE_WAKE_AWAITED_ALL = 4, /* the last awaited piece of work of a
                                        group that has had a second sleeping
                                        waiter finished: every core is woken
                                        (sched/wait.c), most for nothing */
};

#ifdef HIVE_TRACE

#ifndef HIVE_TRACE_EVENTS
#define HIVE_TRACE_EVENTS 16384u /* per core; 24 bytes each */
#endif

struct hive_trace_event {
    uint64_t stamp; /* tick << 8 | kind */
    uint64_t a, b;
};

/* Record one event on the calling core. */
void hive_trace_emit(unsigned kind, uint64_t a, uint64_t b);
/* The calling core starts recording into an empty buffer / stops. */
void hive_trace_core_begin(void);
void hive_trace_core_end(void);
/* hive_run's setup: every core of the run starts with an empty buffer, also
 * one whose worker never starts (the host port withdraws a core that has
 * not taken a run by its end), which would dump the last run's events. */
void hive_trace_run_begin(unsigned workers);
/* Core `core`'s buffer after the run: its events, how many, and how many were
 * dropped when it was full. */
const struct hive_trace_event *hive_trace_core_events(unsigned core, uint32_t *n,
                                                      uint32_t *dropped);

/* hive_run's end: write every core's buffer out (trace_dump.c). */
void hive_trace_run_end(void);

#define HIVE_TRACE_EVENT(kind, a, b) hive_trace_emit((kind), (uint64_t)(uintptr_t)(a), (uint64_t)(b))
#define HIVE_TRACE_CORE_BEGIN() hive_trace_core_begin()
#define HIVE_TRACE_CORE_END() hive_trace_core_end()
#define HIVE_TRACE_RUN_END() hive_trace_run_end()
#define HIVE_TRACE_RUN_BEGIN(n) hive_trace_run_begin(n)

#else

#define HIVE_TRACE_EVENT(kind, a, b)
#define HIVE_TRACE_CORE_BEGIN()
#define HIVE_TRACE_CORE_END()
#define HIVE_TRACE_RUN_END()
#define HIVE_TRACE_RUN_BEGIN(n)

#endif

#endif
