/*
 * RAM as the firmware says (kernel/machine.c), run under QEMU with RAM_MIB
 * of RAM for the ARM (-m, or rpi3's GPU memory; the board's tests.cmake):
 * the RAM found is QEMU's, the heap ends at min(RAM found, heap end as
 * linked) - below the device tree where QEMU put it inside that range -
 * and sbrk hands out memory up to there and no further, its end really
 * there (it is written; memory beyond the RAM found is not even mapped).
 */
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include "harness.h"
#include "hive/board.h"
#include "hive/hive.h"
#include "kernel/fdt.h"
#include "kernel/machine.h"

int main(void) { return hive_test_main(); }

#ifndef RAM_MIB
#error "RAM_MIB: the -m the test is run with, in MiB"
#endif

extern char __ram_end[], __heap_start[], __heap_end[], __image_start[], __image_end[];
/* kernel/machine.c (unistd.h hides it from strict C11). */
void *sbrk(ptrdiff_t incr);

static uintptr_t symbol(char *sym)
{
    uintptr_t v = (uintptr_t)sym;
    __asm__ volatile("" : "+r"(v));
    return v;
}

#define MIB (1ul << 20)
static const uintptr_t found_end = HIVE_BOARD_RAM_BASE + (uintptr_t)RAM_MIB * MIB;

HIVE_TEST(ram_found_is_qemus)
{
    printf("ram: found %llu MiB at %#llx; heap ends at %#lx, RAM mapped to %#lx\n",
           (unsigned long long)(hive_machine.ram_size / MIB),
           (unsigned long long)hive_machine.ram_base, (unsigned long)hive_machine.heap_end,
           (unsigned long)hive_machine.ram_end);
    CHECK_EQ(hive_machine.answer, 0);
    CHECK_EQ(hive_machine.ram_base, HIVE_BOARD_RAM_BASE);
    CHECK_EQ(hive_machine.ram_size, (uint64_t)RAM_MIB * MIB);
#ifdef RAM_FROM_MAILBOX
    /* rpi3 with no device tree: the VideoCore's answer, which counts no cores. */
    CHECK_EQ(hive_machine.dtb, 0u);
    CHECK_EQ(hive_machine.cores, -1);
#else
    CHECK_EQ(hive_machine.cores, hive_core_count());
#endif
}

HIVE_TEST(heap_ends_at_the_ram_found_or_as_linked)
{
    uintptr_t linked_heap = symbol(__heap_end), linked_ram = symbol(__ram_end);
    CHECK_EQ(hive_machine.ram_end, found_end < linked_ram ? found_end : linked_ram);
    uintptr_t want = found_end < linked_heap ? found_end : linked_heap;
    /* QEMU riscv64 puts the tree in the last MiBs of RAM: the heap stops
     * below it, and not far below the end. */
    if (hive_machine.dtb >= symbol(__image_end) && hive_machine.dtb < want) {
        CHECK(want - hive_machine.dtb <= 4 * MIB);
        want = hive_machine.dtb & ~(uintptr_t)4095;
    }
    CHECK_EQ(hive_machine.heap_end, want);
}

HIVE_TEST(sbrk_stops_at_the_heap_end)
{
    /* sbrk, which malloc grows the heap with, straight: malloc would
     * clear every block it hands out, and clearing hundreds of MiB under
     * emulation takes tens of seconds. The whole rest of the heap can be
     * had, its last byte is really there, and not one byte more. */
    char *brk = sbrk(0);
    CHECK(brk != (void *)-1);
    uintptr_t rest = hive_machine.heap_end - (uintptr_t)brk;
    CHECK(sbrk((intptr_t)rest + 1) == (void *)-1);
    CHECK(sbrk((intptr_t)rest) == brk);
    brk[rest - 1] = 1;                  /* memory that must exist */
    CHECK(sbrk(1) == (void *)-1);
    CHECK(sbrk(0) == brk + rest);
    CHECK(sbrk(-(intptr_t)rest) == brk + rest);
    CHECK(sbrk(0) == brk);
    printf("ram: sbrk gave the last %lu MiB, up to %#lx\n", (unsigned long)(rest >> 20),
           (unsigned long)((uintptr_t)brk + rest));
    /* And malloc, on top of it, still works. */
    char *p = malloc(1 << 20);
    CHECK(p != NULL);
    free(p);
}

/* What the firmware keeps for itself (the tree's reservation block and
 * /reserved-memory: on riscv64, OpenSBI's own region) overlaps neither the
 * heap nor the image. */
struct kept {
    unsigned regions, in_heap, in_image;
};

static void check_kept(uint64_t base, uint64_t size, void *ctx)
{
    struct kept *k = ctx;
    uint64_t end = base + size;
    printf("ram: the firmware keeps %#llx-%#llx\n", (unsigned long long)base,
           (unsigned long long)(end - 1));
    k->regions++;
    k->in_heap += base < hive_machine.heap_end && end > symbol(__heap_start);
    k->in_image += base < symbol(__image_end) && end > symbol(__image_start);
}

HIVE_TEST(firmware_reservations_stay_out_of_the_heap)
{
    /* rpi3's mailbox answer: no tree, no reservations known. And a tree
     * outside the RAM this image maps (below it: QEMU virt aarch64 puts it
     * at the start of RAM; above it: -m beyond what it was linked for) was
     * read at entry, with the MMU off, and cannot be read again now. */
    if (!hive_machine.dtb || hive_machine.dtb < symbol(__image_start) ||
        hive_machine.dtb + hive_machine.dtb_size > hive_machine.ram_end)
        HIVE_SKIP("no device tree this image can read now");
    struct hive_fdt fdt;
    CHECK_EQ(hive_fdt_open(&fdt, (const void *)hive_machine.dtb, hive_machine.dtb_size), HIVE_FDT_OK);
    struct kept k = {0};
    CHECK_EQ(hive_fdt_reserved(&fdt, check_kept, &k), (int)k.regions);
#ifdef __riscv
    CHECK(k.regions > 0); /* OpenSBI reserves the memory it runs from */
#endif
    CHECK_EQ(k.in_heap, 0u);
    CHECK_EQ(k.in_image, 0u);
    CHECK_EQ(hive_machine.image_reserved_size, 0u);
}
