# QEMU virt, Cortex-A53: 1 to 8 cores with the default GICv2, up to 96 with
# gic-version=3: more than one 64-bit word of the scheduler's idle bitmap,
# within the 123 redistributors of QEMU's first region (the second lies
# beyond the mapped devices), at about 160 KiB of static RAM per core.
set(HIVE_ARCH aarch64)
set(HIVE_MAX_CORES 96)
# The QEMU machine the qemu script boots: tools/hive checks the installed
# QEMU has it (tools/qemu-backports).
set(HIVE_QEMU_MACHINE virt)
# Device lines are GIC INTIDs, below kernel/irq.h's default HIVE_IRQ_LINES
# (1024; a GIC has at most 1020), so the board leaves it.
