/*
 * The apps that also build for the host port (mix, demo) take their core
 * count as the first argument there (default 4): one parser for both.
 */
#ifndef HIVE_APPS_HOST_CORES_H
#define HIVE_APPS_HOST_CORES_H

#include <stdio.h>
#include <stdlib.h>

#include "arch/host/host.h" /* hive_host_set_core_count */

/* The host's core count from argv, made the port's; 0 after a line on
 * stderr when it is not 1..HIVE_MAX_CORES. */
static inline unsigned app_host_cores(const char *app, int argc, char **argv)
{
    unsigned long cores = argc > 1 ? strtoul(argv[1], NULL, 10) : 4;
    if (cores < 1 || cores > HIVE_MAX_CORES) {
        fprintf(stderr, "%s: cores must be 1-%u\n", app, HIVE_MAX_CORES);
        return 0;
    }
    hive_host_set_core_count((unsigned)cores);
    return (unsigned)cores;
}

#endif
