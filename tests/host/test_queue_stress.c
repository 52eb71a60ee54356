/*
 * Host driver of tests/stress/queue_stress.c: cores are pthreads.
 *
 * Built three times (tests/host/CMakeLists.txt): at -O2 for the bulk of the
 * task count, and smaller under ThreadSanitizer and ASan+UBSan. HIVE_STRESS_TASKS (compile definition) is
 * this executable's total, spread over the cases below; HIVE_STRESS_TASKS in
 * the environment overrides it for a longer run by hand.
 */
#define _POSIX_C_SOURCE 200809L
#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>

#include "arch/host/host.h"
#include "harness.h"
#include "sched/cache.h"
#include "tests/stress/queue_stress.h"

#ifndef HIVE_STRESS_TASKS
#define HIVE_STRESS_TASKS 1000000ul
#endif

struct host_start {
    unsigned core;
    void (*body)(void *);
    void *arg;
};

struct host_cores {
    pthread_t thread[HIVE_MAX_CORES];
    struct host_start start[HIVE_MAX_CORES];
    unsigned started;
};

static void *thread_main(void *p)
{
    struct host_start *s = p;
    hive_host_bind_core(s->core);
    s->body(s->arg);
    return NULL;
}

static void host_start_core(unsigned core, void (*body)(void *), void *arg, void *user)
{
    struct host_cores *hc = user;
    struct host_start *s = &hc->start[core];
    s->core = core;
    s->body = body;
    s->arg = arg;
    if (pthread_create(&hc->thread[core], NULL, thread_main, s) != 0) {
        fprintf(stderr, "pthread_create failed\n");
        abort();
    }
    hc->started++;
}

static void host_idle(void *user)
{
    (void)user;
    sched_yield();
}

static unsigned long total_tasks(void)
{
    const char *env = getenv("HIVE_STRESS_TASKS");
    return env ? strtoul(env, NULL, 0) : HIVE_STRESS_TASKS;
}

static void stress(unsigned thieves, unsigned producers, unsigned long tasks, uint32_t seed)
{
    struct host_cores hc = {0};
    size_t size = hive_queue_stress_mem_size(thieves, producers, tasks);
    void *mem = aligned_alloc(HIVE_CACHE_LINE, (size + HIVE_CACHE_LINE - 1) / HIVE_CACHE_LINE * HIVE_CACHE_LINE);
    CHECK(mem != NULL);
    if (!mem)
        return;
    unsigned cores = 1 + thieves + producers;
    hive_host_set_core_count(cores);
    hive_host_bind_core(0);
    struct hive_stress_config cfg = {
        .thieves = thieves,
        .producers = producers,
        .tasks = tasks,
        .seed = seed,
        .start_index = 0u - 1000u * seed, /* every queue wraps early in the run */
        .mem = mem,
        .mem_size = size,
        .start_core = host_start_core,
        .idle = host_idle,
        .user = &hc,
    };
    struct hive_stress_report r;
    int rc = hive_queue_stress(&cfg, &r);
    for (unsigned i = 1; i < cores; i++)
        pthread_join(hc.thread[i], NULL);
    printf("  thieves=%u producers=%u tasks=%lu: executed=%lu lost=%lu doubled=%lu "
           "bad_payload=%lu not_empty=%lu steals=%lu/%lu (fork-join %lu) global_pulls=%lu "
           "owner_via_global=%lu inline=%lu\n",
           thieves, producers, tasks, r.executed, r.lost, r.doubled, r.bad_payload, r.not_empty,
           r.stolen, r.steal_calls, r.stolen_forkjoin, r.global_pulls, r.owner_via_global,
           r.inline_runs);
    CHECK_EQ(rc, 0);
    CHECK_EQ(r.executed, tasks);
    CHECK_EQ(r.lost, 0);
    CHECK_EQ(r.doubled, 0);
    CHECK_EQ(r.bad_payload, 0);
    CHECK_EQ(r.not_empty, 0);
    CHECK(r.stolen > 0);          /* the thieves did steal */
    CHECK(r.stolen_forkjoin > 0); /* from the owner's fork-join deque too */
    if (producers)
        CHECK(r.global_pulls > 0);
    free(mem);
}

/* 1/8 + 3/8 + 1/2 of the total: one thief alone, a few, and the maximum. */
HIVE_TEST(stress_1_thief)
{
    stress(1, 0, total_tasks() / 8, 1);
}

HIVE_TEST(stress_3_thieves_1_producer)
{
    stress(3, 1, total_tasks() / 8 * 3, 2);
}

HIVE_TEST(stress_7_thieves_2_producers)
{
    stress(7, 2, total_tasks() / 2, 3);
}

int main(void)
{
    return hive_test_main();
}
