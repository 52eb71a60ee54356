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
