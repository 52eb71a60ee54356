/*
 * The SBI doorbell rung by one core at a time (drivers/plic_sbi_board_irq.c,
 * board_irq_doorbell): a core marks the core it wakes in `asked`, and rings
 * every marked one unless another core is ringing - that ringer, which
 * looks at `asked` again after it stops, rings the mark instead. Nobody
 * waits for a ringer. What must hold: no mark is left unrung.
 *
 * Granularity: each C11 atomic access is one step (all are seq_cst, so
 * spin's sequentially consistent interleavings are the C11 executions). A
 * core's interrupts are masked from just before its first CAS of `ringer`
 * to the end of its doorbell: an interrupt handler of the core, which
 * rings a doorbell of its own, runs only where they are on - before the
 * mark, between the mark and the masking, and after the restore (the
 * handler's doorbell runs whole before the interrupted one goes on). A
 * doorbell while a panic halts the system bypasses all this: not modelled.
 *
 * NC cores (2, at most 3), each ringing NRING doorbells (2) from task
 * context, each for a core chosen at any step (itself included), and taking at most one
 * interrupt whose handler rings one doorbell. The send_ipi of a ring is a
 * ghost (owed, below).
 *
 * Checked:
 *   - at the end, nothing is left in `asked` (a mark nobody rang: a
 *     ringer sends for every mark its exchange takes), and no core is
 *     `owed` (ghost: set at a mark, cleared by a send to that core - which
 *     would also catch a ring that took marks and sent none);
 *   - a core never finds itself the ringer (the masking keeps its
 *     handlers out of its ring);
 *   - every doorbell returns (a valid end state: no core spins for good).
 *
 * Options: -DNO_IRQ, no interrupts (so that three cores fit in memory).
 *
 * Planted bugs (each must be found):
 *   -DBUG_NO_LOOK       the ringer does not look at `asked` after it stops
 *   -DBUG_LOOK_FIRST    it looks before it stores 0 into `ringer`
 *   -DBUG_MARK_LATE     a core marks after its CAS, not before
 *   -DBUG_IRQ_ON        interrupts stay on while ringing: a handler's
 *                       doorbell finds its own core ringing (the assertion)
 */
#ifndef NC
#define NC 2
#endif
#ifndef NRING
#define NRING 2
#endif

/* -DPROBES=0: REACHED(k) reports, once, that the search got there (as in
 * idle.pml; check.sh's PAN_PROBES names the ones a ctest must reach). */
#ifdef PROBES
c_decl { unsigned long hive_reached; }
#define REACHED(k) c_code { \
  if (!(hive_reached >> k & 1)) { \
    hive_reached |= 1ul << k; printf("probe %d reached\n", k); \
  } };
#else
#define REACHED(k)
#endif
/* 1  a core found another ringing and left its mark to it
 * 2  a ringer's look after it stopped found a mark, and it rang again
 * 3  one exchange took two cores' marks (one ring for both)
 * 4  a handler's doorbell ran, between two steps of its core's own */

byte asked;             /* bit t: core t's doorbell is wanted */
byte ringer;            /* the ringing core + 1; 0: none */
bool owed[NC];          /* ghost: core t was marked and no IPI since took it */
bool irq_taken[NC];     /* each core takes at most one interrupt */

/* The ring: exchange `asked` for 0, then one send per taken core. */
inline ring_asked(took, t)
{
    atomic { took = asked; asked = 0 }
    if :: took & (took - 1) -> REACHED(3) skip :: else -> skip fi;
    t = 0;
    do
    :: t < NC ->
        if
        :: took & (1 << t) -> owed[t] = false
        :: else
        fi;
        t++
    :: else -> break
    od;
    /* locals back to 0: fewer states */
    atomic { took = 0; t = 0 }
}

inline mark(target)
{
    atomic { asked = asked | (1 << target); owed[target] = true }
}

