/* The PLIC driver: see plic.h. Registers are 32 bits wide. */
#include "plic.h"

#include "kernel/kernel.h"
#include "hive/spinlock.h"

#define PRIORITY(src)       (4u * (src))
#define ENABLE(ctx, src)    (0x2000u + 0x80u * (ctx) + 4u * ((src) / 32))
#define THRESHOLD(ctx)      (0x200000u + 0x1000u * (ctx))
#define CLAIM(ctx)          (THRESHOLD(ctx) + 4)

/* Enable words are read-modify-written from any core (plic_route). */
static struct hive_spinlock route_lock = HIVE_SPINLOCK_INIT;

static volatile uint32_t *reg(uintptr_t off)
{
    return (volatile uint32_t *)(riscv_board_plic.base + off);
}

void plic_init(void)
{
    for (unsigned src = 1; src < riscv_board_plic.sources; src++)
        *reg(PRIORITY(src)) = 0;
}

void plic_init_context(unsigned ctx)
{
    for (unsigned src = 0; src < riscv_board_plic.sources; src += 32)
        *reg(ENABLE(ctx, src)) = 0;
    *reg(THRESHOLD(ctx)) = 0;   /* any priority above 0 gets through */
}

int plic_route(unsigned src, unsigned core, bool on)
{
    if (src == 0 || src >= riscv_board_plic.sources)
        return -1;
    unsigned long irq = hive_spin_lock(&route_lock);
    if (!on)
        *reg(PRIORITY(src)) = 0;    /* off first: no delivery while we edit */
    /* Exactly one context enabled, so exactly one hart claims it. */
    for (unsigned c = 0; c < hive_cpu_count(); c++) {
        volatile uint32_t *en = reg(ENABLE(riscv_board_plic_context(hive_cpus[c].hw_id), src));
        uint32_t bit = 1u << (src % 32);
        *en = on && c == core ? *en | bit : *en & ~bit;
    }
    if (on)
        *reg(PRIORITY(src)) = 1;
    hive_spin_unlock(&route_lock, irq);
    return 0;
}

unsigned plic_claim(unsigned ctx)
{
    return *reg(CLAIM(ctx));
}

void plic_complete(unsigned ctx, unsigned src)
{
    /* The handler's device writes (quieting a level-triggered line) reach
     * their device before the PLIC looks at the line again. */
    __asm__ volatile("fence o, o" : : : "memory");
    *reg(CLAIM(ctx)) = src;
}
