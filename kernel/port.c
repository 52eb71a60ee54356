/*
 * sched/port.h on bare metal: the scheduler's view of a core, built from the
 * arch layer. Parking sleeps the core in hardware until a doorbell IPI or its
 * timer (see "Parking" below).
 */
#include <stdatomic.h>
#include <stdbool.h>

#include "kernel/irq.h"
#include "kernel/kernel.h"
#include "kernel/timer.h"
#include "sched/sched.h"

unsigned hive_port_core_id(void) { return hive_cpu_id(); }
unsigned hive_port_core_count(void) { return hive_cpu_count(); }
unsigned long hive_port_irq_save(void) { return arch_irq_save(); }
void hive_port_irq_restore(unsigned long state) { arch_irq_restore(state); }
void hive_port_cpu_relax(void) { arch_cpu_relax(); }

/* Each core runs on its slot of hive_stacks (kernel/cpu.h): the stack is
 * the slot above its guard page. */
size_t hive_port_stack_room(void)
{
    uintptr_t frame = (uintptr_t)__builtin_frame_address(0);
    uintptr_t low = (uintptr_t)hive_stacks[hive_cpu_id()] + HIVE_STACK_GUARD;
    if (frame <= low || frame > low + HIVE_STACK_SIZE)
        return 0;
    return frame - low;
}

uint64_t hive_port_now_ns(void)
{
    uint64_t c = arch_counter(), hz = arch_counter_hz();
    /* Split to avoid overflowing c * 1e9 (after ~5 minutes at 62.5 MHz). */
    return c / hz * 1000000000u + c % hz * 1000000000u / hz;
}

/* The counter itself: one register read (the trace's clock). */
uint64_t hive_port_ticks(void) { return arch_counter(); }
uint64_t hive_port_ticks_hz(void) { return arch_counter_hz(); }

/* A board's trace goes to its console, like everything it prints. */
FILE *hive_port_trace_open(void) { return stdout; }
void hive_port_trace_close(FILE *f) { fflush(f); }

/*
 * Parking.
 *
 * hive_port_wait first waits shallowly (phase 1): for up to PARK_SHALLOW_NS
 * it watches its wake word with arch_park_shallow, woken by the waker's
 * store. What bounds each wait depends on the core (arch_park_phase1): WFE
 * on aarch64 ends by itself within microseconds (the event stream), so the
 * clock check of the loop below is enough; Zawrs' WRS.NTO on riscv64 ends
 * only on the store or a pending interrupt (masked or not), so the core's
 * timer is armed just past the end of the phase (or for the park's
 * deadline, if sooner: the phase ends by it too), the phase runs with
 * interrupts masked so that the timer's interrupt stays pending to end a
 * stall rather than being taken just before one, and the timer is
 * reprogrammed as the phase ends: a park woken in phase 1, or whose waits
 * returned early, takes no timer interrupt. A riscv64 hart
 * without Zawrs has no phase 1: arch_park_shallow returns false at once.
 * Phase 2 sleeps deeply (WFI) until an interrupt: the doorbell of
 * hive_port_wake, or the core's timer, armed for the timeout - so even a
 * bounded park is a sleep, never a spin.
 *
 * Why no wake is lost. The deep sleep runs with interrupts masked:
 *     waiter: sleeping = 1; FENCE; if (!wake) WFI; sleeping = 0; unmask
 *     waker:  wake = 1;     FENCE; if (sleeping) doorbell
 * Both sides store, then load the other's word, with a seq_cst fence between,
 * so at least one sees the other's store (the fences are ordered one way or
 * the other, and the side whose fence comes second sees the first side's
 * store). If the waiter sees wake, it does not sleep. If the waker sees
 * sleeping, it rings (or, on the SBI boards, leaves the ring to a core that
 * is ringing, which rings it before it stops: drivers/plic_sbi_board_irq.c),
 * and the doorbell stays pending until the waiter takes it: WFI returns at
 * once on a pending interrupt even while masked (both architectures, and
 * QEMU), and masked, the doorbell cannot be taken - and
 * spent - between the check and the WFI. A waker that sees sleeping == 0
 * needs no doorbell: the waiter has yet to check wake, or is awake and
 * checks again before it sleeps. The doorbell's interrupt is taken at the
 * unmask that follows the WFI; its handler has nothing left to do.
 *
 * The caller runs with interrupts enabled (task context); called masked, the
 * wait still works but spins, since nothing can take the pending interrupt.
 *
 * The fences are explicit, not left to seq_cst accesses, and this is why.
 * C11 already forbids both loads reading 0 when the four accesses are
 * seq_cst, and GCC's aarch64 code for them (STLR, then LDAR) is ordered by
 * the architecture. But QEMU's TCG translates STLR as "barrier; store" and
 * LDAR as "load; barrier", so nothing separates the store from the later
 * load, and an x86 host's store buffer lets the load go first. Both sides
 * then read 0: the waker rings no doorbell and the waiter sleeps in WFI for
 * good - the lost wake-up that hung the park test on a loaded host (a store
 * buffering litmus of seq_cst accesses shows that outcome in about 0.3% of
 * races on QEMU aarch64, never on riscv64, whose GCC mapping fences before a
 * seq_cst load; tests/target/ordering_test.c). A seq_cst fence is DMB ISH,
 * which QEMU turns into a full host barrier, and on hardware it costs what
 * the STLR/LDAR pair did; it sits on the park and wake paths only.
 *
 * Only the core that is woken gets an interrupt (board_irq_doorbell targets
 * one core), only when it announced that it sleeps, and only from the waker
 * that turned its wake word from 0 to 1 - later wakers find it set, and the
 * one that set it already rang if needed. So there are no IPI storms.
 */
