#!/usr/bin/env bash
# tools/run-image's verdict against stand-in boards whose "QEMU" is a shell
# script: every way a run can end that is no pass must fail, whatever the
# status QEMU returned - a panic line with status 0 (a board whose exit path
# lost the status), a board saying it stopped without its exit status, QEMU
# ending on a signal (it exits 0 on SIGTERM, SIGINT and SIGHUP), QEMU killed
# (not a timeout), a reader that stops reading run-image's output (the
# checks must see the whole log), an expected failure whose panic repeats
# (a panic inside the panic, say, until a stack overflow ends it) - and a
# run that passes must pass.
#
#   tests/tools/run_image_verdicts.sh SOURCE_DIR
. "$(dirname "$0")/lib.sh"
src=${1:?usage: run_image_verdicts.sh SOURCE_DIR}

tree=$tmp/tree
mkdir -p "$tree/tools"
cp "$src/tools/run-image" "$src/tools/drop-firmware-banner" "$tree/tools/"
# board NAME BODY: a board whose qemu script runs BODY (sh) after hive's
# first line; $2 is the core count run-image passes.
board() {
  mkdir -p "$tree/boards/$1"
  printf 'set(HIVE_ARCH none)\nset(HIVE_MAX_CORES 4)\n' >"$tree/boards/$1/board.cmake"
  printf '#!/bin/sh\necho "hive: $2 cores online (stand-in)"\n%s\n' "$2" >"$tree/boards/$1/qemu"
  chmod +x "$tree/boards/$1/qemu"
}
board pass 'echo "all good"; exit 0'
board panic_status_0 'echo "panic: core 1: rule broken"; exit 0'
board lost_status 'echo "board: no semihosting, powering off without the exit status"; exit 0'
board signalled 'echo "qemu-system-aarch64: terminating on signal 15 from pid 1 (sh)"; exit 0'
board killed 'kill -KILL $$'
# exec, as every real board's script execs QEMU: timeout's TERM then reaches
# the hung process itself (a child of sh would hold the pipe open for 30 s).
board hangs 'exec sleep 30'
board long_then_broken 'i=0; while [ $i -lt 3000 ]; do echo "line $i"; i=$((i + 1)); done; echo "<<a<<b>>c>>"; exit 0'
board panics 'echo "panic: core 0: stack overflow"; exit 1'
board panics_again 'echo "panic: core 0: only 3 of 4 cores came online"; echo "panic: core 0: gicv2: core 1 has no CPU interface mask"; exit 1'
touch "$tmp/image.elf"
ri() { "$tree/tools/run-image" --cores 2 --board "$@" "$tmp/image.elf"; }

expect passes 0 'all good' -- ri pass
expect panic_with_status_0 1 'FAILED: the image panicked \(exit status 0\)' -- ri panic_status_0
expect status_lost 1 'FAILED: the board stopped without its exit status' -- ri lost_status
expect qemu_signalled 1 'FAILED: QEMU ended on a signal' -- ri signalled
expect qemu_killed 1 'FAILED: QEMU was killed by signal 9' -- ri killed
expect hang_times_out 124 'FAILED: no exit within 2s' -- ri hangs --timeout 2
expect expected_panic 0 'failed as expected' -- ri panics --expect-fail 'stack overflow'
expect expected_panic_repeated 1 'FAILED: 2 panic lines, where a fault ends in one' -- \
  ri panics_again --expect-fail 'only [0-9]+ of [0-9]+ cores came online'
# The reader takes one line and goes: the log must still be whole, and the
# interleaved line at its end found.
truncated() { ri long_then_broken | head -n 1; return "${PIPESTATUS[0]}"; }
expect reader_gone 1 'console lines interleaved' -- truncated

# run-image killed outright (SIGKILL: no trap runs) takes QEMU with it, not
# leaving it to run to its --timeout. The stand-in's "QEMU" is the process
# the board script execs, as QEMU is.
board execs 'echo $$ >"$QEMU_PID"; exec sleep 60'
QEMU_PID=$tmp/qemu.pid "$tree/tools/run-image" --cores 2 --board execs --timeout 60 "$tmp/image.elf" \
  >/dev/null 2>&1 &
ri_pid=$!
disown "$ri_pid"   # its death by SIGKILL is the case, not news
for _ in $(seq 100); do [ -s "$tmp/qemu.pid" ] && break; sleep 0.1; done
qemu_pid=$(cat "$tmp/qemu.pid" 2>/dev/null)
kill -KILL "$ri_pid"
for _ in $(seq 50); do kill -0 "$qemu_pid" 2>/dev/null || break; sleep 0.1; done
if [ -z "$qemu_pid" ]; then
  fail_case killed_takes_qemu "the stand-in never started"
elif kill -0 "$qemu_pid" 2>/dev/null; then
  fail_case killed_takes_qemu "QEMU (pid $qemu_pid) still runs 5 s after run-image was killed"
  kill -KILL "$qemu_pid" 2>/dev/null
else
  pass_case killed_takes_qemu
fi
finish
