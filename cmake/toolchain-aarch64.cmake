# Bare-metal AArch64 with Debian's Linux cross gcc and picolibc (no Linux underneath:
# picolibc's specs replace glibc's headers, startfiles and libraries).
set(CMAKE_SYSTEM_NAME Generic)
set(CMAKE_SYSTEM_PROCESSOR aarch64)
# The cross compiler's name up to "gcc" (a PATH name or a full path's
# start): Debian's gcc-aarch64-linux-gnu by default; another build of the same
# target (a vendor's, a newer one in /opt) is -DHIVE_TOOLCHAIN_PREFIX=...
set(HIVE_TOOLCHAIN_PREFIX "aarch64-linux-gnu-" CACHE STRING "Cross tools' prefix, as in <prefix>gcc")
set(CMAKE_C_COMPILER ${HIVE_TOOLCHAIN_PREFIX}gcc)
set(CMAKE_ASM_COMPILER ${HIVE_TOOLCHAIN_PREFIX}gcc)
# try_compile projects read this file again, with a cache of their own.
list(APPEND CMAKE_TRY_COMPILE_PLATFORM_VARIABLES HIVE_TOOLCHAIN_PREFIX)
set(CMAKE_TRY_COMPILE_TARGET_TYPE STATIC_LIBRARY)
# The Linux gcc builds PIE by default; an image linked at a fixed address must not be.
# It also calls out-of-line atomics (__aarch64_ldadd4_acq_rel...) that pick LSE or
# LL/SC from the Linux auxv at run time; with no Linux, inline LL/SC (ARMv8.0, the
# Cortex-A53's only kind) is both simpler and faster.
set(CMAKE_C_FLAGS_INIT "--specs=picolibc.specs -mcpu=cortex-a53 -mno-outline-atomics -fno-pie -ffunction-sections -fdata-sections -fstack-clash-protection --param=stack-clash-protection-guard-size=12")
set(CMAKE_ASM_FLAGS_INIT "--specs=picolibc.specs -mcpu=cortex-a53 -fno-pie")
# No --specs here: CMake links with the C flags too, and gcc refuses the specs twice.
set(CMAKE_EXE_LINKER_FLAGS_INIT "-static -no-pie -nostartfiles")
set(CMAKE_FIND_ROOT_PATH_MODE_PROGRAM NEVER)
