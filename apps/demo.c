/*
 * The demo that `tools/hive run` boots: a real workload on every core.
 *
 * One hive_run on all cores runs, one after the other:
 *   - fib(27) with hive_join, a task per call and no cutoff (about 320 000
 *     joins: the fork-join overhead dominates, which is the point);
 *   - N-Queens(10), a hive_group per placed queen, counting the 724 solutions;
 *   - a parallel merge sort of 10^6 pseudo-random integers (hive_join for the
 *     halves and for a parallel merge), checked sorted and checksummed.
 * It prints each result with its time, the run's per-core statistics, and
 * ends with one line: "demo: ok cores=N tasks=T steals=S", or
 * "demo: FAILED ..." and a non-zero exit status.
 */
#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hive/hive.h"
#include "kernel/kernel.h"
#include "sched/port.h"

static atomic_uint arrived;

static void hello(void *arg)
{
    (void)arg;
    struct hive_cpu *cpu = arch_this_cpu();
    printf("demo: core %u online (hw id %#lx)\n", cpu->id, (unsigned long)cpu->hw_id);
    atomic_fetch_add(&arrived, 1);
}

static uint64_t ms_since(uint64_t t0)
{
    return (hive_port_now_ns() - t0) / 1000000;
}

/* ---- fib ------------------------------------------------------------------ */

struct fib {
    unsigned n;
    uint64_t r;
};

static void fib(void *p)
{
    struct fib *f = p;
    if (f->n < 2) {
        f->r = f->n;
        return;
    }
    struct fib a = {f->n - 1, 0}, b = {f->n - 2, 0};
    hive_join(fib, &a, fib, &b);
    f->r = a.r + b.r;
}

/* ---- N-Queens ------------------------------------------------------------- */

struct queens {
    struct hive_task task;
    unsigned n, row;
    uint32_t cols, d1, d2;
    uint64_t count;
};

static uint64_t queens_serial(unsigned n, unsigned row, uint32_t cols, uint32_t d1, uint32_t d2)
{
    if (row == n)
        return 1;
    uint64_t c = 0;
    for (uint32_t free = ((1u << n) - 1) & ~(cols | d1 | d2); free; free &= free - 1) {
        uint32_t bit = free & -free;
        c += queens_serial(n, row + 1, cols | bit, (d1 | bit) << 1, (d2 | bit) >> 1);
    }
    return c;
}

static void queens(struct hive_task *t)
{
    struct queens *q = HIVE_CONTAINER_OF(t, struct queens, task);
    if (q->n - q->row <= 3) {
        q->count = queens_serial(q->n, q->row, q->cols, q->d1, q->d2);
        return;
    }
    struct queens child[32];
    unsigned k = 0;
    struct hive_group g = HIVE_GROUP_INIT;
    for (uint32_t free = ((1u << q->n) - 1) & ~(q->cols | q->d1 | q->d2); free; free &= free - 1) {
        uint32_t bit = free & -free;
        struct queens *c = &child[k++];
        memset(c, 0, sizeof *c);
        c->n = q->n;
        c->row = q->row + 1;
        c->cols = q->cols | bit;
        c->d1 = (q->d1 | bit) << 1;
        c->d2 = (q->d2 | bit) >> 1;
        if (hive_group_spawn(&g, &c->task, queens) != HIVE_OK)
            queens(&c->task); /* cannot happen in task context; be safe */
    }
    hive_group_wait(&g);
    q->count = 0;
    for (unsigned i = 0; i < k; i++)
        q->count += child[i].count;
}

/* ---- merge sort --------------------------------------------------------------- */

#define SORT_N 1000000u
#define SORT_CUTOFF 4096u
#define MERGE_CUTOFF 8192u

static int cmp_u32(const void *a, const void *b)
{
    uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
    return (x > y) - (x < y);
}

/* Merge a[0..na) and b[0..nb) into out, in parallel by splitting at a's
 * median and b's matching point. */
struct merge {
    const uint32_t *a, *b;
    size_t na, nb;
    uint32_t *out;
};

static void merge(void *p)
{
    struct merge *m = p;
    if (m->na < m->nb) {
        struct merge s = {m->b, m->a, m->nb, m->na, m->out};
        merge(&s);
        return;
    }
    if (m->na + m->nb <= MERGE_CUTOFF) {
        size_t i = 0, j = 0, k = 0;
        while (i < m->na && j < m->nb)
            m->out[k++] = m->a[i] <= m->b[j] ? m->a[i++] : m->b[j++];
        while (i < m->na)
            m->out[k++] = m->a[i++];
        while (j < m->nb)
            m->out[k++] = m->b[j++];
        return;
    }
    size_t ma = m->na / 2, lo = 0, hi = m->nb;
    uint32_t pivot = m->a[ma];
    while (lo < hi) { /* first b element >= pivot */
        size_t mid = lo + (hi - lo) / 2;
        if (m->b[mid] < pivot)
            lo = mid + 1;
        else
            hi = mid;
    }
    struct merge left = {m->a, m->b, ma, lo, m->out};
    struct merge right = {m->a + ma, m->b + lo, m->na - ma, m->nb - lo, m->out + ma + lo};
    hive_join(merge, &left, merge, &right);
}

