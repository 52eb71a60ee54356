# What an image links, as the targets hive_add_image (cmake/hive-image.cmake)
# names: hive::sched (the scheduler, include/hive), hive::after (hive_after)
# and hive::platform (kernel, arch and board objects, the linker script).
# The same names in hive's tree, in a project that adds hive with
# add_subdirectory, and in the installed package (cmake/install.cmake), so
# the function never depends on who calls it.

# The generated public header (hive/version.h) beside the sources' ones; the
# installed package has both in its include/.
target_include_directories(hive_sched PUBLIC $<BUILD_INTERFACE:${HIVE_GENERATED_INCLUDE}>
                                             $<INSTALL_INTERFACE:include>)
set_target_properties(hive_sched PROPERTIES EXPORT_NAME sched)
add_library(hive::sched ALIAS hive_sched)

if(HIVE_BOARD STREQUAL "host")
  add_library(hive::port_host ALIAS hive_port_host)
  return()
endif()

set_target_properties(hive_after PROPERTIES EXPORT_NAME after)
set_target_properties(hive_platform PROPERTIES EXPORT_NAME platform)
# The board's name in every image, in a section nothing loads, for tools/hive
# to refuse an ELF built for another board (cmake/board_id.c says why).
target_sources(hive_platform PRIVATE ${HIVE_ROOT}/cmake/board_id.c)
# Whether images are also wanted as raw binaries (board.cmake; hive_add_image
# reads it here, in hive's tree and from the installed package alike).
if(HIVE_RAW_IMAGE)
  set_target_properties(hive_platform PROPERTIES HIVE_RAW_IMAGE ON EXPORT_PROPERTIES HIVE_RAW_IMAGE)
endif()
add_library(hive::after ALIAS hive_after)
add_library(hive::platform ALIAS hive_platform)

# Where an installed package keeps the linker scripts and the board's QEMU
# script (cmake/install.cmake).
set(HIVE_INSTALL_BOARD_DIR lib/hive)
# The arch's linker script, which INCLUDEs the board's memory.ld: found
# through -L. Images that link hive::platform get both, and relink when
# either changes.
# It also includes hive_limits.ld, generated with this build's limits
# (cmake/limits.cmake), from the build tree or the installed package.
target_link_options(hive_platform INTERFACE
  "$<BUILD_INTERFACE:-T${HIVE_LINKER_SCRIPT};-L${HIVE_BOARD_DIR};-L${HIVE_GENERATED_LD}>"
  "$<INSTALL_INTERFACE:-T$<INSTALL_PREFIX>/${HIVE_INSTALL_BOARD_DIR}/image.ld;-L$<INSTALL_PREFIX>/${HIVE_INSTALL_BOARD_DIR}>")
set_property(TARGET hive_platform PROPERTY INTERFACE_LINK_DEPENDS
  "$<BUILD_INTERFACE:${HIVE_LINKER_SCRIPT};${HIVE_BOARD_DIR}/memory.ld;${HIVE_GENERATED_LD}/hive_limits.ld>"
  "$<INSTALL_INTERFACE:$<INSTALL_PREFIX>/${HIVE_INSTALL_BOARD_DIR}/image.ld;$<INSTALL_PREFIX>/${HIVE_INSTALL_BOARD_DIR}/memory.ld;$<INSTALL_PREFIX>/${HIVE_INSTALL_BOARD_DIR}/hive_limits.ld>")

# hive's own images (tests/target, apps) also reach the internal headers:
# kernel/, arch/, and tests/ for the harness and the shared workloads.
# Not exported: firmware built on hive sees include/hive only.
add_library(hive_internal INTERFACE)
target_include_directories(hive_internal INTERFACE ${HIVE_ROOT} ${HIVE_ROOT}/arch/${HIVE_ARCH}
                                                   ${HIVE_ROOT}/tests)
