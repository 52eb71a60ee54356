/*
 * Arm semihosting, in its AArch64 flavour (HLT #0xF000) and its RISC-V one
 * (EBREAK between two marker instructions): an exit path (kernel/board.h,
 * board_exit) that hands the status to QEMU (-semihosting-config enable=on)
 * or a debugger. It needs no device and works at any privilege level that
 * QEMU accepts it from (aarch64: any EL; riscv64: M and S), MMU on or off.
 */
#ifndef HIVE_DRIVERS_SEMIHOSTING_H
#define HIVE_DRIVERS_SEMIHOSTING_H

/* SYS_EXIT with status. Returns only if nobody listens: then the HLT is an
 * undefined instruction (the EBREAK a breakpoint), which the arch's
 * exception path (arch/aarch64/exceptions.c, arch/riscv64/trap.c) skips. */
void semihosting_exit(int status);

/* SYS_GET_CMDLINE: the command line the host gives the image (QEMU: the
 * -semihosting-config arg=... values, joined by spaces), as a string in buf.
 * Returns 0, or -1 if nobody listens or it does not fit. */
int semihosting_cmdline(char *buf, unsigned long size);

/*
 * How many cores the launcher wants, from "cores=N" on the semihosting
 * command line: for a machine QEMU always gives all its cores (the Pis'
 * raspi3b / raspi4b accept no -smp but their own), whose qemu script passes
 * the count that way. `most` if nobody listens, there is no such word, or
 * N is not in 1..most. Read once (core 0 asks while it starts the others).
 */
unsigned semihosting_cores_wanted(unsigned most);

#endif
