/*
 * Arm PSCI (DEN 0022), the firmware interface for cores and power: starts
 * cores (kernel/board.h, board_start_core) and powers the system off (an
 * exit path without a status). QEMU virt's own firmware; on real boards
 * Trusted Firmware-A's.
 */
#ifndef HIVE_DRIVERS_PSCI_H
#define HIVE_DRIVERS_PSCI_H

#include <stdint.h>

/* How calls reach the firmware (SMCCC: HVC or SMC, #0). */
enum psci_conduit {
    /* The level above the one the image was entered at: HVC when entered at
     * EL1 (the firmware is the hypervisor, as QEMU plays it without
     * virtualization=on), SMC when entered at EL2 (an HVC would land in our
     * own, empty, EL2). */
    PSCI_CONDUIT_ABOVE_ENTRY,
    PSCI_CONDUIT_HVC,
    PSCI_CONDUIT_SMC,
};

struct psci_config {
    enum psci_conduit conduit;
};

/*
 * CPU_ON: start the core whose MPIDR affinity is mpidr at entry, at the
 * caller's exception level, with x0 = context. Returns 0 if it was started,
 * -1 if there is no such core (INVALID_PARAMETERS), and -1 after a line on
 * stdout for any other refusal.
 */
int psci_start_core(const struct psci_config *psci, uintptr_t mpidr, uintptr_t entry,
                    uintptr_t context);
/* SYSTEM_OFF. Returns only if the firmware refused. */
void psci_system_off(const struct psci_config *psci);

#endif
