# QEMU virt riscv64 (-M virt, default OpenSBI firmware), 1 to 8 harts.
set(HIVE_ARCH riscv64)
set(HIVE_MAX_CORES 8)
set(HIVE_LINKER_SCRIPT ${HIVE_ROOT}/linker/qemu-virt-riscv64.ld)
# The time CSR's rate: the device tree's timebase-frequency on QEMU virt.
set(HIVE_TIMEBASE_HZ 10000000)
