#!/usr/bin/env bash
# A board's image recipe as U-Boot uses it: the files boards/RECIPE/image
# writes (a raw image with the Linux image header, boot.scr) go on a FAT
# partition of a disk, and Debian's U-Boot for QEMU virt (u-boot-qemu,
# qemu-riscv64_smode, under OpenSBI) must find boot.scr by its boot scan,
# load the image and start it with booti, on which the image must boot all
# its cores and pass. IMAGE is a qemu-virt-riscv64 image carrying the header.
#
#   tests/tools/uboot_booti.sh SOURCE_DIR RECIPE_BOARD IMAGE.elf
. "$(dirname "$0")/lib.sh"
src=${1:?usage: uboot_booti.sh SOURCE_DIR RECIPE_BOARD IMAGE} recipe=${2:?} image=${3:?}
uboot=/usr/lib/u-boot/qemu-riscv64_smode/u-boot.bin
[ -f "$uboot" ] || { echo "uboot_booti: no $uboot (Debian's u-boot-qemu)" >&2; exit 1; }
command -v mformat >/dev/null || { echo "uboot_booti: no mformat (Debian's mtools)" >&2; exit 1; }

files=$tmp/files disk=$tmp/disk.img
mkdir -p "$files"
expect recipe 0 'boot\.scr' -- env HIVE_OBJCOPY=riscv64-unknown-elf-objcopy \
  "$src/boards/$recipe/image" "$image" "$files" demo
# A 64 MiB disk: an MBR with one FAT partition from 1 MiB, holding the files.
python3 - "$disk" <<'PY'
import struct, sys
size, start = 64 << 20, 2048
mbr = bytearray(512)
mbr[446:462] = struct.pack("<B3sB3sII", 0x80, b"\0\0\0", 0x0c, b"\0\0\0", start, size // 512 - start)
mbr[510:512] = b"\x55\xaa"
with open(sys.argv[1], "wb") as f:
    f.write(mbr)
    f.truncate(size)
PY
expect disk 0 '' -- sh -c "mformat -i '$disk@@1M' -F :: && mcopy -i '$disk@@1M' '$files'/* ::"

expect boot 0 '' -- timeout --foreground -k 5 150 qemu-system-riscv64 -M virt -smp 4 -m 1G -nographic \
  -nic none -bios default -kernel "$uboot" -drive "file=$disk,format=raw,if=virtio"
out=$(tr -d '\r' <<<"$out")
expect_out uboot_found_script '^Found U-Boot script /boot\.scr$'
expect_out uboot_booti '^Starting kernel \.\.\.$'
expect_out hive_cores '^hive: 4 cores online \(qemu-virt-riscv64\)$'
expect_out demo_ok '^demo: ok cores=4 '
finish
