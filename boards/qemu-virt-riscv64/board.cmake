# QEMU virt riscv64 (-M virt, default OpenSBI firmware), 1 to 32 harts.
# QEMU 10 allows 512, but the OpenSBI it bundles (1.5.1) leaves a hart or
# two stuck in M-mode after hart_start from about 40 harts on (in its own
# hang loop, a different hart each run: the ones that start last), so hive
# is never handed them; at 32 every hart came up in every run tried.
set(HIVE_ARCH riscv64)
set(HIVE_MAX_CORES 32)
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
