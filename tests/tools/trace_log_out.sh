#!/usr/bin/env bash
# tools/hive trace --log FILE writes its Chrome trace and SVG under the tree's
# build/, beside a traced run's (build/B-trace/trace-NAME, NAME the log's file
# name less its extension; build/host-trace with --host), not in the folder
# it is run from; --out PREFIX is taken from that folder. The log comes from
# a real traced run of apps/mix on the host port; tools/hive runs from a
# scratch copy of the tree, so that its build/ is the test's own.
#
#   tests/tools/trace_log_out.sh SOURCE_DIR MIX_TRACED
. "$(dirname "$0")/lib.sh"
src=${1:?usage: trace_log_out.sh SOURCE_DIR MIX_TRACED} mix=${2:?}

tree=$tmp/tree cwd=$tmp/cwd
mkdir -p "$tree/tools" "$tree/apps" "$cwd" "$tmp/logs"
cp "$src/tools/hive" "$src/tools/hive-trace" "$src/tools/boards" "$tree/tools/"
cp -R "$src/boards" "$src/CMakePresets.json" "$tree/"
cp "$src/apps/CMakeLists.txt" "$tree/apps/"
HIVE_TRACE_FILE=$tmp/logs/console.txt "$mix" 2 >/dev/null 2>&1 ||
  { fail_case traced_run "apps/mix (traced) failed"; finish; exit 1; }

in_cwd() { (cd "$cwd" && "$tree/tools/hive" "$@"); }
expect log_host 0 'wrote .*/build/host-trace/trace-console\.json' -- \
  in_cwd trace --host --log "$tmp/logs/console.txt" --elf "$mix"
[ -s "$tree/build/host-trace/trace-console.json" ] && [ -s "$tree/build/host-trace/trace-console.svg" ] &&
  pass_case log_host_outputs || fail_case log_host_outputs "$(ls -R "$tree/build" 2>&1)"
expect log_board 0 'wrote .*/build/rpi3-trace/trace-console\.json' -- \
  in_cwd trace --board rpi3 --log "$tmp/logs/console.txt"
[ -s "$tree/build/rpi3-trace/trace-console.svg" ] && pass_case log_board_outputs ||
  fail_case log_board_outputs "$(ls -R "$tree/build" 2>&1)"
left=$(ls -A "$cwd")
[ -z "$left" ] && pass_case nothing_in_cwd || fail_case nothing_in_cwd "written in the current folder: $left"
expect log_out 0 'wrote .*/cwd/mine\.json' -- in_cwd trace --host --log "$tmp/logs/console.txt" --out mine
[ -s "$cwd/mine.json" ] && [ -s "$cwd/mine.svg" ] && pass_case log_out_in_cwd ||
  fail_case log_out_in_cwd "$(ls -A "$cwd")"

finish
