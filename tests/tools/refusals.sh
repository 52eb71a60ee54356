#!/usr/bin/env bash
# tools/hive, tools/soak and tools/run-image refuse a bad argument with exit
# status 2 and a line that says what is wrong - before anything is installed,
# configured, built or booted. A stand-in cmake, dpkg-query and QEMU first on
# PATH record any such attempt, which fails the case.
#
#   tests/tools/refusals.sh SOURCE_DIR
. "$(dirname "$0")/lib.sh"
src=${1:?usage: refusals.sh SOURCE_DIR}

shim=$tmp/shim started=$tmp/started
mkdir -p "$shim"
for p in cmake dpkg-query apt-get qemu-system-aarch64 qemu-system-riscv64 gdb-multiarch; do
  printf '#!/bin/sh\necho "%s $*" >>"%s"\nexit 99\n' "$p" "$started" >"$shim/$p"
  chmod +x "$shim/$p"
done

# refused NAME REGEX TOOL ARGS...: exit status 2, REGEX on stderr, nothing started.
refused() {
  local name=$1 regex=$2
  shift 2
  rm -f "$started"
  expect "$name" 2 "$regex" -- env PATH="$shim:$PATH" "$@"
  if [ -e "$started" ]; then
    fail_case "$name (nothing started)" "it ran: $(head -n 3 "$started")"
  fi
}
hive=$src/tools/hive

# --cores: the range is the board's own (HIVE_MAX_CORES in boards/B/board.cmake).
refused cores_zero '^hive: run: --cores 0 is out of range: qemu-virt-aarch64 runs 1-96 cores$' \
  "$hive" run --cores 0
refused cores_above_aarch64 '^hive: run: --cores 97 is out of range: qemu-virt-aarch64 runs 1-96 cores$' \
  "$hive" run --board qemu-virt-aarch64 --cores 97
refused cores_above_riscv64 '^hive: run: --cores 97 is out of range: qemu-virt-riscv64 runs 1-96 cores$' \
  "$hive" run --board qemu-virt-riscv64 --cores 97
refused cores_equals_form '^hive: run: --cores 97 is out of range: qemu-virt-riscv64 runs 1-96 cores$' \
  "$hive" run --board=qemu-virt-riscv64 --cores=97
refused cores_huge 'out of range: qemu-virt-aarch64 runs 1-96 cores' \
  "$hive" run --cores 99999999999999999999
refused cores_word "^hive: run: --cores wants a number of cores, not 'four' \\(qemu-virt-aarch64 runs 1-96\\)$" \
  "$hive" run --cores four
refused cores_negative "--cores wants a number of cores, not '-2'" "$hive" run --cores -2
refused cores_debug 'debug: --cores 0 is out of range' "$hive" debug --cores 0

# A missing value names the option.
refused cores_missing '^hive: run: --cores needs a value \(a number of cores\)$' "$hive" run --cores
refused cores_empty '^hive: run: --cores needs a value' "$hive" run --cores=
refused board_missing '^hive: run: --board needs a value \(a board: .*qemu-virt-riscv64' "$hive" run --board
refused board_then_option '^hive: run: --board needs a value' "$hive" run --board --cores 2
refused elf_missing '^hive: run: --elf needs a value \(the path of an ELF image\)$' "$hive" run --elf
refused help_hint "^hive: see 'tools/hive help run'$" "$hive" run --cores

# Boards and apps: the ones there are, listed.
refused board_unknown "^hive: run: unknown board 'virt' \\(boards: .*qemu-virt-aarch64.*\\)$" \
  "$hive" run --board virt
refused app_unknown "^hive: run: no app 'fibonacci' \\(apps: [a-z_ ]*demo[a-z_ ]*\\)$" "$hive" run fibonacci
refused app_unknown_riscv64 "^hive: run: no app 'x' \\(apps: [a-z_ ]*idle[a-z_ ]*\\)$" \
  "$hive" run --board qemu-virt-riscv64 --cores 2 x
refused two_apps "one app at a time" "$hive" run demo idle
refused option_unknown '^hive: run: unknown option --core$' "$hive" run --core 2

