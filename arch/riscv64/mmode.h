/*
 * Whether the image was entered in M-mode, with no SBI firmware under it.
 * Only the M-mode entry's one-line report runs then (start.c), with the MMU
 * off and none of S-mode's services: a board's exit path that needs the time
 * asks, as `time` may trap there (a machine whose CLINT gives no `time` CSR
 * relies on the firmware to emulate it for S-mode).
 */
#ifndef HIVE_ARCH_RISCV64_MMODE_H
#define HIVE_ARCH_RISCV64_MMODE_H

#include <stdbool.h>

bool riscv_entered_in_mmode(void);

#endif
