/* board_irq_* for a board whose interrupt controller is a PLIC and whose
 * doorbell is an SBI IPI: see plic_sbi_board_irq.h. */
#include <stdatomic.h>

#include "drivers/plic_sbi_board_irq.h"
#include "drivers/sbi.h"
#include "kernel/board.h"
#include "kernel/kernel.h"
#include "kernel/platform.h"

void board_irq_init(void)
{
    plic_init(&board_plic);
}

void board_irq_init_cpu(unsigned core)
{
    plic_init_cpu(core);
}

int board_irq_route(unsigned line, unsigned core, bool on)
{
    return plic_route(line, core, on);
}

/*
 * The doorbell: one ringer at a time, and nobody waits for it.
 *
 * OpenSBI (1.5, the firmware QEMU 10 bundles) works out an IPI's targets
 * under one ticket spinlock of its root domain, for every send_ipi of every
 * hart. On hardware that is a short wait. Under QEMU with more harts than
 * the host has free CPUs it is a convoy: the lock passes to the next ticket,
 * whose vCPU thread the host may not be running, while the harts queued
 * behind it spin in M-mode on the host CPU it needs. A sched image at 8
 * harts on a loaded 2-CPU host took minutes for 10^6 spawns that take 7
 * seconds (the soak's 300 s limit, twice in two runs), two or three harts
 * in that spin at every look and each wake stuck behind them.
 *
 * So a core that wants a doorbell rung marks the core in `asked` and, if no
 * core is ringing, becomes the ringer: it rings every marked core (one
 * send_ipi per run of harts that fits a mask) and looks again after it
 * stops. A core that finds a ringer leaves its mark to it and goes on.
 * OpenSBI's lock then sees at most one of hive's harts at a time.
 *
 * No mark is left unrung: the marker's OR comes before its look at
 * `ringer`, the ringer's store of 0 before its last look at `asked`, all
 * seq_cst. In their one total order either that last look sees the mark
 * (the ringer rings again), or the mark comes after it - and then so does
 * the marker's look, which finds no ringer, and the marker rings.
 *
 * What the waker wrote (the wake word) reaches the woken core first: the
 * ringer's exchange of `asked` reads the waker's OR, which the waker made
 * after those stores, and sbi_send_ipi fences everything the ringer has
 * seen before the device write that raises the IPI (RISC-V's memory model
 * is multi-copy atomic: one global order of memory operations, so what the
 * ringer saw before its fence precedes the write for every hart).
 *
 * Interrupts are masked while ringing, so that no handler on the ringing
 * core leaves its mark to the ringer it interrupted - harmless (the ringer
 * rings it on return) unless that handler never returns: a panic, whose
 * doorbells halt the other cores. A panic in the ring itself (a fault in
 * the firmware call) finds its own core ringing and rings directly.
 */
#define MASK_BITS (8u * sizeof(unsigned long))
#define ASKED_WORDS ((HIVE_MAX_CORES + MASK_BITS - 1) / MASK_BITS)

/* Cores whose doorbell is wanted and not yet rung (bit c % MASK_BITS of
 * word c / MASK_BITS: core c). */
static _Atomic unsigned long asked[ASKED_WORDS];
/* The core ringing now, plus one; 0: none. */
static atomic_uint ringer;

/* Ring every marked core: harts that fit one mask, with one call. */
static void ring_asked(void)
{
    unsigned long base = 0, mask = 0;
    for (unsigned word = 0; word < ASKED_WORDS; word++) {
        unsigned long cores = atomic_exchange(&asked[word], 0);
        while (cores) {
            unsigned core = word * MASK_BITS + (unsigned)__builtin_ctzl(cores);
            cores &= cores - 1;
            unsigned long hart = hive_cpus[core].hw_id;
            /* unsigned: a hart below base is far out of the mask's range. */
            if (mask && hart - base < MASK_BITS) {
                mask |= 1ul << (hart - base);
                continue;
            }
            if (mask)
                sbi_send_ipi(mask, base);
            base = hart;
            mask = 1;
        }
    }
    if (mask)
        sbi_send_ipi(mask, base);
}

static bool any_asked(void)
{
    for (unsigned word = 0; word < ASKED_WORDS; word++)
        if (atomic_load(&asked[word]))
            return true;
    return false;
}

void board_irq_doorbell(unsigned core)
{
    unsigned me = hive_cpu_id() + 1;
    atomic_fetch_or(&asked[core / MASK_BITS], 1ul << (core % MASK_BITS));
    do {
        unsigned long irq = arch_irq_save();
        unsigned ringing = 0;
        if (!atomic_compare_exchange_strong(&ringer, &ringing, me)) {
            arch_irq_restore(irq);
            /* A panic inside this core's own ring (see above); else the
             * ringer rings our mark. */
            if (ringing == me)
                sbi_send_ipi(1, hive_cpus[core].hw_id);
            return;
        }
        ring_asked();
        atomic_store(&ringer, 0);
        arch_irq_restore(irq);
    } while (any_asked());
}

int board_irq_claim(uint32_t *claim)
{
    return plic_claim(claim);
}

void board_irq_complete(uint32_t claim)
{
    plic_complete(claim);
}