#define PARK_SHALLOW_NS 20000u

struct park {
    _Alignas(64) atomic_uint wake;  /* a wake is pending (one at most) */
    atomic_uint sleeping;           /* deep sleep announced: wakers must ring */
    /* Deep sleeps begun (WFI), written by the owner only: a wait loop that
     * spins instead of sleeping shows as many of these per wait, or none. */
    _Atomic uint64_t deep_sleeps;
};

static struct park parks[HIVE_MAX_CORES];

bool hive_park_spin;

/* The contrast build of apps/idle: poll the wake word, never sleep. */
static void wait_spinning(struct park *p, uint64_t deadline)
{
    while (!atomic_exchange(&p->wake, 0) && hive_port_now_ns() < deadline)
        arch_cpu_relax();
}

void hive_port_wait(uint64_t timeout_ns)
{
    struct park *p = &parks[hive_cpu_id()];
    uint64_t now = hive_port_now_ns();
    uint64_t deadline = timeout_ns ? hive_deadline_after(now, timeout_ns) : UINT64_MAX;
    if (hive_park_spin) {
        wait_spinning(p, deadline);
        return;
    }

    uint64_t shallow_end = hive_deadline_after(now, PARK_SHALLOW_NS);
    if (shallow_end > deadline)
        shallow_end = deadline; /* a short park ends in phase 1 */
    /* relaxed, here and in the loops: a hint to stop waiting early; the
     * exchange below consumes. */
    bool shallow_timed = arch_park_phase1(hive_cpu_id()) == ARCH_PHASE1_WRS_NTO &&
                         !atomic_load_explicit(&p->wake, memory_order_relaxed);
    if (shallow_timed) {
        /* A backstop for a stall that nothing else ends, a little after the
         * loop's own end: a wait that returns early (QEMU's always does)
         * ends the phase by the clock check and lifts it before it fires. */
        uint64_t backstop = hive_deadline_after(shallow_end, PARK_SHALLOW_NS / 4);
        hive_timer_park_until(backstop < deadline ? backstop : deadline);
    }
    if (shallow_timed) {
        /* Masked, as phase 2 is: WRS.NTO ends on a pending interrupt,
         * enabled or not, so the timer that bounds the stall stays pending
         * until the restore between stalls instead of being taken - and
         * spent - between the clock check and the stall, which would then
         * last until some unrelated interrupt. The clock is checked before
         * every stall. */
        unsigned long irq = arch_irq_save();
        while (!atomic_load_explicit(&p->wake, memory_order_relaxed) &&
               hive_port_now_ns() < shallow_end) {
            (void)arch_park_shallow(&p->wake, 0);
            arch_irq_restore(irq);
            irq = arch_irq_save();
        }
        arch_irq_restore(irq);
    } else {
        while (!atomic_load_explicit(&p->wake, memory_order_relaxed) &&
               arch_park_shallow(&p->wake, 0) && hive_port_now_ns() < shallow_end)
            ;
    }

    /* The deadline's interrupt, unless phase 1 ended on a wake: the loop
     * below then takes it and returns at once, and a deadline armed for
     * nothing would cost two timer writes and, the comparator left set, a
     * spurious interrupt later. */
    bool timed = shallow_timed || (timeout_ns && !atomic_load_explicit(&p->wake, memory_order_relaxed));
    if (shallow_timed)
        hive_timer_park_until_rearmed(deadline);  /* no interrupt left behind */
    else if (timed)
        hive_timer_park_until(deadline);
    unsigned long irq = arch_irq_save();
    while (!atomic_exchange(&p->wake, 0) && hive_port_now_ns() < deadline) {
        /* relaxed, both: the fence between them orders the pair (above). */
        atomic_store_explicit(&p->sleeping, 1, memory_order_relaxed);
        atomic_thread_fence(memory_order_seq_cst);
        if (!atomic_load_explicit(&p->wake, memory_order_relaxed)) {
            /* relaxed: a statistic; the owner alone writes it. */
            atomic_store_explicit(&p->deep_sleeps,
                                  atomic_load_explicit(&p->deep_sleeps, memory_order_relaxed) + 1,
                                  memory_order_relaxed);
            arch_park_deep();
        }
        /* relaxed: a stale 1 seen by a waker costs one spare doorbell; the
         * seq_cst store of 1 above is what the argument relies on. */
        atomic_store_explicit(&p->sleeping, 0, memory_order_relaxed);
        /* Take whatever ended the sleep (doorbell, timer, device). */
        arch_irq_restore(irq);
        irq = arch_irq_save();
    }
    arch_irq_restore(irq);
    if (timeout_ns && timed)
        hive_timer_park_until(UINT64_MAX);
}

