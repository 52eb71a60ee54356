/*
 * Differential fuzzer of the queues (libFuzzer): random sequences of ring push
 * (single and in bursts that overflow), pop, steal (the scheduler's
 * hive_steal_from, or a ring claim and finish split with other operations in
 * between, the way a preempted thief sees them), global pulls (the
 * scheduler's hive_take_global), global push/pop (single and batched), and
 * fork-join deque push/pop/steal, and in stretches where the deque is solo (a
 * run of one worker: no steals from it) the deep group wait's take from its
 * middle, which leaves a hole, and pops limited to an index, which drop the
 * holes they pass; each checked against a plain-array reference model: every returned task, every ring index, every length and the steal
 * counts must match, and at the end every task created must come out exactly
 * once.
 *
 * Built by tests/host/CMakeLists.txt with clang -fsanitize=fuzzer,address,
 * undefined, twice: fuzz_queues with the real capacities (ring 256) and
 * fuzz_queues_small with a ring of 8 and a deque of 8, where overflow and
 * wrap-around come every few operations. ctest runs each
 * for a short fixed number of inputs. A long run (an hour, both cores):
 *
 *   cmake --build build/host --target fuzz_queues fuzz_queues_small
 *   mkdir -p build/host/fuzz-corpus build/host/fuzz-corpus-small
 *   build/host/tests/host/fuzz_queues -max_total_time=3600 -max_len=4096 \
 *       -jobs=2 -workers=2 build/host/fuzz-corpus
 *   build/host/tests/host/fuzz_queues_small -max_total_time=3600 -max_len=4096 \
 *       -jobs=2 -workers=2 build/host/fuzz-corpus-small
 *
 * A failure prints the operation and the mismatch, then aborts; libFuzzer saves
 * the input as crash-*, which replays with: fuzz_queues crash-<hash>.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sched/deque.h"
#include "sched/global_queue.h"
#include "sched/ring.h"
#include "sched/steal.h"

#define CAP HIVE_RING_CAP
#define HALF HIVE_RING_HALF
#define NR 3              /* cores; core 0's fork-join deque is the one deque used */
#define MAXT (1u << 15)   /* tasks created per input at most */

/* ---- the system under test ---- */
static struct hive_task tasks[MAXT];
static struct hive_core_queues q[NR];
static struct hive_core_stats stats; /* every core's, summed */
static struct hive_global global;
static unsigned created;
#define ring(i) (&q[i].ring)
#define deque (&q[0].forkjoin)

/* ---- the reference model: plain arrays, memmove, no cleverness ---- */
struct mring {
    uint32_t steal, real, tail; /* what the ring's indices must be */
    unsigned n, item[CAP];      /* queued tasks [real, tail), oldest first */
};
struct mclaim {                 /* a thief between claim and finish */
    int active;
    unsigned victim;
    unsigned n, item[HALF];
    struct hive_ring_claim c;   /* what the real claim returned */
};
static struct mring m[NR];
static struct mclaim pending[NR]; /* by thief */
static unsigned gq[MAXT], gh, gn; /* global queue, circular: gn from gh, oldest first */
static unsigned gc[MAXT], gch, gcn; /* its chunks' lengths, circular: gcn from gch, oldest first */
static unsigned dq[HIVE_DEQUE_CAP], dn;   /* core 0's deque, bottom last; HOLE: a taken slot */
static bool solo;                         /* core 0's deque is solo: nothing steals from it */
static struct hive_core_stats mstats;     /* what stats must count */
static unsigned char seen[MAXT];
static unsigned op_no;

#define NONE (~0u)
#define HOLE (~1u)

static unsigned id(struct hive_task *t)
{
    if (!t)
        return NONE;
    if (t < tasks || t >= tasks + MAXT) {
        fprintf(stderr, "op %u: pointer %p is no task\n", op_no, (void *)t);
        abort();
    }
    return (unsigned)(t - tasks);
}

