/*
 * Linked into a copy of the fault test on riscv64 to move every core's stack
 * into RAM that the MMU maps with 2 MiB megapages, so that unmapping the
 * guard pages has to split a megapage (arch/riscv64/mmu.c) - with the stacks
 * among the image's first pages, as in every other image, it never does.
 * The riscv64 linker script puts .sbss ahead of all .bss, hence 4 MiB there
 * come before hive_stacks; 4 MiB of plain .bss come after it.
 */
#include <stdint.h>

#include "kernel/kernel.h"

__attribute__((section(".sbss.large_page_stacks"))) char large_page_before_stacks[4u << 20];
char large_page_after_stacks[4u << 20];

/* A constructor is kept by the linker, and so is what it uses: the arrays
 * would otherwise go with --gc-sections. It also checks the layout. */
__attribute__((constructor)) static void stacks_in_large_pages(void)
{
    uintptr_t mb2 = 2u << 20;
    uintptr_t stacks = (uintptr_t)hive_stacks, stacks_end = stacks + sizeof hive_stacks;
    uintptr_t before = (uintptr_t)large_page_before_stacks;
    uintptr_t after_end = (uintptr_t)large_page_after_stacks + sizeof large_page_after_stacks;
    if (!(stacks > before + mb2 && stacks_end + mb2 < after_end))
        hive_panic("large_page_stacks.c: the stacks are not inside megapages (layout changed?)");
}
