/* The host port's backstop thread (backstop.c): what the rest of the port
 * calls. */
#ifndef HIVE_ARCH_HOST_BACKSTOP_H
#define HIVE_ARCH_HOST_BACKSTOP_H

/* Before a run of more than one core starts its core threads: set up what a
 * first check needs that is dear to do from a core's push (backstop.c). */
void host_backstop_prepare(void);
/* At the end of hive_port_run_on_cores: drop every pending check and wait
 * for one in progress, so no check runs outside a run. */
void host_backstop_drop(void);
/* Around hive_port_wait's sleep (or its timeout) once its spin is over, and
 * around a poll: a core waits, so the checks held back while no core waited
 * run when due, from now (backstop.c). */
void host_backstop_wait_begin(void);
void host_backstop_wait_end(void);

#endif
