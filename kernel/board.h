/*
 * What a board provides: everything kernel/ and arch/ need to know about one
 * machine, and the only way they reach it. boards/<board>/ implements this
 * header and nothing else; boards/README.md is the porting guide.
 *
 * Besides the functions below, a board's folder holds:
 *   board.cmake     HIVE_ARCH (a folder under arch/), HIVE_MAX_CORES (the most
 *                   cores the board can have: it sizes every per-core array),
 *                   HIVE_IRQ_LINES (device lines, if fewer than 1024), and the
 *                   arch's options for this board (riscv64: HIVE_TIMEBASE_HZ,
 *                   HIVE_RISCV_SSTC), and HIVE_RAW_IMAGE if its firmware
 *                   loads a raw binary (NAME.img beside every NAME.elf)
 *   memory.ld       RAM and where the image goes (the memory map, below)
 *   CMakeLists.txt  the board's sources, and the drivers it uses
 *   qemu            the QEMU command line: qemu IMAGE CORES [QEMU ARGS...]
 *   presets.json    its CMake presets; packages: the Debian packages it needs
 *   tests.cmake     (optional) test runs and images of its own
 * and CMakePresets.json's include list names it, one line: the only place
 * outside the folder that a new board touches.
 *
 * Boards and drivers may use kernel/kernel.h (hive_cpus[].hw_id, hive_panic,
 * the emergency console), arch_secondary_entry / arch_halt / arch_counter
 * (kernel/platform.h), and a board of one arch that arch's own headers for
 * what only it knows (riscv64's mmode.h); a board's functions are wiring - a
 * driver from drivers/ and its configuration.
 */
#ifndef HIVE_KERNEL_BOARD_H
#define HIVE_KERNEL_BOARD_H

#include <stdbool.h>
#include <stdint.h>
#include <stdnoreturn.h>

/* ---- memory map ------------------------------------------------------------- */

/*
 * RAM, and where in it the image goes, are linker symbols from the board's
 * memory.ld: __ram_start, __ram_end, __image_start, __heap_end. The device
 * regions below are what the MMU maps for the board's drivers (read-write,
 * never executable, device memory); nothing else outside RAM is mapped.
 */
struct board_region {
    uintptr_t base;
    uintptr_t size;
};
extern const struct board_region board_mmio[];
extern const unsigned board_mmio_count;

/* ---- what the machine has: RAM and cores, as its firmware says ---------------- */

/*
 * memory.ld says how much RAM the image is linked for; the machine may have
 * less (QEMU's -m) or more. At entry the boot core asks the board what the
 * firmware says, and hive then uses min(RAM found, RAM linked): the heap and
 * the MMU's map end there, and an image that does not fit stops with one
 * line (kernel/machine.c).
 */
struct board_machine {
    uint64_t ram_base, ram_size;    /* the RAM region that holds the image */
    int cores;                      /* cores hive could run on; -1: not known */
    uintptr_t dtb;                  /* the device tree read, if one: the heap */
    uint32_t dtb_size;              /* keeps out of it */
    /* Memory the firmware keeps for itself (a device tree's reservations):
     * the heap ends at heap_limit, the lowest address of such memory at or
     * above the heap's start (UINT64_MAX: none); and the first reserved
     * region that overlaps the image itself, if any (size 0: none). */
    uint64_t heap_limit;
    uint64_t image_reserved_base, image_reserved_size;
};
/*
 * Fill in *m from what the firmware says; boot_arg is what the firmware
 * handed the boot core (riscv64: a1, aarch64: x0). Returns 0, or a negative
 * hive_fdt_err (kernel/fdt.h) when there is no usable answer: RAM is then
 * taken as linked, and the kernel says so once.
 *
 * Called once, on the boot core at entry, before .bss is cleared (it may lie
 * beyond the RAM there is) and with the MMU off (aarch64: memory is Device,
 * aligned accesses only), on a small stack: no console, no libc, no .bss.
 *
 * The choice is the board's. kernel/machine.c's default (a weak definition)
 * reads the device tree at boot_arg, which is what OpenSBI and the Raspberry
 * Pi firmware hand over; a board whose firmware puts it elsewhere (QEMU virt
 * aarch64: at the start of RAM), or answers another way (a mailbox), defines
 * its own, and may use hive_machine_from_devicetree for a tree it found.
 */
