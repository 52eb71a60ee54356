/*
 * skynet: a 10-ary tree of tasks whose leaves return their own number; every
 * inner node sums its ten children's. With n = 10^6 leaves (numbered 0 to
 * n-1) the sum is n(n-1)/2 = 499,999,500,000, from 1,111,111 nodes of which
 * 1,111,110 are spawned tasks. Almost no work per task: it measures spawning,
 * waiting and stealing in a tree, where fib measures a binary fork-join.
 *
 * Written the same way in every program: a node spawns one task per child
 * into a group (hive_group, tbb::task_group, OpenMP task + taskwait,
 * rayon::scope), each child summing into its own slot in the node's frame,
 * then waits and adds the slots. Plain C that also compiles as C++;
 * bench/rayon/src/main.rs has the same in Rust.
 */
#ifndef HIVE_BENCH_SKYNET_H
#define HIVE_BENCH_SKYNET_H

#include <stdint.h>

#define SKYNET_FANOUT 10

/* n is a power of 10 (1 included): a tree of it can be built. */
static inline int skynet_size_ok(uint64_t n)
{
    while (n > 1 && n % SKYNET_FANOUT == 0)
        n /= SKYNET_FANOUT;
    return n == 1;
}

/* Nodes of the tree over n leaves (n a power of 10): n + n/10 + ... + 1. */
static inline uint64_t skynet_nodes(uint64_t n)
{
    return n <= 1 ? 1 : n + skynet_nodes(n / SKYNET_FANOUT);
}

/* The sum a run must find: the leaves' numbers 0..n-1. */
static inline uint64_t skynet_expect(uint64_t n)
{
    return n * (n - 1) / 2;
}

/* The serial version: the leaves num..num+size-1, the same recursion. */
static inline uint64_t skynet_serial(uint64_t num, uint64_t size)
{
    if (size == 1)
        return num;
    uint64_t sum = 0, sub = size / SKYNET_FANOUT;
    for (unsigned i = 0; i < SKYNET_FANOUT; i++)
        sum += skynet_serial(num + i * sub, sub);
    return sum;
}

/* ---- hive's version (skynet_hive.c) --------------------------------------- */

struct skynet_run {
    uint64_t leaves; /* in: a power of 10 */
    uint64_t sum;    /* out */
    int err;         /* out: HIVE_OK, or the code of the first refused hive call */
};

/* In task context (a hive_run entry): r->sum, a hive_group per inner node and
 * a task per child. */
void skynet_task(void *r);

#endif
