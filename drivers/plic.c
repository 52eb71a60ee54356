/* The PLIC driver: see plic.h. Registers are 32 bits wide. */
#include "drivers/plic.h"

#include "kernel/kernel.h"
#include "hive/spinlock.h"

#define PRIORITY(src)       (4u * (src))
#define ENABLE(ctx, src)    (0x2000u + 0x80u * (ctx) + 4u * ((src) / 32))
#define THRESHOLD(ctx)      (0x200000u + 0x1000u * (ctx))
#define CLAIM(ctx)          (THRESHOLD(ctx) + 4)

static const struct plic_config *plic;
/* Each core's context, looked up once by the core itself. */
static unsigned context_of_core[HIVE_MAX_CORES];
/* Enable words are read-modify-written from any core (plic_route). */
static struct hive_spinlock route_lock = HIVE_SPINLOCK_INIT;

static volatile uint32_t *reg(uintptr_t off)
{
    return (volatile uint32_t *)(plic->base + off);
}

static unsigned context_of_hart(uintptr_t hart)
{
    if (hart >= plic->harts || plic->s_context[hart] == PLIC_NO_S_CONTEXT)
        hive_panic("plic: hart %lu has no S-mode context in the board's table",
                   (unsigned long)hart);
    return plic->s_context[hart];
}

void plic_init(const struct plic_config *cfg)
{
    plic = cfg;
    for (unsigned src = 1; src < plic->sources; src++)
        *reg(PRIORITY(src)) = 0;
}

void plic_init_cpu(unsigned core)
{
    unsigned ctx = context_of_hart(hive_cpus[core].hw_id);
    context_of_core[core] = ctx;
    for (unsigned src = 0; src < plic->sources; src += 32)
        *reg(ENABLE(ctx, src)) = 0;
    *reg(THRESHOLD(ctx)) = 0;   /* any priority above 0 gets through */
}

int plic_route(unsigned src, unsigned core, bool on)
{
    if (src == 0 || src >= plic->sources)
        return -1;
    unsigned long irq = hive_spin_lock(&route_lock);
    if (!on)
        *reg(PRIORITY(src)) = 0;    /* off first: no delivery while we edit */
    /* Exactly one context enabled, so exactly one hart claims it. */
    for (unsigned c = 0; c < hive_cpu_count(); c++) {
        volatile uint32_t *en = reg(ENABLE(context_of_hart(hive_cpus[c].hw_id), src));
        uint32_t bit = 1u << (src % 32);
        *en = on && c == core ? *en | bit : *en & ~bit;
    }
    if (on)
        *reg(PRIORITY(src)) = 1;
    hive_spin_unlock(&route_lock, irq);
    return 0;
}

int plic_claim(uint32_t *src)
{
    *src = *reg(CLAIM(context_of_core[hive_cpu_id()]));
    return *src == 0 ? HIVE_IRQ_NONE : (int)*src;
}

/*
 * The PLIC ignores a completion of a source that is not enabled for the
 * completing context (spec 1.0, "Interrupt Completion"), and the source's
 * gateway then keeps it in service: it never interrupts again, even once
 * it is enabled anew. A line can be turned off between its claim and its
 * completion - a handler detaching its own line, a detach or re-attach
 * from another core, the dispatcher silencing a line nobody claims. So the
 * completion looks at the enable bit under route_lock (no route change in
 * between) and, if it is off, turns it on for the write and off again, as
 * Linux's PLIC driver does. That delivers nothing: a source routed off has
 * priority 0, and one routed to another core is enabled here only while
 * this hart, its interrupts masked in the trap, claims nothing.
 */
void plic_complete(uint32_t src)
{
    /* The handler's device writes (quieting a level-triggered line) reach
     * their device before the PLIC looks at the line again. */
    __asm__ volatile("fence o, o" : : : "memory");
    unsigned ctx = context_of_core[hive_cpu_id()];
    unsigned long irq = hive_spin_lock(&route_lock);
    volatile uint32_t *en = reg(ENABLE(ctx, src));
    uint32_t bit = 1u << (src % 32), was = *en;
    if (!(was & bit)) {
        *en = was | bit;
        /* In this order at the PLIC (device writes are not ordered among
         * themselves everywhere: Linux's writel fences the same way). */
        __asm__ volatile("fence o, o" : : : "memory");
    }
    *reg(CLAIM(ctx)) = src;
    if (!(was & bit)) {
        __asm__ volatile("fence o, o" : : : "memory");
        *en = was;
    }
    hive_spin_unlock(&route_lock, irq);
}
