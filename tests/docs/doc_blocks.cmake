# hive_doc_blocks(DOC LANG PREFIX OUT): the fenced blocks of DOC (relative
# to hive's root) whose info string is LANG ("c", "c board"), written to
# PREFIX/example_N.c in the current binary directory; OUT gets their paths.
# A block's file is rewritten only when it changed, so a configure does not
# rebuild them all, and one whose block is gone is removed.
function(hive_doc_blocks doc lang prefix out)
  set(_md ${HIVE_ROOT}/${doc})
  set_property(DIRECTORY APPEND PROPERTY CMAKE_CONFIGURE_DEPENDS ${_md}
               ${HIVE_ROOT}/tests/docs/c_blocks.awk)
  set(_fresh ${CMAKE_CURRENT_BINARY_DIR}/${prefix}.new)
  set(_dir ${CMAKE_CURRENT_BINARY_DIR}/${prefix})
  file(REMOVE_RECURSE ${_fresh})
  file(MAKE_DIRECTORY ${_fresh})
  execute_process(COMMAND awk -v out=${_fresh} -v name=${doc} -v lang=${lang}
                          -f ${HIVE_ROOT}/tests/docs/c_blocks.awk ${_md}
                  RESULT_VARIABLE _rc ERROR_VARIABLE _err)
  if(NOT _rc EQUAL 0)
    message(FATAL_ERROR "extracting ${doc}'s ${lang} examples failed: ${_err}")
  endif()
  file(GLOB _examples RELATIVE ${_fresh} ${_fresh}/*.c)
  file(GLOB _old RELATIVE ${_dir} ${_dir}/*.c)
  foreach(f IN LISTS _old)
    if(NOT f IN_LIST _examples)
      file(REMOVE ${_dir}/${f})
    endif()
  endforeach()
  set(_paths)
  foreach(f IN LISTS _examples)
    configure_file(${_fresh}/${f} ${_dir}/${f} COPYONLY)
    list(APPEND _paths ${_dir}/${f})
  endforeach()
  set(${out} ${_paths} PARENT_SCOPE)
endfunction()
