/*
 * Arm semihosting, AArch64 flavour (HLT #0xF000): an exit path
 * (kernel/board.h, board_exit) that hands the status to QEMU
 * (-semihosting-config enable=on) or a debugger. It needs no device and
 * works at any exception level, MMU on or off.
 */
#ifndef HIVE_DRIVERS_SEMIHOSTING_H
#define HIVE_DRIVERS_SEMIHOSTING_H

/* SYS_EXIT with status. Returns only if nobody listens: then the HLT is an
 * undefined instruction, which arch/aarch64/exceptions.c skips. */
void semihosting_exit(int status);

#endif
