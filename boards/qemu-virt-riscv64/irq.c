/*
 * The PLIC as QEMU virt wires it.
 *
 * Contexts: QEMU virt gives each hart two PLIC contexts, M-mode then S-mode,
 * in hart order (hw/riscv/virt.c: "MS" per hart), so hart h's S-mode
 * context is 2h + 1.
 */
#include <stdint.h>

#include "arch/riscv64/plic.h"
#include "kernel/board.h"
#include "memmap.h"

const struct riscv_plic riscv_board_plic = {VIRT_PLIC, HIVE_IRQ_LINES};

unsigned riscv_board_plic_context(uintptr_t hart)
{
    return 2 * (unsigned)hart + 1;
}
