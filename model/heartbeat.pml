/*
 * Private group tasks and the heartbeat (sched/group.c, "Private group
 * tasks"; sched/publish.c, "The heartbeat"; as of 2026-11-30): a core's
 * group spawns, while no core wants work, push their tasks above the
 * bottom of its fork-join deque, where no thief looks, and its own pops
 * take them back with no fence and no CAS. They become stealable (each
 * counted in its group, then one release store of the deque's bottom) at
 * the core's own next spawn or pop while some core wants work, at a push
 * of anything public - and, for a spawner that spawns and then runs long
 * or spins, calling nothing of hive, from the core's own interrupt: the
 * private push sets the private_held hint and arms the backstop, and the
 * backstop's check, once some core is parked (or a waiter has asked this
 * core: work_asked), clears backstop_armed, fences, reads the hint and
 * pokes the core; the poke (hive_sched_poked) publishes every private
 * task unless the core is inside a private operation of its own (the
 * private mark), which then publishes as it ends (hive_private_leave,
 * hive_private_serve); the check then looks at the queues and notifies
 * with the fence.
 *
 * Checked: no core sleeps for good while a task sits in the spawner's
 * deque, private or public, whatever the spawner runs - an invalid end
 * state otherwise (the spawner spins until every task has run, calling
 * nothing of hive: only the heartbeat can offer them); no task is taken
 * twice, and the private pop never finds its entry gone (assertions at
 * every take).
 *
 * Processes:
 *   - Owner: core 0's task, the spawner. NPUSH group spawns that push
 *     privately (push_private: the hint hive_private_wanted, read as any
 *     value - it is relaxed and may be stale either way; a public push
 *     instead where some core wants work and none is private here; under
 *     the mark the entry and the private_held hint; the mark's end, which
 *     serves a poke that found it; the older half offered where some core
 *     wants work and none is public; the arm), with up to NPOP pops of its
 *     deque in between (hive_forkjoin_pop: the older half offered first
 *     where wanted and none is public; under the mark the private pop, in
 *     two steps - the look at the private part, then the take, with no
 *     fence and no CAS - or the public one, which deque.pml checks against
 *     thieves and is one step here; the hint cleared where none is left
 *     private). Then it spins until every task has run (user code that
 *     calls nothing of hive), or pops its deque empty and returns.
 *   - Irq: core 0's interrupt, the poke's handler (poked): under the mark
 *     only the ask (private_asked); outside it every private entry made
 *     stealable, the hint cleared, an ask answered. The owner runs no step
 *     while it runs.
 *   - Check: backstop_check for core 0, as keep.pml has it (on the host a
 *     thread of the port's, which runs a due check only while some core
 *     is in hive_port_wait, and whose poke is a signal waited for at most
 *     20 ms: NLATE pokes given up; -DBOARD: core 0's timer interrupt,
 *     never held back, whose poke is a call), run concurrently with the
 *     owner in both: a superset of an interrupt's interleavings.
 *   - Thief: core 1, which wants work. As a worker (default): a searcher
 *     that steals from the public part, or parks - the idle word's RMW,
 *     the rescan of a worker that leaves nobody searching, then
 *     hive_port_wait (a pending wake per core; NSPUR park timeouts) - and
 *     leaves its park awake and searching (idle.c, rule 4). With -DWAITER
 *     a waiter that is not deep instead (wait.c): its steal rounds are no
 *     searcher's, and a fruitless one asks a core whose private_held it
 *     sees (hive_ask: work_asked); then it becomes a searcher,
 *     looks once more and parks as a worker does, rescan included; its
 *     wait returns once every task has run. With -DDEEP_JOIN a join
 *     waiter deep in its stack whose frame core 0 took: it takes work only
 *     from core 0's public entries (leapfrogging), asks every core whose
 *     hint it sees when it finds nothing (ask_holders), never parks, and
 *     tells the port it polls (hive_port_poll_begin).
 *
 * Abstractions (README.md says why each is sound):
 *   - The deque as two counts, public and private entries; a publish moves
 *     n from the one to the other in one step (the release store of
 *     bottom). deque.pml checks the deque's own steps: its pop's fence and
 *     CAS against thieves, the private pop, the publish of all or the
 *     older half.
 *   - The idle word for one thief: parked and searching bits; a notify's
 *     claim is one step (the CAS), its wake the port's pending bit.
 *   - Loads that are relaxed, or ordered by nothing against a store they
 *     could miss, may return a stale value: the wanted hint (any value),
 *     the owner's unfenced notify (notify_own: it may see nobody to wake,
 *     and arms the backstop), and the thief's rescan (it may miss a publish
 *     whose store is not yet visible - the store-buffer outcome that the
 *     unfenced notify's stale look completes). `fresh` is set by every
 *     publish of core 0's and cleared by what makes it seen: the check's
 *     fence (as if on core 0), its fenced notify after a look that saw the
 *     task with no publish since (pubsince), notify_own's claim (an RMW of
 *     core 0's after the publish) - not the thief's own claim in its
 *     rescan, which orders nothing of core 0's.
 *   - Polling as blocking: a check that would only look (none parked, no
 *     ask) changes nothing and is no step, as in keep.pml.
 *   - Granularity: each access to data another process reads or writes is
 *     one step; a seq_cst fence is no step.
 *   - Not modelled: the group's count and holds (keep.pml and await.pml
 *     have them), the keep, the ring and the global queue (idle.pml),
 *     several thieves.
 *
 * Bounds: NPUSH private spawns, NPOP pops between them, NSPUR park
 * timeouts, NLATE pokes given up (the host).
 *
 * Planted bugs, each of which spin must catch:
 *   -DBUG_NO_ARM          a private push does not arm the backstop
 *   -DBUG_ARM_FIRST       the push arms (its look at backstop_armed) before
 *                         it sets private_held
 *   -DBUG_LOOK_FIRST      the check reads private_held before it clears
 *                         backstop_armed
 *   -DBUG_HELD_NOT_SET    a private push leaves private_held as it was
 *   -DBUG_NO_SERVE        hive_private_leave does not serve a poke that
 *                         found the mark
 *   -DBUG_POKE_IGNORES_MARK
 *                         the poke publishes under the owner's mark (the
 *                         private pop finds its entry gone)
 *   -DBUG_NO_LOOK         the check pokes but does not look at the queues
 *                         and notify after it
 *   -DBUG_NOTIFY_NO_ARM   notify_own that woke nobody does not arm the
 *                         backstop (-DPUBLIC: a public push whose unfenced
 *                         notify sees nobody parked)
 *   -DBUG_SERVE_NO_NOTIFY the serve of a poke that found the mark publishes
 *                         but does not notify
 *   -DDEEP_JOIN -DBUG_CHECK_PARKED_ONLY
 *                         the check acts on a parked core only, not on an
 *                         ask: the deep join waiter, which never parks,
 *                         waits for good
 *   -DDEEP_JOIN -DBUG_DEEP_NO_ASK
 *                         the deep join waiter does not ask for private
 *                         tasks (the code before model review found it)
 *
 * -DPROBES=0: REACHED(k) reports, once, that the search got to the rare
 * branch k (README.md lists them); check.sh's PAN_PROBES makes a pass ctest
 * fail if one of its probes is never reported.
 */
