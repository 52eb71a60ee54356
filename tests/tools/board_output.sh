#!/usr/bin/env bash
# On a real board under QEMU: what tools/run-image and tools/hive run print
# starts with hive's first line (the firmware's banner - OpenSBI's on riscv64 -
# is dropped), --firmware-banner keeps it, and tools/hive run --elf boots an
# image it did not build and exits with its status.
#
#   tests/tools/board_output.sh SOURCE_DIR BOARD IMAGE.elf
. "$(dirname "$0")/lib.sh"
src=${1:?usage: board_output.sh SOURCE_DIR BOARD IMAGE} board=${2:?} image=${3:?}

first_line() { grep -v '^[[:space:]]*$' <<<"$out" | head -n 1 | tr -d '\r'; }

expect run_image 0 '' -- "$src/tools/run-image" --board "$board" --cores 2 --timeout 60 "$image"
line=$(first_line)
[ "$line" = "hive: 2 cores online ($board)" ] && pass_case run_image_starts_with_hive ||
  fail_case run_image_starts_with_hive "first line: '$line'"

expect run_image_banner 0 '' -- "$src/tools/run-image" --board "$board" --cores 2 --timeout 60 \
  --firmware-banner "$image"
expect_out run_image_banner_has_hive '^hive: 2 cores online'
# Every riscv64 board boots under OpenSBI (board.cmake's HIVE_ARCH).
arch=$(sed -nE 's/^[[:space:]]*set\(HIVE_ARCH[[:space:]]+([^[:space:])]+).*/\1/p' "$src/boards/$board/board.cmake")
if [ "$arch" = riscv64 ]; then
  expect_out run_image_banner_kept '^OpenSBI v'
  # ...and it is that banner the plain run dropped.
  expect run_image_again 0 '' -- "$src/tools/run-image" --board "$board" --cores 2 --timeout 60 "$image"
  expect_no run_image_no_opensbi 'OpenSBI'
fi

expect hive_run_elf 0 "^hive: boards/$board/qemu $image 2\$" -- \
  timeout 120 "$src/tools/hive" run --board "$board" --cores 2 --elf "$image"
line=$(first_line)
[ "$line" = "hive: 2 cores online ($board)" ] && pass_case hive_run_elf_starts_with_hive ||
  fail_case hive_run_elf_starts_with_hive "first line: '$line'"
expect_out hive_run_elf_verdict '^[0-9]+ passed, 0 failed'

# The board's qemu script writes nothing beside the ELF (its folder may be an
# installed prefix, or the user's own) and leaves nothing in $TMPDIR (a Pi's
# raw image is made there for each boot).
mkdir -p "$tmp/elfdir" "$tmp/tmpdir"
cp "$image" "$tmp/elfdir/"
expect copy_boots 0 '' -- env TMPDIR="$tmp/tmpdir" \
  "$src/tools/run-image" --board "$board" --cores 2 --timeout 60 "$tmp/elfdir/${image##*/}"
left=$(cd "$tmp/elfdir" && ls -A | grep -vxF "${image##*/}")
[ -z "$left" ] && pass_case nothing_beside_elf || fail_case nothing_beside_elf "written beside the ELF: $left"
left=$(ls -A "$tmp/tmpdir")
[ -z "$left" ] && pass_case nothing_left_in_tmpdir || fail_case nothing_left_in_tmpdir "left in \$TMPDIR: $left"

# The image names its board (cmake/board_id.c); another board of the same CPU
# refuses it, for run and image alike, rather than booting it to silence or
# writing a boot medium that never starts.
expect image_names_board 0 "^ *\\[ *0\\] +$board\$" -- readelf -p .hive.board "$image"
other=
for b in $("$src/tools/boards"); do
  [ "$b" != "$board" ] && [ -f "$src/boards/$b/qemu" ] && grep -Eq "^[[:space:]]*set\(HIVE_ARCH[[:space:]]+$arch[[:space:])]" "$src/boards/$b/board.cmake" &&
    { other=$b; break; }
done
if [ -n "$other" ]; then
  for c in run image; do
    expect "${c}_other_board_refused" 2 "^hive: $c: --elf $image: built for board $board, not $other\$" -- \
      timeout 60 "$src/tools/hive" "$c" --board "$other" --elf "$image"
  done
fi

finish
