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
 * (hive_latent_gate_reopen), a join that closes it (a task's first join ending,
 * a wait beginning), an interrupt (the handler closes the gate and its exit
 * reopens what it found open), in any order. Each of NWANT other cores starts to want work
 * (the idle word: `wanting` counts them) and closes the owner's gate, then
 * may stop wanting again (it found work) and start once more.
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

byte wanting; /* cores that want work: the idle word differs from all-busy */
bool gate;    /* the owner's hive_latent_here is open */
byte done;    /* processes finished */

/* latent_gate.c's hive_latent_gate_reopen. */
inline hive_latent_gate_reopen() {
  if
  :: wanting > 0 -> gate = false
  :: else ->
#ifdef BUG_NO_SECOND_LOOK
     gate = true
#else
     gate = true;
     if
     :: wanting > 0 -> gate = false
     :: else -> skip
     fi
#endif
  fi
}

proctype owner() {
  byte moves = 0;
  bool saved;
  do
  :: moves < NOWN ->
     if
     :: hive_latent_gate_reopen()
     :: gate = false
     :: /* an interrupt: hive_sched_interrupt_enter / _exit */
        saved = gate;
        gate = false;
#ifdef BUG_IRQ_RESTORE
        gate = saved
#else
        if
        :: saved -> hive_latent_gate_reopen()
        :: else -> skip
        fi
#endif
     fi;
     moves++
  :: moves == NOWN -> break
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
    byte i = 0;
    do
    :: i < NWANT -> run other(); i++
    :: else -> break
    od
  }
  done == NWANT + 1;
  assert(!(wanting > 0 && gate))
}
