/*
 * The queue stress of tests/stress/queue_stress.c on bare metal: one
 * owner, thieves and a global-queue producer on real (emulated) cores, every
 * task checked to run exactly once. Queue indices start just below 2^32 so
 * they wrap during the run.
 *
 * The stress wants to start each core's part on its own (start_core); the
 * kernel offers hive_smp_call_all, which runs one function on every core. So
 * every core enters stress_entry: core 0 runs the stress, and start_core
 * hands each other core its body through a mailbox that core polls; cores
 * the stress does not use leave when core 0 says the run is over.
 */
#include <stdatomic.h>
#include <stdio.h>

#include "harness.h"
#include "kernel/kernel.h"
#include "sched/port.h"
#include "stress/queue_stress.h"

int main(void) { return hive_test_main(); }

struct mailbox {
    void (*body)(void *);
    void *arg;
    atomic_bool posted;
};

static struct mailbox mailboxes[HIVE_MAX_CORES];
static atomic_bool run_over;
static struct hive_stress_config cfg;
static struct hive_stress_report report;
static int verdict;

#define TASKS 1000000ul
static unsigned char arena[12u << 20] __attribute__((aligned(64)));

static void start_core(unsigned core, void (*body)(void *), void *arg, void *user)
{
    (void)user;
    mailboxes[core].body = body;
    mailboxes[core].arg = arg;
    /* release: pairs with the acquire load in stress_entry, publishing body/arg. */
    atomic_store_explicit(&mailboxes[core].posted, true, memory_order_release);
}

static void stress_entry(void *unused)
{
    (void)unused;
    unsigned me = hive_cpu_id();
    if (me == 0) {
        verdict = hive_queue_stress(&cfg, &report);
        /* release: pairs with the acquire load below; idle cores may leave. */
        atomic_store_explicit(&run_over, true, memory_order_release);
        return;
    }
    for (;;) {
        struct mailbox *m = &mailboxes[me];
        /* acquire: pairs with the release store in start_core. */
        if (atomic_load_explicit(&m->posted, memory_order_acquire)) {
            m->body(m->arg);
            return;
        }
        /* acquire: pairs with core 0's release store of run_over. */
        if (atomic_load_explicit(&run_over, memory_order_acquire))
            return;
        hive_port_cpu_relax();
    }
}

HIVE_TEST(queue_stress_exactly_once)
{
    unsigned n = hive_cpu_count();
    if (n < 2)
        HIVE_SKIP("needs 2 cores: one owner and one thief");
    unsigned producers = n >= 4 ? 1 : 0;
    unsigned thieves = n - 1 - producers;
    cfg = (struct hive_stress_config){
        .thieves = thieves, .producers = producers, .tasks = TASKS,
        .seed = 7, .start_index = 0xFFFFFF00u,
        .mem = arena, .mem_size = sizeof arena,
        .start_core = start_core,
    };
    size_t need = hive_queue_stress_mem_size(thieves, producers, TASKS);
    CHECK(need <= sizeof arena);
    if (need > sizeof arena)
        return;
    hive_smp_call_all(stress_entry, NULL);
    printf("  %lu tasks run, %lu lost, %lu doubled, %lu bad payloads; %lu of %lu steals "
           "took work (%lu from a fork-join deque), %lu global pulls, %lu tasks through the "
           "global queue from overflow\n",
           report.executed, report.lost, report.doubled, report.bad_payload, report.stolen,
           report.steal_calls, report.stolen_forkjoin, report.global_pulls,
           report.owner_via_global);
    CHECK_EQ(verdict, 0);
    CHECK_EQ(report.lost, 0);
    CHECK_EQ(report.doubled, 0);
    CHECK_EQ(report.bad_payload, 0);
    CHECK_EQ(report.not_empty, 0);
    /* And the cores did race: a run in which every steal came back empty
     * would pass the checks above with the owner alone. */
    CHECK(report.stolen > 0);          /* the thieves did steal */
    CHECK(report.stolen_forkjoin > 0); /* from the owner's fork-join deque too */
    if (producers)
        CHECK(report.global_pulls > 0);
}
