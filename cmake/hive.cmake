# Helpers shared by every CMakeLists.txt in the tree. All but hive_add_image
# are for hive's own tree and read the variables set here, in its scope;
# hive_add_image, the one a firmware project calls, reads none
# (hive-image.cmake).

set(HIVE_ROOT ${CMAKE_CURRENT_LIST_DIR}/..)
set(HIVE_TEST_HARNESS ${HIVE_ROOT}/tests/harness.c)

# The workloads (fib, N-Queens, merge sort, spawn) that apps/demo, bench/ and
# the scheduler tests share: tests/workloads/. Each X.h holds the serial
# kernels and the checker (C that also compiles as C++, for bench's peers);
# X.c is hive's version, on the public API only.
set(HIVE_WORKLOADS_DIR ${HIVE_ROOT}/tests/workloads)
set(HIVE_WORKLOAD_SOURCES ${HIVE_WORKLOADS_DIR}/fib.c ${HIVE_WORKLOADS_DIR}/nqueens.c
    ${HIVE_WORKLOADS_DIR}/nqueens_serial.c ${HIVE_WORKLOADS_DIR}/msort.c
    ${HIVE_WORKLOADS_DIR}/spawn.c)
set(HIVE_WORKLOAD_HEADERS ${HIVE_WORKLOADS_DIR}/fib.h ${HIVE_WORKLOADS_DIR}/nqueens.h
    ${HIVE_WORKLOADS_DIR}/msort.h ${HIVE_WORKLOADS_DIR}/spawn.h)

# hive_use_workloads(TARGET): compile hive's workloads into TARGET with its
# own flags (a sanitizer build instruments them too), and let it include
# "workloads/X.h".
function(hive_use_workloads target)
  target_sources(${target} PRIVATE ${HIVE_WORKLOAD_SOURCES})
  target_include_directories(${target} PRIVATE ${HIVE_ROOT}/tests)
endfunction()

# hive_add_image(NAME SRC...): the function firmware uses, installed with
# the package.
include(${CMAKE_CURRENT_LIST_DIR}/hive-image.cmake)

# hive_add_target_test(NAME SOURCES src... [CORES n...] [TIMEOUT s]
#                      [EXPECT_FAIL regex] [QEMU_ARGS arg...])
# Builds an image and adds one ctest per core count, named NAME.cN, that boots
# it under QEMU through tools/run-image (counts above the board's
# HIVE_MAX_CORES are left out: it cannot have that many cores). QEMU's exit
# status is the verdict; with EXPECT_FAIL the test passes only if the image
# exits non-zero and its output matches the regex (used to prove that faults
# are caught).
function(hive_add_target_test name)
  cmake_parse_arguments(T "" "TIMEOUT;EXPECT_FAIL" "SOURCES;CORES;QEMU_ARGS" ${ARGN})
  if(NOT T_CORES)
    set(T_CORES 1 2 4 8)
  endif()
  set(fitting)
  foreach(n IN LISTS T_CORES)
    if(n LESS_EQUAL HIVE_MAX_CORES)
      list(APPEND fitting ${n})
    endif()
  endforeach()
  set(T_CORES ${fitting})
  if(NOT T_TIMEOUT)
    set(T_TIMEOUT 120)
  endif()
  hive_add_image(${name} ${T_SOURCES} ${HIVE_TEST_HARNESS})
  target_link_libraries(${name} PRIVATE hive_internal)
  if(NOT HIVE_BOARD_EMULATED)
    return()    # built, as for the board; nothing here can boot it
  endif()
  set(extra)
  if(T_EXPECT_FAIL)
    list(APPEND extra --expect-fail "${T_EXPECT_FAIL}")
  endif()
  foreach(n IN LISTS T_CORES)
    add_test(NAME ${name}.c${n}
      COMMAND ${HIVE_ROOT}/tools/run-image --board ${HIVE_BOARD} --cores ${n}
              --timeout ${T_TIMEOUT} ${extra} $<TARGET_FILE:${name}> ${T_QEMU_ARGS})
    # ctest waits longer than run-image, which must end first with its own
    # verdict: -k 5 after its timeout, then the symbolised panic lines.
    math(EXPR _ctest_timeout "${T_TIMEOUT} + 15")
    set_tests_properties(${name}.c${n} PROPERTIES TIMEOUT ${_ctest_timeout}
      LABELS "target;${HIVE_BOARD}")
  endforeach()
endfunction()

# hive_board_run(NAME IMAGE CORES ENV [TIMEOUT s] [run-image args...]
#                [QEMU_ARGS args...]): one more ctest run, NAME.cCORES, of an
# image of tests/target with environment ENV for the board's qemu script
# and QEMU_ARGS after its own (boards/<board>/tests.cmake uses it for other
# QEMU settings: another entry level, another interrupt controller, more
# cores or less RAM than the image is run on).
function(hive_board_run name image cores env)
  cmake_parse_arguments(R "" "TIMEOUT" "QEMU_ARGS" ${ARGN})
  if(NOT HIVE_BOARD_EMULATED)
    return()
  endif()
  if(NOT R_TIMEOUT)
    set(R_TIMEOUT 120)
  endif()
  add_test(NAME ${name}.c${cores}
    COMMAND ${HIVE_ROOT}/tools/run-image --board ${HIVE_BOARD} --cores ${cores}
            --timeout ${R_TIMEOUT} ${R_UNPARSED_ARGUMENTS} $<TARGET_FILE:${image}> ${R_QEMU_ARGS})
  math(EXPR _ctest_timeout "${R_TIMEOUT} + 15") # after run-image's own (hive_add_target_test)
  set_tests_properties(${name}.c${cores} PROPERTIES TIMEOUT ${_ctest_timeout} ENVIRONMENT "${env}"
    LABELS "target;${HIVE_BOARD}")
endfunction()

# hive_use_drivers(NAME...): a board's CMakeLists.txt names the drivers it
# wires up (and arch/riscv64 names SBI, which every S-mode hart runs on);
# each is drivers/NAME.c, or every .c and .S file of the folder drivers/NAME/. They
# are compiled into hive_platform like the board's own files; naming one
# twice is harmless.
function(hive_use_drivers)
  foreach(driver IN LISTS ARGN)
    if(IS_DIRECTORY ${HIVE_ROOT}/drivers/${driver})
      file(GLOB sources CONFIGURE_DEPENDS ${HIVE_ROOT}/drivers/${driver}/*.c
                                          ${HIVE_ROOT}/drivers/${driver}/*.S)
    elseif(EXISTS ${HIVE_ROOT}/drivers/${driver}.c)
      set(sources ${HIVE_ROOT}/drivers/${driver}.c)
    else()
      message(FATAL_ERROR "hive_use_drivers: no driver '${driver}' in drivers/")
    endif()
    target_sources(hive_platform PRIVATE ${sources})
  endforeach()
endfunction()
