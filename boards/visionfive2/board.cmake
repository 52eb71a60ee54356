# StarFive VisionFive 2 (JH7110) under its own OpenSBI and U-Boot: not
# emulated, its images are built and not run. Hart 0 is the S7 monitor core
# (no S-mode, no MMU) and never runs hive; hive runs on the four U74 harts,
# 1-4, and U-Boot may have booted any of them.
set(HIVE_ARCH riscv64)
set(HIVE_MAX_CORES 4)
# The time CSR's rate: the device tree's timebase-frequency (OpenSBI's
# banner: "aclint-mtimer @ 4000000Hz").
set(HIVE_TIMEBASE_HZ 4000000)
# The U74 has no Sstc: the timer is an SBI call.
set(HIVE_RISCV_SSTC OFF CACHE BOOL "Program the timer through stimecmp (Sstc) rather than SBI")
# PLIC sources on the JH7110 (the device tree's riscv,ndev = 136): ids 1..136.
set(HIVE_IRQ_LINES 137)
# U-Boot starts the image with booti, which wants the Linux image header
# (arch/riscv64/image_header.S) at its start.
set(HIVE_RISCV_IMAGE_HEADER ON)
