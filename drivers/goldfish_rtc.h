/*
 * The goldfish RTC's alarm, as a device interrupt that software raises at
 * will (kernel/board.h, board_test_irq): an alarm time that has already
 * passed raises its level-triggered line at once, and clearing the
 * interrupt lowers it. QEMU virt riscv64's RTC.
 */
#ifndef HIVE_DRIVERS_GOLDFISH_RTC_H
#define HIVE_DRIVERS_GOLDFISH_RTC_H

#include <stdint.h>

struct goldfish_rtc_config {
    uintptr_t base;     /* the register block */
    unsigned irq;       /* its interrupt line (a PLIC source id) */
};

/* Arm an alarm at time 0, which has passed: the line asserts now. */
void goldfish_rtc_alarm_now(const struct goldfish_rtc_config *rtc);
/* From the handler: clear the interrupt, lowering the line. */
void goldfish_rtc_alarm_ack(const struct goldfish_rtc_config *rtc);

#endif
