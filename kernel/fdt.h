/*
 * A reader of flattened device trees (the DTB a firmware hands over): just
 * enough to learn what the machine has - the RAM region that holds an
 * address, and the CPUs. Portable C with no libc: it also runs at entry,
 * before .bss is cleared, with the MMU off (aarch64: Device memory, so it
 * reads one byte at a time and never assumes alignment).
 *
 * Every read is checked against the blob's own header and the size the
 * caller says it may read: a corrupt, truncated or absent tree is an error
 * code, never a read outside those bounds or a loop without end.
 */
#ifndef HIVE_KERNEL_FDT_H
#define HIVE_KERNEL_FDT_H

#include <stddef.h>
#include <stdint.h>

enum hive_fdt_err {
    HIVE_FDT_OK = 0,
    HIVE_FDT_ENOTREE = -1,   /* no device tree there: null, or no FDT magic */
    HIVE_FDT_ECORRUPT = -2,  /* a header or structure that breaks the format */
    HIVE_FDT_ENOTFOUND = -3, /* a well-formed tree without what was asked */
};

/* An opened tree: offsets and sizes from its header, all checked. */
struct hive_fdt {
    const unsigned char *blob;
    uint32_t size;           /* totalsize */
    uint32_t struct_off, struct_size;
    uint32_t strings_off, strings_size;
    uint32_t rsvmap_off;
};

/* Open the tree at blob, of which at most avail bytes may be read. */
int hive_fdt_open(struct hive_fdt *fdt, const void *blob, size_t avail);

/* The region of a /memory node's reg that holds addr: *base and *size.
 * (Root #address-cells and #size-cells as the tree says, 2 and 1 if not.) */
int hive_fdt_memory(const struct hive_fdt *fdt, uint64_t addr, uint64_t *base, uint64_t *size);

/* Calls fn(hw_id, ctx) for each CPU of /cpus that is not disabled, in tree
 * order (hw_id: its reg's first address - the hart id, or MPIDR affinity),
 * and returns how many there were (>= 0), or an error. A CPU without a
 * readable reg is counted with hw_id UINT64_MAX. */
int hive_fdt_cpus(const struct hive_fdt *fdt, void (*fn)(uint64_t hw_id, void *ctx), void *ctx);

/* Calls fn(base, size, ctx) for each region of memory the firmware keeps for
 * itself: the entries of the memory reservation block, then the reg regions
 * of /reserved-memory's nodes that are not disabled (a node with no reg, to
 * be placed by the OS, has no address yet and is not one). Returns how many
 * regions of non-zero size there were (>= 0), or an error. */
int hive_fdt_reserved(const struct hive_fdt *fdt,
                      void (*fn)(uint64_t base, uint64_t size, void *ctx), void *ctx);

#endif
