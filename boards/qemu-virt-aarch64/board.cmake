# QEMU virt, Cortex-A53: 1 to 8 cores with the default GICv2, up to 64 with
# gic-version=3 (QEMU allows 123 in the first redistributor region; 64 keeps
# the static RAM per core, about 160 KiB, at some 10 MiB).
set(HIVE_ARCH aarch64)
set(HIVE_MAX_CORES 64)
# Device lines are GIC INTIDs, below kernel/irq.h's default HIVE_IRQ_LINES
# (1024; a GIC has at most 1020), so the board leaves it.
