/*
 * Differential fuzzer of the queues (libFuzzer): random sequences of ring push
 * (single and in bursts that overflow), pop, steal (whole, or claim and finish
 * split with other operations in between, the way a preempted thief sees
 * them), refill, global push/pop (single and batched), deque push/pop/steal and
 * shared-queue push/pop, each checked against a plain-array reference model:
 * every returned task, every ring index and every length must match, and at
 * the end every task created must come out exactly once.
 *
 * Built by tests/host/CMakeLists.txt with clang -fsanitize=fuzzer,address,
 * undefined, twice: fuzz_queues with the real capacities (ring 256) and
 * fuzz_queues_small with a ring of 8, a deque of 8 and a shared queue of 8,
 * where overflow and wrap-around come every few operations. ctest runs each
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
#include "sched/shared_queue.h"

#define CAP HIVE_RING_CAP
#define HALF HIVE_RING_HALF
#define NR 3              /* rings, one per core */
#define MAXT (1u << 15)   /* tasks created per input at most */

/* ---- the system under test ---- */
static struct hive_task tasks[MAXT];
static struct hive_ring ring[NR];
static struct hive_global global;
static struct hive_deque deque;
static struct hive_shared_queue shared;
static unsigned created;

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
static unsigned dq[HIVE_DEQUE_CAP], dn;   /* deque, bottom last */
static unsigned sq[HIVE_SHARED_CAP], sn;  /* shared queue, oldest first */
static unsigned char seen[MAXT];
static unsigned op_no;

#define NONE (~0u)

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
    uint64_t h = atomic_load(&ring[i].head);
    EXPECT(hive_ring_steal_head(h) == m[i].steal, "ring %u steal %u, model %u", i,
           hive_ring_steal_head(h), m[i].steal);
    EXPECT(hive_ring_real_head(h) == m[i].real, "ring %u real %u, model %u", i,
           hive_ring_real_head(h), m[i].real);
    EXPECT(atomic_load(&ring[i].tail) == m[i].tail, "ring %u tail %u, model %u", i,
           atomic_load(&ring[i].tail), m[i].tail);
    EXPECT(m[i].tail - m[i].real == m[i].n, "model ring %u inconsistent", i);
    EXPECT(hive_ring_len(&ring[i]) == m[i].n, "ring %u len %u, model %u", i,
           hive_ring_len(&ring[i]), m[i].n);
}

static void check_all(void)
{
    for (unsigned i = 0; i < NR; i++)
        check_ring(i);
    EXPECT(hive_global_len(&global) == gn, "global len %lu, model %u", hive_global_len(&global), gn);
    EXPECT(hive_deque_len(&deque) == dn, "deque len %u, model %u", hive_deque_len(&deque), dn);
    EXPECT(hive_shared_len(&shared) == sn, "shared len %u, model %u", hive_shared_len(&shared), sn);
}

static struct hive_task *new_task(void)
{
    return created < MAXT ? &tasks[created++] : NULL;
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
    hive_ring_push(&ring[i], t, &global);
    struct mring *r = &m[i];
    if (r->tail - r->steal < CAP) {
        r->item[r->n++] = tid;
        r->tail++;
    } else if (r->steal != r->real) {
        gq[(gh + gn++) % MAXT] = tid;
    } else {
        /* overflow: newer half + t to the global queue, older half stays */
        for (unsigned k = HALF; k < CAP; k++)
            gq[(gh + gn++) % MAXT] = r->item[k];
        gq[(gh + gn++) % MAXT] = tid;
        r->n = HALF;
        r->steal = r->real = r->tail;
        r->tail += HALF;
    }
}

static void op_pop(unsigned i)
{
    if (pending[i].active)
        return;
    struct hive_task *t = hive_ring_pop(&ring[i]);
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
    enum hive_steal_result r = hive_ring_steal_claim(&ring[victim], &ring[thief], &c);
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
    struct hive_task *t = hive_ring_steal_finish(&ring[mc->victim], &ring[thief], &mc->c);
    unsigned want = model_finish(thief, mc);
    mc->active = 0;
    got(t, want, "steal finish");
}

