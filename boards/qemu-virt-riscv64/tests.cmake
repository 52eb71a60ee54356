# This board's own test images (included by tests/target/CMakeLists.txt, so
# images land beside the others in build/<board>/tests/target).

# Entered where hive cannot run: one line saying so, status 1, no hang.
# -bios none leaves the harts in M-mode, but QEMU then jumps to the start of
# RAM (0x80000000, where OpenSBI would be), not to the image; the loader
# device writes the two instructions a bare M-mode loader would put there:
# auipc t0, 0x200; jr t0 - on to _start at 0x80200000.
hive_add_target_test(entry_mmode SOURCES entry_test.c CORES 1 4 TIMEOUT 30
  EXPECT_FAIL "^hive: entered in M-mode; hive runs in S-mode under SBI firmware \\(OpenSBI\\)$"
  QEMU_ARGS -bios none -device loader,addr=0x80000000,data=0x0002806700200297,data-len=8)

# A hart the firmware hands over at the image's entry instead of where it was
# started (OpenSBI before 1.3 can, on a loaded host): it must join as the
# secondary it was started as, not boot a second time.
hive_add_target_test(entry_raced SOURCES entry_raced_test.c CORES 2 4 TIMEOUT 60)

# Its qemu script leaves semihosting off: a semihosting call (the exit path
# of boards that have no finisher) must come back rather than fault.
hive_add_target_test(semihosting_unheard SOURCES semihosting_unheard_test.c
  ${HIVE_ROOT}/drivers/semihosting.c CORES 1 4)

# How U-Boot starts the real riscv64 boards (visionfive2; hifive-unleashed
# on the board): the demo with the Linux image header, which this board's
# images otherwise leave out, written out by visionfive2's own image recipe,
# found on a FAT disk by Debian's U-Boot for QEMU virt and started with
# booti (tests/tools/uboot_booti.sh).
hive_add_image(demo_booti ${HIVE_ROOT}/apps/demo.c ${HIVE_ROOT}/arch/riscv64/image_header.S)
hive_use_workloads(demo_booti)
target_link_libraries(demo_booti PRIVATE hive_internal)
add_test(NAME uboot_booti.c4
  COMMAND ${HIVE_ROOT}/tests/tools/uboot_booti.sh ${HIVE_ROOT} visionfive2 $<TARGET_FILE:demo_booti>)
set_tests_properties(uboot_booti.c4 PROPERTIES TIMEOUT 180 LABELS "target;image;qemu-virt-riscv64")

# Zawrs (WRS.NTO), which QEMU's default rv64 CPU has from QEMU 8.0 on: each
# hart finds whether it has it as it comes up, and parks with WRS.NTO in
# phase 1 if so. Both ways asked for explicitly (HIVE_QEMU_ZAWRS, the qemu
# script), whatever the QEMU's default: detection, and parking and the
# scheduler's wakes again on harts without it (the default runs have it).
hive_add_target_test(park_phase1_zawrs SOURCES park_phase1_test.c CORES 1 4 TIMEOUT 60
  QEMU_ARGS -cpu rv64,zawrs=true)
target_compile_definitions(park_phase1_zawrs PRIVATE PARK_PHASE1="wrs.nto")
hive_add_target_test(park_phase1_no_zawrs SOURCES park_phase1_test.c CORES 1 4 TIMEOUT 60
  QEMU_ARGS -cpu rv64,zawrs=false)
target_compile_definitions(park_phase1_no_zawrs PRIVATE PARK_PHASE1="none")
hive_board_run(park_no_zawrs park 4 HIVE_QEMU_ZAWRS=0 TIMEOUT 240)
hive_board_run(park_sched_no_zawrs park_sched 4 HIVE_QEMU_ZAWRS=0 TIMEOUT 240)

# RAM as the device tree says (kernel/machine.c): less than the image is
# linked for (the heap ends at it, below the tree QEMU puts near the end),
# and more (the heap ends as linked). Less than the image needs is QEMU's
# own refusal here ("No enough memory to place DTB after kernel/initrd"):
# it puts the tree above the image's .bss, so such an image never starts.
hive_add_target_test(ram_48m SOURCES ram_test.c CORES 1 4 QEMU_ARGS -m 48M)
target_compile_definitions(ram_48m PRIVATE RAM_MIB=48)
hive_add_target_test(ram_512m SOURCES ram_test.c CORES 1 4 QEMU_ARGS -m 512M)
target_compile_definitions(ram_512m PRIVATE RAM_MIB=512)

# Many cores: 32, 64 (a full word of the idle bitmap), and 96 (two words)
# with one hart more than the image runs, which it says in one line.
# About 2-4, 2-4 and 3-10 s on a loaded 2-CPU host.
hive_board_run(many_cores many_cores 32 "")
hive_board_run(many_cores many_cores 64 "")
hive_board_run(many_cores_beyond many_cores 96 ""
  --expect "^hive: 97 cores found, this image runs 96$" QEMU_ARGS -smp 97)
# One at a time: together they are 193 virtual cores on the host's few, and a
# secondary's thread starved for the boot's 5 s without an arrival (a core
# that never comes online is reported after 5 s: kernel/boot.c) - seen once,
# riscv64 at 96 harts, beside the other two and the trace tests at -j3.
set_tests_properties(many_cores.c32 many_cores.c64 many_cores_beyond.c96
  PROPERTIES RESOURCE_LOCK many_cores)
