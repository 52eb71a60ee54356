#!/bin/sh
# ram_too_small.sh ROOT BOARD NM IMAGE REGEX: boot IMAGE with less RAM than
# it needs - its .bss and stacks run past the end - yet enough for QEMU to
# load it (QEMU refuses a kernel larger than RAM, counted from its own
# start, not from the start of RAM): the size of the image, rounded up to
# a MiB, is less than the image's end from the start of RAM whenever the
# image starts 1 MiB or more into RAM. It must stop with REGEX, non-zero.
set -eu
[ $# -eq 5 ] || { echo "usage: $0 ROOT BOARD NM IMAGE REGEX" >&2; exit 2; }
root=$1 board=$2 nm=$3 image=$4 regex=$5
sym() { "$nm" "$image" | awk -v s="$1" '$3 == s { print $1 }'; }
start=$(sym __image_start) end=$(sym __image_end) ram=$(sym __ram_start)
[ -n "$start" ] && [ -n "$end" ] && [ -n "$ram" ] || { echo "$0: no image symbols in $image" >&2; exit 1; }
mib=$(( (0x$end - 0x$start + 0xfffff) >> 20 ))
if [ $(( mib << 20 )) -ge $(( 0x$end - 0x$ram )) ]; then
  echo "$0: the image starts too near the start of RAM to be loaded into less RAM than it needs" >&2
  exit 1
fi
echo "ram_too_small: $mib MiB of RAM for an image that ends $(( (0x$end - 0x$ram) >> 10 )) KiB into it"
exec "$root/tools/run-image" --board "$board" --cores 1 --timeout 30 --expect-fail "$regex" \
  "$image" -m "${mib}M"
