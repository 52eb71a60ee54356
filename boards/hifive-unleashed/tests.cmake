# This board's own test images (included by tests/target/CMakeLists.txt, so
# images land beside the others in build/<board>/tests/target).

# Entered where hive cannot run: one line saying so, status 1, no hang.
# -bios none leaves every hart in M-mode, and sifive_u's boot ROM jumps to
# the start of RAM (0x80000000, where OpenSBI would be), not to the image;
# the loader device writes the two instructions a bare M-mode loader would
# put there: auipc t0, 0x200; jr t0 - on to _start at 0x80200000. The E51
# (hart 0) goes there too and faults on the first S-mode register it
# touches, before it can claim the report; a U54 reports, through the
# SiFive UART and semihosting, both of which work from M-mode.
hive_add_target_test(entry_mmode SOURCES entry_test.c CORES 1 4 TIMEOUT 30
  EXPECT_FAIL "^hive: entered in M-mode; hive runs in S-mode under SBI firmware \\(OpenSBI\\)$"
  QEMU_ARGS -bios none -device loader,addr=0x80000000,data=0x0002806700200297,data-len=8)

# A hart the firmware hands over at the image's entry instead of where it was
# started (OpenSBI before 1.3 can, on a loaded host): it must join as the
# secondary it was started as, not boot a second time.
hive_add_target_test(entry_raced SOURCES entry_raced_test.c CORES 2 4 TIMEOUT 60)

# The U54 harts have no Zawrs (RV64GC; QEMU's sifive-u54 neither): each finds
# that as it comes up and parks straight into WFI, with no phase 1.
hive_add_target_test(park_phase1 SOURCES park_phase1_test.c CORES 1 4 TIMEOUT 60)
target_compile_definitions(park_phase1 PRIVATE PARK_PHASE1="none")

# RAM as the device tree says (kernel/machine.c): less than the image is
# linked for (the heap ends at it, below the tree), and more (as linked).
hive_add_target_test(ram_48m SOURCES ram_test.c CORES 1 4 QEMU_ARGS -m 48M)
target_compile_definitions(ram_48m PRIVATE RAM_MIB=48)
hive_add_target_test(ram_512m SOURCES ram_test.c CORES 1 4 QEMU_ARGS -m 512M)
target_compile_definitions(ram_512m PRIVATE RAM_MIB=512)
