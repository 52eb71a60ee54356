#!/usr/bin/env bash
# The public calls whose result matters are HIVE_MUST_CHECK: compiling
# drops_results.c, which drops each one's result, gives one "ignoring return
# value" warning naming each call, with every compiler given (gcc, clang).
#
#   tests/api/must_check.sh SOURCE_DIR GENERATED_INCLUDE_DIR CC...
. "$(dirname "$0")/../tools/lib.sh"
src=${1:?usage: must_check.sh SOURCE_DIR GENERATED_INCLUDE CC...} gen=${2:?}
shift 2
calls=(hive_run hive_spawn hive_spawn_fn hive_join hive_parallel_for hive_group_spawn
       hive_group_spawn_fn hive_group_wait hive_after hive_after_cancel hive_after_irq
       hive_after_irq_cancel hive_irq_attach hive_irq_detach hive_spin_lock hive_spin_trylock
       hive_spin_trylock_raw hive_trace_dump hive_stop hive_task_runs_forever hive_spawn_or_run)
# What hive_join, an inline function, calls: not called by users (their
# results are hive_join's), so not dropped in drops_results.c.
internal=(hive_join_full hive_join_shared)
# Every call the public headers mark HIVE_MUST_CHECK is in one of the lists
# above: one marked later cannot go unchecked here.
declared=$(grep -ho '^HIVE_MUST_CHECK[^(;]*(' "$src"/include/hive/*.h |
           sed -E 's/.*[^A-Za-z0-9_]([A-Za-z_][A-Za-z0-9_]*)[[:space:]]*\($/\1/' | sort -u)
[ -n "$declared" ] || fail_case "headers" "no HIVE_MUST_CHECK declaration found in $src/include/hive"
for d in $declared; do
  if printf '%s\n' "${calls[@]}" "${internal[@]}" | grep -qx "$d"; then
    pass_case "listed: $d"
  else
    fail_case "listed: $d" "marked HIVE_MUST_CHECK in include/hive but not in this script's lists"
  fi
done
for cc in "$@"; do
  name=$(basename "$cc")
  expect "$name: compiles" 0 '' -- env LC_ALL=C "$cc" -std=c11 -Wall -Wextra -c -o /dev/null -I"$src/include" -I"$gen" \
    "$src/tests/api/drops_results.c"
  for c in "${calls[@]}"; do
    # gcc: ignoring return value of 'f' declared with attribute
    # warn_unused_result; clang: ignoring return value of function declared
    # with 'warn_unused_result' attribute - with the call's line after it.
    if grep -Fq "ignoring return value of '$c' " <<<"$err" ||
       grep -A1 'ignoring return value' <<<"$err" | grep -Eq "^[[:space:]]*$c\\("; then
      pass_case "$name: $c"
    else
      fail_case "$name: $c" "no warning for a dropped $c result"
    fi
  done
done
finish
