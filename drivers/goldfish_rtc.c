/* The goldfish RTC's alarm: see goldfish_rtc.h. Registers are 32 bits. */
#include "drivers/goldfish_rtc.h"

#define RTC_ALARM_LOW       0x08    /* writing it arms the alarm */
#define RTC_ALARM_HIGH      0x0c
#define RTC_IRQ_ENABLED     0x10
#define RTC_CLEAR_INTERRUPT 0x1c

static volatile uint32_t *reg(const struct goldfish_rtc_config *rtc, unsigned off)
{
    return (volatile uint32_t *)(rtc->base + off);
}

void goldfish_rtc_alarm_now(const struct goldfish_rtc_config *rtc)
{
    *reg(rtc, RTC_IRQ_ENABLED) = 1;
    *reg(rtc, RTC_ALARM_HIGH) = 0;
    *reg(rtc, RTC_ALARM_LOW) = 0;   /* time 0 has passed: the alarm fires now */
}

void goldfish_rtc_alarm_ack(const struct goldfish_rtc_config *rtc)
{
    *reg(rtc, RTC_CLEAR_INTERRUPT) = 1;
}