#define EXPECT(cond, ...)                                                      \
    do {                                                                       \
        if (!(cond)) {                                                         \
            fprintf(stderr, "op %u: %s: ", op_no, #cond);                      \
            fprintf(stderr, __VA_ARGS__);                                      \
            fputc('\n', stderr);                                               \
            abort();                                                           \
        }                                                                      \
    } while (0)

static void take(unsigned t)
{
    EXPECT(t < created, "task %u never created", t);
    EXPECT(seen[t] == 0, "task %u out twice", t);
    seen[t] = 1;
}

static void got(struct hive_task *real, unsigned want, const char *what)
{
    unsigned r = id(real);
    EXPECT(r == want, "%s returned %d, model says %d", what, (int)r, (int)want);
    if (r != NONE)
        take(r);
}

static unsigned front_pop(unsigned *a, unsigned *n)
{
    unsigned x = a[0];
    memmove(a, a + 1, (*n - 1) * sizeof *a);
    (*n)--;
    return x;
}

/* The global queue's chunks (sched/global_queue.h): the k tasks just added
 * to gq as one push join the newest chunk if it stays within
 * HIVE_GLOBAL_CHUNK, else they are cut into chunks of HIVE_GLOBAL_CHUNK, the
 * last one taking the remainder. */
static void gchunks_push(unsigned k)
{
    if (gcn && gc[(gch + gcn - 1) % MAXT] + k <= HIVE_GLOBAL_CHUNK) {
        gc[(gch + gcn - 1) % MAXT] += k;
        return;
    }
    while (k > HIVE_GLOBAL_CHUNK_MAX) {
        gc[(gch + gcn++) % MAXT] = HIVE_GLOBAL_CHUNK;
        k -= HIVE_GLOBAL_CHUNK;
    }
    gc[(gch + gcn++) % MAXT] = k;
}

/* How many a pull of max (> 0) takes: the oldest chunk whole if it holds
 * fewer than 2 * max, else max of it. 0 when the queue is empty. */
static unsigned gchunks_pop(unsigned max)
{
    if (!gcn)
        return 0;
    unsigned c = gc[gch];
    if (c < 2 * max) {
        gch = (gch + 1) % MAXT;
        gcn--;
        return c;
    }
    gc[gch] = c - max;
    return max;
}

/* At most MAXT tasks exist, so the circular model never overfills. */
static unsigned gpop(void)
{
    unsigned x = gq[gh];
    gh = (gh + 1) % MAXT;
    gn--;
    return x;
}

static void check_ring(unsigned i)
{
    uint64_t h = atomic_load(&ring(i)->head);
    EXPECT(hive_ring_steal_head(h) == m[i].steal, "ring %u steal %u, model %u", i,
           hive_ring_steal_head(h), m[i].steal);
    EXPECT(hive_ring_real_head(h) == m[i].real, "ring %u real %u, model %u", i,
           hive_ring_real_head(h), m[i].real);
    EXPECT(atomic_load(&ring(i)->tail) == m[i].tail, "ring %u tail %u, model %u", i,
           atomic_load(&ring(i)->tail), m[i].tail);
    EXPECT(m[i].tail - m[i].real == m[i].n, "model ring %u inconsistent", i);
    EXPECT(hive_ring_len(ring(i)) == m[i].n, "ring %u len %u, model %u", i,
           hive_ring_len(ring(i)), m[i].n);
}

/* The global queue's list as its invariants say (sched/global_queue.c, the
 * top), read under no lock (this test has one thread): the model's tasks in
 * order, cut into the model's chunks, each chunk's first task holding its
 * length and the next chunk's first (NULL after the newest), and every
 * other task's chunk_next a prefetch hint - NULL, or the task
 * HIVE_GLOBAL_HINT_AHEAD after it in the same chunk. A hint anywhere else
 * (one left from an earlier push, or one across a cut) fails here. */
static void check_global(void)
{
    struct hive_task *t = global.head, *in_chunk[HIVE_GLOBAL_CHUNK_MAX];
    unsigned at = 0;
    for (unsigned c = 0; c < gcn; c++) {
        unsigned len = gc[(gch + c) % MAXT];
        EXPECT(t != NULL && t->chunk_len == len, "global chunk %u: %s, model %u", c,
               t ? "another length" : "missing", len);
        struct hive_task *first = t;
        for (unsigned i = 0; i < len; i++, at++) {
            EXPECT(t != NULL && id(t) == gq[(gh + at) % MAXT], "global task %u: %d, model %u", at,
                   t ? (int)id(t) : -1, gq[(gh + at) % MAXT]);
            in_chunk[i] = t;
            t = t->next;
        }
        EXPECT(first->chunk_next == t, "global chunk %u: its link is not the next chunk's first", c);
        for (unsigned i = 1; i < len; i++) {
            struct hive_task *hint = in_chunk[i]->chunk_next;
            EXPECT(!hint || (i + HIVE_GLOBAL_HINT_AHEAD < len &&
                             hint == in_chunk[i + HIVE_GLOBAL_HINT_AHEAD]),
                   "global chunk %u, task %u of %u: a hint to task %d", c, i, len, (int)id(hint));
        }
    }
    EXPECT(t == NULL && at == gn, "global list: %u tasks then %s, model %u", at,
           t ? "more" : "its end", gn);
}

static void check_all(void)
{
    for (unsigned i = 0; i < NR; i++)
        check_ring(i);
    EXPECT(hive_global_len(&global) == gn, "global len %lu, model %u", hive_global_len(&global), gn);
    check_global();
    EXPECT(hive_deque_len(deque) == dn, "deque len %u, model %u", hive_deque_len(deque), dn);
    EXPECT(stats.steal_attempts == mstats.steal_attempts && stats.steals == mstats.steals &&
               stats.stolen_tasks == mstats.stolen_tasks && stats.global_pulls == mstats.global_pulls,
           "counts %lu/%lu/%lu/%lu, model %lu/%lu/%lu/%lu",
           (unsigned long)stats.steal_attempts, (unsigned long)stats.steals,
           (unsigned long)stats.stolen_tasks, (unsigned long)stats.global_pulls,
           (unsigned long)mstats.steal_attempts, (unsigned long)mstats.steals,
           (unsigned long)mstats.stolen_tasks, (unsigned long)mstats.global_pulls);
}

/* A header as one reused would come: the queue's own fields (task.h) hold
 * what its last time in a queue left there - here another task and a
 * length - which no queue may take for its own. */
static struct hive_task *new_task(void)
{
    if (created == MAXT)
        return NULL;
    struct hive_task *t = &tasks[created++];
    t->next = &tasks[(created * 7919u) % MAXT];
    t->chunk_next = &tasks[(created * 104729u) % MAXT];
    t->chunk_len = (unsigned char)created;
    return t;
}

/* ---- operations: the real call, then the model's prediction ---- */

static void op_push(unsigned i)
{
    if (pending[i].active)
        return; /* a thief mid-steal is not running its own ring */
    struct hive_task *t = new_task();
    if (!t)
        return;
    unsigned tid = id(t);
    hive_ring_push(ring(i), t, &global);
    struct mring *r = &m[i];
    if (r->tail - r->steal < CAP) {
        r->item[r->n++] = tid;
        r->tail++;
    } else if (r->steal != r->real) {
        gq[(gh + gn++) % MAXT] = tid;
        gchunks_push(1);
    } else {
        /* overflow: newer half + t to the global queue, older half stays */
        for (unsigned k = HALF; k < CAP; k++)
            gq[(gh + gn++) % MAXT] = r->item[k];
        gq[(gh + gn++) % MAXT] = tid;
        gchunks_push(HALF + 1);
        r->n = HALF;
        r->steal = r->real = r->tail;
        r->tail += HALF;
    }
}

static void op_pop(unsigned i)
{
    if (pending[i].active)
        return;
    struct hive_task *t = hive_ring_pop(ring(i));
    struct mring *r = &m[i];
    unsigned want = NONE;
    if (r->n) {
        want = front_pop(r->item, &r->n);
        if (r->steal == r->real)
            r->steal++;
        r->real++;
    }
    got(t, want, "ring pop");
}

static enum hive_steal_result model_claim(unsigned thief, unsigned victim, struct mclaim *mc)
{
    struct mring *v = &m[victim], *d = &m[thief];
    if (thief == victim)
        return HIVE_STEAL_EMPTY;
    if (v->steal != v->real)
        return HIVE_STEAL_BUSY;
    if (v->n == 0)
        return HIVE_STEAL_EMPTY;
    unsigned n = v->n - v->n / 2;
    if (n > HALF)
        n = HALF;
    if (n - 1 > CAP - (d->tail - d->steal))
        return HIVE_STEAL_NO_ROOM;
    mc->victim = victim;
    mc->n = n;
    for (unsigned k = 0; k < n; k++)
        mc->item[k] = front_pop(v->item, &v->n);
    v->real += n;
    return HIVE_STEAL_OK;
}

static unsigned model_finish(unsigned thief, struct mclaim *mc)
{
    struct mring *v = &m[mc->victim], *d = &m[thief];
    for (unsigned k = 1; k < mc->n; k++)
        d->item[d->n++] = mc->item[k];
    d->tail += mc->n - 1;
    v->steal = v->real;
    return mc->item[0];
}

static void op_claim(unsigned thief, unsigned victim)
{
    struct mclaim *mc = &pending[thief];
    if (mc->active)
        return;
    struct hive_ring_claim c;
    enum hive_steal_result r = hive_ring_steal_claim(ring(victim), ring(thief), &c);
    enum hive_steal_result want = model_claim(thief, victim, mc);
    EXPECT(r == want, "claim %u<-%u: %d, model %d", thief, victim, r, want);
    if (r == HIVE_STEAL_OK) {
        EXPECT(c.n == mc->n && c.start == m[victim].real - mc->n, "claim %u<-%u: n %u start %u",
               thief, victim, c.n, c.start);
        mc->c = c;
        mc->active = 1;
    }
}

static void op_finish(unsigned thief)
{
    struct mclaim *mc = &pending[thief];
    if (!mc->active)
        return;
    struct hive_task *t = hive_ring_steal_finish(ring(mc->victim), ring(thief), &mc->c);
    unsigned want = model_finish(thief, mc);
    mc->active = 0;
    got(t, want, "steal finish");
}

/* The scheduler's steal: core 0's deque first (the only one with entries),
 * then half the ring. */
static void op_steal(unsigned thief, unsigned victim)
{
    if (pending[thief].active || (solo && victim == 0 && thief != victim))
        return;
    struct hive_task *t = hive_steal_from(&q[victim], &q[thief], &stats);
    unsigned want = NONE;
    if (thief != victim) {
        mstats.steal_attempts++;
        struct mclaim mc;
        if (victim == 0 && dn) {
            want = front_pop(dq, &dn);
            mstats.steals++;
            mstats.stolen_tasks++;
        } else if (model_claim(thief, victim, &mc) == HIVE_STEAL_OK) {
            want = model_finish(thief, &mc);
            mstats.steals++;
            mstats.stolen_tasks += mc.n;
        }
    }
    got(t, want, "steal");
}

/* The scheduler's pull: it asks for min(len / cores + 1, HIVE_GLOBAL_BATCH),
 * in order, and gets what the chunks give (gchunks_pop); without a place for
 * the rest (the worker's ring is not empty), one. */
static void op_take_global(unsigned cores, bool batch)
{
    struct hive_task *rest = &tasks[0];
    struct hive_task *t = hive_take_global(&global, cores, batch ? &rest : NULL, &stats);
    if (!gn) {
        got(t, NONE, "take_global");
        EXPECT(rest == &tasks[0], "take_global from an empty queue wrote *rest");
        return;
    }
    unsigned n = batch ? gn / cores + 1 : 1;
    if (n > HIVE_GLOBAL_BATCH)
        n = HIVE_GLOBAL_BATCH;
    n = gchunks_pop(n);
    mstats.global_pulls++;
    got(t, gpop(), "take_global");
    if (!batch) {
        EXPECT(rest == &tasks[0], "take_global of one wrote *rest");
        return;
    }
    for (unsigned k = 1; k < n; k++) {
        EXPECT(rest != NULL, "take_global's rest short at %u of %u", k, n);
        struct hive_task *next = rest->next;
        got(rest, gpop(), "take_global rest");
        rest = next;
    }
    EXPECT(rest == NULL, "take_global's rest not NULL-terminated");
}

static void op_global_push(unsigned k)
{
    struct hive_task *first = NULL, *last = NULL, *t;
    unsigned n = 0;
    while (n < k && (t = new_task()) != NULL) {
        if (last)
            last->next = t;
        else
            first = t;
        last = t;
        gq[(gh + gn++) % MAXT] = id(t);
        n++;
    }
    if (n)
        gchunks_push(n);
    if (n == 1 && (k & 1))
        hive_global_push(&global, first);
    else
        hive_global_push_batch(&global, first, last, n);
}

static void op_global_pop(unsigned max)
{
    unsigned long n;
    struct hive_task *l = hive_global_pop_batch(&global, max, &n);
    unsigned want_n = max ? gchunks_pop(max) : 0;
    EXPECT(n == want_n, "global pop_batch(%u): %lu, model %u", max, n, want_n);
    for (unsigned k = 0; k < want_n; k++) {
        EXPECT(l != NULL, "global batch short at %u", k);
        struct hive_task *next = l->next;
        got(l, gpop(), "global pop");
        l = next;
    }
    EXPECT(l == NULL, "global batch not NULL-terminated");
}

static void op_deque_push(void)
{
    struct hive_task *t = new_task();
    if (!t)
        return;
    struct hive_task *back = hive_deque_push(deque, t);
    if (dn == HIVE_DEQUE_CAP) {
        EXPECT(back == t, "deque push when full must hand the task back");
        take(id(t));
    } else {
        EXPECT(back == NULL, "deque push refused with %u queued", dn);
        dq[dn++] = id(t);
    }
}

/* The model's pop of entries at index `limit` (counted from top) or above:
 * the holes it passes are dropped. */
static unsigned model_pop_above(unsigned limit)
{
    while (dn > limit) {
        unsigned x = dq[--dn];
        if (x != HOLE)
            return x;
    }
    return NONE;
}

static void op_deque_pop(void)
{
    got(hive_deque_pop(deque), model_pop_above(0), "deque pop");
}

/* Solo only: a pop limited to index top + k, as a deep wait's at its floor
 * or a joiner's at its frame (k may lie above bottom: nothing is taken). */
static void op_deque_pop_above(unsigned k)
{
    if (!solo)
        return;
    uint32_t limit = hive_deque_top_solo(deque) + k;
    got(hive_deque_pop_above(deque, limit), model_pop_above(k), "deque pop above");
    EXPECT(hive_deque_bottom(deque) == hive_deque_top_solo(deque) + dn, "deque bottom after pop above");
}

/* Solo only: take the entry at index top + j (not a hole): a hole stays in
 * its slot unless it was the newest. */
static void op_deque_take_solo(unsigned j)
{
    if (!solo || !dn || dq[j % dn] == HOLE)
        return;
    j %= dn;
    got(hive_deque_take_solo(deque, hive_deque_top_solo(deque) + j), dq[j], "deque take solo");
    if (j + 1 == dn)
        dn--;
    else
        dq[j] = HOLE;
}

/* Solo begins or ends, as between runs: only with the deque empty (the
 * holes popped; a run's reset would drop them). */
static void op_deque_solo_toggle(void)
{
    if (dn)
        return;
    solo = !solo;
    deque->solo = solo;
}

static void op_deque_steal(void)
{
    if (solo)
        return;
    struct hive_task *t = NULL;
    enum hive_steal_result r = hive_deque_steal(deque, &t);
    EXPECT(r == (dn ? HIVE_STEAL_OK : HIVE_STEAL_EMPTY), "deque steal %d with %u queued", r, dn);
    got(r == HIVE_STEAL_OK ? t : NULL, dn ? front_pop(dq, &dn) : NONE, "deque steal");
}

/* The leapfrogging steal of a join wait: core 0's deque only. */
static void op_steal_forkjoin(void)
{
    if (solo)
        return;
    struct hive_task *t = hive_steal_forkjoin(&q[0], &stats);
    unsigned want = NONE;
    if (dn) {
        want = front_pop(dq, &dn);
        mstats.steals++;
        mstats.stolen_tasks++;
    }
    got(t, want, "steal_forkjoin");
}

/* ---- the driver ---- */

struct input {
    const uint8_t *p;
    size_t n;
};

static unsigned byte(struct input *in)
{
    if (!in->n)
        return 0;
    in->n--;
    return *in->p++;
}

static uint32_t start_index(struct input *in)
{
    unsigned mode = byte(in);
    uint32_t low = byte(in) | byte(in) << 8;
    switch (mode % 4) {
    case 0: return 0;
    case 1: return 0u - low;          /* wraps within the first 2^16 */
    case 2: return 0u - (low & 0x3ff); /* wraps very soon */
    default: return low | (uint32_t)byte(in) << 16 | (uint32_t)byte(in) << 24;
    }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    struct input in = {data, size};
    memset(tasks, 0, created * sizeof tasks[0]);
    memset(seen, 0, created);
    created = 0;
    memset(m, 0, sizeof m);
    memset(pending, 0, sizeof pending);
    gh = gn = dn = 0;
    solo = false;
    gch = gcn = 0;
    stats = mstats = (struct hive_core_stats){0};
    op_no = 0;

    uint32_t start = start_index(&in);
    for (unsigned i = 0; i < NR; i++) {
        hive_core_queues_init_at(&q[i], HIVE_QUEUE_ANY_OWNER, start);
        m[i].steal = m[i].real = m[i].tail = start;
    }
    hive_global_init(&global);

    while (in.n) {
        unsigned op = byte(&in), a = byte(&in);
        unsigned core = a % NR, other = (a / NR) % NR;
        op_no++;
        switch (op % 16) {
        case 0: case 1: case 2: op_push(core); break;
        case 3: /* burst: up to 2 rings' worth, enough to overflow */
            for (unsigned k = 0, n = 1 + a + (byte(&in) & 1) * CAP; k < n; k++)
                op_push(0);
            break;
        case 4: case 5: op_pop(core); break;
        case 6: op_steal(core, other); break;
        case 7: op_claim(core, other); break;
        case 8: op_finish(core); break;
        case 9: op_take_global(1 + a % 8, a & 8); break;
        case 10: /* short pushes that join chunks, and long ones that are cut */
            op_global_push(a & 0x80 ? 1 + a % (2 * HIVE_GLOBAL_CHUNK_MAX + 4) : 1 + a % 9);
            break;
        case 11: op_global_pop(a % (HALF + 2)); break;
        case 12: op_deque_push(); break;
        case 13:
            switch (a % 8) {
            case 0: case 1: case 2: op_deque_pop(); break;
            case 3: op_deque_pop_above(byte(&in) % (HIVE_DEQUE_CAP + 2)); break;
            case 4: op_deque_take_solo(byte(&in)); break;
            case 5: op_deque_solo_toggle(); break;
            default: op_deque_steal(); break;
            }
            break;
        case 14: op_steal(core, other); break;
        default: op_steal_forkjoin(); break;
        }
        check_all();
    }

    /* Drain: finish every steal, empty every queue; each task once. */
    op_no++;
    for (unsigned i = 0; i < NR; i++)
        op_finish(i);
    for (unsigned i = 0; i < NR; i++)
        while (m[i].n)
            op_pop(i);
    op_pop(0);
    while (gn)
        op_global_pop(HALF);
    op_global_pop(1);
    while (dn)
        op_deque_pop();
    op_deque_pop();
    check_all();
    for (unsigned t = 0; t < created; t++)
        EXPECT(seen[t] == 1, "task %u came out %u times", t, seen[t]);
    return 0;
}
