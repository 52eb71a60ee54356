/*
 * QEMU virt riscv64: the goldfish RTC (its address and PLIC source from
 * hive/board.h). Its
 * alarm set to time 0 (long past) interrupts at once; clearing the
 * interrupt quiets it.
 */
#include <stdint.h>

#include "device.h"
#include "hive/board.h"

#define RTC_ALARM_LOW 0x08 /* writing it arms the alarm */
#define RTC_ALARM_HIGH 0x0c
#define RTC_IRQ_ENABLED 0x10
#define RTC_CLEAR_INTERRUPT 0x1c

static volatile uint32_t *reg(unsigned off)
{
    return (volatile uint32_t *)(HIVE_BOARD_RTC_BASE + off);
}

unsigned device_init(void)
{
    *reg(RTC_CLEAR_INTERRUPT) = 1;
    return HIVE_BOARD_RTC_IRQ;
}

void device_raise(void)
{
    *reg(RTC_IRQ_ENABLED) = 1;
    *reg(RTC_ALARM_HIGH) = 0;
    *reg(RTC_ALARM_LOW) = 0;
}

void device_ack(void)
{
    *reg(RTC_CLEAR_INTERRUPT) = 1;
}
