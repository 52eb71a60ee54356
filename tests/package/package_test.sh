#!/usr/bin/env bash
# package_test.sh ROUTE BOARD SRC WORK
#
# Builds examples/firmware - a firmware project of its own - against hive for
# BOARD, and boots it under QEMU on 4 cores; QEMU's exit status (the image's
# main) is the verdict. ROUTE is how the project gets hive:
#   install       hive's tree for BOARD built (tests and apps off), installed
#                 into a fresh prefix with cmake --install; the example
#                 configured against that prefix alone (find_package, the
#                 package's toolchain file) and run with the installed QEMU
#                 script.
#   subdirectory  examples/subdirectory: hive's sources added with
#                 add_subdirectory, the board chosen with HIVE_BOARD.
# WORK keeps the build trees that hive's sources go into between runs (each
# run configures and builds them again, which redoes what changed); the
# installed prefix and the example built against it are made afresh.
# Exit 77 (ctest's SKIP_RETURN_CODE) when the board's compiler or QEMU is
# not installed. A board QEMU does not run (no boards/BOARD/qemu) is built
# the same way and not booted.
set -euo pipefail
[ $# -eq 4 ] || { echo "usage: $0 install|subdirectory BOARD SRC WORK" >&2; exit 2; }
route=$1 board=$2 src=$3 work=$4
cores=4 timeout=120

arch=$(sed -n 's/^set(HIVE_ARCH \([a-z0-9_]*\))$/\1/p' "$src/boards/$board/board.cmake")
toolchain=$src/cmake/toolchain-$arch.cmake
[ -n "$arch" ] && [ -f "$toolchain" ] || { echo "package_test: no arch or toolchain file for $board" >&2; exit 1; }
prefix=$(sed -n 's/^set(HIVE_TOOLCHAIN_PREFIX "\([^"]*\)".*/\1/p' "$toolchain")
qemu=
if [ -f "$src/boards/$board/qemu" ]; then
  qemu=$(grep -o 'qemu-system-[a-z0-9_]*' "$src/boards/$board/qemu" | head -n 1)
fi
for tool in "${prefix}gcc" ${qemu:+"$qemu"}; do
  command -v "$tool" >/dev/null 2>&1 || { echo "package_test: SKIP: $tool is not installed"; exit 77; }
done

mkdir -p "$work"
step() { echo "package_test: $*"; }
# boot QEMU_SCRIPT IMAGE: QEMU's status (124 past the timeout); and the
# image must have run on every core asked for, as tools/run-image demands.
boot() {
  local log=$work/boot-$route-$board.log status
  if [ -z "$qemu" ]; then
    [ -f "$2" ] || { echo "package_test: FAILED: no $2" >&2; exit 1; }
    step "$board is not emulated: $2 built, not booted"
    return 0
  fi
  set +e
  timeout --foreground -k 5 "$timeout" "$1" "$2" "$cores" </dev/null 2>&1 | tee "$log"
  status=${PIPESTATUS[0]}
  set -e
  [ "$status" -eq 0 ] || { echo "package_test: FAILED: QEMU exited $status" >&2; exit 1; }
  grep -q "^hive: $cores cores online" "$log" ||
    { echo "package_test: FAILED: the image did not report $cores cores online" >&2; exit 1; }
}

case "$route" in
install)
  tree=$work/hive-$board pkg=$work/prefix-$board fw=$work/firmware-$board
  step "build hive for $board in $tree"
  (cd "$src" && cmake --preset "$board" -B "$tree" -DHIVE_BUILD_TESTS=OFF >/dev/null)
  cmake --build "$tree" -j2 >/dev/null
  step "install into $pkg"
  rm -rf "$pkg" "$fw"
  cmake --install "$tree" --prefix "$pkg" >/dev/null
  # Only the public headers: include/hive and nothing beside it.
  extra=$(cd "$pkg/include" && find . -type f ! -path './hive/*')
  [ -z "$extra" ] || { echo "package_test: FAILED: installed headers outside include/hive: $extra" >&2; exit 1; }
  for f in lib/cmake/hive/hiveConfig.cmake lib/cmake/hive/hiveConfigVersion.cmake \
           lib/cmake/hive/hive-toolchain.cmake include/hive/hive.h include/hive/version.h \
           include/hive/board.h include/hive/limits.h \
           ${qemu:+lib/hive/qemu} lib/hive/image.ld lib/hive/memory.ld lib/hive/hive_limits.ld; do
    [ -e "$pkg/$f" ] || { echo "package_test: FAILED: $f not installed" >&2; exit 1; }
  done
  grep -q "set(HIVE_BOARD \"$board\")" "$pkg/lib/cmake/hive/hiveConfig.cmake" ||
    { echo "package_test: FAILED: the package does not name $board" >&2; exit 1; }
  # hive/board.h names the board and its facts every board has.
  grep -q "^#define HIVE_BOARD_NAME \"$board\"$" "$pkg/include/hive/board.h" ||
    { echo "package_test: FAILED: hive/board.h does not name $board" >&2; exit 1; }
  for name in HIVE_BOARD_MAX_CORES HIVE_BOARD_RAM_BASE HIVE_BOARD_RAM_SIZE HIVE_BOARD_CONSOLE_UART_BASE; do
    grep -q "^#define $name " "$pkg/include/hive/board.h" ||
      { echo "package_test: FAILED: hive/board.h does not define $name" >&2; exit 1; }
  done
  # The package carries the limits hive was built with, and refuses a
  # project that sets one to another value (the firmware cannot change them).
  grep -q "^#define HIVE_STACK_SIZE [0-9]" "$pkg/include/hive/limits.h" ||
    { echo "package_test: FAILED: hive/limits.h does not define HIVE_STACK_SIZE" >&2; exit 1; }
  step "a project asking for another HIVE_STACK_SIZE than $pkg has is refused"
  rm -rf "$fw"
  if out=$(cmake -S "$src/examples/firmware" -B "$fw" -G Ninja -DCMAKE_PREFIX_PATH="$pkg" \
           -DCMAKE_TOOLCHAIN_FILE="$pkg/lib/cmake/hive/hive-toolchain.cmake" -DHIVE_STACK_SIZE=4243456 2>&1); then
    echo "package_test: FAILED: the package accepted HIVE_STACK_SIZE=4243456" >&2; exit 1
  fi
  # (CMake wraps the message's lines.)
  tr -s '\n ' '  ' <<<"$out" | grep -q "was built with HIVE_STACK_SIZE=[0-9]" ||
    { echo "$out"; echo "package_test: FAILED: the refusal does not name HIVE_STACK_SIZE" >&2; exit 1; }
  rm -rf "$fw"
  step "build examples/firmware against $pkg"
  cmake -S "$src/examples/firmware" -B "$fw" -G Ninja -DCMAKE_PREFIX_PATH="$pkg" \
        -DCMAKE_TOOLCHAIN_FILE="$pkg/lib/cmake/hive/hive-toolchain.cmake" >/dev/null
  cmake --build "$fw" -j2 >/dev/null
  step "boot $fw/example.elf on $cores cores with $pkg/lib/hive/qemu"
  boot "$pkg/lib/hive/qemu" "$fw/example.elf"
  ;;
subdirectory)
  fw=$work/subdirectory-$board
  step "build examples/subdirectory for $board in $fw"
  cmake -S "$src/examples/subdirectory" -B "$fw" -G Ninja -DHIVE_BOARD="$board" \
        -DHIVE_SOURCE_DIR="$src" -DCMAKE_TOOLCHAIN_FILE="$toolchain" >/dev/null
  cmake --build "$fw" -j2 >/dev/null
  # hive's own images are not part of a firmware's build.
  if find "$fw/hive" -name '*.elf' | grep -q .; then
    echo "package_test: FAILED: hive's test or app images were built:" >&2
    find "$fw/hive" -name '*.elf' | head -n 3 >&2; exit 1
  fi
  step "boot $fw/example.elf on $cores cores"
  boot "$src/boards/$board/qemu" "$fw/example.elf"
  ;;
*) echo "package_test: unknown route $route" >&2; exit 2 ;;
esac
