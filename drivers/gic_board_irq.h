/*
 * The board's interrupts are the GIC's: a board that says so defines
 * board_gic (its addresses and timer interrupt) and uses the driver
 * `gic_board_irq`, whose board_irq_* (kernel/board.h) are the GIC driver's
 * calls, the doorbell an SGI. The board's folder then holds no forwarding
 * code of its own.
 */
#ifndef HIVE_DRIVERS_GIC_BOARD_IRQ_H
#define HIVE_DRIVERS_GIC_BOARD_IRQ_H

#include "drivers/gic/gic.h"

extern const struct gic_config board_gic;

#endif
