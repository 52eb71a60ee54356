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
python3 "$src/tools/hive-trace" check "$tmp/trace.log" --expect-tasks "$expect" --min-steals "$min_steals" ||
  exit 1

# The pictures: the Chrome trace is JSON whose task slices carry mix's own
# function names (symbolised from the program, relocated or not), as many as
# there were tasks; the SVG is well-formed XML.
# A board's nm is its arch's (board.cmake's HIVE_ARCH; the name need not say).
arch=host
[ "$where" = host ] ||
  arch=$(sed -nE 's/^[[:space:]]*set\(HIVE_ARCH[[:space:]]+([^[:space:])]+).*/\1/p' "$src/boards/$where/board.cmake")
case "$arch" in
  aarch64) nm=aarch64-linux-gnu-nm ;;
  riscv64) nm=riscv64-unknown-elf-nm ;;
  *) nm=nm ;;
esac
python3 "$src/tools/hive-trace" convert "$tmp/trace.log" --elf "$prog" --nm "$nm" --out "$tmp/trace" \
  >"$tmp/summary" || { cat "$tmp/summary"; echo "trace_check: FAILED: convert"; exit 1; }
python3 - "$tmp/trace.json" "$tmp/trace.svg" "$expect" <<'PY' || exit 1
import json, sys, xml.etree.ElementTree as ET
events = json.load(open(sys.argv[1]))["traceEvents"]
tasks = [e for e in events if e.get("ph") == "X" and e.get("cat") == "task"]
names = {e["name"] for e in tasks}
want = {"entry", "tree", "group_task", "burst_task", "spawned_task"}
problems = []
if len(tasks) != int(sys.argv[3]):
    problems.append(f"{len(tasks)} task slices in the Chrome trace, mix ran {sys.argv[3]} tasks")
if not want <= names:
    problems.append(f"task slices named {sorted(names)}, not mix's functions {sorted(want)}")
try:
    ET.parse(sys.argv[2])
except ET.ParseError as e:
    problems.append(f"the SVG is not well-formed: {e}")
for p in problems:
    print(f"trace_check: FAILED: {p}")
sys.exit(1 if problems else 0)
PY
echo "trace_check: ok: the Chrome trace has a slice per task, named by mix's functions; the SVG is well-formed"
