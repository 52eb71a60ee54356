# SiFive HiFive Unleashed (FU540): QEMU's -M sifive_u under its default
# OpenSBI firmware. Hart 0 is the E51 monitor core (no S-mode, no MMU) and
# never runs hive; hive runs on the four U54 harts, 1-4.
set(HIVE_ARCH riscv64)
set(HIVE_MAX_CORES 4)
# The QEMU machine the qemu script boots: tools/hive checks the installed
# QEMU has it (tools/qemu-backports).
set(HIVE_QEMU_MACHINE sifive_u)
# The time CSR's rate: the device tree's timebase-frequency (the 1 MHz RTC
# clock, rtcclk).
set(HIVE_TIMEBASE_HZ 1000000)
# The U54 has no Sstc: the timer is an SBI call.
set(HIVE_RISCV_SSTC OFF CACHE BOOL "Program the timer through stimecmp (Sstc) rather than SBI")
# PLIC sources on the FU540 (the device tree's riscv,ndev = 53): ids 1..53.
set(HIVE_IRQ_LINES 54)
# On the board, U-Boot starts the image with booti, which wants the Linux
# image header (arch/riscv64/image_header.S) at its start; QEMU enters at
# the image's start too, and the header's first word jumps to _start.
set(HIVE_RISCV_IMAGE_HEADER ON)
