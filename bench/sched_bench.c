/*
 * Scheduler benchmark, hive's side (and the serial baselines):
 *   sched_bench [serial] [options of sched_bench.h] [--smoke] [--stats]
 *   sched_bench capacity   cores free for this run (see capacity())
 * (--stats, last: hive's statistics table after every run, for a look at
 * steals, overflows and parks; not for timing.)
 * The workloads mirror tests/host/sched_workloads.h: hive_join per fib call
 * and per sort split, a hive_group per N-Queens position (coarser here: tasks
 * in the first rows only), hive_spawn for the independent tasks. A timed run is one whole hive_run(), so it includes
 * starting and joining the worker threads; the `empty` row says how much
 * that is.
 */
#define _POSIX_C_SOURCE 200809L /* clock_gettime, under -std=c11 */

#include "sched_bench.h"

#include <pthread.h>

#include "arch/host/host.h"
#include "hive/hive.h"

static int run_ok = 1; /* cleared by a refused hive call inside a run */
static int print_stats; /* --stats: hive's per-core table after each run */

static void run_hive(void (*entry)(void *), void *arg, unsigned threads, struct sb_result *r)
{
    struct hive_config c = {0};
    c.cores = threads;
    double t0 = sb_now();
    int rc = hive_run(entry, arg, &c);
    r->secs = sb_now() - t0;
    if (rc != HIVE_OK) {
        fprintf(stderr, "sched_bench: hive_run: %s\n", hive_strerror(rc));
        run_ok = 0;
    }
    if (print_stats)
        hive_stats_print(hive_stats_last());
}

static void nop(void *p) { (void)p; }

/* ---- fib ------------------------------------------------------------------ */

struct fib {
    unsigned n;
    uint64_t r;
};

static void fib_task(void *p)
{
    struct fib *a = p;
    if (a->n < 2) {
        a->r = a->n;
        return;
    }
    struct fib x = {a->n - 1, 0}, y = {a->n - 2, 0};
    hive_join(fib_task, &x, fib_task, &y); /* y is offered to thieves */
    a->r = x.r + y.r;
}

/* noinline: a real call per fib call, the baseline a task is compared to. */
__attribute__((noinline)) static uint64_t fib_serial(unsigned n)
{
    return n < 2 ? n : fib_serial(n - 1) + fib_serial(n - 2);
}

/* ---- sort ------------------------------------------------------------------ */

static struct sb_sortbuf sortbuf;

struct srt {
    uint32_t *a, *tmp;
    size_t n;
};

static void sort_task(void *p)
{
    struct srt *s = p;
    if (s->n <= SB_SORT_LEAF) {
        sb_insertion(s->a, s->n);
        return;
    }
    size_t h = s->n / 2;
    struct srt l = {s->a, s->tmp, h}, r = {s->a + h, s->tmp + h, s->n - h};
    hive_join(sort_task, &l, sort_task, &r);
    sb_merge(s->a, s->tmp, s->n, h);
}

static void sort_serial(uint32_t *a, uint32_t *tmp, size_t n)
{
    if (n <= SB_SORT_LEAF) {
        sb_insertion(a, n);
        return;
    }
    size_t h = n / 2;
    sort_serial(a, tmp, h);
    sort_serial(a + h, tmp + h, n - h);
    sb_merge(a, tmp, n, h);
}

/* ---- N-Queens: a group per board position, for its next row's placements ---- */

struct nq {
    struct hive_task task;
    unsigned n, row;
    uint32_t cols, d1, d2;
    uint64_t count;
};

static void nq_task(struct hive_task *t)
{
    struct nq *q = HIVE_CONTAINER_OF(t, struct nq, task);
    if (q->row == q->n || q->row >= SB_QUEENS_TASK_ROWS) {
        q->count = sb_queens_serial(q->n, q->row, q->cols, q->d1, q->d2);
        return;
    }
    struct nq child[32];
    unsigned k = 0;
    struct hive_group g = HIVE_GROUP_INIT;
    uint32_t all = (1u << q->n) - 1;
    for (uint32_t avail = all & ~(q->cols | q->d1 | q->d2); avail; avail &= avail - 1) {
        uint32_t bit = avail & (0u - avail);
        struct nq *c = &child[k++];
        memset(&c->task, 0, sizeof c->task);
        c->n = q->n;
        c->row = q->row + 1;
        c->cols = q->cols | bit;
        c->d1 = (q->d1 | bit) << 1;
        c->d2 = (q->d2 | bit) >> 1;
        if (hive_group_spawn(&g, &c->task, nq_task) != HIVE_OK)
            run_ok = 0;
    }
    if (hive_group_wait(&g) != HIVE_OK)
        run_ok = 0;
    uint64_t sum = 0;
    for (unsigned i = 0; i < k; i++)
        sum += child[i].count;
    q->count = sum;
}

static void nq_entry(void *p) { nq_task(&((struct nq *)p)->task); }

/* ---- spawn: n independent tasks from one task -------------------------------- */

struct sp {
    struct hive_task task;
    uint32_t i;
};

static struct sp *sp_tasks;
static unsigned char *sp_hit;
static size_t sp_n;

static void sp_run(struct hive_task *t)
{
    sp_hit[HIVE_CONTAINER_OF(t, struct sp, task)->i]++;
}

static void sp_entry(void *p)
{
    (void)p;
    for (size_t i = 0; i < sp_n; i++)
        if (hive_spawn(&sp_tasks[i].task, sp_run) != HIVE_OK)
            run_ok = 0;
}

