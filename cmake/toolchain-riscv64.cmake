# Bare-metal RV64GC (lp64d) in S-mode under OpenSBI, with picolibc.
set(CMAKE_SYSTEM_NAME Generic)
set(CMAKE_SYSTEM_PROCESSOR riscv64)
set(CMAKE_C_COMPILER riscv64-unknown-elf-gcc)
set(CMAKE_ASM_COMPILER riscv64-unknown-elf-gcc)
set(CMAKE_TRY_COMPILE_TARGET_TYPE STATIC_LIBRARY)
# medany: the image lives at 0x80200000, beyond the reach of the default medlow model.
set(CMAKE_C_FLAGS_INIT "--specs=picolibc.specs -march=rv64gc -mabi=lp64d -mcmodel=medany -ffunction-sections -fdata-sections -Werror=frame-larger-than=4096 -Werror=vla -Werror=alloca")
set(CMAKE_ASM_FLAGS_INIT "--specs=picolibc.specs -march=rv64gc -mabi=lp64d -mcmodel=medany")
# The C flags (with --specs) are on the link line already: naming the specs
# twice is a fatal gcc error. -nostartfiles: picolibc's crt0 writes mstatus,
# which traps in S-mode; arch/riscv64/entry.S does its job.
set(CMAKE_EXE_LINKER_FLAGS_INIT "-nostartfiles")
set(CMAKE_FIND_ROOT_PATH_MODE_PROGRAM NEVER)
