/*
 * The RISC-V Linux image header, for boards whose loader starts an image
 * the way it starts Linux: U-Boot's `booti` checks the magic numbers below,
 * copies nothing (it runs the image where it was loaded, which must be the
 * address the image is linked at) and enters at the header's first word in
 * S-mode with a0 = the boot hart's id and a1 = a device tree, as OpenSBI
 * enters _start. A board opts in with HIVE_RISCV_IMAGE_HEADER in its
 * board.cmake; image.ld puts .text.head first, before _start.
 *
 * Layout: Linux's Documentation/arch/riscv/boot-image-header.rst (header
 * version 0.2): 64 bytes, little endian.
 */
    .section .text.head, "ax"
    .option push
    .option norvc                   /* code0 is one 4-byte jump */
    .globl hive_image_header
hive_image_header:
    j       _start                  /* code0: over the rest of the header */
    .word   0                       /* code1: never reached */
    .option pop
    .dword  __image_text_offset     /* text_offset: the image's place above RAM's start */
    .dword  __image_size            /* image_size: loaded bytes and .bss, for the loader's bookkeeping */
    .dword  0                       /* flags: bit 0 clear, little endian */
    .word   2                       /* version 0.2 (major << 16 | minor) */
    .word   0                       /* res1 */
    .dword  0                       /* res2 */
    .ascii  "RISCV\0\0\0"           /* magic, deprecated but still read by some loaders */
    .ascii  "RSC\x05"               /* magic2: what U-Boot's booti checks */
    .word   0                       /* res3: no PE/COFF header */
