# hive/board.h (cmake/board.h.in), generated for the board into the build's
# public include directory, so that hive's own code, every image and the
# installed package (cmake/install.cmake installs that directory) see the
# same file. Its values come from where the board already keeps them:
# HIVE_MAX_CORES (board.cmake), __ram_start and __ram_end (memory.ld), and
# the device macros (hive_board.h, pasted in whole).
set(_board_devices ${HIVE_BOARD_DIR}/hive_board.h)
set(_board_memory ${HIVE_BOARD_DIR}/memory.ld)
foreach(_f ${_board_devices} ${_board_memory})
  if(NOT EXISTS ${_f})
    message(FATAL_ERROR "board ${HIVE_BOARD} has no ${_f}")
  endif()
endforeach()
# Reconfigure when either changes (configure_file only tracks its template).
set_property(DIRECTORY APPEND PROPERTY CMAKE_CONFIGURE_DEPENDS ${_board_devices} ${_board_memory})

file(READ ${_board_devices} HIVE_BOARD_DEVICES)
foreach(_sym ram_start ram_end)
  # (file(STRINGS) escapes the line's ';', so the value is matched without it.)
  file(STRINGS ${_board_memory} _line REGEX "^__${_sym}[ \t]*=[ \t]*0x[0-9a-fA-F]+")
  string(REGEX MATCH "0x[0-9a-fA-F]+" _value "${_line}")
  if(NOT _value MATCHES "^0x[0-9a-fA-F]+$")
    message(FATAL_ERROR "${_board_memory}: no '__${_sym} = 0x...;' line")
  endif()
  string(TOUPPER ${_sym} _name)
  set(HIVE_BOARD_${_name} ${_value})
endforeach()
set(HIVE_BOARD_RAM_BASE ${HIVE_BOARD_RAM_START})
configure_file(${HIVE_ROOT}/cmake/board.h.in ${HIVE_GENERATED_INCLUDE}/hive/board.h @ONLY)
