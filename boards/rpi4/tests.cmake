# This board's own test runs and images (included by tests/target/CMakeLists.txt,
# so images land beside the others in build/<board>/tests/target).

# An ELF instead of kernel8.img: QEMU's raspi4b then starts every core at EL3
# at once, with no firmware holding the secondaries. One line saying so,
# status 1, no hang. (The regex's "." stands for the line's ";", which
# would split the argument list.)
hive_add_image(entry_el3 entry_test.c ${HIVE_TEST_HARNESS})
target_link_libraries(entry_el3 PRIVATE hive_internal)
hive_board_run(entry_el3_elf entry_el3 4 HIVE_QEMU_ELF=1 TIMEOUT 30
  --expect-fail "^hive: entered at EL3. hive runs at EL2 or EL1$")

# Without semihosting (a Pi without a debugger) the exit halts only the
# calling core: a panic must stop the others itself (kernel/panic.c).
add_test(NAME panic_halts_no_semihosting.c2
         COMMAND ${HIVE_ROOT}/tests/tools/panic_halts.sh ${HIVE_ROOT} ${HIVE_BOARD} $<TARGET_FILE:panic_halts>)
set_tests_properties(panic_halts_no_semihosting.c2 PROPERTIES TIMEOUT 75 LABELS "target;${HIVE_BOARD}")
