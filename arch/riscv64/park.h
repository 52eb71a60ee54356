/* Parking's per-hart set-up on RV64 (park.c). */
#ifndef HIVE_ARCH_RISCV64_PARK_H
#define HIVE_ARCH_RISCV64_PARK_H

/* Find out whether this hart, logical id `id`, has Zawrs (WRS.NTO) for
 * phase 1 of parking. Once per hart, interrupts masked, before the hart
 * counts as online. */
void riscv_park_probe(unsigned id);

#endif
