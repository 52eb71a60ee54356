/*
 * The task header: what the run queues store.
 *
 * The queues are intrusive and never allocate: a task is queued by pointer,
 * and the global queue (and any batch handed to it) links tasks through
 * `next`. A task is in at most one queue at a time; while it is queued the
 * queue owns `next`, `chunk_next` and `chunk_len`, and nothing else may
 * touch them. The global queue cuts its list into chunks of a few dozen
 * tasks (sched/global_queue.h), so that taking a batch out of it under its
 * lock touches two headers, not every header of the batch: the first task
 * of each chunk holds the chunk's length and the next chunk's first task.
 *
 * Kept minimal on purpose: the scheduler extends this header (state, priority,
 * affinity...) and include/hive/hive.h includes it.
 */
#ifndef HIVE_TASK_H
#define HIVE_TASK_H

struct hive_group;

struct hive_task {
    struct hive_task *next;            /* global queue / batch link */
    struct hive_task *chunk_next;      /* global queue: a chunk's first task, the next chunk's;
                                          in another task, a prefetch hint */
    void (*fn)(struct hive_task *self); /* what running the task means */
    /* ---- the scheduler's part (sched/; queues never touch these) ---- */
    struct hive_group *group;          /* group to signal when done, or NULL */
    _Atomic unsigned state;            /* idle or queued: the scheduler's alone */
    unsigned char kind;                /* how it runs: the scheduler's alone */
    /* ---- the global queue's again (here, where it costs no padding) ---- */
    unsigned char chunk_len;           /* a chunk's first task: the tasks in the chunk */
};

#endif
