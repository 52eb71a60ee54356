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

# RAM as the device tree says (kernel/machine.c): less than the image is
# linked for (the heap ends at it, below the tree QEMU puts near the end),
# and more (the heap ends as linked). Less than the image needs is QEMU's
# own refusal here ("No enough memory to place DTB after kernel/initrd"):
# it puts the tree above the image's .bss, so such an image never starts.
hive_add_target_test(ram_48m SOURCES ram_test.c CORES 1 4 QEMU_ARGS -m 48M)
target_compile_definitions(ram_48m PRIVATE RAM_MIB=48)
hive_add_target_test(ram_512m SOURCES ram_test.c CORES 1 4 QEMU_ARGS -m 512M)
target_compile_definitions(ram_512m PRIVATE RAM_MIB=512)

# Many cores: 32, with one hart more than the image runs (which it says in
# one line). About 5 s on a loaded 2-CPU host.
hive_board_run(many_cores_beyond many_cores 32 ""
  --expect "^hive: 33 cores found, this image runs 32$" QEMU_ARGS -smp 33)