/* Sort a[0..n); the result lands in b if into_b, else in a (the other one is
 * scratch): the halves go to the opposite buffer, then merge back. */
struct sort {
    uint32_t *a, *b;
    size_t n;
    bool into_b;
};

static void sort(void *p)
{
    struct sort *s = p;
    if (s->n <= SORT_CUTOFF) {
        qsort(s->a, s->n, sizeof *s->a, cmp_u32);
        if (s->into_b)
            memcpy(s->b, s->a, s->n * sizeof *s->a);
        return;
    }
    size_t h = s->n / 2;
    struct sort l = {s->a, s->b, h, !s->into_b}, r = {s->a + h, s->b + h, s->n - h, !s->into_b};
    hive_join(sort, &l, sort, &r);
    uint32_t *src = s->into_b ? s->a : s->b, *dst = s->into_b ? s->b : s->a;
    struct merge m = {src, src + h, h, s->n - h, dst};
    merge(&m);
}

/* ---- the run ------------------------------------------------------------------ */

struct demo {
    uint64_t fib, fib_ms;
    uint64_t queens, queens_ms;
    uint32_t *data, *tmp;
    uint64_t sort_ms;
};

static void demo_entry(void *p)
{
    struct demo *d = p;
    uint64_t t0 = hive_port_now_ns();
    struct fib f = {27, 0};
    fib(&f);
    d->fib = f.r;
    d->fib_ms = ms_since(t0);

    t0 = hive_port_now_ns();
    struct queens q;
    memset(&q, 0, sizeof q);
    q.n = 10;
    queens(&q.task);
    d->queens = q.count;
    d->queens_ms = ms_since(t0);

    t0 = hive_port_now_ns();
    struct sort s = {d->data, d->tmp, SORT_N, false};
    sort(&s);
    d->sort_ms = ms_since(t0);
}

int main(void)
{
    unsigned n = hive_cpu_count();
    hive_smp_call_all(hello, NULL);
    if (atomic_load(&arrived) != n) {
        printf("demo: FAILED cores=%u reported=%u\n", n, atomic_load(&arrived));
        return 1;
    }

    struct demo d;
    memset(&d, 0, sizeof d);
    d.data = malloc(SORT_N * sizeof *d.data);
    d.tmp = malloc(SORT_N * sizeof *d.tmp);
    if (!d.data || !d.tmp) {
        printf("demo: FAILED cannot allocate %u integers\n", SORT_N);
        return 1;
    }
    uint32_t x = 2463534242u;
    uint64_t sum = 0;
    for (size_t i = 0; i < SORT_N; i++) {
        x ^= x << 13, x ^= x >> 17, x ^= x << 5;
        d.data[i] = x;
        sum += x;
    }

    int rc = hive_run(demo_entry, &d, NULL);
    if (rc != HIVE_OK) {
        printf("demo: FAILED hive_run: %s\n", hive_strerror(rc));
        return 1;
    }
    size_t unsorted = 0;
    uint64_t sum2 = 0;
    for (size_t i = 0; i < SORT_N; i++) {
        sum2 += d.data[i];
        unsorted += i && d.data[i - 1] > d.data[i];
    }
    bool fib_ok = d.fib == 196418, queens_ok = d.queens == 724;
    bool sort_ok = unsorted == 0 && sum2 == sum;
    printf("demo: fib(27) = %llu (%s), %llu ms\n", (unsigned long long)d.fib,
           fib_ok ? "ok" : "WRONG, expected 196418", (unsigned long long)d.fib_ms);
    printf("demo: queens(10) = %llu solutions (%s), %llu ms\n", (unsigned long long)d.queens,
           queens_ok ? "ok" : "WRONG, expected 724", (unsigned long long)d.queens_ms);
    printf("demo: merge sort of %u integers: %s, %llu ms\n", SORT_N,
           sort_ok ? "sorted" : "NOT SORTED", (unsigned long long)d.sort_ms);

    const struct hive_stats *s = hive_stats_last();
    hive_stats_print(s);
    free(d.data);
    free(d.tmp);
    if (!fib_ok || !queens_ok || !sort_ok) {
        printf("demo: FAILED cores=%u fib=%s queens=%s sort=%s\n", s->cores,
               fib_ok ? "ok" : "wrong", queens_ok ? "ok" : "wrong", sort_ok ? "ok" : "wrong");
        return 1;
    }
    printf("demo: ok cores=%u tasks=%llu steals=%llu\n", s->cores,
           (unsigned long long)s->total.tasks_run, (unsigned long long)s->total.steals);
    return 0;
}
