/* QEMU 7.2 virt's device addresses (hw/riscv/virt.c, virt_memmap). */
#ifndef HIVE_QEMU_VIRT_RISCV64_MEMMAP_H
#define HIVE_QEMU_VIRT_RISCV64_MEMMAP_H

#define VIRT_TEST   0x00100000ul    /* SiFive test finisher */
#define VIRT_RTC    0x00101000ul    /* goldfish RTC */
#define VIRT_CLINT  0x02000000ul
#define VIRT_PLIC   0x0c000000ul
#define VIRT_UART0  0x10000000ul    /* NS16550A */

/* PLIC source ids (hw/riscv/virt.h). */
#define VIRT_UART0_IRQ  10
#define VIRT_RTC_IRQ    11

#endif
