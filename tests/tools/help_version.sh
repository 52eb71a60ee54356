#!/usr/bin/env bash
# tools/hive help, COMMAND --help and --version: each answers at once (nothing
# is installed, built or booted: stand-ins first on PATH record any attempt),
# exits 0, and says what it should. The version is the one CMake was given
# (project(hive VERSION ...)), and the generated hive/version.h agrees.
#
#   tests/tools/help_version.sh SOURCE_DIR VERSION GENERATED_VERSION_H
. "$(dirname "$0")/lib.sh"
src=${1:?usage: help_version.sh SOURCE_DIR VERSION VERSION_H} version=${2:?} header=${3:?}

shim=$tmp/shim started=$tmp/started
mkdir -p "$shim"
for p in cmake dpkg-query apt-get qemu-system-aarch64 qemu-system-riscv64 gdb-multiarch ctest; do
  printf '#!/bin/sh\necho "%s $*" >>"%s"\nexit 99\n' "$p" "$started" >"$shim/$p"
  chmod +x "$shim/$p"
done
hive() { env PATH="$shim:$PATH" "$src/tools/hive" "$@"; }

expect version 0 "^hive $version\$" -- hive --version
IFS=. read -r major minor patch <<<"$version"
expect header_major 0 "^#define HIVE_VERSION_MAJOR $major\$" -- cat "$header"
expect header_minor 0 "^#define HIVE_VERSION_MINOR $minor\$" -- cat "$header"
expect header_patch 0 "^#define HIVE_VERSION_PATCH $patch\$" -- cat "$header"
expect header_string 0 "^#define HIVE_VERSION_STRING \"$version\"\$" -- cat "$header"

expect help 0 'tools/hive help +\[COMMAND\]' -- hive help
for c in run test soak debug trace image bench deps; do
  expect_out "help_names_$c" "^  tools/hive $c "
done
expect help_bare 0 '^  tools/hive run ' -- hive
expect help_dash 0 '^  tools/hive run ' -- hive --help

for c in run test soak debug trace image bench deps help; do
  expect "help_$c" 0 "^tools/hive $c" -- hive help "$c"
  first=$out
  [ "$(wc -l <<<"$first")" -ge 3 ] && pass_case "help_${c}_says_more" ||
    fail_case "help_${c}_says_more" "one line only: $first"
  if [ "$c" != help ]; then
    expect "${c}_dash_help" 0 "^tools/hive $c" -- hive "$c" --help
    [ "$out" = "$first" ] && pass_case "${c}_dash_help_same" ||
      fail_case "${c}_dash_help_same" "tools/hive $c --help differs from tools/hive help $c"
  fi
done
expect run_h 0 '^tools/hive run' -- hive run -h
expect_out help_run_elf '--elf FILE'
expect_out help_run_banner '--firmware-banner'
expect_out help_run_ranges 'qemu-virt-riscv64 +1-96 cores'
expect_out help_run_apps 'apps/ \(default demo\): .*demo'
# Every benchmark bench/run runs, named wherever tools/hive names them: its
# overview, help bench, and the refusal of another name.
benches=$(sed -nE 's/^[[:space:]]*([a-z|]+)\|all\).*/\1/p' "$src/bench/run" | head -n 1)
expect help_bench_names 0 '' -- hive help
grep -E '^  tools/hive bench ' <<<"$out" | grep -qF "[$benches]" && pass_case help_lists_benches ||
  fail_case help_lists_benches "bench/run runs $benches; help says: $(grep -E '^  tools/hive bench ' <<<"$out")"
expect help_bench_lists_benches 0 "^tools/hive bench \\[$benches\\]" -- hive help bench
expect bench_refusal_lists_benches 2 "\\(benchmarks: ${benches//|/ }\\)\$" -- hive bench nope
expect help_image_boards 0 '^  --board B .*visionfive2' -- hive help image
expect_out help_image_out '--out DIR'

if [ -e "$started" ]; then fail_case nothing_started "it ran: $(head -n 3 "$started")"
else pass_case nothing_started; fi

finish
