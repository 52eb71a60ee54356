# cmake --install of a board's build tree: what a firmware project outside
# hive's tree needs to build bootable images for this board with
#   find_package(hive)        # CMAKE_PREFIX_PATH=<prefix>
#   hive_add_image(my_fw main.c)
# configured with -DCMAKE_TOOLCHAIN_FILE=<prefix>/lib/cmake/hive/hive-toolchain.cmake.
#
#   include/hive/          the public headers (hive/version.h, board.h, limits.h generated)
#   lib/                   libhive_sched.a, libhive_after.a
#   lib/hive/objects-*/    the kernel, arch and board objects (hive::platform)
#   lib/hive/              image.ld, hive_limits.ld, the board's memory.ld, its qemu script (if QEMU runs it)
#   lib/cmake/hive/        the package: hiveConfig.cmake and its version
#                          file, the targets, hive_add_image, the toolchain
# One prefix holds one board (HIVE_BOARD in the package says which).
include(CMakePackageConfigHelpers)
set(HIVE_INSTALL_CMAKE_DIR lib/cmake/hive)

install(DIRECTORY ${HIVE_ROOT}/include/hive ${HIVE_GENERATED_INCLUDE}/hive
        DESTINATION include FILES_MATCHING PATTERN "*.h")
install(TARGETS hive_sched hive_after hive_platform EXPORT hiveTargets
        ARCHIVE DESTINATION lib
        OBJECTS DESTINATION ${HIVE_INSTALL_BOARD_DIR})
install(EXPORT hiveTargets NAMESPACE hive:: DESTINATION ${HIVE_INSTALL_CMAKE_DIR})
install(FILES ${HIVE_LINKER_SCRIPT} ${HIVE_BOARD_DIR}/memory.ld ${HIVE_GENERATED_LD}/hive_limits.ld
        DESTINATION ${HIVE_INSTALL_BOARD_DIR})
if(HIVE_BOARD_EMULATED)
  install(PROGRAMS ${HIVE_BOARD_DIR}/qemu DESTINATION ${HIVE_INSTALL_BOARD_DIR})
endif()

# The toolchain as this tree used it: the arch's file, with the compiler
# prefix this tree was configured with.
set(_toolchain ${HIVE_ROOT}/cmake/toolchain-${HIVE_ARCH}.cmake)
configure_file(${HIVE_ROOT}/cmake/hive-toolchain.cmake.in
               ${PROJECT_BINARY_DIR}/package/hive-toolchain.cmake @ONLY)
configure_package_config_file(${HIVE_ROOT}/cmake/hiveConfig.cmake.in
  ${PROJECT_BINARY_DIR}/package/hiveConfig.cmake
  INSTALL_DESTINATION ${HIVE_INSTALL_CMAKE_DIR}
  PATH_VARS HIVE_INSTALL_BOARD_DIR)
# 0.x: a minor version may change the API.
write_basic_package_version_file(${PROJECT_BINARY_DIR}/package/hiveConfigVersion.cmake
  COMPATIBILITY SameMinorVersion)
install(FILES ${PROJECT_BINARY_DIR}/package/hiveConfig.cmake
              ${PROJECT_BINARY_DIR}/package/hiveConfigVersion.cmake
              ${PROJECT_BINARY_DIR}/package/hive-toolchain.cmake
              ${_toolchain}
              ${HIVE_ROOT}/cmake/hive-image.cmake
        DESTINATION ${HIVE_INSTALL_CMAKE_DIR})