/*
 * One doorbell of core `me` for core `target`. INTR(me) is an interrupt
 * point: TASK_INTR in task context (the core may take its one interrupt
 * there), NO_INTR in the handler. The handler's doorbell is the same text
 * (a cpp macro: Promela has no recursion), instantiated once as the inline
 * handler_doorbell.
 */
#define NO_INTR(me) skip
#ifdef NO_IRQ
#define TASK_INTR(me) skip
#else
#define TASK_INTR(me)                                                       \
    if                                                                      \
    :: !irq_taken[me] -> REACHED(4) irq_taken[me] = true; handler_doorbell(me) \
    :: true                                                                 \
    fi
#endif

/* Interrupts masked from the first CAS to the end; with BUG_IRQ_ON a
 * handler may run inside the ring too. */
#ifdef BUG_IRQ_ON
#define RING_INTR(INTR, me) INTR(me)
#else
#define RING_INTR(INTR, me) skip
#endif

/* The CAS of ringer from 0 to me + 1: `ringing` is what it found. */
#define TRY_RINGER(me, ringing)                                             \
    atomic {                                                                \
        ringing = ringer;                                                   \
        if :: ringer == 0 -> ringer = me + 1 :: else fi                     \
    }

/* The ringer stops: store 0, then look again (leave the loop when the
 * look finds nothing). */
#if defined(BUG_NO_LOOK)
#define STOP(done) ringer = 0; break
#elif defined(BUG_LOOK_FIRST)
#define STOP(done)                                                          \
    if :: asked == 0 -> done = true :: else fi;                             \
    ringer = 0;                                                             \
    if :: done -> done = false; break :: else fi
#else
#define STOP(done)                                                          \
    ringer = 0;                                                             \
    if :: asked == 0 -> break :: else -> REACHED(2) skip fi
#endif

/* The mark before the loop, or (BUG_MARK_LATE) after each CAS. */
#ifdef BUG_MARK_LATE
#define MARK_FIRST(target) skip
#define MARK_LATE(target) mark(target)
#else
#define MARK_FIRST(target) mark(target)
#define MARK_LATE(target) skip
#endif

/* A ringer that found another leaves its mark to it: never its own core,
 * which is masked through its ring. */
#define DOORBELL(me, target, ringing, took, t, done, INTR)                  \
    INTR(me);                                                               \
    MARK_FIRST(target);                                                     \
    INTR(me);                                                               \
    do                                                                      \
    :: TRY_RINGER(me, ringing);                                             \
        MARK_LATE(target);                                                  \
        if                                                                  \
        :: ringing != 0 -> REACHED(1) assert(ringing != me + 1); ringing = 0; break \
        :: else -> RING_INTR(INTR, me); ring_asked(took, t); STOP(done)     \
        fi                                                                  \
    od;                                                                     \
    INTR(me)

/* Any core, chosen at this step. */
#define CHOOSE(target)                                                      \
    if                                                                      \
    :: target = 0                                                           \
    :: target = 1                                                           \
    :: NC > 2 -> target = 2                                                 \
    fi

/* The handler's doorbell (its locals are the core's h_*). */
inline handler_doorbell(me)
{
    CHOOSE(h_target);
    DOORBELL(me, h_target, h_ringing, h_took, h_t, h_done, NO_INTR);
    h_target = 0
}

proctype core(byte me)
{
    byte n = 0, target, ringing, took, t;
    bool done;
    byte h_target, h_ringing, h_took, h_t;
    bool h_done;
    /* target's choice is kept for the trail; back to 0 after each doorbell. */
    do
    :: n < NRING ->
        CHOOSE(target);
        DOORBELL(me, target, ringing, took, t, done, TASK_INTR);
        atomic { target = 0; n++ }
    :: else -> break
    od
}

init
{
    byte c;
    atomic {
        c = 0;
        do
        :: c < NC -> run core(c); c++
        :: else -> break
        od
    }
    /* Every core has returned from every doorbell: */
    (_nr_pr == 1);
    assert(asked == 0);
    c = 0;
    do
    :: c < NC -> assert(!owed[c]); c++
    :: else -> break
    od
}
