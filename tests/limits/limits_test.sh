#!/usr/bin/env bash
# limits_test.sh STEP SRC WORK NAME -DOPTION=VALUE...
#
# A build option of hive's with a value it must refuse: configures (STEP
# configure) or configures and builds (STEP build) examples/subdirectory -
# firmware with hive's tree added - for qemu-virt-riscv64 (or the board in
# LIMITS_BOARD) with the options given, in WORK/NAME. The step must fail;
# its output is printed for ctest's PASS_REGULAR_EXPRESSION, which names
# the message the refusal must carry. A step that succeeds prints
# "limits_test: ... accepted" (each test's FAIL_REGULAR_EXPRESSION) and
# exits 1. Exit 77 (skip) without the board's compiler.
#
# STEP boot is the other way round, for a value at the edge of what works:
# configure, build and boot the firmware on 2 cores (tools/run-image); it
# must pass (exit 0), and prints "limits_test: booted" when it did.
set -uo pipefail
[ $# -ge 4 ] || { echo "usage: $0 configure|build SRC WORK NAME -DOPTION=VALUE..." >&2; exit 2; }
step=$1 src=$2 work=$3 name=$4
shift 4
board=${LIMITS_BOARD:-qemu-virt-riscv64}
arch=$(sed -n 's/^set(HIVE_ARCH \([a-z0-9]*\)).*/\1/p' "$src/boards/$board/board.cmake")
toolchain=$src/cmake/toolchain-$arch.cmake
prefix=$(sed -n 's/^set(HIVE_TOOLCHAIN_PREFIX "\([^"]*\)".*/\1/p' "$toolchain")
command -v "${prefix}gcc" >/dev/null 2>&1 || { echo "limits_test: SKIP: ${prefix}gcc is not installed"; exit 77; }

tree=$work/$name
# A fresh cache each time: the options given are the only ones set.
rm -rf "$tree/CMakeCache.txt" "$tree/CMakeFiles"
echo "limits_test: configure $board with $*"
if ! cmake -S "$src/examples/subdirectory" -B "$tree" -DHIVE_BOARD=$board \
     -DCMAKE_TOOLCHAIN_FILE="$toolchain" "$@" 2>&1; then
  echo "limits_test: the configure was refused"
  [ "$step" = boot ] && exit 1
  exit 0
fi
if [ "$step" = boot ]; then
  cmake --build "$tree" -j2 2>&1 || { echo "limits_test: the build failed"; exit 1; }
  "$src/tools/run-image" --board "$board" --cores 2 --timeout 120 "$tree/example.elf" 2>&1 ||
    { echo "limits_test: the image failed to boot and pass"; exit 1; }
  echo "limits_test: booted"
  exit 0
fi
if [ "$step" = configure ]; then
  echo "limits_test: $* accepted: the configure succeeded"
  exit 1
fi
echo "limits_test: build"
if ! cmake --build "$tree" -j2 2>&1; then
  echo "limits_test: the build was refused"
  exit 0
fi
echo "limits_test: $* accepted: the build succeeded"
exit 1
