#!/usr/bin/env bash
# tools/drop-firmware-banner: the lines before hive's first one are dropped,
# QEMU's own messages pass, hive's lines come out as they come (not at the
# end), and output in which hive never speaks comes out whole.
#
#   tests/tools/banner_filter.sh SOURCE_DIR
. "$(dirname "$0")/lib.sh"
src=${1:?usage: banner_filter.sh SOURCE_DIR}
filter=$src/tools/drop-firmware-banner

feed() { printf "$1" | "$filter"; }

expect banner_dropped 0 . -- feed '\nOpenSBI v1.1\n  ____\nBoot HART ID : 3\n\nhive: 2 cores online (b)\nok   case\n<<line>>\n'
[ "$out" = $'hive: 2 cores online (b)\nok   case\n<<line>>' ] && pass_case banner_dropped_exactly ||
  fail_case banner_dropped_exactly "got: $out"

expect crlf 0 . -- feed 'OpenSBI v1.1\r\n\r\nhive: 1 core online (b)\r\nnext\r\n'
[ "$out" = $'hive: 1 core online (b)\r\nnext\r' ] && pass_case crlf_kept_from_hive ||
  fail_case crlf_kept_from_hive "got: $(od -c <<<"$out" | head -n 3)"

expect panic_first 0 . -- feed 'firmware\n\npanic: core 0: early fault\nmore\n'
[ "$out" = $'panic: core 0: early fault\nmore' ] && pass_case panic_is_hive ||
  fail_case panic_is_hive "got: $out"

expect qemu_passes 0 . -- feed 'firmware\nqemu-system-riscv64: warning: x\nhive: 1 core online (b)\n'
[ "$out" = $'qemu-system-riscv64: warning: x\nhive: 1 core online (b)' ] && pass_case qemu_message_kept ||
  fail_case qemu_message_kept "got: $out"

expect silent_hive 0 . -- feed 'firmware v1\nstopped: no image\n'
[ "$out" = $'firmware v1\nstopped: no image' ] && pass_case nothing_from_hive_all_kept ||
  fail_case nothing_from_hive_all_kept "got: $out"

# Line by line: hive's first line is out while the input is still open.
first=$({ printf 'firmware\nhive: 1 core online (b)\n'; sleep 5; printf 'late\n'; } | "$filter" |
        { IFS= read -r -t 3 l && echo "$l"; })
[ "$first" = 'hive: 1 core online (b)' ] && pass_case streams ||
  fail_case streams "no line within 3 s (got '$first')"

finish
