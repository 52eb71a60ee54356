/*
 * The RISC-V Platform-Level Interrupt Controller (PLIC spec 1.0) as a
 * board's interrupt controller (kernel/board.h): device lines to harts. It
 * carries device lines only; on riscv64 the doorbell (an SBI IPI) and the
 * timer are the hart's own. The register layout is the spec's; where the
 * PLIC is, how many sources it has and which context is a hart's S-mode
 * come from the board. One PLIC per image: plic_init remembers the
 * configuration.
 */
#ifndef HIVE_DRIVERS_PLIC_H
#define HIVE_DRIVERS_PLIC_H

#include <stdbool.h>
#include <stdint.h>

struct plic_config {
    uintptr_t base;
    unsigned sources;           /* source ids 1..sources-1 exist; 0 means "none" */
    /* The S-mode context of hart h is s_context[h], for harts 0..harts-1
     * (the device tree's interrupts-extended, in order). */
    const unsigned *s_context;
    unsigned harts;
};

/* Boot hart, once: every source at priority 0 (never delivered). */
void plic_init(const struct plic_config *cfg);
/* Every hart, for its own S-mode context: nothing enabled, threshold 0. */
void plic_init_cpu(unsigned core);
/* Enable source `src` for core `core` only (on), or for nobody. Returns 0,
 * or -1 if src is not a source of this PLIC. */
int plic_route(unsigned src, unsigned core, bool on);
/* Claim the highest-priority pending source of this core: returns it
 * (HIVE_IRQ_NONE if none), and in *src what plic_complete wants back. */
int plic_claim(uint32_t *src);
/* The handler of src is done: the PLIC may deliver it again. */
void plic_complete(uint32_t src);

#endif
