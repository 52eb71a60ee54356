# This board's own test runs and images (included by tests/target/CMakeLists.txt,
# so images land beside the others in build/<board>/tests/target).

# Entered at EL2 (virtualization=on): the drop to EL1 and the SMC conduit for
# PSCI; the fault run proves EL1's MMU is the one on. Interrupts and timers
# work the same under the (empty) EL2 the image dropped from.
hive_board_run(boot_el2 boot 1 HIVE_QEMU_EL2=1)
hive_board_run(boot_el2 boot 4 HIVE_QEMU_EL2=1)
hive_board_run(fault_el2 fault 4 HIVE_QEMU_EL2=1 --expect-fail "panic: core [0-9]+: .*ESR=")
hive_board_run(timer_el2 timer 4 HIVE_QEMU_EL2=1)
hive_board_run(irq_el2 irq 4 HIVE_QEMU_EL2=1)

# GICv3 with 16 cores, beyond GICv2's 8: bring-up, parking, timers, device
# interrupts, the scheduler and their mixes.
hive_board_run(boot_gicv3 boot 16 HIVE_QEMU_GIC=3)
hive_board_run(park_gicv3 park 16 HIVE_QEMU_GIC=3 TIMEOUT 240)
hive_board_run(timer_gicv3 timer 16 HIVE_QEMU_GIC=3)
hive_board_run(irq_gicv3 irq 16 HIVE_QEMU_GIC=3)
hive_board_run(sched_gicv3 sched 16 HIVE_QEMU_GIC=3 TIMEOUT 300)
hive_board_run(timer_sched_gicv3 timer_sched 16 HIVE_QEMU_GIC=3)
hive_board_run(irq_sched_gicv3 irq_sched 16 HIVE_QEMU_GIC=3 TIMEOUT 240)
hive_board_run(park_sched_gicv3 park_sched 16 HIVE_QEMU_GIC=3 TIMEOUT 240)

# Entered where hive cannot run: QEMU's secure=on starts the image at EL3.
# One line saying so, status 1, no hang.
hive_add_target_test(entry_el3 SOURCES entry_test.c CORES 1 4 TIMEOUT 30
  EXPECT_FAIL "^hive: entered at EL3; hive runs at EL2 or EL1$"
  QEMU_ARGS -M secure=on)

# RAM as the device tree says (kernel/machine.c): less than the image is
# linked for (the heap ends at it), more (the heap ends as linked), and less
# than the image itself needs (one panic line, status 1).
hive_add_target_test(ram_48m SOURCES ram_test.c CORES 1 4 QEMU_ARGS -m 48M)
target_compile_definitions(ram_48m PRIVATE RAM_MIB=48)
hive_add_target_test(ram_512m SOURCES ram_test.c CORES 1 4 QEMU_ARGS -m 512M)
target_compile_definitions(ram_512m PRIVATE RAM_MIB=512)
# (RAM as large as the image itself, which starts 2 MiB in: tests/target/ram_too_small.sh.)
hive_add_image(ram_too_small ram_test.c ${HIVE_TEST_HARNESS})
target_link_libraries(ram_too_small PRIVATE hive_internal)
target_compile_definitions(ram_too_small PRIVATE RAM_MIB=0)
add_test(NAME ram_too_small.c1
  COMMAND ${CMAKE_CURRENT_SOURCE_DIR}/ram_too_small.sh ${HIVE_ROOT} ${HIVE_BOARD} ${CMAKE_NM}
          $<TARGET_FILE:ram_too_small>
          "^panic: core 0: RAM is [0-9]+ MiB at 0x40000000, image linked for 256 MiB needs [0-9]+ KiB \\(up to 0x[0-9a-f]+\\)$")
set_tests_properties(ram_too_small.c1 PROPERTIES TIMEOUT 30 LABELS "target;${HIVE_BOARD}")

# Many cores, GICv3: 32, 64 (a full word of the idle bitmap), and 96 (two
# words) with one core more than the image runs, which it says in one line.
# About 1.5, 2-4 and 9 s on a loaded 2-CPU host.
hive_board_run(many_cores many_cores 32 HIVE_QEMU_GIC=3)
hive_board_run(many_cores many_cores 64 HIVE_QEMU_GIC=3)
hive_board_run(many_cores_beyond many_cores 96 HIVE_QEMU_GIC=3
  --expect "^hive: 97 cores found, this image runs 96$" QEMU_ARGS -smp 97)
# One at a time: together they are 193 virtual cores on the host's few, and a
# secondary's thread starved for the boot's 5 s without an arrival (a core
# that never comes online is reported after 5 s: kernel/boot.c) - seen once,
# riscv64 at 96 harts, beside the other two and the trace tests at -j3.
set_tests_properties(many_cores.c32 many_cores.c64 many_cores_beyond.c96
  PROPERTIES RESOURCE_LOCK many_cores)
