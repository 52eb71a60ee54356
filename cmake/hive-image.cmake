# hive_add_image(NAME SRC...): a bootable ELF image, NAME.elf, for the board
# hive was built for: SRC with the kernel, arch and board objects, the
# scheduler and hive_after, linked with the board's linker script (and
# NAME.map beside it).
#
# The one function a firmware project needs, in hive's tree, after
# add_subdirectory(hive) and after find_package(hive) alike: it reads the
# board's settings from the hive:: targets (cmake/targets.cmake), never from
# the caller's variables. The project must be configured with hive's
# toolchain file (cmake/toolchain-ARCH.cmake; the installed package's
# hive-toolchain.cmake): the image's code is built with the board's flags.
function(hive_add_image name)
  # hive configured for the host port (HIVE_BOARD's default) has no board,
  # so nothing to link an image with: say what to set instead of failing
  # later on a missing target.
  if(NOT TARGET hive::platform)
    message(FATAL_ERROR "hive_add_image(${name}): hive is configured for the host port "
      "(HIVE_BOARD=host: its tests, no images). Configure with -DHIVE_BOARD=<board> (a folder "
      "of hive's boards/) and -DCMAKE_TOOLCHAIN_FILE=<hive>/cmake/toolchain-<arch>.cmake")
  endif()
  add_executable(${name} ${ARGN})
  set_target_properties(${name} PROPERTIES SUFFIX ".elf")
  # hive::platform is an object library: its objects are linked only into a
  # target that names it, and they must be, as objects, for their
  # definitions (libc's locks, stdout, _exit) to win over picolibc's.
  target_link_libraries(${name} PRIVATE hive::platform hive::after hive::sched)
  target_link_options(${name} PRIVATE -Wl,-Map=${CMAKE_CURRENT_BINARY_DIR}/${name}.map)
  # A board whose firmware loads a raw binary rather than an ELF (the
  # Raspberry Pi's kernel8.img; board.cmake's HIVE_RAW_IMAGE, carried by
  # hive::platform): NAME.img beside NAME.elf, which its qemu script boots.
  get_target_property(raw_image hive::platform HIVE_RAW_IMAGE)
  if(raw_image)
    add_custom_command(TARGET ${name} POST_BUILD
      COMMAND ${CMAKE_OBJCOPY} -O binary $<TARGET_FILE:${name}> $<TARGET_FILE_DIR:${name}>/${name}.img
      VERBATIM)
  endif()
  # A build type chosen by nobody gives no -O and no -g: firmware built so
  # is slow and cannot be debugged. hive's own code is built as hive was.
  get_property(multi_config GLOBAL PROPERTY GENERATOR_IS_MULTI_CONFIG)
  if(NOT multi_config AND NOT CMAKE_BUILD_TYPE)
    target_compile_options(${name} PRIVATE -O2 -g)
  endif()
endfunction()
