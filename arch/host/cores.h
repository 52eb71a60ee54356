/* The host port's core threads (cores.c), for port.c. */
#ifndef HIVE_ARCH_HOST_CORES_H
#define HIVE_ARCH_HOST_CORES_H

/* Hand fn(arg) to cores 1..ncores-1, each on its own thread. */
void host_cores_start(unsigned ncores, void (*fn)(void *arg), void *arg);
/* Until every core that host_cores_start started has returned from fn.
 * Everything those cores did is visible to the caller afterwards. */
void host_cores_wait(void);

#endif