const char *hive_park_phase1_name(unsigned core)
{
    switch (arch_park_phase1(core)) {
    case ARCH_PHASE1_WFE: return "wfe";
    case ARCH_PHASE1_WRS_NTO: return "wrs.nto";
    case ARCH_PHASE1_NONE: break;
    }
    return "none";
}

void hive_park_spend_wake(void)
{
    /* A wake sent before this (in happens-before order) is spent by it, or
     * was spent already: the exchange reads the latest value of the word. */
    (void)atomic_exchange(&parks[hive_cpu_id()].wake, 0);
}

bool hive_park_sleeping(unsigned core)
{
    /* relaxed: pairs with nothing - a test's hint, looked at until it
     * holds (kernel/irq.h); what the core did before is not read by it. */
    return atomic_load_explicit(&parks[core].sleeping, memory_order_relaxed) != 0;
}

uint64_t hive_park_deep_sleeps(unsigned core)
{
    /* relaxed: a statistic, read after the waits it counts on the same core
     * or after a join that ordered them. */
    return atomic_load_explicit(&parks[core].deep_sleeps, memory_order_relaxed);
}

void hive_port_wake(unsigned core)
{
    struct park *p = &parks[core];
    if (atomic_exchange(&p->wake, 1))
        return; /* already pending: whoever set it rang if needed */
    /* The waker's half of the fence pair (above): an RMW followed by a
     * seq_cst load is not relied on to stay ordered under QEMU either. */
    atomic_thread_fence(memory_order_seq_cst);
    /* relaxed: ordered by the fence. */
    if (atomic_load_explicit(&p->sleeping, memory_order_relaxed))
        board_irq_doorbell(core);
}

/* The interrupt layer's per-core handler depth (kernel/irq.c), which
 * hive_kernel_irq raises around every handler it calls. */
bool hive_port_in_interrupt(void) { return hive_in_interrupt(); }

/* hive_port_run_on_cores: hive_smp_call_all on every online core, where the
 * cores from ncores up return at once. With a watch (hive_port_watch), each
 * running core calls the check from its own timer interrupt, which comes
 * whatever the core's task does unless it masks interrupts - and then the
 * other cores' checks find it. */
static void (*run_fn)(void *);
static void *run_arg;
static unsigned run_cores;
static uint64_t watch_period;
static void (*watch_check)(void);

void hive_port_watch(uint64_t period_ns, void (*check)(void))
{
    /* Published to the other cores with run_fn (hive_smp_call_all). */
    watch_period = period_ns;
    watch_check = check;
}

static void run_on_core(void *unused)
{
    (void)unused;
    if (hive_cpu_id() >= run_cores)
        return;
    if (watch_period)
        hive_timer_watch(watch_period, watch_check);
    run_fn(run_arg);
    if (watch_period)
        hive_timer_watch(0, NULL);
    /* No backstop check outside a run (sched/port.h). */
    hive_timer_backstop(0, NULL);
}

/* The backstop: this core's timer interrupt runs the check on this core, so
 * its fence is an ordinary one. */
void hive_port_backstop(uint64_t delay_ns, bool (*check)(unsigned core))
{
    hive_timer_backstop(delay_ns, check);
}

void hive_port_backstop_fence(void)
{
    atomic_thread_fence(memory_order_seq_cst);
}

/* Checks run in each core's own timer interrupt, never held back: nothing
 * to tell. */
void hive_port_poll_begin(void) {}
void hive_port_poll_end(void) {}

/* A poke is a call from the core's own timer interrupt, which reaches it
 * whatever it runs: nothing to prepare. */
void hive_port_poke_ready(void) {}

bool hive_port_poke(unsigned core, void (*fn)(void))
{
    /* The backstop's check runs in this core's own timer interrupt: the
     * poke is a call. */
    if (core != hive_cpu_id())
        hive_panic("a poke of core %u from core %u (only a backstop check pokes, on its core)", core,
                   hive_cpu_id());
    fn();
    return true;
}

/* The poke returned after its call: never pending. */
bool hive_port_poke_pending(unsigned core)
{
    (void)core;
    return false;
}

void hive_port_run_on_cores(unsigned ncores, void (*fn)(void *arg), void *arg)
{
    /* Published to the other cores by hive_smp_call_all's release. One
     * hive_run at a time, so one caller at a time. */
    run_fn = fn;
    run_arg = arg;
    run_cores = ncores;
    hive_smp_call_all(run_on_core, NULL);
}

_Noreturn void hive_port_panic(const char *msg)
{
    hive_panic("%s", msg);
}

_Noreturn void hive_port_panic_core(unsigned core, const char *msg)
{
    hive_panic_core(core, "%s", msg);
}