#ifdef PROBES
c_decl { unsigned long hive_reached; }
#define REACHED(k) c_code { \
  if (!(hive_reached >> k & 1)) { \
    hive_reached |= 1ul << k; printf("probe %d reached\n", k); \
  } };
#else
#define REACHED(k)
#endif

#ifndef NPUSH
#define NPUSH 3
#endif
#ifndef NPOP
#define NPOP 1
#endif
#ifndef NSPUR
#define NSPUR 1
#endif
#ifndef NLATE
#define NLATE 1
#endif

/* ---- core 0's fork-join deque, as two counts ---- */
byte pub;            /* public entries: between top and bottom */
byte priv;           /* private entries: above bottom */
byte ran;            /* tasks taken and run, by either core */
bit fresh;           /* a publish of core 0's that core 1 may not see yet:
                      * no fence or RMW of core 0's, nor a fenced look that
                      * saw it, since */
bit pubsince;        /* a publish since the check's look at the queues */

/* ---- core 0 (struct hive_worker) ---- */
bit held;            /* private_held: a hint */
bit armed;           /* backstop_armed */
bit busy;            /* private_busy: under the private mark */
bit asked;           /* private_asked: a poke found the mark */
bit work_asked;      /* a waiter's ask (victims.c) */

/* ---- core 1, the thief, in the idle word and the port ---- */
bit searching;       /* counted searching in the idle word */
bit parked;          /* counted parked in the idle word */
bit pending;         /* the port's pending wake */
bit in_wait;         /* inside hive_port_wait (the host's `waiters`) */
bit polling;         /* -DDEEP_JOIN: the waiter told the port it polls */
bit waited;          /* the host's backstop thread saw a core wait or poll
                      * since its last pass (arch/host/backstop.c) */

