/*
 * The inline join's gate (sched/latent_gate.c): the owner core opens its
 * gate only while no core wants work; a core that starts to want work
 * closes every other core's gate. Checked here: once every core has done
 * what it does, no gate is left open while some core still wants work - so
 * the owner's next join comes out of line and shares a frame. Only the
 * first core to want work (its RMW took the word from all-busy) closes. (A gate left
 * open would not lose work - a latent frame is run by its own core - but it
 * would keep the wanting cores idle beside shareable work for as long as
 * the owner's task runs.)
 *
 * Each access below is one step; the interleavings are sequentially
 * consistent, which is what the seq_cst fences of latent_gate.c
 * (hive_latent_gate_reopen) and join.c (hive_latent_want) buy for these
 * accesses: each side stores, fences, then loads the other's word.
 *
 * The owner makes NOWN moves, each one of: a join that opens the gate
 * (hive_latent_gate_reopen: a look at the idle word, the store, then the
 * look after the fence - three steps), a join that closes it (a task's
 * first join ending, a wait beginning), in any order. NIRQ interrupts of
 * the owner's core come between any two of its steps, inside a reopen
 * too: the handler's entry closes the gate, saving what it found, and its
 * exit reopens what it closed (the same three steps); meanwhile the owner
 * takes no step, the other cores may. Each of NWANT other cores starts to
 * want work (the idle word: `wanting` counts them) and closes the owner's
 * gate, then may stop wanting again (it found work) and start once more.
 *
 * Planted bugs, each of which spin must catch:
 *   -DBUG_NO_SECOND_LOOK   hive_latent_gate_reopen stores the gate without the
 *                          look at the idle word after it
 *   -DBUG_IRQ_RESTORE      an interrupt's exit puts back what it found, as
 *                          it did before the gate could be closed by others
 *   -DBUG_CLOSE_FIRST      a wanting core closes the gate before its RMW of
 *                          the idle word
 *   -DBUG_FIRST_BY_LOAD    whether a core is the first to want is read from
 *                          the idle word before its RMW, not from the RMW
 */
#ifndef NOWN
#define NOWN 3
#endif
#ifndef NWANT
#define NWANT 2
#endif
#ifndef NIRQ
#define NIRQ 2
#endif

byte wanting; /* cores that want work: the idle word differs from all-busy */
bool gate;    /* the owner's hive_latent_here is open */
bit in_irq;   /* an interrupt handler runs on the owner's core */
byte done;    /* processes finished */

/* -DPROBES=0: REACHED(k) reports, once, that the search got there (as in
 * idle.pml; check.sh's PAN_PROBES names the ones a ctest must reach):
 * 1  an interrupt came between the owner's store of its gate and its look
 *    after the fence;
 * 2  an interrupt's exit found a core wanting work in one of its looks, and
 *    closed the gate (or left it closed). */
#ifdef PROBES
c_decl { unsigned long hive_reached; }
#define REACHED(k) c_code { \
  if (!(hive_reached >> k & 1)) { \
    hive_reached |= 1ul << k; printf("probe %d reached\n", k); \
  } };
#else
#define REACHED(k)
#endif

bit owner_mid; /* ghost: the owner has stored its gate open, not yet looked again */

/* latent_gate.c's hive_latent_gate_reopen, a step per access: the first
 * look, the store, the look after the fence, and the close where a look
 * found a core wanting. OK: may the caller take a step (the owner: no
 * handler runs on its core; the handler: always); MID: the ghost bit of
 * the caller's store (the owner's owner_mid); HANDLER: the caller is the
 * interrupt's exit (for probe 2). */
inline hive_latent_gate_reopen(OK, MID, HANDLER) {
  if
  :: atomic { OK && wanting > 0 -> if :: HANDLER -> REACHED(2) skip :: else -> skip fi } ->
     atomic { OK -> gate = false }
  :: atomic { OK && wanting == 0 } ->
#ifdef BUG_NO_SECOND_LOOK
     atomic { OK -> gate = true }
#else
     atomic { OK -> gate = true; MID = 1 };
     if
     :: atomic { OK && wanting > 0 -> MID = 0; if :: HANDLER -> REACHED(2) skip :: else -> skip fi } ->
        atomic { OK -> gate = false }
     :: atomic { OK && wanting == 0 -> MID = 0 }
     fi
#endif
  fi
}

#define OWNER_MAY (!in_irq)

proctype owner() {
  byte moves = 0;
  do
  :: moves < NOWN ->
     if
     :: hive_latent_gate_reopen(OWNER_MAY, owner_mid, false)
     :: atomic { OWNER_MAY -> gate = false }
     fi;
     moves++
  :: moves == NOWN -> break
  od;
  done++
}

/* hive_sched_interrupt_enter / _exit on the owner's core. */
proctype interrupts() {
  byte n = 0;
  bool saved;
  bit mid; /* the handler's own store, a ghost no probe reads */
  do
  :: n < NIRQ ->
     atomic {
       in_irq = 1; saved = gate; gate = false;
       if :: owner_mid -> REACHED(1) skip :: else -> skip fi
     };
#ifdef BUG_IRQ_RESTORE
     gate = saved;
#else
     if
     :: saved -> hive_latent_gate_reopen(true, mid, true)
     :: else -> skip
     fi;
#endif
     in_irq = 0;
     n++
  :: break
  od;
  done++
}

/* A core that starts to want work: its RMW of the idle word, then, if it
 * was the first, hive_latent_want's look at the gate and close. */
inline want() {
#ifdef BUG_CLOSE_FIRST
  if
  :: gate -> gate = false
  :: else -> skip
  fi;
  wanting++
#else
#ifdef BUG_FIRST_BY_LOAD
  first = wanting == 0;
  wanting++;
#else
  d_step { first = wanting == 0; wanting++ };
#endif
  if
  :: first && gate -> gate = false
  :: else -> skip
  fi
#endif
}

proctype other() {
  bool first;
  want();
  if
  :: wanting--; want() /* found work, ran it, wants again */
  :: wanting-- /* found work, and is busy at the end */
  :: skip /* still wants at the end */
  fi;
  done++
}

init {
  atomic {
    run owner();
    run interrupts();
    byte i = 0;
    do
    :: i < NWANT -> run other(); i++
    :: else -> break
    od
  }
  done == NWANT + 2;
  assert(!(wanting > 0 && gate))
}