int board_machine(uintptr_t boot_arg, struct board_machine *m);
/* kernel/machine.c: *m from the device tree at dtb (0: none). Counts the
 * CPUs whose hardware id the board lists, and those beyond the board's
 * highest listed id (more cores than the board foresees); a CPU the board
 * leaves out below that (a monitor hart) is not counted. */
int hive_machine_from_devicetree(uintptr_t dtb, struct board_machine *m);

/* ---- console --------------------------------------------------------------- */

/* Set up the console device. Called once by the boot core before anything is
 * printed, and by the arch entry with the MMU off when it cannot run hive
 * (then nothing else is set up: the device must work polled, from scratch). */
void board_console_init(void);
/* Polled, unlocked output of one byte; kernel/console.c does the locking. */
void board_console_putc(char c);

/* ---- cores ------------------------------------------------------------------ */

/*
 * How cores are numbered: the hardware id (aarch64: MPIDR affinity, Aff3 at
 * bit 32 as MPIDR_EL1 has it; riscv64: hart id) of every core the board may
 * have that hive should run on, in the order logical ids are handed out.
 * The boot core, wherever it is in the list, is core 0; the others that
 * start get 1, 2, ... densely, up to HIVE_MAX_CORES in all. Listing a core
 * that is absent on some configurations is fine (QEMU's -smp): it fails to
 * start and is skipped. A core hive must never run on (a monitor hart
 * without S-mode) is left out.
 */
extern const uintptr_t board_core_hw_ids[];
extern const unsigned board_core_hw_id_count;
/*
 * Start the core with hardware id hw_id at arch_secondary_entry, handing it
 * its logical id. Returns 0 if it was started, -1 if it is absent (or could
 * not be started: then say why on stdout first). hive_cpus[id].hw_id is set
 * and published before the call.
 */
int board_start_core(uintptr_t hw_id, unsigned id);

/* ---- exit ------------------------------------------------------------------- */

/* Power off, handing status to whoever launched the board (QEMU's exit code).
 * Called with the MMU on or off, from any core, interrupts masked or not. */
noreturn void board_exit(int status);

/* ---- interrupt controller ----------------------------------------------------- */

/* Canonical interrupt sources: a device line is its controller's own number
 * (PLIC source id; GIC INTID, SPIs from 32), always >= 0. */
#define HIVE_IRQ_DOORBELL (-1)  /* the wake IPI (SBI IPI: SSIP; GIC SGI) */
#define HIVE_IRQ_TIMER    (-2)  /* this core's one-shot timer (arch_timer_set) */
#define HIVE_IRQ_NONE     (-3)  /* board_irq_claim: nothing (more) is pending */

/*
 * The controller that brings device lines to the cores, and the doorbell
 * that wakes one core. Every call is made with interrupts masked on the
 * calling core.
 */
/* Boot core, once, before any other core starts: the controller's shared
 * state; every device line off. */
void board_irq_init(void);
/* Every core, for itself (logical id core, hive_cpus[core].hw_id set): its
 * part of the controller; the doorbell, and the per-core timer's line where
 * the controller carries it (aarch64), enabled. */
void board_irq_init_cpu(unsigned core);
/* Enable (on) or disable device line `line`, delivered to `core` only.
 * Returns 0, or -1 if line is not a device line the controller can route. */
int board_irq_route(unsigned line, unsigned core, bool on);
/* Raise HIVE_IRQ_DOORBELL on exactly `core` (never a broadcast), after the
 * caller's earlier stores are visible to it. Stays pending while the core
 * has interrupts masked, and then still ends a WFI. */
void board_irq_doorbell(unsigned core);
/* From the arch's interrupt path: claim the next pending interrupt of this
 * core, returning its canonical source (HIVE_IRQ_NONE: none), and in *claim
 * what board_irq_complete wants back once the kernel has handled it. */
int board_irq_claim(uint32_t *claim);
void board_irq_complete(uint32_t claim);

/* ---- test interrupt ------------------------------------------------------------ */

/*
 * A device interrupt that software can raise again and again, for tests of
 * the device path (QEMU virt riscv64: the goldfish RTC's alarm). Returns its
 * line, or -1 if the board has none. raise: make it fire soon, once; ack:
 * from its handler, quiet the device (before the arch completes the line).
 */
int board_test_irq(void);
void board_test_irq_raise(void);
void board_test_irq_ack(void);

#endif