/* ---- the port ---- */
bit due;             /* a check is due (hive_port_backstop) */
bit irq;             /* a poke is pending for core 0 */
bit in_irq;          /* core 0 runs the poke's handler */
bit wanted;          /* a poke sent, no handler begun since */

#ifdef BOARD
#define MAY_CHECK 1
#ifndef NO_GIVE_UP
#define NO_GIVE_UP
#endif
#else
/* A due check runs once some core has waited or polled since the thread's
 * last pass, even if it has stopped since (the thread's latch). */
#define MAY_CHECK (waited)
#endif

#ifdef BUG_CHECK_PARKED_ONLY
#define CHECK_ACTS parked
#else
#define CHECK_ACTS (parked || work_asked)
#endif

/* hive_work_asked_answered: a look, then the store. */
inline ANSWERED() {
  if
  :: work_asked -> work_asked = 0
  :: else -> skip
  fi
}

/* hive_backstop_arm: the look at backstop_armed, then the store and
 * hive_port_backstop. */
inline ARM() {
  if
  :: !armed -> d_step { armed = 1; due = 1 }
  :: else -> skip
  fi
}

/* The check's fenced notify (hive_idle_notify) after a look that saw work:
 * the claim of a parked core while none searches, one CAS, and its wake.
 * What the look saw is seen by a core that parks after it - unless core 0
 * published again since the look (its store may still be unseen). */
inline NOTIFY() {
  d_step {
    if
    :: !pubsince -> fresh = 0
    :: else -> skip
    fi;
    if
    :: parked && !searching -> parked = 0; pending = 1
    :: else -> skip
    fi
  }
}

/* The thief's own notify in its rescan: claims itself; orders nothing of
 * core 0's. */
inline SELF_NOTIFY() {
  d_step {
    if
    :: parked && !searching -> parked = 0; pending = 1
    :: else -> skip
    fi
  }
}

/* notify_own: the notify without the fence, whose look may be stale and
 * see nobody to wake; then the backstop. */
inline NOTIFY_OWN() {
  if
  :: d_step { parked && !searching -> parked = 0; pending = 1; fresh = 0 }
  :: true ->
#ifndef BUG_NOTIFY_NO_ARM
     ARM()
#else
     skip
#endif
  fi
}

/* make_stealable(n): each counted in its group (not modelled), the release
 * store of bottom; the hint cleared where none is left private; an ask
 * answered. Under the mark, or from the interrupt outside one. */
inline MAKE_STEALABLE(n) {
  d_step { assert(priv >= n && n > 0); pub = pub + n; priv = priv - n; n = 0; fresh = 1; pubsince = 1 };
  if
  :: priv == 0 -> held = 0
  :: else -> skip
  fi;
  ANSWERED()
}

/* hive_private_leave: the unmark, then the look at private_asked; a poke
 * that found the mark is served (hive_private_serve: publish_private, all
 * of them, under the mark again - whose own end serves again if asked
 * meanwhile: the loop - then notify_own, and the ask answered where none
 * is left private). The serves' notifies are made after the last of them,
 * once: each is "wake if parked, else arm", which one does for all. */
inline LEAVE() {
  busy = 0;
#ifndef BUG_NO_SERVE
  do
  :: asked ->
     asked = 0;
     served = 1;
     REACHED(2) printf("C0 serves a poke that found the mark\n");
     if
     :: priv > 0 ->
        busy = 1;
        if
        :: priv > 0 -> n = priv; MAKE_STEALABLE(n)
        :: else -> skip
        fi;
        busy = 0;
        owe = 1
     :: else -> skip
     fi
  :: else -> break
  od;
  if
  :: owe -> owe = 0;
#ifndef BUG_SERVE_NO_NOTIFY
     NOTIFY_OWN()
#else
     skip
#endif
  :: else -> skip
  fi;
  if                           /* a serve answers an ask where none is left */
  :: served && priv == 0 -> ANSWERED()
  :: else -> skip
  fi;
  served = 0
#endif
}

/* hive_publish_oldest_private (half) from task code: a look, then under
 * the mark again, the notify. */
inline PUBLISH_OLDEST() {
  if
  :: priv > 0 ->
     busy = 1;
     if
     :: priv > 0 -> n = (priv + 1) / 2; MAKE_STEALABLE(n)
     :: else -> skip           /* the heartbeat published them since */
     fi;
     LEAVE();
     NOTIFY_OWN()
  :: else -> skip
  fi
}

