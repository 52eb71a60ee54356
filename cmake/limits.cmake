# hive's static limits: CMake cache variables of hive's own build, each with
# its documented default (docs/limits.md). They size arrays in hive's
# libraries, so they are fixed when hive is built: the values go to the
# compile of every hive object through the generated public header
# hive/limits.h (cmake/limits.h.in), which the installed package carries,
# and to the linker through hive_limits.ld (cmake/hive_limits.ld.in), which
# every image's link includes. A firmware built on hive reads them there;
# it cannot change them (hive/limits.h refuses a different value defined
# before it, and the package refuses a different CMake value).
#
# Checked here, so that a nonsense value stops the configure with a line
# naming the option; kernel/cpu.h and sched/ assert the same again in C.
#
# In:  HIVE_MAX_CORES (the board's most, from board.cmake; 256 on the host).
# Out: HIVE_BOARD_MAX_CORES (that most), HIVE_MAX_CORES (this build's, the
#      cache value), and the others below; hive/limits.h, hive_limits.ld.

set(HIVE_BOARD_MAX_CORES ${HIVE_MAX_CORES})
# board.cmake's value is a normal variable; the cache variable of the same
# name is the user's choice, at most the board's.
unset(HIVE_MAX_CORES)
set(HIVE_MAX_CORES ${HIVE_BOARD_MAX_CORES} CACHE STRING
    "Most cores an image runs on (per-core arrays); at most the board's")
set(HIVE_STACK_SIZE 32768 CACHE STRING
    "Bytes of task stack per core (boards), a multiple of 4096, at least 8192")
set(HIVE_POOL_MAX 1024 CACHE STRING
    "Most hive_spawn_fn headers per core (hive_config.pool_size's bound)")
set(HIVE_POOL_DEFAULT 256 CACHE STRING
    "hive_spawn_fn headers per core when hive_config.pool_size is 0")
set(HIVE_TIMERS_PER_CORE 256 CACHE STRING
    "Pending hive_after/hive_after_irq timers per core (boards)")
set(HIVE_IMAGE_SIZE 0 CACHE STRING
    "Most bytes an image may take, text+data+bss with the stacks; 0: the board's RAM")

foreach(_opt HIVE_MAX_CORES HIVE_STACK_SIZE HIVE_POOL_MAX HIVE_POOL_DEFAULT HIVE_TIMERS_PER_CORE)
  if(NOT "${${_opt}}" MATCHES "^[1-9][0-9]*$")
    message(FATAL_ERROR "${_opt} = '${${_opt}}': must be a positive whole number (docs/limits.md)")
  endif()
endforeach()
if(NOT HIVE_IMAGE_SIZE MATCHES "^(0|[1-9][0-9]*)$")
  message(FATAL_ERROR "HIVE_IMAGE_SIZE = '${HIVE_IMAGE_SIZE}': must be a whole number of bytes, 0 for the board's RAM")
endif()

if(HIVE_MAX_CORES GREATER HIVE_BOARD_MAX_CORES)
  message(FATAL_ERROR "HIVE_MAX_CORES = ${HIVE_MAX_CORES} is more than ${HIVE_BOARD} has "
          "(${HIVE_BOARD_MAX_CORES}, board.cmake): it may be lowered, never raised")
endif()
# Each core's stack slot is a guard page and then the stack; the guards are
# unmapped pages, so the slot, and with it the stack, is whole pages.
math(EXPR _rem "${HIVE_STACK_SIZE} % 4096")
if(NOT _rem EQUAL 0)
  message(FATAL_ERROR "HIVE_STACK_SIZE = ${HIVE_STACK_SIZE} is not a multiple of 4096 "
          "(the page below each stack is its guard)")
endif()
# The boot core's main, the worker loop, printf and a task's own frames share
# the stack: hive's boot, timer and stack-overflow images run in 8 KiB, and
# hive supports no less (its fork-join test workloads need more).
if(HIVE_STACK_SIZE LESS 8192)
  message(FATAL_ERROR "HIVE_STACK_SIZE = ${HIVE_STACK_SIZE} is below 8192, the least hive "
          "supports (its own frames - boot, the worker loop, printf - take a few KiB of it)")
endif()
if(HIVE_POOL_DEFAULT GREATER HIVE_POOL_MAX)
  message(FATAL_ERROR "HIVE_POOL_DEFAULT = ${HIVE_POOL_DEFAULT} is above HIVE_POOL_MAX = ${HIVE_POOL_MAX}")
endif()

# Per core, as an image links them (docs/limits.md has the table).
math(EXPR HIVE_STACK_SLOT_BYTES "4096 + ${HIVE_STACK_SIZE}")
math(EXPR HIVE_STACKS_BYTES "${HIVE_MAX_CORES} * (${HIVE_STACK_SLOT_BYTES} + 32768)")
configure_file(${CMAKE_CURRENT_LIST_DIR}/limits.h.in ${HIVE_GENERATED_INCLUDE}/hive/limits.h @ONLY)
set(HIVE_GENERATED_LD ${PROJECT_BINARY_DIR}/ld)
configure_file(${CMAKE_CURRENT_LIST_DIR}/hive_limits.ld.in ${HIVE_GENERATED_LD}/hive_limits.ld @ONLY)
message(STATUS "hive limits: HIVE_MAX_CORES=${HIVE_MAX_CORES} HIVE_STACK_SIZE=${HIVE_STACK_SIZE} "
        "HIVE_POOL_MAX=${HIVE_POOL_MAX} HIVE_POOL_DEFAULT=${HIVE_POOL_DEFAULT} "
        "HIVE_TIMERS_PER_CORE=${HIVE_TIMERS_PER_CORE} HIVE_IMAGE_SIZE=${HIVE_IMAGE_SIZE}")
