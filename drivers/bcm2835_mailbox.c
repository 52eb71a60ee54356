/*
 * BCM2835 VideoCore mailbox, property channel (8). The message is a buffer
 * of 32-bit words, 16-byte aligned, whose address (its low 4 bits the
 * channel) is written to mailbox 1's write register - the one the GPU
 * reads - once it is not full; the answer comes back through mailbox 0's
 * read register, once it is not empty, as the same address and channel,
 * with the buffer rewritten in place.
 *
 * The address is the ARM's physical one: with the ARM's caches off (hive
 * asks before the MMU is on) the GPU reads and writes the same memory.
 */
#include "drivers/bcm2835_mailbox.h"

#include <stdbool.h>

#define MBOX0_READ    0x00
#define MBOX0_STATUS  0x18
#define MBOX1_WRITE   0x20
#define MBOX1_STATUS  0x38
#define STATUS_FULL   (1u << 31)
#define STATUS_EMPTY  (1u << 30)

#define CHANNEL_PROPERTY 8u
#define REQUEST          0x00000000u
#define RESPONSE_OK      0x80000000u
#define TAG_ARM_MEMORY   0x00010005u
#define TAG_RESPONSE     0x80000000u   /* set in the tag's code by the firmware */

/* A firmware that never answers (no GPU, another machine) ends the wait. */
#define POLLS 10000000u

static volatile uint32_t *reg(const struct bcm2835_mailbox_config *mbox, uintptr_t off)
{
    return (volatile uint32_t *)(mbox->base + off);
}

static bool wait_clear(const struct bcm2835_mailbox_config *mbox, uintptr_t status, uint32_t bit)
{
    for (uint32_t i = 0; i < POLLS; i++)
        if (!(*reg(mbox, status) & bit))
            return true;
    return false;
}

int bcm2835_mailbox_arm_memory(const struct bcm2835_mailbox_config *mbox, uint32_t *base,
                               uint32_t *size)
{
    /* size, code, tag, value buffer size, tag code, base, size, end tag */
    volatile uint32_t msg[8] __attribute__((aligned(16))) = {
        sizeof msg, REQUEST, TAG_ARM_MEMORY, 8, 0, 0, 0, 0};
    uintptr_t addr = (uintptr_t)msg;
    if (addr >> 32 || addr & 15)
        return -1;   /* the mailbox carries 28 bits of a 32-bit address */
    /* The message is in memory before the GPU is told where it is. */
    __asm__ volatile("dsb sy" : : : "memory");
    if (!wait_clear(mbox, MBOX1_STATUS, STATUS_FULL))
        return -1;
    *reg(mbox, MBOX1_WRITE) = (uint32_t)addr | CHANNEL_PROPERTY;
    for (uint32_t i = 0; i < POLLS; i++) {
        if (!wait_clear(mbox, MBOX0_STATUS, STATUS_EMPTY))
            return -1;
        uint32_t got = *reg(mbox, MBOX0_READ);
        if (got != ((uint32_t)addr | CHANNEL_PROPERTY))
            continue;   /* another channel's answer, or another message's */
        /* The GPU's writes to the message before our reads of it. */
        __asm__ volatile("dsb sy" : : : "memory");
        if (msg[1] != RESPONSE_OK || !(msg[4] & TAG_RESPONSE) || (msg[4] & ~TAG_RESPONSE) < 8)
            return -1;
        *base = msg[5];
        *size = msg[6];
        return 0;
    }
    return -1;
}
