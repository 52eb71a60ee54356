/*
 * idle: a run with nothing to do for 2 s of guest time. Its first task only
 * sets a 2 s hive_after and returns; every worker parks; the timer's task
 * ends the run, and the image prints "idle: ok". What it is for: measuring
 * what an idle hive costs the host (QEMU's CPU time), with the cores parked
 * in a deep sleep (idle) or, for contrast, parking by spinning (idle_spin,
 * built from this file with IDLE_SPIN).
 */
#include <stdio.h>

#include "hive/hive.h"
#include "kernel/irq.h"

#define IDLE_NS 2000000000u

static struct hive_task end;
static uint64_t started, ended;

static void end_fn(struct hive_task *t)
{
    (void)t;
    ended = hive_now_ns();
}

static void entry(void *arg)
{
    (void)arg;
    started = hive_now_ns();
    int err = hive_after(IDLE_NS, &end, end_fn);
    if (err != HIVE_OK)
        printf("idle: hive_after failed (%s)\n", hive_strerror(err));
}

int main(void)
{
#ifdef IDLE_SPIN
    hive_park_spin = true;
#endif
    /* Which first phase the cores park with (wfe, wrs.nto, none): the boot
     * core's, which every core of the QEMU boards shares. */
    printf("idle: every core idle for %u ms (%s, phase 1: %s)\n", IDLE_NS / 1000000u,
           hive_park_spin ? "parking by spinning" : "parked in deep sleep",
           hive_park_spin ? "none" : hive_park_phase1_name(0));
    int err = hive_run(entry, NULL, NULL);
    const struct hive_stats *s = hive_stats_last();
    uint64_t parks = 0;
    for (unsigned c = 0; c < s->cores; c++)
        parks += s->core[c].parks;
    if (err != HIVE_OK || ended - started < IDLE_NS) {
        printf("idle: FAILED err=%d idle for %lu ns\n", err, (unsigned long)(ended - started));
        return 1;
    }
    printf("idle: ok cores=%u guest_ms=%lu parks=%lu\n", s->cores,
           (unsigned long)((ended - started) / 1000000u), (unsigned long)parks);
    return 0;
}
