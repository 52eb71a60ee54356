/*
 * The task header: what the run queues store.
 *
 * The queues are intrusive and never allocate: a task is queued by pointer,
 * and the global queue (and any batch handed to it) links tasks through
 * `next`. A task is in at most one queue at a time; while it is queued the
 * queue owns `next`, and nothing else may touch it.
 *
 * Kept minimal on purpose: the scheduler extends this header (state, priority,
 * affinity...) and include/hive/hive.h includes it.
 */
#ifndef HIVE_TASK_H
#define HIVE_TASK_H

struct hive_group;

struct hive_task {
    struct hive_task *next;            /* global queue / batch link */
    void (*fn)(struct hive_task *self); /* what running the task means */
    /* ---- the scheduler's part (sched/; queues never touch these) ---- */
    struct hive_group *group;          /* group to signal when done, or NULL */
    _Atomic unsigned state;            /* idle or queued: the scheduler's alone */
    unsigned char kind;                /* how it runs: the scheduler's alone */
};

#endif
