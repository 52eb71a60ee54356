# Raspberry Pi 4 (BCM2711, 4 Cortex-A72), and QEMU's raspi4b: always 4 cores.
set(HIVE_ARCH aarch64)
set(HIVE_MAX_CORES 4)
# The QEMU machine the qemu script boots (QEMU 9.0 and later; not Debian 12's
# 7.2): tools/hive checks the installed QEMU has it (tools/qemu-backports).
set(HIVE_QEMU_MACHINE raspi4b)
# Device lines are GIC-400 INTIDs: 32 + 192 SPIs, as many as the BCM2711's
# distributor implements.
set(HIVE_IRQ_LINES 224)
# The firmware loads a raw binary, kernel8.img: every image is also written
# as NAME.img beside NAME.elf (cmake/hive.cmake).
set(HIVE_RAW_IMAGE ON)
