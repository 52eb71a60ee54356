/*
 * The identity map, built once by the boot core with the MMU still off and
 * used by every core (entry.S: mmu_enable).
 *
 *   RAM image   text R-X, rodata R--, data/bss/stacks RW- (normal write-back,
 *               inner shareable); the guard page below each core's task stack
 *               and below its interrupt stack unmapped
 *   RAM beyond  the heap, RW- (2 MiB blocks where possible)
 *   devices     RW-, Device-nGnRE: the board's regions (kernel/board.h,
 *               board_mmio), page aligned
 *   the rest    unmapped: page 0 and flash, RAM below the image
 *
 * Runs before the MMU is on, where memory is Device: this file is built with
 * -mstrict-align, and every table it fills was zeroed with .bss.
 */
#include <stddef.h>
#include <stdint.h>

#include "aarch64.h"
#include "kernel/kernel.h"
#include "kernel/machine.h"
#include "regs.h"

/* From the linker script. */
extern char __image_start[], __text_end[], __rodata_end[], __image_end[];

#define PAGE        4096ul
#define BLOCK       (2ul << 20)
#define ENTRIES     512
#define L2_TABLES   4
/* A 2 MiB block that a region does not fill, or that holds a stack guard,
 * is mapped page by page, one table each: the devices' and the image's
 * section ends (8 leave room), and the blocks holding guards, which the
 * build's stacks decide (kernel/cpu.h). */
#define L3_TABLES   (8 + HIVE_GUARD_BLOCKS)

#define DESC_BLOCK  1ul
#define DESC_TABLE  3ul
#define DESC_PAGE   3ul
#define ADDR_MASK   0x0000fffffffff000ul
#define ATTR(idx)   ((uint64_t)(idx) << 2)
#define AP_RO       (1ul << 7)
#define SH_INNER    (3ul << 8)
#define AF          (1ul << 10)     /* set up front: no access-flag faults */
#define PXN         (1ul << 53)
#define UXN         (1ul << 54)

#define MEM_TEXT    (ATTR(MAIR_NORMAL_IDX) | SH_INNER | AF | AP_RO | UXN)
#define MEM_RODATA  (ATTR(MAIR_NORMAL_IDX) | SH_INNER | AF | AP_RO | UXN | PXN)
#define MEM_RW      (ATTR(MAIR_NORMAL_IDX) | SH_INNER | AF | UXN | PXN)
#define MEM_DEVICE  (ATTR(MAIR_DEVICE_IDX) | AF | UXN | PXN)

uint64_t aarch64_l1_table[ENTRIES] __attribute__((aligned(PAGE)));
static uint64_t l2_tables[L2_TABLES][ENTRIES] __attribute__((aligned(PAGE)));
static uint64_t l3_tables[L3_TABLES][ENTRIES] __attribute__((aligned(PAGE)));
static unsigned l2_used, l3_used;

static noreturn void out_of_tables(void)
{
    /* The PL011 works with the MMU off; stdio is not set up yet. */
    hive_console_emergency("panic: core 0: mmu.c: page table pool too small, or regions overlap\n");
    board_exit(1);
}

/* The next-level table behind *entry, creating it if the entry is empty. */
static uint64_t *next_table(uint64_t *entry, uint64_t (*pool)[ENTRIES], unsigned *used,
                            unsigned size)
{
    if (!(*entry & 1)) {
        if (*used == size)
            out_of_tables();
        *entry = (uintptr_t)pool[(*used)++] | DESC_TABLE;
    } else if ((*entry & 3) != DESC_TABLE) {
        out_of_tables(); /* a 2 MiB block is already there: regions overlap */
    }
    return (uint64_t *)(uintptr_t)(*entry & ADDR_MASK);
}

static uint64_t *l2_entry(uintptr_t va)
{
    uint64_t *l2 = next_table(&aarch64_l1_table[(va >> 30) % ENTRIES], l2_tables, &l2_used, L2_TABLES);
    return &l2[(va >> 21) % ENTRIES];
}

/* Map [start, end) (page aligned) to itself, skipping the stack guards. */
static void map(uintptr_t start, uintptr_t end, uint64_t attrs)
{
    uintptr_t va = start;
    while (va < end) {
        uint64_t *l2e = l2_entry(va);
        if (va % BLOCK == 0 && end - va >= BLOCK && !(*l2e & 1) &&
            !hive_range_has_stack_guard(va, va + BLOCK)) {
            *l2e = va | attrs | DESC_BLOCK;
            va += BLOCK;
            continue;
        }
        uint64_t *l3 = next_table(l2e, l3_tables, &l3_used, L3_TABLES);
        if (!hive_is_stack_guard(va))
            l3[(va >> 12) % ENTRIES] = va | attrs | DESC_PAGE;
        va += PAGE;
    }
}

void aarch64_mmu_build(void)
{
    for (unsigned i = 0; i < board_mmio_count; i++)
        map(board_mmio[i].base, board_mmio[i].base + board_mmio[i].size, MEM_DEVICE);
    map((uintptr_t)__image_start, (uintptr_t)__text_end, MEM_TEXT);
    map((uintptr_t)__text_end, (uintptr_t)__rodata_end, MEM_RODATA);
    map((uintptr_t)__rodata_end, (uintptr_t)__image_end, MEM_RW);
    /* The rest of RAM, as far as the machine has it (kernel/machine.c). */
    map((uintptr_t)__image_end, hive_machine.ram_end, MEM_RW);
}
