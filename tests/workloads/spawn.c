/* spawn on hive: n independent hive_spawns from one task (spawn.h). */
#include "workloads/spawn.h"

#include <stdlib.h>
#include <string.h>

#include "hive/hive.h"

/* A cache line each: the core that spawns task i claims its header (a
 * compare-and-swap of its state) while the core that runs task i-1, a few
 * spawns behind, stores that one's state back to idle. Packed headers would
 * put both on one line and bounce it between the two cores for every task
 * (at 2 workers 57 ms for 10^6 tasks against 44 ms padded, here). Headers
 * that go to other cores are best laid out so (docs/guide.md). */
struct wl_spawn_task {
    _Alignas(64) struct hive_task task;
    struct wl_spawn *of;
    size_t i;
};

static void task_run(struct hive_task *t)
{
    struct wl_spawn_task *x = HIVE_CONTAINER_OF(t, struct wl_spawn_task, task);
    struct wl_spawn *s = x->of;
    int w = hive_worker_id(); /* -1: the serial baseline, thread 0 */
    unsigned thread = w < 0 ? 0 : (unsigned)w;
    /* This thread's own byte for the task; hive_run's return publishes it.
     * A worker beyond the run's size marks nothing: the check finds the
     * task unrun. */
    if (thread < s->threads)
        s->hit[thread * wl_spawn_stride(s->n) + x->i]++;
}

int wl_spawn_prepare(struct wl_spawn *s, size_t n, unsigned threads)
{
    size_t marks = threads * wl_spawn_stride(n);
    if (n > s->cap) {
        free(s->tasks);
        s->tasks = aligned_alloc(64, n * sizeof *s->tasks);
        s->cap = s->tasks ? n : 0;
    }
    if (marks > s->hit_cap) {
        free(s->hit);
        s->hit = malloc(marks);
        s->hit_cap = s->hit ? marks : 0;
    }
    if (!s->tasks || !s->hit) {
        wl_spawn_free(s);
        return -1;
    }
    s->n = n;
    s->threads = threads;
    s->err = HIVE_OK;
    memset(s->tasks, 0, n * sizeof *s->tasks);
    for (size_t i = 0; i < n; i++) {
        s->tasks[i].of = s;
        s->tasks[i].i = i;
    }
    memset(s->hit, 0, marks);
    return 0;
}

void wl_spawn_free(struct wl_spawn *s)
{
    free(s->tasks);
    free(s->hit);
    memset(s, 0, sizeof *s);
}

void wl_spawn_entry(void *p)
{
    struct wl_spawn *s = p;
    for (size_t i = 0; i < s->n; i++) {
        int rc = s->or_run ? hive_spawn_or_run(&s->tasks[i].task, task_run)
                           : hive_spawn(&s->tasks[i].task, task_run);
        if (rc != HIVE_OK && s->err == HIVE_OK)
            s->err = rc;
    }
}

void wl_spawn_serial(struct wl_spawn *s)
{
    /* volatile: a real indirect call per task, as the scheduler makes. */
    void (*volatile fn)(struct hive_task *) = task_run;
    for (size_t i = 0; i < s->n; i++)
        fn(&s->tasks[i].task);
}
