# QEMU virt riscv64 (-M virt, default OpenSBI firmware), 1 to 96 harts.
# Above 32 the qemu script gives the harts no debug triggers (Sdtrig): the
# OpenSBI QEMU bundles (1.5.1) keeps each hart's trigger state on a heap
# sized by the hart count, which runs out from about 40 harts when each hart
# has triggers, and the harts that start last then hang in M-mode (their
# warm init fails with SBI_ENOMEM) and are never handed to hive.
set(HIVE_ARCH riscv64)
set(HIVE_MAX_CORES 96)
# The QEMU machine the qemu script boots: tools/hive checks the installed
# QEMU has it (tools/qemu-backports).
set(HIVE_QEMU_MACHINE virt)
# The time CSR's rate: the device tree's timebase-frequency on QEMU virt.
set(HIVE_TIMEBASE_HZ 10000000)
# QEMU 7.2's harts have Sstc (stimecmp) and OpenSBI 1.1 lets S-mode use it.
# OFF: the SBI timer (what a hart without Sstc, e.g. sifive_u's, needs).
set(HIVE_RISCV_SSTC ON CACHE BOOL "Program the timer through stimecmp (Sstc) rather than SBI")
# PLIC sources on QEMU 7.2 virt (VIRT_IRQCHIP_NUM_SOURCES): ids 1..52.
set(HIVE_IRQ_LINES 53)
