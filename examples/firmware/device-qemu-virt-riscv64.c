/*
 * QEMU virt riscv64: the goldfish RTC at 0x101000, PLIC source 11. Its
 * alarm set to time 0 (long past) interrupts at once; clearing the
 * interrupt quiets it.
 */
#include <stdint.h>

#include "device.h"

#define RTC_BASE 0x101000ul
#define RTC_IRQ 11u

#define RTC_ALARM_LOW 0x08 /* writing it arms the alarm */
#define RTC_ALARM_HIGH 0x0c
#define RTC_IRQ_ENABLED 0x10
#define RTC_CLEAR_INTERRUPT 0x1c

static volatile uint32_t *reg(unsigned off)
{
    return (volatile uint32_t *)(RTC_BASE + off);
}

unsigned device_init(void)
{
    *reg(RTC_CLEAR_INTERRUPT) = 1;
    return RTC_IRQ;
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
