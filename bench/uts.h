/*
 * UTS, the Unbalanced Tree Search benchmark (Olivier et al., LCPC 2006): count
 * the nodes of a tree that exists only as a rule. Each node holds a 20-byte
 * random state; its number of children is drawn from that state, and child i's
 * state is SHA-1(parent's state || i as 4 big-endian bytes) - UTS's splittable
 * generator - so the tree is the same whichever core expands which node, and
 * its size is a published number. Work per node: one SHA-1 block; shape:
 * deliberately unbalanced, so the cores must keep stealing.
 *
 * The two trees of the benchmark, from UTS's sample trees (sample_trees.sh),
 * with their published sizes (uts_known):
 *   T1  geometric, fixed shape: -t 1 -a 3 -d 10 -b 4 -r 19    4,130,071 nodes
 *       (each node above depth 10 has a geometric number of children of
 *       mean 4; none at depth 10); shallow and bushy.
 *   T3  binomial: -t 0 -b 2000 -q 0.124875 -m 8 -r 42         4,112,897 nodes
 *       (the root has 2000 children, every other node 8 with probability
 *       0.124875, else none); deep (1572 levels) and narrow.
 * The benchmark's size parameter shrinks them: T1's depth limit d, T3's root
 * branching b. T1 at a smaller d is the same tree cut at depth d; T3 at a
 * smaller b keeps the root's first b subtrees. Their sizes are not published:
 * the checker knows a few (uts_known) and counts any other with the serial
 * version (uts_expect).
 *
 * Every parallel version is written the same way: one task per node. A node
 * draws its child count; a leaf returns 1; any other node spawns one task per
 * child into a group (hive_group, tbb::task_group, OpenMP task + taskwait,
 * rayon::scope), each computing its own state from the parent's and counting
 * its subtree into its own slot, then waits and returns 1 + the slots' sum.
 * Slots (and hive's task headers) live in the node's frame up to
 * UTS_INLINE_CHILDREN, in one malloc'd array above (the same rule everywhere).
 *
 * Plain C that also compiles as C++; bench/rayon/src/uts.rs is the same code
 * in Rust. The generator follows UTS's reference code (rng/brg_sha1.c:
 * rng_init, rng_spawn, rng_rand; uts.c: the child-count rules).
 */
#ifndef HIVE_BENCH_UTS_H
#define HIVE_BENCH_UTS_H

#include <math.h>
#include <stdint.h>

#include "sha1.h"

#define UTS_INLINE_CHILDREN 16
/* UTS's cap on the children of any node but a binomial root. */
#define UTS_MAX_CHILDREN 100

enum uts_kind { UTS_BINOMIAL = 0, UTS_GEOMETRIC_FIXED = 1 };

struct uts_tree {
    enum uts_kind kind;
    double b0;         /* -b: the root's branching (binomial), or the mean (geometric) */
    int gen_mx;        /* -d: geometric: no children at this depth */
    double q;          /* -q: binomial: probability that a node has children */
    unsigned m;        /* -m: binomial: how many it then has */
    int seed;          /* -r: the root's seed */
};

struct uts_node {
    uint8_t state[SB_SHA1_BYTES];
    int height; /* the root is 0 */
};

/* T1 cut at depth d (d = 10: the published T1). */
static inline struct uts_tree uts_t1(unsigned d)
{
    struct uts_tree t = {UTS_GEOMETRIC_FIXED, 4.0, (int)d, 0.0, 0, 19};
    return t;
}

/* T3 with the root's first b subtrees (b = 2000: the published T3). */
static inline struct uts_tree uts_t3(unsigned b)
{
    struct uts_tree t = {UTS_BINOMIAL, (double)b, 0, 0.124875, 8, 42};
    return t;
}

/* The size of the tree if it is known, else 0: T1 (d = 10) and T3 (b = 2000)
 * as published with UTS; T1 cut at depth 4 to 9 and T3 with 20 root subtrees
 * (the smoke test's and the warm-ups' sizes) as counted by this code, which
 * gives the published sizes - so the smoke test checks the generator too. */
static inline uint64_t uts_known(const struct uts_tree *t)
{
    static const uint64_t t1_by_depth[11] = {0, 0, 0, 0, 944, 3987, 16000, 63914, 257042, 1031269,
                                             4130071};
    if (t->kind == UTS_GEOMETRIC_FIXED && t->b0 == 4.0 && t->seed == 19 && t->gen_mx >= 0 &&
        t->gen_mx <= 10)
        return t1_by_depth[t->gen_mx];
    if (t->kind == UTS_BINOMIAL && t->q == 0.124875 && t->m == 8 && t->seed == 42) {
        if (t->b0 == 2000.0)
            return 4112897;
        if (t->b0 == 20.0)
            return 6213;
    }
    return 0;
}

