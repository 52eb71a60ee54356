# Helpers for the boards' image recipes (boards/B/image, run by
# `tools/hive image`): sourced, POSIX sh.
#
# A recipe is called as   boards/B/image ELF OUT NAME
# with OUT an empty folder, NAME the image's name (the app's, or the --elf
# file's without .elf) and HIVE_OBJCOPY the objcopy for the board's arch in
# the environment. It writes into OUT exactly the files that go on the
# board's boot medium and prints one line per file on stdout,
#   FILE<TAB>where it goes
# and nothing else there; tools/hive checks that the folder holds those
# files and no others.

# image_raw ELF FILE: the ELF's loadable bytes as the loader puts them in
# memory, from its lowest load address (objcopy -O binary).
image_raw() {
  "${HIVE_OBJCOPY:?names the objcopy for the arch of the board}" -O binary "$1" "$2"
}

# image_load_address ELF: the lowest physical address of a PT_LOAD segment
# with bytes in the file, as 0x... - where the raw image must be loaded.
image_load_address() {
  _min=
  for _a in $(readelf -lW "$1" | awk '$1 == "LOAD" && $5 !~ /^0x0+$/ { print $4 }'); do
    if [ -z "$_min" ] || [ $((_a)) -lt $((_min)) ]; then _min=$_a; fi
  done
  [ -n "$_min" ] || return 1
  printf '0x%x\n' $((_min))
}

# image_uboot_script CMD SCR NAME: compile U-Boot commands (boot.cmd) into
# the script image U-Boot's `source` runs (boot.scr).
image_uboot_script() {
  mkimage -A riscv -O linux -T script -C none -n "$3" -d "$1" "$2" >/dev/null
}

# image_file FILE WHERE: the recipe's line for one file.
image_file() {
  printf '%s\t%s\n' "$1" "$2"
}
