#!/usr/bin/env bash
# A panic stops every core, on a board whose exit stops only the calling
# core: QEMU's Raspberry Pi with semihosting off, as a Pi without a debugger
# runs. The panic_halts image panics on core 1 while core 0 spins for 2 s
# and would then print "core 0 was never stopped"; nothing ends the machine,
# so it runs for 4 s under timeout. The panic line must come, and core 0's
# line never (before the panic's doorbells, it always came).
#
#   tests/tools/panic_halts.sh SOURCE_DIR BOARD IMAGE.elf
set -u
src=${1:?usage: panic_halts.sh SOURCE_DIR BOARD IMAGE.elf} board=${2:?} image=${3:?}
out=$(timeout -k 2 4 "$src/boards/$board/qemu" "$image" 2 -semihosting-config enable=off </dev/null 2>&1)
printf '%s\n' "$out"
if ! grep -q '^panic: core 1: panic_halts: core 1 panics on purpose' <<<"$out"; then
  echo "panic_halts: FAILED: no panic line" >&2; exit 1
fi
if grep -q 'core 0 was never stopped' <<<"$out"; then
  echo "panic_halts: FAILED: core 0 ran on after the panic" >&2; exit 1
fi
echo "panic_halts: ok"