/* The root: its state is SHA-1 of 16 zero bytes and the seed (big-endian). */
static inline void uts_root(const struct uts_tree *t, struct uts_node *root)
{
    uint8_t msg[20] = {0};
    uint32_t s = (uint32_t)t->seed;
    msg[16] = (uint8_t)(s >> 24), msg[17] = (uint8_t)(s >> 16);
    msg[18] = (uint8_t)(s >> 8), msg[19] = (uint8_t)s;
    sb_sha1(msg, sizeof msg, root->state);
    root->height = 0;
}

/* Child i of parent. */
static inline void uts_child(const struct uts_node *parent, unsigned i, struct uts_node *child)
{
    uint8_t msg[SB_SHA1_BYTES + 4];
    memcpy(msg, parent->state, SB_SHA1_BYTES);
    msg[20] = (uint8_t)(i >> 24), msg[21] = (uint8_t)(i >> 16);
    msg[22] = (uint8_t)(i >> 8), msg[23] = (uint8_t)i;
    sb_sha1(msg, sizeof msg, child->state);
    child->height = parent->height + 1;
}

/* The node's uniform draw in [0, 1): its state's last 4 bytes, 31 bits. */
static inline double uts_uniform(const struct uts_node *n)
{
    uint32_t r = (uint32_t)n->state[16] << 24 | (uint32_t)n->state[17] << 16 |
                 (uint32_t)n->state[18] << 8 | (uint32_t)n->state[19];
    return (double)(r & 0x7fffffffu) / 2147483648.0;
}

static inline unsigned uts_num_children(const struct uts_tree *t, const struct uts_node *n)
{
    if (t->kind == UTS_BINOMIAL) {
        if (n->height == 0)
            return (unsigned)floor(t->b0);
        return uts_uniform(n) < t->q ? t->m : 0;
    }
    /* Geometric with mean b: P(k children) = p (1-p)^k, p = 1 / (1 + b),
     * drawn by inverting its distribution function; b = 0 from depth gen_mx
     * on, where log(1 - p) is -inf and every draw gives 0. */
    double b = n->height < t->gen_mx ? t->b0 : 0.0;
    double p = 1.0 / (1.0 + b);
    int k = (int)floor(log(1.0 - uts_uniform(n)) / log(1.0 - p));
    return k > UTS_MAX_CHILDREN ? UTS_MAX_CHILDREN : (unsigned)k;
}

/* The serial version: the same nodes in the same order, no tasks. */
static inline uint64_t uts_count_serial(const struct uts_tree *t, const struct uts_node *n)
{
    unsigned k = uts_num_children(t, n);
    uint64_t count = 1;
    for (unsigned i = 0; i < k; i++) {
        struct uts_node c;
        uts_child(n, i, &c);
        count += uts_count_serial(t, &c);
    }
    return count;
}

static inline uint64_t uts_serial(const struct uts_tree *t)
{
    struct uts_node root;
    uts_root(t, &root);
    return uts_count_serial(t, &root);
}

static inline int uts_same(const struct uts_tree *a, const struct uts_tree *b)
{
    return a->kind == b->kind && a->b0 == b->b0 && a->gen_mx == b->gen_mx && a->q == b->q &&
           a->m == b->m && a->seed == b->seed;
}

/* The size a run must find: the known one (uts_known: the published sizes of
 * T1 and T3, which also check SHA-1 and the generator), otherwise the serial
 * count, computed once per tree and kept (outside the timing). 0 when SHA-1
 * fails its test vectors. */
static inline uint64_t uts_expect(const struct uts_tree *t)
{
    static struct uts_tree last_tree;
    static uint64_t last;
    static int sha1_ok = -1;
    if (sha1_ok < 0)
        sha1_ok = sb_sha1_selftest();
    if (!sha1_ok)
        return 0;
    uint64_t known = uts_known(t);
    if (known)
        return known;
    if (!last || !uts_same(&last_tree, t)) {
        last = uts_serial(t);
        last_tree = *t;
    }
    return last;
}

/* ---- hive's version (uts_hive.c) ---------------------------------------------- */

struct uts_run {
    struct uts_tree tree; /* in */
    uint64_t nodes;       /* out */
    int err;              /* out: HIVE_OK, or the code of the first refused hive call */
};

/* In task context (a hive_run entry): r->nodes, a task per node, a hive_group
 * per node with children. */
void uts_task(void *r);

#endif