# --elf: a file QEMU could boot on that board, or a refusal.
refused elf_absent "^hive: run: --elf $tmp/none.elf: no such file$" "$hive" run --elf "$tmp/none.elf"
echo 'not an image' >"$tmp/text.elf"
refused elf_not_elf "^hive: run: --elf $tmp/text.elf: not an ELF file$" "$hive" run --elf "$tmp/text.elf"
# An ELF header (64-bit, little-endian) for RISC-V (e_machine 243 at offset 18).
{ printf '\177ELF\002\001\001'; head -c 11 /dev/zero; printf '\363\000'; head -c 45 /dev/zero; } >"$tmp/rv.elf"
refused elf_wrong_machine "^hive: run: --elf $tmp/rv.elf: an ELF for riscv \\(e_machine 243\\); qemu-virt-aarch64 boots aarch64 \\(e_machine 183\\)\$" \
  "$hive" run --board qemu-virt-aarch64 --elf "$tmp/rv.elf"
refused elf_and_app "an app \\('idle'\\) or --elf FILE, not both" "$hive" run idle --elf "$tmp/rv.elf"
refused elf_debug "^hive: debug: --elf $tmp/text.elf: not an ELF file$" "$hive" debug --elf "$tmp/text.elf"

# An ELF for another board of the same CPU: named in its .hive.board section
# (cmake/board_id.c) - the only tell between boards of one memory map (rpi3
# and rpi4) - or, in an image without one, by where it loads.
tiny_elf() { python3 "$(dirname "$0")/tiny_elf.py" "$@"; }
tiny_elf "$tmp/rpi3.elf" 183 0x80000 rpi3
tiny_elf "$tmp/virt.elf" 183 0x40200000 qemu-virt-aarch64
tiny_elf "$tmp/unnamed-virt.elf" 183 0x40200000
tiny_elf "$tmp/unnamed-pi.elf" 183 0x80000
refused elf_other_board "^hive: run: --elf $tmp/rpi3.elf: built for board rpi3, not qemu-virt-aarch64\$" \
  "$hive" run --board qemu-virt-aarch64 --elf "$tmp/rpi3.elf"
refused elf_other_board_same_map "^hive: run: --elf $tmp/rpi3.elf: built for board rpi3, not rpi4\$" \
  "$hive" run --board rpi4 --elf "$tmp/rpi3.elf"
refused elf_other_board_debug "^hive: debug: --elf $tmp/virt.elf: built for board qemu-virt-aarch64, not rpi3\$" \
  "$hive" debug --board rpi3 --elf "$tmp/virt.elf"
refused elf_other_board_image "^hive: image: --elf $tmp/virt.elf: built for board qemu-virt-aarch64, not rpi3\$" \
  "$hive" image --board rpi3 --elf "$tmp/virt.elf"
refused elf_unnamed_loads_elsewhere "^hive: run: --elf $tmp/unnamed-virt.elf: built for board qemu-virt-aarch64, not rpi3 \\(it loads at 0x40200000, rpi3's images at 0x0*80000\\)\$" \
  "$hive" run --board rpi3 --elf "$tmp/unnamed-virt.elf"
refused elf_unnamed_two_boards "^hive: image: --elf $tmp/unnamed-pi.elf: built for board rpi3 or rpi4, not qemu-virt-aarch64 " \
  "$hive" image --board qemu-virt-aarch64 --elf "$tmp/unnamed-pi.elf"
# ...and one for the board itself, named or not, goes on (to the packages,
# which the stand-ins refuse here).
for e in virt unnamed-virt; do
  rm -f "$started"
  expect "elf_own_board_$e" nonzero '' -- env PATH="$shim:$PATH" "$hive" run --board qemu-virt-aarch64 --elf "$tmp/$e.elf"
  expect_no "elf_own_board_${e}_not_refused" 'built for|see .tools/hive help'
  [ -e "$started" ] && pass_case "elf_own_board_${e}_goes_on" || fail_case "elf_own_board_${e}_goes_on" "nothing started"
done

# The other commands.
refused test_args "^hive: test: takes no arguments, not 'all'" "$hive" test all
refused bench_unknown "^hive: bench: no benchmark 'queue' \\(benchmarks: queues sched boards idle footprint\\)$" "$hive" bench queue
refused deps_unknown "^hive: deps: no command 'build'" "$hive" deps build
refused help_unknown "^hive: help: no command 'start' \\(commands: run test soak debug trace image bench deps help\\)$" \
  "$hive" help start
