/* The host port's core threads (cores.c), for port.c. */
#ifndef HIVE_ARCH_HOST_CORES_H
#define HIVE_ARCH_HOST_CORES_H

#include <signal.h>
#include <stdbool.h>
#include <stdint.h>

#include "sched/port.h"

/* How long a host core spins before it sleeps: in hive_port_wait (port.c,
 * which says why), between runs, and core 0 waiting for the others at a
 * run's end. Longer than the gaps between a benchmark's back-to-back runs
 * and a fork-join program's idle moments, short against a wake-up of a
 * sleeping virtual CPU. */
#define HOST_SPIN_NS 50000u

/* Turn i (from 1) of a spin that ends at `end` (hive_port_now_ns): has it
 * ended? The clock only every 64 turns, as a read costs about as much as a
 * few pauses. The one place both spins (port.c, cores.c) keep that rule. */
static inline bool host_spin_over(unsigned i, uint64_t end)
{
    return i % 64 == 0 && hive_port_now_ns() >= end;
}

/* Unblock the signal hive_port_poke sends (SIGURG) in the calling thread
 * (port.c); the mask before into *old unless NULL. A core's thread must
 * take it. (Both includers ask for POSIX first: sigset_t.) */
void hive_host_poke_unblock(sigset_t *old);

/* Hand fn(arg) to cores 1..ncores-1, each on its own thread. */
void host_cores_start(unsigned ncores, void (*fn)(void *arg), void *arg);
/* Until every core that host_cores_start started has returned from fn.
 * Everything those cores did is visible to the caller afterwards. */
void host_cores_wait(void);

#endif
