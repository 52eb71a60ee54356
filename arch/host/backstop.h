/* The host port's backstop thread (backstop.c): what the rest of the port
 * calls. */
#ifndef HIVE_ARCH_HOST_BACKSTOP_H
#define HIVE_ARCH_HOST_BACKSTOP_H

/* At the end of hive_port_run_on_cores: drop every pending check and wait
 * for one in progress, so no check runs outside a run. */
void host_backstop_drop(void);

#endif
