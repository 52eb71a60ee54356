/*
 * The PLIC as QEMU virt wires it, and the test interrupt source.
 *
 * Contexts: QEMU virt gives each hart two PLIC contexts, M-mode then S-mode,
 * in hart order (hw/riscv/virt.c: "MS" per hart), so hart h's S-mode
 * context is 2h + 1.
 *
 * The test source is the goldfish RTC's alarm: writing an alarm time that
 * has already passed raises its level-triggered line at once, and clearing
 * the interrupt lowers it - a device interrupt software can fire at will.
 */
#include <stdint.h>

#include "arch/riscv64/plic.h"
#include "kernel/platform.h"
#include "memmap.h"

const struct riscv_plic riscv_board_plic = {VIRT_PLIC, HIVE_IRQ_LINES};

unsigned riscv_board_plic_context(uintptr_t hart)
{
    return 2 * (unsigned)hart + 1;
}

/* goldfish RTC registers (32-bit). */
#define RTC_ALARM_LOW       0x08    /* writing it arms the alarm */
#define RTC_ALARM_HIGH      0x0c
#define RTC_IRQ_ENABLED     0x10
#define RTC_CLEAR_INTERRUPT 0x1c

static volatile uint32_t *rtc(unsigned off)
{
    return (volatile uint32_t *)(VIRT_RTC + off);
}

int board_test_irq(void)
{
    return VIRT_RTC_IRQ;
}

void board_test_irq_raise(void)
{
    *rtc(RTC_IRQ_ENABLED) = 1;
    *rtc(RTC_ALARM_HIGH) = 0;
    *rtc(RTC_ALARM_LOW) = 0;    /* time 0 has passed: the alarm fires now */
}

void board_test_irq_ack(void)
{
    *rtc(RTC_CLEAR_INTERRUPT) = 1;
}
