# Raspberry Pi 3 (BCM2837, 4 Cortex-A53), and QEMU's raspi3b: always 4 cores.
set(HIVE_ARCH aarch64)
set(HIVE_MAX_CORES 4)
# The QEMU machine the qemu script boots: tools/hive checks the installed
# QEMU has it (tools/qemu-backports).
set(HIVE_QEMU_MACHINE raspi3b)
# Device lines are the local interrupt controller's source bits 0-11
# (drivers/bcm2836_local_intc).
set(HIVE_IRQ_LINES 12)
# The firmware loads a raw binary, kernel8.img: every image is also written
# as NAME.img beside NAME.elf (cmake/hive.cmake).
set(HIVE_RAW_IMAGE ON)
