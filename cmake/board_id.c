/*
 * The board an image was built for, as its name (HIVE_BOARD_NAME, given on
 * the command line to every board build: CMakeLists.txt) in a section of its
 * own, .hive.board. The section has no flags: nothing loads it, so the
 * image's memory and its raw twin (kernel8.img) are as they were, and the
 * linker scripts' /DISCARD/ (which takes .note.*) leaves it alone.
 *
 * tools/hive reads it to refuse an ELF built for another board before
 * booting it or writing its boot medium: an rpi3 image under QEMU's virt
 * machine prints nothing and hangs, a virt image's kernel8.img never starts,
 * and boards of one CPU (rpi3 and rpi4, QEMU virt riscv64 and the HiFive
 * Unleashed) even share a memory map, so the load address cannot tell them
 * apart. Compiled into hive::platform (cmake/targets.cmake), so that every
 * image has it, hive's own and firmware built on the installed package.
 */
__asm__(".pushsection .hive.board, \"R\", %progbits\n"
        ".asciz \"" HIVE_BOARD_NAME "\"\n"
        ".popsection\n");
