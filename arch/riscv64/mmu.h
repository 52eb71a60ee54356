/* Sv39 identity map, the same tables on every hart (see mmu.c). */
#ifndef HIVE_RISCV64_MMU_H
#define HIVE_RISCV64_MMU_H

#include <stdint.h>

/* Boot hart, MMU off: build the tables once. */
void riscv_mmu_init(void);
/* Every hart: switch to the tables riscv_mmu_init built. */
void riscv_mmu_on(void);

#endif
