/* Where QEMU virt puts the GIC (hw/arm/virt.c's memory map). */
#include "arch/aarch64/gic.h"

const struct gic_map board_gic_map = {
    .dist = 0x08000000,     /* GICD, both versions */
    .cpu = 0x08010000,      /* GICC, GICv2 */
    .redist = 0x080a0000,   /* GICR, GICv3: 128 KiB per core */
};
