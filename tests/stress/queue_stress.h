/*
 * The queue stress: one owner pushing and popping, thieves stealing,
 * producers feeding the global queue; every task must run exactly once.
 *
 * Portable: it uses only sched/ - the queues and the scheduler's own two ways
 * of taking work from elsewhere, hive_steal_from and hive_take_global
 * (sched/steal.h), the functions the worker calls - and no libc beyond
 * <stddef.h>/<stdint.h>/<stdatomic.h>, so the same file runs on the host
 * (tests/host, pthreads) and on bare metal under QEMU (tests/target).
 *
 * Roles, by core index:
 *   0                          owner: bursts of pushes into its ring (long
 *                              enough to overflow it) and into its fork-join
 *                              deque (long enough to fill it: a refused push
 *                              runs the task inline, as hive_join does), then
 *                              bursts of runs: the deque (newest first), the
 *                              ring, the global queue (a batch into its ring
 *                              when that is empty, as a worker pulls)
 *   1 .. thieves               thieves: run their own
 *                              ring, steal with hive_steal_from from every
 *                              other core in turn, from a random start
 *                              (sometimes while their own ring is not empty,
 *                              to hit the "no room" refusal), pull from the
 *                              global queue with hive_take_global
 *   thieves+1 .. +producers    producers: push to the global queue, singly
 *                              and in linked batches
 * Task objects are recycled to their creator after they run (a small pool,
 * not one object per task), but every task gets a fresh id, and a per-id
 * counter catches a task run twice (at once, when the counter was not 0) or
 * never (at the end, when it is still 0). Each task also carries a payload
 * written by its creator before the push, checked by whoever runs it: under
 * ThreadSanitizer that proves the queues order the task's contents.
 *
 * How to run it on a target:
 *   static unsigned char mem[N] __attribute__((aligned(64)));
 *   struct hive_stress_config cfg = {
 *       .thieves = 3, .producers = 1, .tasks = 1000000,
 *       .seed = 1, .start_index = 0xFFFFFF00u,   // rings wrap during the run
 *       .mem = mem, .mem_size = sizeof mem,      // >= hive_queue_stress_mem_size(3, 1, 1000000)
 *       .start_core = my_start,                  // see below
 *       .idle = NULL, .user = NULL,
 *   };
 *   struct hive_stress_report rep;
 *   int rc = hive_queue_stress(&cfg, &rep);      // 0: every task ran exactly once
 *
 * start_core(core, body, arg, user) must make core `core` (1 .. cores-1)
 * call body(arg) once, soon, with everything written before the call visible
 * to it (as any thread or core start gives); it may return before body does.
 * The calling core runs core 0's part itself, then waits (spinning, calling
 * idle if given) until every core's body has returned. So 1 + thieves +
 * producers cores must exist, at most HIVE_MAX_CORES. Call it on core 0's
 * behalf from any physical core: the queues never ask which core they run on.
 * idle(user), if not NULL, is called whenever a core finds nothing to do (the
 * host passes sched_yield; bare metal can pass NULL). The module keeps one
 * static pointer to the run in progress: one stress at a time.
 */
#ifndef HIVE_TESTS_QUEUE_STRESS_H
#define HIVE_TESTS_QUEUE_STRESS_H

#include <stddef.h>
#include <stdint.h>

#define HIVE_STRESS_MAX_PRODUCERS 8

struct hive_stress_config {
    unsigned thieves;          /* >= 1 */
    unsigned producers;        /* 0 .. HIVE_STRESS_MAX_PRODUCERS */
    unsigned long tasks;       /* total; producers create a quarter if any */
    uint32_t seed;             /* any value; each core derives its own */
    uint32_t start_index;      /* where every queue index starts */
    void *mem;                 /* 64-byte aligned arena, no other user */
    size_t mem_size;
    void (*start_core)(unsigned core, void (*body)(void *arg), void *arg, void *user);
    void (*idle)(void *user);  /* optional */
    void *user;
};

struct hive_stress_report {
    unsigned long executed;    /* task runs, all cores */
    unsigned long lost;        /* ids never run */
    unsigned long doubled;     /* runs of an id that had already run */
    unsigned long bad_payload; /* runs that saw a payload its creator did not write */
    unsigned long not_empty;   /* queues left non-empty at the end */
    unsigned long steal_calls; /* hive_steal_from calls (victims probed) by thieves */
    unsigned long stolen;      /* of those, calls that returned a task */
    unsigned long stolen_forkjoin; /* of those, from the owner's fork-join deque */
    unsigned long global_pulls;    /* hive_take_global calls that returned a task */
    unsigned long owner_via_global; /* tasks the owner created that came back
                                       through the global queue: ring overflow */
    unsigned long inline_runs; /* fork-join pushes handed back (deque full) */
};

/* Bytes of arena hive_queue_stress needs. */
size_t hive_queue_stress_mem_size(unsigned thieves, unsigned producers, unsigned long tasks);

/*
 * Run the stress. Returns 0 when every task ran exactly once with its payload
 * intact and every queue ended empty; 1 when not (see *rep); -1 on a bad
 * config (no thief, too many producers or cores, arena too small or
 * misaligned). rep may be NULL.
 */
int hive_queue_stress(const struct hive_stress_config *cfg, struct hive_stress_report *rep);

#endif