refused command_unknown "^hive: no command 'start' \\(commands: " "$hive" start

# trace: the board's range, the host's apps, and a log to convert.
refused trace_cores '^hive: trace: --cores 97 is out of range: qemu-virt-riscv64 runs 1-96 cores$' \
  "$hive" trace --board qemu-virt-riscv64 --cores 97
refused trace_host_cores '^hive: trace: --cores 300 is out of range: the host runs 1-256 cores$' \
  "$hive" trace --host --cores 300
refused trace_host_and_board '^hive: trace: --host or --board, not both$' \
  "$hive" trace --host --board qemu-virt-aarch64
refused trace_host_app "^hive: trace: no host app 'idle' \\(host apps: [a-z_ ]*mix[a-z_ ]*\\)$" \
  "$hive" trace --host idle
refused trace_app_unknown "^hive: trace: no app 'x' \\(apps: [a-z_ ]*mix[a-z_ ]*\\)$" "$hive" trace x
refused trace_log_absent "^hive: trace: --log $tmp/none.log: not a readable file$" \
  "$hive" trace --log "$tmp/none.log"
refused trace_log_and_app "^hive: trace: an app \\('mix'\\) or --log FILE, not both$" \
  "$hive" trace mix --log "$tmp/text.elf"
refused trace_elf_alone '^hive: trace: --elf goes with --log' "$hive" trace --elf "$tmp/text.elf" mix

# soak: judged by tools/soak before tools/hive builds anything.
refused soak_cores "^soak: --cores 97 is out of range: qemu-virt-riscv64 runs 1-96 cores$" \
  "$hive" soak --board qemu-virt-riscv64 --cores 97
refused soak_runs_missing '^soak: --runs needs a value$' "$hive" soak --runs
refused soak_runs_zero "^soak: --runs wants a positive number, not '0'$" "$hive" soak --runs 000
refused soak_image "'nope' is not a soak image" "$hive" soak --image nope
refused soak_board "^soak: unknown board 'x'" "$hive" soak --board x

# A board QEMU does not run (no boards/B/qemu): run, debug, trace and soak
# refuse it in one line that says what to do instead.
for c in run debug trace; do
  refused "${c}_not_emulated" "^hive: $c: visionfive2 is not emulated, nothing here can boot it; 'tools/hive image --board visionfive2' writes what goes on its boot medium \\(boards/visionfive2/README.md\\)\$" \
    "$hive" "$c" --board visionfive2
  [ "$(wc -l <<<"$err")" -eq 1 ] && pass_case "${c}_not_emulated_one_line" ||
    fail_case "${c}_not_emulated_one_line" "$err"
done
refused soak_not_emulated '^soak: visionfive2 is not emulated \(no boards/visionfive2/qemu\): nothing to soak$' \
  "$hive" soak --board visionfive2

# image: the board, the app or ELF, and the folder, judged before anything is built.
refused image_board_unknown "^hive: image: unknown board 'vf2' \\(boards: .*visionfive2.*\\)$" \
  "$hive" image --board vf2
refused image_app_unknown "^hive: image: no app 'nope' \\(apps: [a-z_ ]*demo[a-z_ ]*\\)$" \
  "$hive" image --board rpi3 --app nope
refused image_app_and_elf "^hive: image: an app \\('demo'\\) or --elf FILE, not both$" \
  "$hive" image --board rpi3 demo --elf "$tmp/text.elf"
refused image_elf_absent "^hive: image: --elf $tmp/none.elf: no such file$" \
  "$hive" image --board visionfive2 --elf "$tmp/none.elf"
refused image_out_missing '^hive: image: --out needs a value' "$hive" image --out
touch "$tmp/a-file"
refused image_out_file "^hive: image: --out $tmp/a-file is not a folder$" \
  "$hive" image --board rpi3 --out "$tmp/a-file"
refused image_option "^hive: image: unknown option --cores$" "$hive" image --cores 4

# run-image: a missing value, not the shell's complaint.
refused run_image_board_missing '^run-image: --board needs a value$' "$src/tools/run-image" --board

finish
