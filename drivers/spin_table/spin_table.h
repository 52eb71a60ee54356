/*
 * The spin-table way of starting a core (the Linux arm64 "spin-table"
 * enable method): firmware parks each secondary core in a loop that waits
 * (WFE) for a non-zero entry address in the core's own release word, then
 * jumps there with x0 = 0. The Raspberry Pi 3's armstub does this, with the
 * words at 0xd8 + 8 * core; so does QEMU's raspi3b for a raw image.
 *
 * The firmware hands the core no argument, so hive's logical id travels in
 * the entry address: each id has its own two-instruction entry
 * (spin_table_entry.S) that sets x0 = id and branches to
 * arch_secondary_entry.
 */
#ifndef HIVE_DRIVERS_SPIN_TABLE_H
#define HIVE_DRIVERS_SPIN_TABLE_H

#include <stdint.h>

/* Write the entry for logical id `id` into the release word at physical
 * address `release`, then SEV. Returns 0, or -1 for an id beyond
 * HIVE_MAX_CORES. The MMU must be on, with hive's identity map (the call
 * turns it off on this core for one store: see spin_table_entry.S). */
int spin_table_start(uintptr_t release, unsigned id);

/* Release the core on `release` into a WFI loop with every exception
 * masked, for good: a core hive leaves unused. The firmware's loop waits in
 * WFE, which QEMU does not sleep in (each parked vCPU takes a whole host
 * thread); WFI it does. Same conditions as spin_table_start. */
void spin_table_park(uintptr_t release);

/* board_start_core for a board whose firmware parks its cores in a spin
 * table (kernel/board.h): start the core on `release` as logical id `id`,
 * or, for an id at or beyond `wanted` (the cores the run should have), park
 * it for good and return -1: absent to hive, and out of the firmware's WFE
 * loop, which would keep a host thread busy under QEMU all run. */
int spin_table_start_or_park(uintptr_t release, unsigned id, unsigned wanted);

#endif
