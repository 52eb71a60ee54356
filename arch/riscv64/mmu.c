/*
 * Sv39 paging with an identity map, so that a stack's guard page really traps.
 *
 * The image's text is R+X, its read-only data R, its data/bss R+W and never
 * X; the rest of RAM (the heap) is R+W, and the board's device regions R+W.
 * Each range is mapped with the largest pages its alignment allows - 1 GiB,
 * 2 MiB, else 4 KiB - and a large page never spans two ranges, so each keeps
 * its own permissions (W^X). The guard page at the bottom of each core's
 * stack slot is then unmapped, splitting the large page around it into
 * smaller ones. Nothing else is mapped: OpenSBI's memory, and address 0, so
 * a null pointer traps too. A and D are preset in every leaf because
 * hardware A/D updating is optional (a hart without it would fault on the
 * first access instead).
 *
 * So the number of tables does not grow with the image: besides the root,
 * one level-1 table per GiB that holds anything mapped (QEMU virt: devices,
 * RAM), and one level-0 table per 2 MiB that holds a range's unaligned end
 * (QEMU virt: three for devices, up to four at the image's section ends) or
 * a guard page - as many as the build's stacks make (kernel/cpu.h: a few
 * for small stacks, one per core once a slot nears 2 MiB). 12 tables cover
 * the rest with room.
 */
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "csr.h"
#include "kernel/kernel.h"
#include "kernel/machine.h"
#include "mmu.h"

#define PTE_V (1u << 0)
#define PTE_R (1u << 1)
#define PTE_W (1u << 2)
#define PTE_X (1u << 3)
#define PTE_G (1u << 5)
#define PTE_A (1u << 6)
#define PTE_D (1u << 7)

#define PAGE_SHIFT 12
#define PAGE_SIZE (1ul << PAGE_SHIFT)
#define ENTRIES 512
#define SATP_SV39 (8ul << 60)

/* Level 2 maps 1 GiB per entry, level 1 2 MiB, level 0 4 KiB. */
#define LEVEL_SHIFT(l) (PAGE_SHIFT + 9 * (l))
#define LEVEL_SIZE(l) (1ul << LEVEL_SHIFT(l))

typedef uint64_t pte_t;

/* The root and the lower tables (the bound is above). */
#define TABLES (12 + HIVE_GUARD_BLOCKS)
static pte_t tables[TABLES][ENTRIES] __attribute__((aligned(PAGE_SIZE)));
static unsigned tables_used;

/* Written by the boot hart before it starts the others, which only read it
 * (kernel/boot.c fences before it starts a hart). */
static uint64_t satp_value;

extern char __text_start[], __text_end[], __rodata_start[], __rodata_end[];
extern char __data_start[], __image_end[];

static pte_t table_pte(const pte_t *table)
{
    return ((uintptr_t)table >> PAGE_SHIFT) << 10 | PTE_V;
}

static pte_t *pte_table(pte_t pte)
{
    return (pte_t *)(uintptr_t)((pte >> 10) << PAGE_SHIFT);
}

static bool is_leaf(pte_t pte)
{
    return pte & (PTE_R | PTE_W | PTE_X);
}

static pte_t *new_table(void)
{
    if (tables_used == TABLES)
        hive_panic("mmu: out of page tables (%u)", TABLES);
    return tables[tables_used++];   /* zeroed with .bss: every entry invalid */
}

/* Replace the leaf *pte at level (a large page) by a table of the 512
 * next-smaller pages that cover the same memory with the same permissions. */
static void split(pte_t *pte, unsigned level)
{
    pte_t *table = new_table();
    for (unsigned i = 0; i < ENTRIES; i++)
        table[i] = *pte + ((pte_t)i << (LEVEL_SHIFT(level - 1) - PAGE_SHIFT) << 10);
    *pte = table_pte(table);
}

/* The entry for va at level, creating the tables above it as needed and
 * splitting a large page in the way. */
static pte_t *walk(uintptr_t va, unsigned level)
{
    pte_t *table = tables[0];
    for (unsigned l = 2; l > level; l--) {
        pte_t *pte = &table[(va >> LEVEL_SHIFT(l)) & (ENTRIES - 1)];
        if (!(*pte & PTE_V))
            *pte = table_pte(new_table());
        else if (is_leaf(*pte))
            split(pte, l);
        table = pte_table(*pte);
    }
    return &table[(va >> LEVEL_SHIFT(level)) & (ENTRIES - 1)];
}

/* Identity-map [start, end) rounded out to pages, with pages no larger than
 * max_level allows. */
static void map(uintptr_t start, uintptr_t end, pte_t perm, unsigned max_level)
{
    uintptr_t va = start & ~(PAGE_SIZE - 1);
    end = (end + PAGE_SIZE - 1) & ~(PAGE_SIZE - 1);
    while (va < end) {
        unsigned level = max_level;
        while (level > 0 && (va % LEVEL_SIZE(level) || end - va < LEVEL_SIZE(level)))
            level--;
        pte_t *pte = walk(va, level);
        if (*pte & PTE_V)
            hive_panic("mmu: %#lx mapped twice", (unsigned long)va);
        *pte = (va >> PAGE_SHIFT) << 10 | perm | PTE_V | PTE_A | PTE_D | PTE_G;
        va += LEVEL_SIZE(level);
    }
}

static void unmap_page(uintptr_t va)
{
    pte_t *pte = walk(va, 0);
    if (!(*pte & PTE_V))
        hive_panic("mmu: unmapping %#lx, which is not mapped", (unsigned long)va);
    *pte = 0;
}

void riscv_mmu_init(void)
{
    tables_used = 1;    /* tables[0] is the root */

    for (unsigned i = 0; i < board_mmio_count; i++)
        map(board_mmio[i].base, board_mmio[i].base + board_mmio[i].size, PTE_R | PTE_W, 2);

    map((uintptr_t)__text_start, (uintptr_t)__text_end, PTE_R | PTE_X, 2);
    map((uintptr_t)__rodata_start, (uintptr_t)__rodata_end, PTE_R, 2);
    map((uintptr_t)__data_start, (uintptr_t)__image_end, PTE_R | PTE_W, 2);
    /* The rest of RAM, as far as the machine has it (kernel/machine.c). */
    map((uintptr_t)__image_end, hive_machine.ram_end, PTE_R | PTE_W, 2);

    _Static_assert(HIVE_STACK_GUARD % PAGE_SIZE == 0, "guards are whole pages");
    _Static_assert(HIVE_IRQ_STACK_GUARD % PAGE_SIZE == 0, "guards are whole pages");
    for (unsigned core = 0; core < HIVE_MAX_CORES; core++) {
        for (uintptr_t off = 0; off < HIVE_STACK_GUARD; off += PAGE_SIZE)
            unmap_page((uintptr_t)hive_stacks[core] + off);
        for (uintptr_t off = 0; off < HIVE_IRQ_STACK_GUARD; off += PAGE_SIZE)
            unmap_page((uintptr_t)hive_irq_stacks[core] + off);
    }

    satp_value = SATP_SV39 | (uintptr_t)tables[0] >> PAGE_SHIFT;
}

void riscv_mmu_on(void)
{
    /* Before: our own stores to the tables (the boot hart wrote them) must
     * reach the page walker. After: no translation cached from before. */
    __asm__ volatile("sfence.vma" : : : "memory");
    csr_write(satp, satp_value);
    __asm__ volatile("sfence.vma" : : : "memory");
}
