/*
 * What the machine has (RAM, cores), as the firmware said at entry, and
 * what hive made of it: where RAM and the heap end. kernel/machine.c.
 */
#ifndef HIVE_KERNEL_MACHINE_H
#define HIVE_KERNEL_MACHINE_H

#include <stdbool.h>
#include <stdint.h>

struct hive_machine {
    int answer;                 /* board_machine's result: 0, or why RAM is taken as linked */
    uint64_t ram_base, ram_size;    /* as found (answer == 0) */
    int cores;                  /* as found; -1: not known */
    uintptr_t dtb;              /* the device tree the answer came from, or 0 */
    uint32_t dtb_size;
    uintptr_t ram_end;          /* min(end found, end linked): the MMU maps no further */
    uintptr_t heap_end;         /* min(that, memory.ld's __heap_end), below a device tree
                                 * and below memory the firmware reserves */
    uint64_t image_reserved_base, image_reserved_size; /* reserved inside the image (size 0: none) */
};
/* Set by hive_machine_probe; read-only afterwards. */
extern struct hive_machine hive_machine;

/*
 * The arch entry calls this on the boot core before it clears .bss and
 * turns the MMU on, on a stack of its own (hive_machine_probe_stack): it
 * asks the board (board_machine), and if RAM is smaller than the image
 * (text, data, .bss with every stack) it prints
 *   panic: core 0: RAM is X MiB at 0x..., image linked for Y MiB needs Z MiB ...
 * and stops with status 1. Everything it writes lies in .data.
 */
void hive_machine_probe(uintptr_t boot_arg);
#define HIVE_MACHINE_PROBE_STACK 4096
extern char hive_machine_probe_stack[HIVE_MACHINE_PROBE_STACK];

/* kernel/boot.c, once the console works: RAM taken as linked, or more cores
 * found than run, each in one line. */
void hive_machine_report(unsigned cores_running);

#endif
