/* PSCI calls, through the conduit this board's firmware listens on. */
#ifndef HIVE_BOARD_QEMU_VIRT_AARCH64_PSCI_H
#define HIVE_BOARD_QEMU_VIRT_AARCH64_PSCI_H

#include <stdint.h>

#define PSCI_CPU_ON             0xc4000003u
#define PSCI_SYSTEM_OFF         0x84000008u
#define PSCI_SUCCESS            0
#define PSCI_INVALID_PARAMETERS (-2)

long psci_call(uint32_t fn, uint64_t a1, uint64_t a2, uint64_t a3);

#endif
