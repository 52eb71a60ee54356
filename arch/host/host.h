/* Host-only entry points: how a test or benchmark thread becomes a "core". */
#ifndef HIVE_ARCH_HOST_H
#define HIVE_ARCH_HOST_H

/* Set once for the whole host tree (CMakeLists.txt). */
#define HIVE_HOST_MAX_CORES HIVE_MAX_CORES

/* Make the calling thread core `id` for hive_port_core_id() and parking. */
void hive_host_bind_core(unsigned id);
/* What hive_port_core_count() reports. */
void hive_host_set_core_count(unsigned n);

#endif
