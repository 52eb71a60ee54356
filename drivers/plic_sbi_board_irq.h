/*
 * The board's interrupts are a PLIC's, and its doorbell an SBI IPI: a
 * RISC-V board under SBI firmware that says so defines board_plic (its
 * address, sources and each hart's S-mode context) and uses the driver
 * `plic_sbi_board_irq`, whose board_irq_* (kernel/board.h) are the PLIC
 * driver's calls and sbi_send_ipi (sent by one core at a time, which
 * rings for the others: the .c says why). The board's folder then holds no
 * forwarding code of its own.
 */
#ifndef HIVE_DRIVERS_PLIC_SBI_BOARD_IRQ_H
#define HIVE_DRIVERS_PLIC_SBI_BOARD_IRQ_H

#include "drivers/plic.h"

extern const struct plic_config board_plic;

#endif