/* A group spawn that queues (group_push, push_private). */
inline PUSH() {
  if                           /* hive_private_wanted: a hint, any value */
#ifdef PUBLIC
  :: true ->
     /* Queued public: where some core wants work and none is private here
      * (the ask answered), or where no hold is left for a private push.
      * hive_publish_forkjoin: under the mark, the private entries made
      * stealable first, then the push; notify_own. */
     if
     :: priv == 0 -> ANSWERED()
     :: true -> skip
     fi;
     busy = 1;
     if
     :: priv > 0 -> n = priv; MAKE_STEALABLE(n)
     :: else -> skip
     fi;
     d_step { pub++; fresh = 1; pubsince = 1 };
     LEAVE();
     NOTIFY_OWN()
#endif
  :: true ->                   /* queued privately */
#ifdef BUG_ARM_FIRST
     ARM();
#endif
     /* hive_private_enter, hive_deque_push_private: one step, as the
      * interrupt between them would only see the mark. */
     d_step { busy = 1; priv++ };
#ifndef BUG_HELD_NOT_SET
     if
     :: !held -> held = 1
     :: else -> skip
     fi;
#endif
     LEAVE();
#ifdef OFFER
     if                        /* some core wants work (the hint), none is public */
     :: pub == 0 -> PUBLISH_OLDEST()
     :: true -> skip
     fi;
#endif
#if !defined(BUG_NO_ARM) && !defined(BUG_ARM_FIRST)
     ARM()
#else
     skip
#endif
  fi;
  pushes++
}

/* hive_forkjoin_pop. */
inline POP() {
#ifdef OFFER
  if                           /* wanted (the hint), none public: the older half */
  :: priv > 0 && pub == 0 -> PUBLISH_OLDEST()
  :: true -> skip
  fi;
#endif
  busy = 1;
  if
  :: priv > 0 ->               /* the private pop: the look, then the take */
     d_step { assert(priv > 0); priv--; ran++ };
     REACHED(1) skip
  :: else ->                   /* the public pop (deque.pml): one step */
     d_step {
       if
       :: pub > 0 -> pub--; ran++
       :: else -> skip
       fi
     }
  fi;
  if
  :: priv == 0 && held -> held = 0
  :: else -> skip
  fi;
  LEAVE();
  pops++
}

proctype Owner() provided (!in_irq) {
  byte pushes, pops, n;
  bit owe, served;
  do
  :: pushes < NPUSH -> PUSH()
  :: pops < NPOP && (priv > 0 || pub > 0) -> POP()
  :: pushes == NPUSH -> break
  od;
  if
  :: printf("C0 spins\n");    /* user code, nothing of hive, until */
     ran == NPUSH              /* every task has run */
  :: do                        /* or pops its deque empty and returns */
     :: priv > 0 || pub > 0 -> POP()
     :: else -> break
     od
  fi
}

/* ---- core 0's interrupt: the poke's handler, poked ---- */
proctype Irq() {
  byte n;
end:
  do
  :: d_step { irq -> irq = 0; in_irq = 1; wanted = 0 };
     if
#ifndef BUG_POKE_IGNORES_MARK
     :: busy -> asked = 1; REACHED(3) printf("C0 poked under the mark: asks\n")
     :: else ->
#else
     :: true ->
#endif
        if
        :: priv > 0 -> REACHED(4) n = priv; MAKE_STEALABLE(n)
        :: else -> skip
        fi;
        if
        :: priv == 0 -> ANSWERED()
        :: else -> skip
        fi
     fi;
     in_irq = 0
  od
}

