/*
 * How much RAM the machine has, and how many cores, as its firmware says;
 * and the heap that follows from it (sbrk, which picolibc's malloc calls).
 *
 * The image is linked for memory.ld's RAM, but a machine may have less (a
 * QEMU run with a smaller -m, a board variant with less memory): handing
 * out heap up to the linked end would give tasks memory that does not
 * exist. So the boot core asks the board at entry (board_machine: the
 * device tree by default), and hive uses min(RAM found, RAM linked). An
 * image whose own end (.bss and every stack included) lies beyond the RAM
 * found cannot even clear its .bss: it stops there with one line.
 *
 * hive_machine_probe runs before .bss is cleared and with the MMU off, so
 * this file writes only hive_machine (in .data), formats its one panic line
 * by hand, prints through the emergency console (which keeps no state) and
 * is built with -mstrict-align on aarch64 (kernel/CMakeLists.txt).
 */
#include <errno.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "kernel/board.h"
#include "kernel/fdt.h"
#include "kernel/kernel.h"
#include "kernel/machine.h"

/* memory.ld and arch/<arch>/image.ld. */
extern char __ram_start[], __ram_end[], __image_start[], __image_end[];
extern char __heap_start[], __heap_end[];

/* .data, not .bss: written before .bss is cleared, and the clear must not
 * undo it. */
struct hive_machine hive_machine __attribute__((section(".data.hive_machine")));
char hive_machine_probe_stack[HIVE_MACHINE_PROBE_STACK]
    __attribute__((section(".data.hive_machine_probe_stack"), aligned(16)));

/* A device tree is far smaller; the bound only keeps a corrupt header from
 * declaring blocks across the address space. */
#define DTB_MAX_SIZE (4u << 20)

/* A linker symbol's value, hidden from the optimiser (rpi3's RAM starts at
 * 0, and an object's address is never 0 to the compiler). */
static uintptr_t symbol(char *sym)
{
    uintptr_t v = (uintptr_t)sym;
    __asm__ volatile("" : "+r"(v));
    return v;
}

struct core_count {
    int counted;
};

static void count_core(uint64_t hw_id, void *ctx)
{
    struct core_count *c = ctx;
    uintptr_t highest = 0;
    for (unsigned i = 0; i < board_core_hw_id_count; i++) {
        if (board_core_hw_ids[i] == hw_id) {
            c->counted++;
            return;
        }
        if (board_core_hw_ids[i] > highest)
            highest = board_core_hw_ids[i];
    }
    /* Not listed: a core the board leaves out on purpose (below its highest
     * id: the HiFive's E51), or one more than the board foresees. */
    if (hw_id > highest)
        c->counted++;
}

/* Where the firmware's reservations meet the image and the heap. */
static void note_reserved(uint64_t base, uint64_t size, void *ctx)
{
    struct board_machine *m = ctx;
    uint64_t end = base + size < base ? UINT64_MAX : base + size;
    uint64_t heap_start = symbol(__heap_start);
    if (end > heap_start) {
        uint64_t limit = base > heap_start ? base : heap_start; /* covering the start: no heap */
        if (limit < m->heap_limit)
            m->heap_limit = limit;
    }
    if (!m->image_reserved_size && base < symbol(__image_end) && end > symbol(__image_start)) {
        m->image_reserved_base = base;
        m->image_reserved_size = size;
    }
}

int hive_machine_from_devicetree(uintptr_t dtb, struct board_machine *m)
{
    struct hive_fdt fdt;
    int err = hive_fdt_open(&fdt, (const void *)dtb, DTB_MAX_SIZE);
    if (err)
        return err;
    err = hive_fdt_memory(&fdt, symbol(__image_start), &m->ram_base, &m->ram_size);
    if (err)
        return err;
    struct core_count c = {0};
    m->cores = hive_fdt_cpus(&fdt, count_core, &c) >= 0 ? c.counted : -1;
    /* A tree whose reservations cannot be read has none we know of: its RAM
     * and cores were readable, and they are what the boot depends on. */
    (void)hive_fdt_reserved(&fdt, note_reserved, m);
    m->dtb = dtb;
    m->dtb_size = fdt.size;
    return 0;
}

/* The firmware hands the device tree's address to the boot core. */
__attribute__((weak)) int board_machine(uintptr_t boot_arg, struct board_machine *m)
{
    return hive_machine_from_devicetree(boot_arg, m);
}

/* ---- the one line of a machine too small, without printf ---- */

static char *put_str(char *p, char *end, const char *s)
{
    while (*s && p < end)
        *p++ = *s++;
    return p;
}

static char *put_dec(char *p, char *end, uint64_t v)
{
    char d[20];
    unsigned n = 0;
    do
        d[n++] = (char)('0' + v % 10);
    while ((v /= 10) && n < sizeof d);
    while (n && p < end)
        *p++ = d[--n];
    return p;
}

static char *put_hex(char *p, char *end, uint64_t v)
{
    char d[16];
    unsigned n = 0;
    do
        d[n++] = "0123456789abcdef"[v & 15];
    while ((v >>= 4) && n < sizeof d);
    p = put_str(p, end, "0x");
    while (n && p < end)
        *p++ = d[--n];
    return p;
}

