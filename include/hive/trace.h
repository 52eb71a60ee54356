/*
 * Tracing (a build option: cmake -DHIVE_TRACE=ON; tools/hive trace builds it
 * so). A traced build records, per core, what the scheduler did - tasks
 * starting and ending, spawns, steals, global pulls, overflows, parks and
 * wakes, join and group waits, interrupts and timers - and at the end of
 * every hive_run writes it out as text lines: to the file named by the
 * environment variable HIVE_TRACE_FILE (appended) if it is set and can be
 * opened, else to stdout - on a board, its console. tools/hive-trace turns
 * those lines, from a file or from a captured console log, into a
 * Chrome/Perfetto trace, an SVG timeline and a summary. README.md, "Tracing",
 * has the commands and what each event records.
 *
 * The encoding is line-oriented so that it survives a serial console: every
 * line starts with "hive-trace: ", numbers are hex without 0x unless named
 * (name=decimal), and each event line carries a checksum, so a reader can
 * tell a damaged or missing line from the trace itself:
 *   hive-trace: begin v=1 cores=C hz=H anchor=ADDR capacity=E
 *   hive-trace: core C n=N dropped=D tasks=T steals=S stolen=K pulls=P
 *               overflows=O parks=A wait_parks=W wakes=K   (one line)
 *   hive-trace: e C STAMP KIND A B CHECK        (N lines for core C)
 *   hive-trace: end lines=L                     (L: e lines written)
 * STAMP is the port's tick (hz per second), CHECK the low 32 bits of
 * x ^ (x >> 32) for x = STAMP<<8|KIND ^ rotl64(A, 21) ^ rotl64(B, 42) ^
 * C * 0x9E3779B97F4A7C15 (all mod 2^64). ANCHOR is hive_run's address in
 * this image, for a reader that symbolises a relocated (PIE) program. The
 * core lines carry that run's statistics (hive_stats_last) for checking.
 */
#ifndef HIVE_TRACE_H
#define HIVE_TRACE_H

#include <stdio.h>

#include "hive/attributes.h"

/*
 * Write the last run's trace to f, as hive_run does at its end. Between
 * runs only. Returns HIVE_OK, or
 *   HIVE_ESTATE  a run is active, or this build has no tracing (HIVE_TRACE off)
 *   HIVE_EINVAL  f is NULL
 */
HIVE_MUST_CHECK int hive_trace_dump(FILE *f);

#endif
