/*
 * Run-time checks of the scheduler's ownership rules. Compiled in when
 * HIVE_DEBUG_CHECKS is defined - every board build and every host test build
 * (sched/CMakeLists.txt, tests/host/CMakeLists.txt); the host's plain
 * hive_sched, which the benchmarks link, goes without. A broken rule is a bug
 * in the scheduler or in its caller that would otherwise corrupt a queue or
 * hang a core much later, so it stops at once: hive_port_panic with a message
 * naming the rule ("panic: core N: rule broken: ...").
 *
 * The rules:
 *   - only the owner core pushes and pops its ring and its fork-join deque,
 *     and never from an interrupt handler (ring.h, deque.h);
 *   - a queued task is taken and run by one core only, once per spawn
 *     (run_task.c: its state must still say QUEUED when it is run);
 *   - a join frame is joined once: run by a thief or taken back by its
 *     joiner, never both, never twice (join.c);
 *   - a run starts with every core's queues empty: the last run's end
 *     emptied them, and the next reuses them as they are (steal.c);
 *   - no spinlock is held across a join, a spawn that may run its task (a
 *     group spawn: a full fork-join deque runs it at once; hive_spawn_or_run:
 *     full queues do), which may join, a group wait or a park (spinlock.c
 *     counts what each core holds). Counted from where the worker started:
 *     what the port held when it called the worker is the port's business
 *     (on the boards, hive_smp_call_all holds its own lock while the boot
 *     core runs the whole run, kernel/smp.c);
 *   - nothing that may block - a join or group wait, a park - runs in an
 *     interrupt handler. The public calls already refuse that context with
 *     HIVE_ESTATE; the check guards the blocking steps themselves.
 */
#ifndef HIVE_SCHED_DEBUG_CHECKS_H
#define HIVE_SCHED_DEBUG_CHECKS_H

#include <stdbool.h>

#include "sched/port.h"

/* A queue whose owner is not checked: single-threaded unit tests and the
 * fuzzer play every core from one thread. */
#define HIVE_QUEUE_ANY_OWNER 0xfffffffeu

#define HIVE_RULE_RING_OWNER "rule broken: only the owner core pushes and pops its ring"
#define HIVE_RULE_DEQUE_OWNER "rule broken: only the owner core pushes and pops its fork-join deque"
#define HIVE_RULE_DEQUE_SOLO "rule broken: nobody steals from the fork-join deque of a run of one worker"
#define HIVE_RULE_DEQUE_PRIVATE "rule broken: a public push onto private entries of the fork-join deque (publish them first)"
#define HIVE_RULE_PRIVATE_MARK \
    "rule broken: private entries are published by their owner inside its private mark, or by its interrupt outside one"
#define HIVE_RULE_DEQUE_TAKE_SOLO \
    "rule broken: only the deque of a run of one worker has an entry taken from its middle, and only an entry (not a hole)"
#define HIVE_RULE_RING_SOLO "rule broken: nobody steals from the ring of a run of one worker"
#define HIVE_RULE_RUN_ONCE "rule broken: a queued task is run by one core, once per spawn"
#define HIVE_RULE_JOIN_ONCE "rule broken: a join frame is joined once"
#define HIVE_RULE_LATENT_NESTED "rule broken: joins on one core end in the reverse order they began"
#define HIVE_RULE_QUEUES_EMPTY_AT_START "rule broken: a run starts with every core's queues empty"
#define HIVE_RULE_NO_LOCK_HELD \
    "rule broken: no spinlock is held across a join, a spawn that may run its task, a group wait or a park"
#define HIVE_RULE_NOT_IN_INTERRUPT "rule broken: nothing that may block runs in an interrupt handler"

#ifdef HIVE_DEBUG_CHECKS

/* Spinlocks the calling core holds now (spinlock.c). */
unsigned hive_spin_held_here(void);

/* Panic with `rule` unless cond holds. */
#define HIVE_CHECK(cond, rule)                                                 \
    do {                                                                       \
        if (!(cond))                                                           \
            hive_port_panic(rule);                                             \
    } while (0)

/* The caller pushes or pops a queue owned by `owner`. */
#define HIVE_CHECK_OWNER(owner, rule)                                          \
    HIVE_CHECK((owner) == HIVE_QUEUE_ANY_OWNER ||                              \
                   ((owner) == hive_port_core_id() && !hive_port_in_interrupt()), \
               rule)

/* The same from the owner core, an interrupt of it included (the heartbeat's
 * publish of private entries: sched/publish.c). */
#define HIVE_CHECK_OWNER_CORE(owner, rule)                                     \
    HIVE_CHECK((owner) == HIVE_QUEUE_ANY_OWNER || (owner) == hive_port_core_id(), rule)

/* The caller is about to wait or park; it held `held_at_start` spinlocks
 * when its worker began. */
#define HIVE_CHECK_MAY_BLOCK(held_at_start)                                    \
    do {                                                                       \
        HIVE_CHECK(!hive_port_in_interrupt(), HIVE_RULE_NOT_IN_INTERRUPT);     \
        HIVE_CHECK(hive_spin_held_here() == (held_at_start), HIVE_RULE_NO_LOCK_HELD); \
    } while (0)

#else

#define HIVE_CHECK(cond, rule) ((void)0)
#define HIVE_CHECK_OWNER(owner, rule) ((void)0)
#define HIVE_CHECK_OWNER_CORE(owner, rule) ((void)0)
#define HIVE_CHECK_MAY_BLOCK(held_at_start) ((void)0)

#endif

#endif
