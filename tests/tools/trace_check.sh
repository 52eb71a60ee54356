#!/usr/bin/env bash
# The trace of a known run is whole and true: apps/mix, built with the
# scheduler traced, runs on N cores - on the host port, or a board under QEMU
# with the trace read back from its console - and tools/hive-trace check
# compares the trace with what the run did: as many task slices as mix ran
# tasks, on every core as many as hive_stats counted there (likewise steals,
# stolen tasks, global pulls, overflows, parks and wakes), no line lost or
# damaged, each steal naming a victim that had queued the task, and at least
# one steal on more than one core (else the steal checks tested nothing).
#
#   tests/tools/trace_check.sh SOURCE_DIR host CORES PROGRAM
#   tests/tools/trace_check.sh SOURCE_DIR BOARD CORES IMAGE.elf
set -u
src=${1:?usage: trace_check.sh SOURCE_DIR host|BOARD CORES PROGRAM}
where=${2:?} cores=${3:?} prog=${4:?}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

if [ "$where" = host ]; then
  HIVE_TRACE_FILE=$tmp/trace.log "$prog" "$cores" >"$tmp/out" 2>&1
  status=$?
else
  "$src/tools/run-image" --board "$where" --cores "$cores" --timeout 240 "$prog" >"$tmp/out" 2>&1
  status=$?
  cp "$tmp/out" "$tmp/trace.log"
fi
grep -v '^hive-trace: ' "$tmp/out"
if [ "$status" -ne 0 ]; then
  echo "trace_check: FAILED: the program exited with status $status"
  exit 1
fi
# "mix: ok cores=N tasks=T expect_tasks=T steals=S"
expect=$(sed -nE 's/^mix: ok .* expect_tasks=([0-9]+).*/\1/p' "$tmp/out" | tr -d '\r' | tail -n 1)
if [ -z "$expect" ]; then
  echo "trace_check: FAILED: no 'mix: ok' line"
  exit 1
fi
min_steals=0
[ "$cores" -gt 1 ] && min_steals=1
python3 "$src/tools/hive-trace" check "$tmp/trace.log" --expect-tasks "$expect" --min-steals "$min_steals"
