#!/usr/bin/env bash
# tools/hive run end to end against a stand-in board in a scratch tree: the
# real tools/ beside a board folder whose board.cmake says 2 cores, a preset
# that builds with the host's gcc, an app, and a qemu script that prints a
# firmware banner, hive's first line and its own arguments. No QEMU boots.
#
# Cases: the core range comes from the board's board.cmake; --elf boots the
# file given without building anything; the firmware's lines are dropped
# unless --firmware-banner (tools/hive run and tools/run-image); a compile error and a configure error are shown in
# the compiler's and CMake's own words; a good app is built and booted, and
# the exit status is the image's.
#
#   tests/tools/fake_board.sh SOURCE_DIR
. "$(dirname "$0")/lib.sh"
src=${1:?usage: fake_board.sh SOURCE_DIR}

tree=$tmp/tree
mkdir -p "$tree/tools" "$tree/boards/testboard" "$tree/boards/badconf" "$tree/apps" "$tmp/shim"
cp "$src/tools/hive" "$src/tools/boards" "$src/tools/drop-firmware-banner" "$src/tools/run-image" "$src/tools/soak" "$tree/tools/"
# Every package counts as installed: the cases are about the script, and no
# test may install anything.
printf '#!/bin/sh\nprintf "install ok installed"\n' >"$tmp/shim/dpkg-query"
chmod +x "$tmp/shim/dpkg-query"
export PATH="$tmp/shim:$PATH"

for b in testboard badconf; do
  printf 'set(HIVE_ARCH none)\nset(HIVE_MAX_CORES 2)\n' >"$tree/boards/$b/board.cmake"
done
cat >"$tree/boards/testboard/qemu" <<'QEMU'
#!/bin/sh
# A stand-in for QEMU: a firmware banner, hive's first line, its arguments.
echo
echo "Stand-in firmware v1.0"
echo "hive: $2 cores online (testboard)"
echo "qemu args: $*"
exit 7
QEMU
chmod +x "$tree/boards/testboard/qemu"
# badconf is run too (its configure fails first): a board QEMU runs.
cp "$tree/boards/testboard/qemu" "$tree/boards/badconf/qemu"
# Registered as every board is: one include line each.
cat >"$tree/CMakePresets.json" <<'JSON'
{
  "version": 4,
  "include": [
    "boards/testboard/presets.json",
    "boards/badconf/presets.json"
  ]
}
JSON
cat >"$tree/boards/testboard/presets.json" <<'JSON'
{ "version": 4,
  "configurePresets": [
    { "name": "testboard", "generator": "Ninja", "binaryDir": "${sourceDir}/build/testboard" } ] }
JSON
cat >"$tree/boards/badconf/presets.json" <<'JSON'
{ "version": 4,
  "configurePresets": [
    { "name": "badconf", "generator": "Ninja", "binaryDir": "${sourceDir}/build/badconf",
      "cacheVariables": { "PLANT_CONFIGURE_ERROR": "ON" } } ] }
JSON
cat >"$tree/CMakeLists.txt" <<'CMAKE'
cmake_minimum_required(VERSION 3.20)
project(fake C)
if(PLANT_CONFIGURE_ERROR)
  message(FATAL_ERROR "planted configure error")
endif()
function(hive_add_image name)
  add_executable(${name} ${ARGN})
  set_target_properties(${name} PROPERTIES SUFFIX ".elf")
endfunction()
add_subdirectory(apps)
CMAKE
printf 'hive_add_image(demo demo.c)\n' >"$tree/apps/CMakeLists.txt"
printf 'int main(void)\n{\n    return planted_undeclared_name;\n}\n' >"$tree/apps/demo.c"
hive=$tree/tools/hive

# The range is the board's: 1-2 here, from its board.cmake.
expect cores_from_board 2 '^hive: run: --cores 3 is out of range: testboard runs 1-2 cores$' -- \
  "$hive" run --board testboard --cores 3
expect help_lists_board 0 'testboard +1-2 cores' -- "$hive" help run

# --elf: the user's file, as it is; nothing is configured or built.
cp "$(type -P true)" "$tmp/my.elf"
expect elf_runs 7 '^hive: boards/testboard/qemu ' -- "$hive" run --board testboard --cores 2 --elf "$tmp/my.elf"
expect_out elf_passed_to_qemu "^qemu args: $tmp/my.elf 2\$"
expect_no elf_no_banner 'Stand-in firmware'
if [ -e "$tree/build" ]; then fail_case elf_builds_nothing "build/ exists"; else pass_case elf_builds_nothing; fi
expect elf_banner_kept 7 'hive: boards/testboard/qemu' -- \
  "$hive" run --board testboard --cores 1 --firmware-banner --elf "$tmp/my.elf"
expect_out elf_banner_kept_lines '^Stand-in firmware v1.0$'
expect_out elf_banner_kept_hive '^hive: 1 cores online'
expect elf_qemu_args 7 '' -- "$hive" run --board testboard --cores 2 --elf "$tmp/my.elf" -- -d int
expect_out elf_qemu_args_passed "^qemu args: $tmp/my.elf 2 -d int\$"
# A relative path is the caller's, not the tree's.
expect elf_relative 7 "^hive: boards/testboard/qemu $tmp/my.elf 1\$" -- \
  bash -c 'cd "$1" && "$2" run --board testboard --cores 1 --elf my.elf' - "$tmp" "$hive"

# tools/run-image drops the firmware's lines too, unless --firmware-banner.
expect run_image_status 7 "" -- "$tree/tools/run-image" --board testboard --cores 2 --timeout 30 "$tmp/my.elf"
expect_out run_image_output '^hive: 2 cores online \(testboard\)$'
expect_no run_image_no_banner 'Stand-in firmware'
expect run_image_banner_kept 7 "" -- "$tree/tools/run-image" --board testboard --cores 2 --timeout 30 \
  --firmware-banner "$tmp/my.elf"
expect_out run_image_banner_kept_lines '^Stand-in firmware v1.0$'

# A compile error: the compiler's own lines, not only "build failed".
expect compile_error 1 "apps/demo\\.c:3:[0-9]+: error: .planted_undeclared_name. undeclared" -- \
  "$hive" run --board testboard --cores 2
expect_no compile_error_no_progress '^\[[0-9]+/[0-9]+\] '
expect_no compile_error_no_qemu '^qemu args:'
expect compile_error_verdict 1 "^hive: building build/testboard failed \\(the compiler's messages above\\)$" -- \
  "$hive" run --board testboard --cores 2

# A configure error: CMake's own message.
expect configure_error 1 'planted configure error' -- "$hive" run --board badconf --cores 1

# Fixed, it builds and boots, and the status is the image's (7).
printf 'int main(void)\n{\n    return 0;\n}\n' >"$tree/apps/demo.c"
expect app_runs 7 '^hive: boards/testboard/qemu build/testboard/apps/demo\.elf 2$' -- \
  "$hive" run --board testboard --cores 2
expect_out app_output '^hive: 2 cores online \(testboard\)$'
expect_no app_no_banner 'Stand-in firmware'

finish
