/*
 * Taking work that is not this core's: the queues of one core that other
 * cores may take from (struct hive_core_queues), a steal from one victim, and
 * a pull from the global queue. The worker calls these two functions and no
 * other code to take work from elsewhere; the unit tests, the fuzzer and the
 * multi-core queue stress (tests/stress) call the very same ones.
 *
 * Each core has two queues that others may take from:
 *   - the run queue, a dual-head ring (sched/ring.h): tasks from hive_spawn,
 *     FIFO for the owner; a thief takes half of it in one steal;
 *   - the fork-join deque, Chase-Lev (sched/deque.h): join frames and group
 *     tasks, LIFO for the owner, so a join gets its newest frame back; a thief
 *     takes the oldest entry, the largest piece of a divide-and-conquer tree.
 * The ring stays FIFO because an owner pop at its tail would race with batch
 * steals (a thief holding a stale tail can claim an index the owner already
 * popped) unless every owner pop were a CAS; fork-join gets the deque instead.
 *
 * Who may call what: hive_steal_from on the thief, with `thief` its own
 * queues; hive_take_global on the core that will run what it takes.
 * Interrupt handlers take nothing: they only push to the global queue.
 */
#ifndef HIVE_SCHED_STEAL_H
#define HIVE_SCHED_STEAL_H

#include <stdint.h>

#include "hive/hive.h"
#include "sched/deque.h"
#include "sched/global_queue.h"
#include "sched/ring.h"

/* The most tasks a pull from the global queue asks for (hive_take_global).
 * A chunk's size: on a long queue each pull then takes one chunk whole,
 * touching only its first header under the lock (global_queue.h). */
#define HIVE_GLOBAL_BATCH HIVE_GLOBAL_CHUNK
/* The most one pull takes: a whole chunk, which may hold up to twice the
 * batch less one (global_queue.h); what a puller's ring must have room for. */
#define HIVE_GLOBAL_PULL_MOST HIVE_GLOBAL_CHUNK_MAX

struct hive_core_queues {
    struct hive_ring ring;      /* spawned tasks */
    struct hive_deque forkjoin; /* join frames and group tasks */
    /* The owner's last steal from another core's ring took at most
     * HIVE_SMALL_RING_STEAL tasks (victims.c). Owner-only: read and written
     * by the core these queues belong to, as a thief. */
    bool small_ring_steal;
};

/* A ring steal this small, and the thief waits HIVE_SMALL_STEAL_PAUSE_NS
 * before its next steal round (victims.c). */
#define HIVE_SMALL_RING_STEAL 2u
#define HIVE_SMALL_STEAL_PAUSE_NS 1000u

/* Both queues empty, owned by core `owner` (HIVE_QUEUE_ANY_OWNER: unchecked),
 * every index at `start` (tests start near 2^32 to wrap; the scheduler at 0).
 * No other core may use q meanwhile. */
void hive_core_queues_init_at(struct hive_core_queues *q, unsigned owner, uint32_t start);
/* Empty queues (as hive_core_queues_init_at or the last run left them: the
 * run's end empties them) get the owner `owner` for the next run; their
 * indices stay where they are, and the slots keep stale pointers nobody
 * reads (only [head, tail) and [top, bottom) are ever read). What an empty
 * run saves: clearing 2 x 256 slots per core, half of its instructions.
 * solo: no other core will take from q until the next reset (a run of one
 * worker), so the owner's pops skip what settles a race with thieves: the
 * deque's fence and CAS, the ring's CAS. */
void hive_core_queues_reset(struct hive_core_queues *q, unsigned owner, bool solo);
/* The calling core takes q over: its owner has stopped for good (after a
 * run, to move what is left to the global queue). */
void hive_core_queues_adopt(struct hive_core_queues *q);

/*
 * One task from the top (the oldest end) of victim's fork-join deque, or NULL
 * when it is empty. A steal that loses a race to a pop or another steal
 * retries: the loser only fails because someone else made progress, so the
 * loop is lock-free. A success counts one steal of one task in *stats.
 */
struct hive_task *hive_steal_forkjoin(struct hive_core_queues *victim, struct hive_core_stats *stats);

/*
 * Steal from one victim into `thief` (the caller's own queues): the fork-join
 * deque's oldest entry if there is one (hive_steal_forkjoin), else half of
 * the victim's ring (rounded up, at most HIVE_RING_HALF), of which the oldest
 * is returned to run at once and the rest go into the thief's ring. NULL when
 * both are empty, when another thief is copying out of the victim's ring, or
 * when the thief's ring has no room for the batch. Counts one attempt in *stats
 * and, on success, one steal and the tasks it moved.
 */
struct hive_task *hive_steal_from(struct hive_core_queues *victim, struct hive_core_queues *thief,
                                  struct hive_core_stats *stats);

/*
 * Take a batch of the oldest tasks from g, asking for min(length / cores + 1,
 * HIVE_GLOBAL_BATCH), so that `cores` cores pulling at once share what is
 * there while one core alone empties it in a few pulls. What comes is the
 * oldest chunk whole if it holds fewer than twice that, else that many
 * (hive_global_pop_batch): at most HIVE_GLOBAL_PULL_MOST. Returns the first
 * to run now and sets *rest to the others, a NULL-terminated list linked
 * through next, the caller's to queue (the worker puts it into its empty ring:
 * find_work.c). With rest NULL, only the oldest task. NULL, with *rest
 * untouched, when g is empty. Counts one global pull in *stats.
 */
struct hive_task *hive_take_global(struct hive_global *g, unsigned cores, struct hive_task **rest,
                                   struct hive_core_stats *stats);

#endif
