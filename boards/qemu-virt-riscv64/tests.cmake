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