static void op_steal(unsigned thief, unsigned victim)
{
    if (pending[thief].active)
        return;
    struct mclaim mc;
    struct hive_task *t = hive_ring_steal(&ring[victim], &ring[thief]);
    unsigned want = model_claim(thief, victim, &mc) == HIVE_STEAL_OK ? model_finish(thief, &mc) : NONE;
    got(t, want, "steal");
}

static void op_refill(unsigned i, unsigned cores)
{
    if (pending[i].active)
        return;
    struct hive_task *t = hive_ring_refill(&ring[i], &global, cores);
    struct mring *r = &m[i];
    unsigned want = NONE;
    if (gn) {
        unsigned n = gn / cores + 1, room = CAP - (r->tail - r->steal);
        if (n > room + 1)
            n = room + 1;
        if (n > HALF)
            n = HALF;
        if (n > gn)
            n = gn;
        want = gpop();
        for (unsigned k = 1; k < n; k++)
            r->item[r->n++] = gpop();
        r->tail += n - 1;
    }
    got(t, want, "refill");
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
    if (n == 1 && (k & 1))
        hive_global_push(&global, first);
    else
        hive_global_push_batch(&global, first, last, n);
}

static void op_global_pop(unsigned max)
{
    unsigned long n;
    struct hive_task *l = hive_global_pop_batch(&global, max, &n);
    unsigned want_n = gn < max ? gn : max;
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
    struct hive_task *back = hive_deque_push(&deque, t);
    if (dn == HIVE_DEQUE_CAP) {
        EXPECT(back == t, "deque push when full must hand the task back");
        take(id(t));
    } else {
        EXPECT(back == NULL, "deque push refused with %u queued", dn);
        dq[dn++] = id(t);
    }
}

static void op_deque_pop(void)
{
    got(hive_deque_pop(&deque), dn ? dq[--dn] : NONE, "deque pop");
}

static void op_deque_steal(void)
{
    struct hive_task *t = NULL;
    enum hive_steal_result r = hive_deque_steal(&deque, &t);
    EXPECT(r == (dn ? HIVE_STEAL_OK : HIVE_STEAL_EMPTY), "deque steal %d with %u queued", r, dn);
    got(r == HIVE_STEAL_OK ? t : NULL, dn ? front_pop(dq, &dn) : NONE, "deque steal");
}

static void op_shared_push(void)
{
    struct hive_task *t = new_task();
    if (!t)
        return;
    struct hive_task *back = hive_shared_push(&shared, t);
    if (sn == HIVE_SHARED_CAP) {
        EXPECT(back == t, "shared push when full must hand the task back");
        take(id(t));
    } else {
        EXPECT(back == NULL, "shared push refused with %u queued", sn);
        sq[sn++] = id(t);
    }
}

static void op_shared_pop(void)
{
    got(hive_shared_pop(&shared), sn ? front_pop(sq, &sn) : NONE, "shared pop");
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
    gh = gn = dn = sn = 0;
    op_no = 0;

    uint32_t start = start_index(&in);
    for (unsigned i = 0; i < NR; i++) {
        hive_ring_init_at(&ring[i], start);
        m[i].steal = m[i].real = m[i].tail = start;
    }
    hive_global_init(&global);
    hive_deque_init_at(&deque, start);
    hive_shared_init_at(&shared, start);

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
        case 9: op_refill(core, 1 + a % 8); break;
        case 10: op_global_push(1 + a % 9); break;
        case 11: op_global_pop(a % (HALF + 2)); break;
        case 12: op_deque_push(); break;
        case 13: (a & 1) ? op_deque_pop() : op_deque_steal(); break;
        case 14: op_shared_push(); break;
        default: op_shared_pop(); break;
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
    while (sn)
        op_shared_pop();
    op_shared_pop();
    check_all();
    for (unsigned t = 0; t < created; t++)
        EXPECT(seen[t] == 1, "task %u came out %u times", t, seen[t]);
    return 0;
}