/* ---- the backstop's check for core 0, backstop_check ---- */
proctype Check() {
  byte late;                   /* pokes given up so far (at most NLATE) */
  bit seen, again;
end:
  do
  :: d_step {                  /* due, and it would do more than look */
       due && MAY_CHECK && CHECK_ACTS -> due = 0
     };
     if
     :: parked -> skip         /* S (seq_cst): a core is parked */
     :: else ->
#ifdef BUG_CHECK_PARKED_ONLY
        again = 1
#else
        if
        :: work_asked -> REACHED(5) skip /* a waiter asked */
        :: else -> again = 1   /* look again a period later */
        fi
#endif
     fi;
     if
     :: again -> skip
     :: else ->
#ifdef BUG_LOOK_FIRST
        seen = held;
        d_step { armed = 0; fresh = 0 };
#else
        /* Then hive_port_backstop_fence, as if on core 0 (it is, on the
         * boards; a membarrier on the host): its stores are seen. */
        d_step { armed = 0; fresh = 0 };
        seen = held;           /* || hold_keeping (keep.pml) */
#endif
        if
        :: seen ->             /* hive_port_poke */
           printf("check: pokes C0\n");
           d_step { wanted = 1; irq = 1 };
           if
           :: !wanted && !in_irq -> skip /* a handler begun after it ran */
#ifndef NO_GIVE_UP
           :: late < NLATE && (wanted || in_irq) -> /* 20 ms, and it did not */
              late++;
              armed = 1;
              again = 1;
              REACHED(6) printf("check: the poke is given up\n")
#endif
           fi
        :: else -> ANSWERED()
        fi;
        if                     /* a handler may still come: again */
        :: wanted || in_irq -> again = 1
        :: else -> skip
        fi;
#ifndef BUG_NO_LOOK
        if                     /* the look at the queues, the fenced notify */
        :: d_step { pub > 0 -> pubsince = 0 }; REACHED(7) NOTIFY()
        :: else -> skip
        fi
#endif
     fi;
     d_step {                  /* return again: due a period later */
       if
       :: again -> due = 1
       :: else -> skip
       fi;
       again = 0; seen = 0;
       waited = (in_wait || polling)
     }
  od
}

/* ---- core 1, which wants work ---- */

/* Parks (park.c) as a searcher - its last: hive_idle_park's RMW, the
 * rescan - until claimed, timed out, or every task has run; leaves awake
 * and searching (hive_idle_unpark). */
inline PARK() {
  d_step { searching = 0; parked = 1 };
  if                           /* the rescan */
  :: pub > 0 -> SELF_NOTIFY()  /* claims itself */
  :: pub == 0 -> skip
  :: fresh -> REACHED(9) skip  /* a publish not yet visible: missed */
  fi;
  printf("C1 parks\n");
  do                           /* hive_park_until's loop */
  :: !parked -> break          /* claimed */
  :: ran == NPUSH -> break     /* the run's end, or the awaited count */
  :: d_step { parked && ran != NPUSH -> in_wait = 1; waited = 1 };
     if                        /* hive_port_wait */
     :: d_step { pending -> pending = 0; in_wait = 0 }
     :: d_step { ran == NPUSH -> in_wait = 0 }; break
     :: d_step { spur > 0 -> spur--; in_wait = 0 }; REACHED(8) break /* timed out */
     fi
  od;
  atomic { parked = 0; searching = 1 } /* hive_idle_unpark */
}

proctype Thief() {
  byte spur = NSPUR;
#if !defined(WAITER) && !defined(DEEP_JOIN)
  searching = 1;               /* it wants work: a searcher */
#endif
  do
  :: ran == NPUSH -> break     /* every task has run: the run (or the wait) ends */
  :: d_step { pub > 0 -> pub--; ran++; searching = 0 } /* a steal: it stops searching */
  :: pub == 0 || fresh ->      /* nothing seen (a fresh publish may be missed) */
#if defined(DEEP_JOIN)
     /* A deep join waiter: the leapfrog found nothing; the ask (ask_holders,
      * each HIVE_WAIT_SPIN_NS of nothing: timing is no step here); it
      * polls, never parks, and the port is told (hive_port_poll_begin). A
      * look that finds nothing and asks nothing again is no step. */
#ifndef BUG_DEEP_NO_ASK
     if
     :: held && !work_asked -> work_asked = 1; REACHED(10) printf("C1 asks C0\n")
     :: else -> skip
     fi;
#endif
     d_step { polling = 1; waited = 1 };
#ifndef BUG_DEEP_NO_ASK
     (pub > 0 || ran == NPUSH || (held && !work_asked))
#else
     (pub > 0 || ran == NPUSH)
#endif
#elif !defined(WAITER)
     searching = 1;
     PARK()
#else
     if                        /* a round that is no searcher's asks (victims.c) */
     :: !searching && held && !work_asked -> work_asked = 1; REACHED(10) printf("C1 asks C0\n")
     :: else -> skip
     fi;
     searching = 1;            /* hive_start_searching, then a look as one */
     if
     :: d_step { pub > 0 -> pub--; ran++; searching = 0 }
     :: pub == 0 || fresh -> PARK()
     fi
#endif
  od;
  polling = 0;
  printf("C1 done\n")
}

init {
  atomic {
    run Owner();
    run Irq();
    run Check();
    run Thief()
  }
}
