#!/usr/bin/env python3
"""Checks a folder `tools/hive image` wrote against the ELF it came from.

    image_contents.py DIR ELF NAME...

NAME... are the files tools/hive said go on the medium; DIR must hold
exactly those. Each file is checked by its kind:
  *.elf        the ELF itself, byte for byte
  qemu         an executable that runs qemu-system-*
  *.img, *.bin a raw image: the ELF's loadable bytes, each segment at its
               address minus the lowest one, the size the loadable span; its
               first word is the entry instruction, or (RISC-V) a jump to
               the entry; with the RISC-V Linux image header, the header's
               magic numbers and an image_size that covers .bss too
  config.txt   a Raspberry Pi config: 64-bit, the UART, kernel= a raw image
               of the folder
  boot.scr     a U-Boot script image (mkimage -T script): header and data
               checksums, its script the folder's boot.cmd
  boot.cmd     loads a raw image of the folder at its load address and
               starts it there with booti, which needs the Linux header
Prints one line per problem and exits 1 if there is any.
"""
import os
import struct
import sys
import zlib

problems = []


def problem(msg):
    problems.append(msg)
    print("image_contents: " + msg)


def read_elf(path):
    data = open(path, "rb").read()
    if data[:4] != b"\x7fELF" or data[4] != 2 or data[5] != 1:
        sys.exit("image_contents: %s is not a 64-bit little-endian ELF" % path)
    machine, = struct.unpack_from("<H", data, 18)
    entry, phoff = struct.unpack_from("<QQ", data, 24)
    phentsize, phnum = struct.unpack_from("<HH", data, 54)
    loads = []
    for i in range(phnum):
        p_type, _flags, off, _vaddr, paddr, filesz, memsz, _align = struct.unpack_from(
            "<IIQQQQQQ", data, phoff + i * phentsize)
        if p_type == 1:     # PT_LOAD
            loads.append((paddr, off, filesz, memsz))
    return data, machine, entry, loads


def riscv_jal_target(word, pc):
    """The target of `jal x0, imm` at pc, or None if word is not one."""
    if word & 0xfff != 0x06f:          # opcode JAL, rd = x0
        return None
    imm = (((word >> 31) & 1) << 20) | (((word >> 12) & 0xff) << 12) | \
          (((word >> 20) & 1) << 11) | (((word >> 21) & 0x3ff) << 1)
    if imm & (1 << 20):
        imm -= 1 << 21
    return pc + imm


def check_raw(name, raw, elf):
    data, machine, entry, loads = elf
    with_bytes = [l for l in loads if l[2] > 0]
    base = min(l[0] for l in with_bytes)
    span = max(l[0] + l[2] for l in with_bytes) - base
    if len(raw) != span:
        problem("%s: %d bytes, the ELF's loadable span is %d" % (name, len(raw), span))
        return base
    for paddr, off, filesz, _memsz in with_bytes:
        if raw[paddr - base:paddr - base + filesz] != data[off:off + filesz]:
            problem("%s: the segment at 0x%x differs from the ELF's" % (name, paddr))
    first, = struct.unpack_from("<I", raw, 0)
    if entry != base:
        if machine != 243 or riscv_jal_target(first, base) != entry:
            problem("%s: starts with 0x%08x, neither the entry (0x%x) nor a jump to it"
                    % (name, first, entry))
    if raw[0x38:0x3c] == b"RSC\x05":
        image_size, = struct.unpack_from("<Q", raw, 16)
        need = max(l[0] + l[3] for l in loads) - base
        if raw[0x30:0x35] != b"RISCV":
            problem("%s: Linux image header without its magic 'RISCV' at 0x30" % name)
        if image_size < need:
            problem("%s: header image_size 0x%x, the image with .bss needs 0x%x"
                    % (name, image_size, need))
    return base


def has_linux_header(raw):
    return raw[0x38:0x3c] == b"RSC\x05"


def main():
    folder, elf_path, names = sys.argv[1], sys.argv[2], sys.argv[3:]
    elf = read_elf(elf_path)
    present = sorted(os.listdir(folder))
    if sorted(names) != present:
        problem("the folder holds %s; tools/hive named %s" % (present, sorted(names)))
    raws = {}
    for name in names:
        path = os.path.join(folder, name)
        if not os.path.isfile(path):
            continue
        body = open(path, "rb").read()
        if name.endswith(".elf"):
            if body != elf[0]:
                problem("%s: not the ELF it was made from" % name)
        elif name == "qemu":
            if not os.access(path, os.X_OK) or b"qemu-system-" not in body:
                problem("qemu: not an executable that runs qemu-system-*")
        elif name.endswith((".img", ".bin")):
            raws[name] = (check_raw(name, body, elf), body)
    for name in names:
        path = os.path.join(folder, name)
        if not os.path.isfile(path):
            continue
        body = open(path, "rb").read()
        if name == "config.txt":
            lines = body.decode().split("\n")
            for want in ("arm_64bit=1", "enable_uart=1"):
                if want not in lines:
                    problem("config.txt: no line '%s'" % want)
            kernels = [l[len("kernel="):] for l in lines if l.startswith("kernel=")]
            if len(kernels) != 1 or kernels[0] not in raws:
                problem("config.txt: kernel= names %s, not one raw image of the folder" % kernels)
        elif name == "boot.scr":
            magic, hcrc = struct.unpack_from(">II", body, 0)
            size, = struct.unpack_from(">I", body, 12)
            dcrc, = struct.unpack_from(">I", body, 24)
            if magic != 0x27051956 or body[30] != 6:
                problem("boot.scr: not a U-Boot script image (magic 0x%x, type %d)" % (magic, body[30]))
                continue
            header = body[:4] + b"\0\0\0\0" + body[8:64]
            if zlib.crc32(header) != hcrc or zlib.crc32(body[64:64 + size]) != dcrc:
                problem("boot.scr: bad checksum")
            length, end = struct.unpack_from(">II", body, 64)
            script = body[72:72 + length]
            source = os.path.join(folder, "boot.cmd")
            if end != 0 or not os.path.isfile(source) or script != open(source, "rb").read():
                problem("boot.scr: its script is not the folder's boot.cmd")
        elif name == "boot.cmd":
            text = body.decode()
            loaded = [(b, n) for n, (b, _) in raws.items()
                      if " 0x%x %s" % (b, n) in text]
            if len(loaded) != 1:
                problem("boot.cmd: loads no raw image of the folder at its load address")
                continue
            base, raw_name = loaded[0]
            if "booti 0x%x " % base not in text:
                problem("boot.cmd: no 'booti 0x%x' to start %s where it was loaded" % (base, raw_name))
            elif not has_linux_header(raws[raw_name][1]):
                problem("boot.cmd: booti starts %s, which has no Linux image header" % raw_name)
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
