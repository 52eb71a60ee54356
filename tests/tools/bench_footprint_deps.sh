#!/usr/bin/env bash
# tools/hive bench footprint asks only for what bench/footprint uses: each
# board's cross compiler and binutils (and CMake), not the peer benchmarks'
# packages (oneTBB, OpenMP, clang, Rust, valgrind), not QEMU or a boot
# medium's tools, and it builds no host tree. Stand-ins first on PATH: a
# dpkg-query that records each package asked about and calls it installed,
# and a cmake that records its arguments and fails, so that nothing is built.
#
#   tests/tools/bench_footprint_deps.sh SOURCE_DIR
. "$(dirname "$0")/lib.sh"
src=${1:?usage: bench_footprint_deps.sh SOURCE_DIR}

# A scratch tree: bench/footprint writes bench/results/ in the tree it runs in.
tree=$tmp/tree shim=$tmp/shim
mkdir -p "$tree/bench" "$shim"
cp -R "$src/tools" "$src/boards" "$src/CMakePresets.json" "$tree/"
cp "$src/bench/run" "$src/bench/footprint" "$tree/bench/"
printf '#!/bin/sh\necho "$3" >>"%s/asked"\nprintf "install ok installed"\n' "$tmp" >"$shim/dpkg-query"
printf '#!/bin/sh\necho "cmake $*" >>"%s/cmake"\nexit 99\n' "$tmp" >"$shim/cmake"
for p in apt-get qemu-system-aarch64 qemu-system-riscv64; do
  printf '#!/bin/sh\necho "%s $*" >>"%s/started"\nexit 99\n' "$p" "$tmp" >"$shim/$p"
done
chmod +x "$shim"/*

expect footprint_runs nonzero '' -- env PATH="$shim:$PATH" "$tree/tools/hive" bench footprint
asked=$(sort -u "$tmp/asked" 2>/dev/null | tr '\n' ' ')
for p in cmake gcc-aarch64-linux-gnu gcc-riscv64-unknown-elf picolibc-aarch64-linux-gnu picolibc-riscv64-unknown-elf; do
  [[ " $asked " == *" $p "* ]] && pass_case "footprint_needs_$p" || fail_case "footprint_needs_$p" "not asked for; asked: $asked"
done
for p in valgrind libtbb-dev libomp-dev clang cargo rustc librust-rayon-dev qemu-system-arm qemu-system-misc \
         u-boot-tools u-boot-qemu mtools; do
  [[ " $asked " != *" $p "* ]] && pass_case "footprint_skips_$p" || fail_case "footprint_skips_$p" "asked for $p"
done
# bench/footprint configures a board's -Os tree first; the host tree never.
grep -q -- '--preset qemu-virt-aarch64 -B .*-os' "$tmp/cmake" 2>/dev/null && pass_case footprint_builds_board ||
  fail_case footprint_builds_board "cmake ran as: $(head -n 3 "$tmp/cmake" 2>/dev/null)"
grep -Eq -- '--preset host|build/host' "$tmp/cmake" 2>/dev/null &&
  fail_case footprint_no_host_tree "$(grep -E -- '--preset host|build/host' "$tmp/cmake")" || pass_case footprint_no_host_tree
[ ! -e "$tmp/started" ] && pass_case footprint_nothing_else || fail_case footprint_nothing_else "$(cat "$tmp/started")"

finish
