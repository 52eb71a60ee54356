/*
 * hive_trace_dump, the on-request half of the trace's collection, against the
 * scheduler built with HIVE_TRACE: between runs it writes the last run again,
 * exactly as hive_run wrote it at its end (to HIVE_TRACE_FILE); during a run
 * it refuses; a NULL file is refused. The contents themselves are checked by
 * the trace tests (tests/tools/trace_check.sh).
 */
#define _POSIX_C_SOURCE 200809L /* mkstemp, setenv */

#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "arch/host/host.h"
#include "harness.h"
#include "hive/hive.h"
#include "sched/port.h"

static int during_run = 1;

static void leaf(void *arg)
{
    (void)arg;
}

static void entry(void *arg)
{
    (void)arg;
    during_run = hive_trace_dump(stdout);
    for (int i = 0; i < 20; i++)
        if (hive_spawn_fn(leaf, NULL) != HIVE_OK)
            leaf(NULL);
}

/* The whole of a file, NUL-terminated (NULL if it cannot be read). */
static char *slurp(FILE *f)
{
    long n;
    if (fseek(f, 0, SEEK_END) != 0 || (n = ftell(f)) < 0 || fseek(f, 0, SEEK_SET) != 0)
        return NULL;
    char *s = malloc((size_t)n + 1);
    if (s && fread(s, 1, (size_t)n, f) != (size_t)n) {
        free(s);
        return NULL;
    }
    if (s)
        s[n] = '\0';
    return s;
}

HIVE_TEST(dump_between_runs_repeats_the_runs_own)
{
    char path[] = "/tmp/hive-trace-dump-XXXXXX";
    int fd = mkstemp(path);
    CHECK(fd >= 0);
    if (fd < 0)
        return;
    close(fd);
    setenv("HIVE_TRACE_FILE", path, 1);
    struct hive_config cfg = {.cores = 2};
    CHECK_EQ(hive_run(entry, NULL, &cfg), HIVE_OK);
    unsetenv("HIVE_TRACE_FILE");
    CHECK_EQ(during_run, (unsigned long long)HIVE_ESTATE);

    FILE *at_end = fopen(path, "r");
    FILE *again = tmpfile();
    CHECK(at_end && again);
    if (!at_end || !again)
        return;
    CHECK_EQ(hive_trace_dump(again), HIVE_OK);
    char *a = slurp(at_end), *b = slurp(again);
    CHECK(a && b);
    if (a && b) {
        CHECK(strncmp(a, "hive-trace: begin v=1 cores=2 ", 30) == 0);
        CHECK(strstr(a, "\nhive-trace: end lines=") != NULL);
        CHECK(strcmp(a, b) == 0);
    }
    free(a);
    free(b);
    fclose(at_end);
    fclose(again);
    remove(path);
}

/* A core that takes no part in a run (the host withdraws a core whose
 * thread has not taken the run by its end) dumps nothing of an earlier
 * run: after a run with work on both cores, empty runs dump no task start
 * on core 1 - its buffer once kept the earlier run's events, written out
 * as this run's. */
static atomic_bool core1_ran;

static void busy_leaf(void *arg)
{
    (void)arg;
    volatile unsigned x = 0;
    for (unsigned i = 0; i < 20000; i++)
        x += i;
    if (hive_worker_id() == 1)
        atomic_store(&core1_ran, true);
}

/* Core 1 must have run a task (its buffer holds events): the entry waits
 * for it rather than hoping core 1's thread is scheduled while the leaves
 * last - on a loaded host it may not be, and a core that has not joined the
 * run by its end is withdrawn from it. */
static void busy(void *arg)
{
    (void)arg;
    for (int i = 0; i < 2000; i++)
        if (hive_spawn_fn(busy_leaf, NULL) != HIVE_OK)
            busy_leaf(NULL);
    while (!atomic_load(&core1_ran))
        hive_port_cpu_relax();
}

static void nothing(void *arg) { (void)arg; }

HIVE_TEST(dump_holds_no_earlier_runs_events)
{
    struct hive_config cfg = {.cores = 2};
    atomic_store(&core1_ran, false);
    CHECK_EQ(hive_run(busy, NULL, &cfg), HIVE_OK);
    CHECK(hive_stats_last()->core[1].tasks_run > 0);
    unsigned stale = 0;
    for (int k = 0; k < 200; k++) {
        CHECK_EQ(hive_run(nothing, NULL, &cfg), HIVE_OK);
        FILE *f = tmpfile();
        CHECK(f != NULL);
        if (!f)
            return;
        CHECK_EQ(hive_trace_dump(f), HIVE_OK);
        char *text = slurp(f);
        fclose(f);
        CHECK(text != NULL);
        /* An event line: "hive-trace: e CORE STAMP KIND A B CHECK". */
        for (char *line = text; line && (line = strstr(line, "hive-trace: e 1 ")); line++) {
            unsigned long long stamp;
            unsigned kind;
            if (sscanf(line, "hive-trace: e 1 %llx %x", &stamp, &kind) == 2 && kind == 1)
                stale++;
        }
        free(text);
    }
    CHECK_EQ(stale, 0);
}

HIVE_TEST(dump_refuses_no_file)
{
    CHECK_EQ(hive_trace_dump(NULL), (unsigned long long)HIVE_EINVAL);
}

int main(void)
{
    hive_host_set_core_count(2);
    return hive_test_main();
}
