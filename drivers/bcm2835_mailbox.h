/*
 * The VideoCore mailbox of the BCM2835 family (Raspberry Pi 1-4), property
 * channel: the ARM asks the GPU's firmware questions. hive asks one, how
 * much RAM the ARM has ("get ARM memory", tag 0x00010005), for boards whose
 * firmware hands over no device tree (board_machine, kernel/board.h).
 * QEMU's raspi machines answer it too.
 *
 * Works with the MMU and caches off (it runs at entry, before .bss is
 * cleared): the message lives on the caller's stack, every access is an
 * aligned word, and nothing is kept between calls.
 */
#ifndef HIVE_DRIVERS_BCM2835_MAILBOX_H
#define HIVE_DRIVERS_BCM2835_MAILBOX_H

#include <stdint.h>

struct bcm2835_mailbox_config {
    uintptr_t base;     /* mailbox 0's registers: 0x3F00B880 (Pi 2, 3), 0xFE00B880 (Pi 4) */
};

/* The ARM's RAM as the firmware says: 0 with *base and *size filled in, or
 * -1 (no answer within a bounded number of polls, or an error answer). */
int bcm2835_mailbox_arm_memory(const struct bcm2835_mailbox_config *mbox, uint32_t *base,
                               uint32_t *size);

#endif
