# Bare-metal RV64GC (lp64d) in S-mode under OpenSBI, with picolibc.
set(CMAKE_SYSTEM_NAME Generic)
set(CMAKE_SYSTEM_PROCESSOR riscv64)
# The cross compiler's name up to "gcc" (a PATH name or a full path's
# start): Debian's gcc-riscv64-unknown-elf by default; another build of the same
# target (a vendor's, a newer one in /opt) is -DHIVE_TOOLCHAIN_PREFIX=...
set(HIVE_TOOLCHAIN_PREFIX "riscv64-unknown-elf-" CACHE STRING "Cross tools' prefix, as in <prefix>gcc")
set(CMAKE_C_COMPILER ${HIVE_TOOLCHAIN_PREFIX}gcc)
set(CMAKE_ASM_COMPILER ${HIVE_TOOLCHAIN_PREFIX}gcc)
# try_compile projects read this file again, with a cache of their own.
list(APPEND CMAKE_TRY_COMPILE_PLATFORM_VARIABLES HIVE_TOOLCHAIN_PREFIX)
set(CMAKE_TRY_COMPILE_TARGET_TYPE STATIC_LIBRARY)
# medany: the image lives at 0x80200000, beyond the reach of the default medlow model.
set(CMAKE_C_FLAGS_INIT "--specs=picolibc.specs -march=rv64gc -mabi=lp64d -mcmodel=medany -ffunction-sections -fdata-sections -Werror=frame-larger-than=4096 -Werror=vla -Werror=alloca")
set(CMAKE_ASM_FLAGS_INIT "--specs=picolibc.specs -march=rv64gc -mabi=lp64d -mcmodel=medany")
# The C flags (with --specs) are on the link line already: naming the specs
# twice is a fatal gcc error. -nostartfiles: picolibc's crt0 writes mstatus,
# which traps in S-mode; arch/riscv64/entry.S does its job.
set(CMAKE_EXE_LINKER_FLAGS_INIT "-nostartfiles")
set(CMAKE_FIND_ROOT_PATH_MODE_PROGRAM NEVER)
