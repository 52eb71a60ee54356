/* Host-only entry points: how a test or benchmark thread becomes a "core". */
#ifndef HIVE_ARCH_HOST_H
#define HIVE_ARCH_HOST_H

#include <stdbool.h>

/* Set once for the whole host tree (CMakeLists.txt). */
#define HIVE_HOST_MAX_CORES HIVE_MAX_CORES

/* Make the calling thread core `id` for hive_port_core_id() and parking. */
void hive_host_bind_core(unsigned id);
/* What hive_port_core_count() reports. */
void hive_host_set_core_count(unsigned n);
/* How many of core `id`'s hive_port_wait calls have ended because their
 * timeout passed, since the process began: lets a test wait until a core has
 * slept past its park timeout, however late the host schedules that core's
 * thread, instead of hoping it does so within a fixed time. */
unsigned long hive_host_waits_timed_out(unsigned id);
/* Whether core `id` sleeps in hive_port_wait now (on its condition
 * variable): past all that its park did before it waits, the idle
 * protocol's rescan among it. A test's look, stale as soon as read. */
bool hive_host_sleeping(unsigned id);
/* Hold the backstop's checks (backstop.c) - a due one waits - or let them
 * run again. For a test that changes the idle state for a moment, as no
 * scheduler code does, and must not let a check see it (on a board it masks
 * the core's interrupts instead). */
void hive_host_backstop_hold(bool hold);

#endif