/* "N MiB", or "N KiB" for a size that is no whole number of MiB. */
static char *put_size(char *p, char *end, uint64_t bytes)
{
    if (bytes % (1u << 20) == 0)
        return put_str(put_dec(p, end, bytes >> 20), end, " MiB");
    return put_str(put_dec(p, end, (bytes + 1023) >> 10), end, " KiB");
}

static noreturn void too_small(uint64_t base, uint64_t size, uintptr_t image_end)
{
    char line[200], *p = line, *end = line + sizeof line - 2;
    p = put_str(p, end, "RAM is ");
    p = put_size(p, end, size);
    p = put_str(p, end, " at ");
    p = put_hex(p, end, base);
    p = put_str(p, end, ", image linked for ");
    p = put_size(p, end, symbol(__ram_end) - symbol(__ram_start));
    p = put_str(p, end, " needs ");
    p = put_size(p, end, image_end - base);
    p = put_str(p, end, " (up to ");
    p = put_hex(p, end, image_end);
    p = put_str(p, end, ")");
    *p++ = '\n';
    *p = '\0';
    board_console_init();
    hive_console_emergency_panic(0, line);
    board_exit(1);
}

void hive_machine_probe(uintptr_t boot_arg)
{
    struct hive_machine *h = &hive_machine;
    uintptr_t image_end = symbol(__image_end);
    h->ram_end = symbol(__ram_end);
    h->heap_end = symbol(__heap_end);
    h->cores = -1;

    struct board_machine m = {.cores = -1, .heap_limit = UINT64_MAX};
    h->answer = board_machine(boot_arg, &m);
    if (h->answer != 0)
        return;
    h->ram_base = m.ram_base;
    h->ram_size = m.ram_size;
    h->cores = m.cores;
    h->dtb = m.dtb;
    h->dtb_size = m.dtb_size;

    uint64_t found_end = m.ram_base + m.ram_size;
    if (found_end < m.ram_base)
        found_end = UINT64_MAX;     /* a region to the top of the address space */
    if (found_end < image_end)
        too_small(m.ram_base, m.ram_size, image_end);
    if (found_end < h->ram_end)
        h->ram_end = (uintptr_t)found_end;
    if (h->ram_end < h->heap_end)
        h->heap_end = h->ram_end;
    /* A device tree in the heap's way (QEMU riscv64 puts it near the end of
     * RAM) stays whole: the heap stops below it. */
    if (m.dtb >= image_end && m.dtb < h->heap_end)
        h->heap_end = m.dtb & ~(uintptr_t)4095;
    /* Nor does it grow into memory the firmware keeps (OpenSBI's own region,
     * a frame buffer, a Pi's armstub): malloc fails there instead. */
    if (m.heap_limit < h->heap_end)
        h->heap_end = (uintptr_t)m.heap_limit;
    h->image_reserved_base = m.image_reserved_base;
    h->image_reserved_size = m.image_reserved_size;
}

/* ---- the heap: picolibc's malloc grows it through sbrk ---- */

/* Called with malloc's lock held (kernel/libc_locks.c), so one at a time. */
void *sbrk(ptrdiff_t incr)
{
    static uintptr_t brk;
    if (!brk)
        brk = symbol(__heap_start);
    uintptr_t start = symbol(__heap_start), limit = hive_machine.heap_end;
    if (incr < 0 ? (uintptr_t)-incr > brk - start : (uintptr_t)incr > limit - brk) {
        errno = ENOMEM;
        return (void *)-1;
    }
    void *old = (void *)brk;
    brk += (uintptr_t)incr;
    return old;
}

/* ---- what the console says once the cores are up ---- */

static const char *why_linked(int answer)
{
    switch (answer) {
    case HIVE_FDT_ENOTREE: return "no device tree from the firmware";
    case HIVE_FDT_ECORRUPT: return "the device tree is corrupt";
    case HIVE_FDT_ENOTFOUND: return "the device tree lists no RAM that holds the image";
    default: return "the firmware did not say";
    }
}

void hive_machine_report(unsigned cores_running)
{
    if (hive_machine.answer != 0)
        printf("hive: RAM is taken as linked (%lu MiB at 0x%lx): %s\n",
               (unsigned long)((symbol(__ram_end) - symbol(__ram_start)) >> 20),
               (unsigned long)symbol(__ram_start), why_linked(hive_machine.answer));
    if (hive_machine.image_reserved_size)
        printf("hive: the firmware reserves 0x%llx-0x%llx, inside this image (0x%lx-0x%lx): load it "
               "elsewhere, or the firmware may overwrite it\n",
               (unsigned long long)hive_machine.image_reserved_base,
               (unsigned long long)(hive_machine.image_reserved_base + hive_machine.image_reserved_size - 1),
               (unsigned long)symbol(__image_start), (unsigned long)symbol(__image_end) - 1);
    if (hive_machine.cores > 0 && (unsigned)hive_machine.cores > cores_running)
        printf("hive: %d cores found, this image runs %u\n", hive_machine.cores, cores_running);
}
