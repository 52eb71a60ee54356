/*
 * The RISC-V Platform-Level Interrupt Controller (PLIC spec 1.0): device
 * lines to harts. The register layout is the spec's; where the PLIC is, how
 * many sources it has and which context is a hart's S-mode come from the
 * board.
 */
#ifndef HIVE_RISCV64_PLIC_H
#define HIVE_RISCV64_PLIC_H

#include <stdbool.h>
#include <stdint.h>

struct riscv_plic {
    uintptr_t base;
    unsigned sources;   /* source ids 1..sources-1 exist; 0 means "none" */
};
extern const struct riscv_plic riscv_board_plic;
/* The PLIC context of hart `hart` in S-mode. */
unsigned riscv_board_plic_context(uintptr_t hart);

/* Boot hart, once: every source at priority 0 (never delivered). */
void plic_init(void);
/* Every hart, for its own context: nothing enabled, threshold 0. */
void plic_init_context(unsigned ctx);
/* Enable source `src` for core `core` only (on), or for nobody. Returns 0,
 * or -1 if src is not a source of this PLIC. */
int plic_route(unsigned src, unsigned core, bool on);
/* Claim the highest-priority pending source of ctx (0: none), and signal
 * that its handler is done. */
unsigned plic_claim(unsigned ctx);
void plic_complete(unsigned ctx, unsigned src);

#endif
