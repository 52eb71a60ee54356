#!/usr/bin/env bash
# A panic stops every core, on a board whose exit stops only the calling
# core: QEMU's Raspberry Pi with semihosting off, as a Pi without a debugger
# runs. The panic_halts image panics on core 1 while core 0 spins for 2 s of
# guest time and would then print "core 0 was never stopped"; nothing ends
# the machine. The panic line must come, and core 0's line never (before the
# panic's doorbells, it always came).
#
# The wait is timed from the panic line, not from QEMU's start: core 0's 2 s
# end at most 2 s after that line (guest time follows the host's clock under
# TCG), and QEMU is given 4 s more before it is stopped - however long a
# loaded host took to boot it. A fixed limit from the start passed a broken
# halt when QEMU started late (core 0's line fell after the kill) and failed
# a working one when it started later still.
#
#   tests/tools/panic_halts.sh SOURCE_DIR BOARD IMAGE.elf
set -u
src=${1:?usage: panic_halts.sh SOURCE_DIR BOARD IMAGE.elf} board=${2:?} image=${3:?}
panic_line='^panic: core 1: panic_halts: core 1 panics on purpose'
log=$(mktemp)
trap 'kill "$qemu" 2>/dev/null; rm -f "$log"' EXIT
# The outer limit only ends a QEMU that never panics; the verdict below says so.
timeout -k 2 60 "$src/boards/$board/qemu" "$image" 2 -semihosting-config enable=off \
  </dev/null >"$log" 2>&1 &
qemu=$!
waited=0
until tr -d '\r' <"$log" | grep -q "$panic_line"; do
  if ! kill -0 "$qemu" 2>/dev/null || [ "$waited" -ge 450 ]; then
    break
  fi
  sleep 0.1
  waited=$((waited + 1))
done
if tr -d '\r' <"$log" | grep -q "$panic_line"; then
  sleep 4
fi
kill "$qemu" 2>/dev/null
wait "$qemu" 2>/dev/null
out=$(tr -d '\r' <"$log")
printf '%s\n' "$out"
if ! grep -q "$panic_line" <<<"$out"; then
  echo "panic_halts: FAILED: no panic line" >&2; exit 1
fi
if grep -q 'core 0 was never stopped' <<<"$out"; then
  echo "panic_halts: FAILED: core 0 ran on after the panic" >&2; exit 1
fi
echo "panic_halts: ok"
