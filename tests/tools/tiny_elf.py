#!/usr/bin/env python3
"""tiny_elf.py OUT MACHINE ADDRESS [BOARD]: a minimal 64-bit little-endian
ELF for tools/hive's --elf checks, built without a cross toolchain: e_machine
MACHINE, one PT_LOAD of 4 bytes at physical address ADDRESS, and, with BOARD,
the .hive.board section that names the board an image was built for
(cmake/board_id.c). It boots nothing; readelf reads it as it reads an image."""
import struct
import sys

out, machine, addr = sys.argv[1], int(sys.argv[2], 0), int(sys.argv[3], 0)
board = sys.argv[4] if len(sys.argv) > 4 else None

EHDR, PHDR, SHDR = 64, 56, 64
code = b"\0" * 4
names = b"\0"
sections = []  # (name offset, type, flags, data)
if board is not None:
    sections.append((len(names), 1, 0x200000, board.encode() + b"\0"))  # PROGBITS, GNU_RETAIN
    names += b".hive.board\0"
shstrtab_name = len(names)
names += b".shstrtab\0"
sections.append((shstrtab_name, 3, 0, names))  # STRTAB

# The code after the headers, then each section's data, then the section headers.
code_off = EHDR + PHDR
body = bytearray(code)
placed, pos = [], code_off + len(code)
for name, typ, flags, data in sections:
    placed.append((name, typ, flags, pos, data))
    body += data
    pos += len(data)
while pos % 8:
    body += b"\0"
    pos += 1
shoff = pos

ehdr = b"\x7fELF" + bytes([2, 1, 1, 0]) + b"\0" * 8
ehdr += struct.pack("<HHIQQQIHHHHHH", 2, machine, 1, addr, EHDR, shoff, 0,
                    EHDR, PHDR, 1, SHDR, 1 + len(placed), len(placed))
phdr = struct.pack("<IIQQQQQQ", 1, 5, code_off, addr, addr, len(code), len(code), 0x1000)
shdrs = b"\0" * SHDR
for name, typ, flags, off, data in placed:
    shdrs += struct.pack("<IIQQQQIIQQ", name, typ, flags, 0, off, len(data), 0, 0, 1, 0)
with open(out, "wb") as f:
    f.write(ehdr + phdr + bytes(body) + shdrs)