static void sp_prepare(size_t n)
{
    if (n > sp_n) {
        free(sp_tasks);
        free(sp_hit);
        sp_tasks = calloc(n, sizeof *sp_tasks);
        sp_hit = malloc(n);
        if (!sp_tasks || !sp_hit) {
            fprintf(stderr, "sched_bench: out of memory\n");
            exit(1);
        }
    }
    sp_n = n;
    memset(sp_tasks, 0, n * sizeof *sp_tasks);
    for (size_t i = 0; i < n; i++)
        sp_tasks[i].i = (uint32_t)i;
    memset(sp_hit, 0, n);
}

/* Serial "spawn": the same task bodies called through the same pointer. */
static void sp_serial(void)
{
    void (*volatile fn)(struct hive_task *) = sp_run;
    for (size_t i = 0; i < sp_n; i++)
        fn(&sp_tasks[i].task);
}

/* ---- how many cores this run can have ------------------------------------------ */

/* The same busy loop on one thread, then on two at once: 2 * t1 / t2 is about
 * 2 when both cores are free and about 1 when other work holds one, which
 * says whether this repetition's 2-thread figures mean anything. */
static void *spin(void *arg)
{
    volatile uint64_t x = 0;
    for (uint64_t i = 0; i < 20000000; i++)
        x += i;
    (void)arg;
    return NULL;
}

static int capacity(void)
{
    pthread_t th[2];
    spin(NULL); /* warm: frequency and page faults */
    double t0 = sb_now();
    spin(NULL);
    double t1 = sb_now() - t0;
    t0 = sb_now();
    for (int i = 0; i < 2; i++)
        if (pthread_create(&th[i], NULL, spin, NULL) != 0)
            return 1;
    for (int i = 0; i < 2; i++)
        pthread_join(th[i], NULL);
    double t2 = sb_now() - t0;
    printf("M capacity %.3f\n", 2 * t1 / t2);
    return 0;
}

/* ---- the two runtimes of this program ---------------------------------------- */

static int run_hive_wl(int w, unsigned threads, size_t size, struct sb_result *r)
{
    run_ok = 1;
    switch (w) {
    case SB_EMPTY:
        run_hive(nop, NULL, threads, r);
        break;
    case SB_FIB: {
        struct fib f = {(unsigned)size, 0};
        run_hive(fib_task, &f, threads, r);
        r->tasks = sb_fib_ref(f.n + 1) - 1;
        run_ok &= f.r == sb_fib_ref(f.n);
        break;
    }
    case SB_SORT: {
        sb_sort_fill(&sortbuf, size);
        struct srt s = {sortbuf.a, sortbuf.tmp, size};
        run_hive(sort_task, &s, threads, r);
        r->tasks = sb_sort_forks(size);
        run_ok &= sb_sort_ok(&sortbuf);
        break;
    }
    case SB_QUEENS: {
        struct nq q;
        memset(&q, 0, sizeof q);
        q.n = (unsigned)size;
        run_hive(nq_entry, &q, threads, r);
        r->tasks = sb_queens_tasks(q.n, 0, 0, 0, 0);
        run_ok &= q.count == sb_queens_expect(q.n);
        break;
    }
    case SB_SPAWN:
        sp_prepare(size);
        run_hive(sp_entry, NULL, threads, r);
        r->tasks = size;
        run_ok &= sb_hits_ok(sp_hit, size);
        break;
    default:
        return 0;
    }
    r->ok = run_ok;
    return 1;
}

static int run_serial_wl(int w, unsigned threads, size_t size, struct sb_result *r)
{
    (void)threads;
    double t0 = sb_now();
    switch (w) {
    case SB_FIB: {
        t0 = sb_now();
        uint64_t v = fib_serial((unsigned)size);
        r->secs = sb_now() - t0;
        r->tasks = sb_fib_ref((unsigned)size + 1) - 1; /* as forked elsewhere */
        r->ok = v == sb_fib_ref((unsigned)size);
        break;
    }
    case SB_SORT:
        sb_sort_fill(&sortbuf, size);
        t0 = sb_now();
        sort_serial(sortbuf.a, sortbuf.tmp, size);
        r->secs = sb_now() - t0;
        r->tasks = sb_sort_forks(size);
        r->ok = sb_sort_ok(&sortbuf);
        break;
    case SB_QUEENS: {
        uint64_t v = sb_queens_serial((unsigned)size, 0, 0, 0, 0);
        r->secs = sb_now() - t0;
        r->tasks = sb_queens_tasks((unsigned)size, 0, 0, 0, 0);
        r->ok = v == sb_queens_expect((unsigned)size);
        break;
    }
    case SB_SPAWN:
        sp_prepare(size);
        t0 = sb_now();
        sp_serial();
        r->secs = sb_now() - t0;
        r->tasks = size;
        r->ok = sb_hits_ok(sp_hit, size);
        break;
    default:
        return 0;
    }
    return 1;
}

int main(int argc, char **argv)
{
    if (argc > 1 && strcmp(argv[1], "capacity") == 0)
        return capacity();
    int serial = argc > 1 && strcmp(argv[1], "serial") == 0;
    if (argc > 1 + serial && strcmp(argv[argc - 1], "--stats") == 0)
        print_stats = 1, argc--;
    struct sb_opts o;
    sb_parse(argc - serial, argv + serial, &o);
    if (serial) {
        o.threads[0] = 1, o.nthreads = 1;
        return sb_loop(&o, "serial", run_serial_wl);
    }
    unsigned most = 1;
    for (unsigned i = 0; i < o.nthreads; i++)
        most = o.threads[i] > most ? o.threads[i] : most;
    /* The host port offers 4 cores unless told: allow what was asked. */
    hive_host_set_core_count(most);
    return sb_loop(&o, "hive", run_hive_wl);
}
