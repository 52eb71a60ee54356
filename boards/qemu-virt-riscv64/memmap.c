/* What arch/riscv64/mmu.c must map for this board's drivers and firmware. */
#include "arch/riscv64/mmu.h"
#include "memmap.h"

const struct riscv_mmio riscv_board_mmio[] = {
    {VIRT_TEST, 0x1000},
    {VIRT_RTC, 0x1000},
    {VIRT_CLINT, 0x10000},
    {VIRT_PLIC, 0x600000},  /* sized for QEMU's maximum hart count */
    {VIRT_UART0, 0x1000},
};
const unsigned riscv_board_mmio_count = sizeof riscv_board_mmio / sizeof riscv_board_mmio[0];
