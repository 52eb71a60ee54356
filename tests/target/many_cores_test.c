/*
 * Many cores (32, 64, 96): boot every core, then the scheduler across all of
 * them, kept to a few seconds of guest work - 64 emulated cores on a 2-CPU
 * host run some 30 times slower each.
 *
 * every_core_takes_work: as many tasks as cores, each of which waits until
 * all of them have started. They are all queued on core 0, so the only way
 * they can all be running at once is that every other core was woken,
 * looked for work and stole one: the idle bitmap, the wakes and the steal
 * loop over every core id, the highest included. A lost wake-up or a core
 * the steal loop never reaches leaves one task short; the case then fails
 * at its deadline, naming how many got in.
 *
 * fork_join_across_cores: fib with a join per call, checked against its
 * value, its halves stolen by whichever cores the host runs meanwhile.
 */
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>

#include "harness.h"
#include "hive/hive.h"

int main(void) { return hive_test_main(); }

/* Long enough for 64 vCPU threads to each get the host's CPUs at least
 * once on a loaded 2-CPU host; a run that works takes well under a second
 * of it. */
#define GATHER_DEADLINE_NS (60ull * 1000 * 1000 * 1000)

static atomic_uint gathered;
static atomic_uint gather_late;
static atomic_ullong cores_seen[(HIVE_MAX_WORKERS + 63) / 64];
static unsigned gather_target;
static uint64_t gather_deadline;

static void gather(void *arg)
{
    (void)arg;
    unsigned id = (unsigned)hive_core_id();
    atomic_fetch_or(&cores_seen[id / 64], 1ull << (id % 64));
    atomic_fetch_add(&gathered, 1);
    while (atomic_load(&gathered) < gather_target) {
        if (hive_now_ns() > gather_deadline) {
            atomic_fetch_add(&gather_late, 1);
            return;
        }
    }
}

static struct hive_task gather_tasks[HIVE_MAX_WORKERS];

static void gather_task(struct hive_task *t)
{
    (void)t;
    gather(NULL);
}

/* hive_spawn, not a group: each task waits for the ones spawned after it,
 * which a group's task must not (hive.h: a group spawn may run its task at
 * once, and would then wait inside the spawn for spawns that never come),
 * while hive_spawn never runs a task inside the call. The last one waits in
 * core 0's LIFO slot, the rest in its ring, until thieves take them; the
 * run ends once every one has returned. */
static void gather_all(void *arg)
{
    (void)arg;
    for (unsigned i = 0; i < gather_target; i++)
        if (hive_spawn(&gather_tasks[i], gather_task) != HIVE_OK)
            atomic_fetch_add(&gather_late, 1000);
}

HIVE_TEST(every_core_takes_work)
{
    unsigned n = hive_core_count();
    printf("many_cores: %u cores\n", n);
    gather_target = n;
    atomic_store(&gathered, 0);
    gather_deadline = hive_now_ns() + GATHER_DEADLINE_NS;
    uint64_t t0 = hive_now_ns();
    CHECK_EQ(hive_run(gather_all, NULL, NULL), HIVE_OK);
    printf("many_cores: %u of %u tasks running at once after %llu ms\n", atomic_load(&gathered), n,
           (unsigned long long)((hive_now_ns() - t0) / 1000000));
    CHECK_EQ(atomic_load(&gather_late), 0u);
    CHECK_EQ(atomic_load(&gathered), n);
    /* Each task ran on a core of its own: every core, the highest too. */
    unsigned seen = 0;
    for (unsigned i = 0; i < n; i++)
        seen += (atomic_load(&cores_seen[i / 64]) >> (i % 64)) & 1;
    CHECK_EQ(seen, n);
    /* Every task but core 0's own left core 0's queues by a steal (or, had
     * its ring overflowed, through the global queue). */
    const struct hive_stats *s = hive_stats_last();
    uint64_t taken = 0;
    for (unsigned i = 0; i < s->cores; i++)
        taken += s->core[i].steals + s->core[i].global_pulls;
    CHECK(taken >= n - 1);
}

struct fib {
    unsigned n;
    unsigned long r;
};

static void fib(void *arg)
{
    struct fib *f = arg;
    if (f->n < 2) {
        f->r = f->n;
        return;
    }
    struct fib a = {f->n - 1, 0}, b = {f->n - 2, 0};
    if (hive_join(fib, &a, fib, &b) != HIVE_OK) {
        f->r = 0;
        return;
    }
    f->r = a.r + b.r;
}

HIVE_TEST(fork_join_across_cores)
{
    struct fib f = {18, 0};
    uint64_t t0 = hive_now_ns();
    CHECK_EQ(hive_run(fib, &f, NULL), HIVE_OK);
    CHECK_EQ(f.r, 2584u);
    const struct hive_stats *s = hive_stats_last();
    uint64_t steals = 0, thieves = 0;
    for (unsigned i = 0; i < s->cores; i++) {
        steals += s->core[i].steals;
        thieves += s->core[i].steals > 0;
    }
    printf("many_cores: fib(18) in %llu ms, %llu steals by %llu cores\n",
           (unsigned long long)((hive_now_ns() - t0) / 1000000), (unsigned long long)steals,
           (unsigned long long)thieves);
    /* How many steals depends on how soon the host runs the other cores'
     * threads (none, some runs, on a loaded host): every_core_takes_work
     * is the case that requires them. */
}
