#!/usr/bin/env bash
# tools/hive image on a board tree: the folder it writes for the board's boot
# medium holds exactly the files it names, each right for the ELF it came
# from (tests/tools/image_contents.py); writing it again replaces it; a
# folder holding anything else is refused and left alone.
#
#   tests/tools/image_check.sh SOURCE_DIR BOARD IMAGE.elf
. "$(dirname "$0")/lib.sh"
src=${1:?usage: image_check.sh SOURCE_DIR BOARD IMAGE} board=${2:?} image=${3:?}
hive=$src/tools/hive
dir=$tmp/medium

# The files tools/hive named, from its "  NAME  where it goes" lines.
named() { sed -nE 's/^  ([^ ]+)  .*/\1/p' <<<"$out"; }

expect image 0 "^hive: $(basename "$image" .elf) for $board, in $dir:\$" -- \
  "$hive" image --board "$board" --elf "$image" --out "$dir"
mapfile -t names < <(named)
if [ ${#names[@]} -eq 0 ]; then
  fail_case image_names "tools/hive named no file: $out"
elif python3 "$src/tests/tools/image_contents.py" "$dir" "$image" "${names[@]}" >"$tmp/contents" 2>&1; then
  pass_case "image_contents (${names[*]})"
else
  fail_case image_contents "$(cat "$tmp/contents")"
fi

expect image_again 0 "^hive: .* in $dir:\$" -- "$hive" image --board "$board" --elf "$image" --out "$dir"
mapfile -t again < <(named)
[ "${again[*]}" = "${names[*]}" ] && pass_case image_again_same_files ||
  fail_case image_again_same_files "first ${names[*]}, then ${again[*]}"

touch "$dir/notes.txt"
expect image_foreign_folder 2 "^hive: image: --out $dir holds notes.txt, which this image does not write" -- \
  "$hive" image --board "$board" --elf "$image" --out "$dir"
[ -f "$dir/notes.txt" ] && [ -f "$dir/${names[0]:-none}" ] && pass_case image_foreign_folder_kept ||
  fail_case image_foreign_folder_kept "the folder was changed: $(ls "$dir")"
finish
