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
 * send_ipi for the marked harts within a mask's width of the first, in core
 * order) and looks again after it stops. A core that finds a ringer leaves
 * its mark to it and goes on: its doorbell comes a moment later, from the
 * ringer. OpenSBI's lock then sees at most one of hive's harts at a time.
 *
 * No mark is left unrung: the marker's OR comes before its CAS of
 * `ringer`, the ringer's store of 0 before its last look at `asked`, all
 * seq_cst. In their one total order either that look sees the mark (or a
 * later exchange took it, which rang it), and the ringer rings again; or the
 * mark comes after the look - and then so does the marker's CAS, which
 * finds no ringer, or a later one whose exchange comes after the mark.
 * That needs the ringer to reach its last look: its interrupts stay masked
 * from its first CAS to the end (a handler that panics there would halt it
 * before the look, with other cores' marks in hand), and a doorbell while a
 * panic halts the system goes out at once, bypassing all this (the
 * panicking core's halt doorbells must not wait on a ringer that may have
 * been halted, or be the panicking core itself, faulted mid-ring).
 *
 * What the waker wrote (the wake word) reaches the woken core first: the
 * ringer's exchange of `asked` reads the waker's OR (or a later RMW of the
 * word), which the waker made after those stores, and sbi_send_ipi fences
 * everything the ringer has seen before the device write that raises the
 * IPI (RISC-V's memory model is multi-copy atomic: one global order of
 * memory operations, so what the ringer saw before its fence precedes the
 * write for every hart).
 *
 * A ringer rings for as long as others keep marking, interrupts masked: a
 * latency for its own interrupts while every other core wakes cores, each
 * round a few firmware calls.
 */
#define MASK_BITS (8u * sizeof(unsigned long))
#define ASKED_WORDS ((HIVE_MAX_CORES + MASK_BITS - 1) / MASK_BITS)

/* Cores whose doorbell is wanted and not yet rung (bit c % MASK_BITS of
 * word c / MASK_BITS: core c). */
static _Atomic unsigned long asked[ASKED_WORDS];
/* The core ringing now, plus one; 0: none. */
static atomic_uint ringer;

static void send(unsigned long mask, unsigned long base)
{
    if (sbi_send_ipi(mask, base).error == SBI_SUCCESS)
        return;
    /* A firmware may refuse a whole mask for one hart it will not
     * interrupt; the others must still be rung. */
    for (unsigned long bit = 0; bit < MASK_BITS; bit++)
        if (mask & (1ul << bit))
            sbi_send_ipi(1, base + bit);
}

/* Ring every marked core. */
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
                send(mask, base);
            base = hart;
            mask = 1;
        }
    }
    if (mask)
        send(mask, base);
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
    if (atomic_load(&hive_halting)) {
        sbi_send_ipi(1, hive_cpus[core].hw_id);
        return;
    }
    atomic_fetch_or(&asked[core / MASK_BITS], 1ul << (core % MASK_BITS));
    unsigned me = hive_cpu_id() + 1;
    unsigned long irq = arch_irq_save();
    do {
        /* Another core ringing - never this one, masked through its ring -
         * rings our mark. */
        unsigned ringing = 0;
        if (!atomic_compare_exchange_strong(&ringer, &ringing, me))
            break;
        ring_asked();
        atomic_store(&ringer, 0);
    } while (any_asked());
    arch_irq_restore(irq);
}

int board_irq_claim(uint32_t *claim)
{
    return plic_claim(claim);
}

void board_irq_complete(uint32_t claim)
{
    plic_complete(claim);
}
