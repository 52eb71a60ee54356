/*
 * The idle protocol of sched/idle.c as the scheduler runs it: the worker loop
 * (worker.c), the search (find_work.c, victims.c, steal.c), parking
 * (park.c), the places that publish work (publish.c: a worker's ring push,
 * its fork-join deque push, a global queue push from outside the run's
 * workers), join/group waiters that park (wait.c, group.c; -DWAIT), the end
 * of a run (run.c) and the port's wait and wake (kernel/port.c: a pending
 * wake word, a "sleeping" word and a doorbell per core). What is covered,
 * the mapping of each step to the C code, and why sequentially consistent
 * interleavings are enough: README.md.
 *
 * Granularity: each C11 atomic access to shared data is one Promela step,
 * but for the few merges argued where they are made. A step also takes the
 * local computation around it. A seq_cst fence is no step: spin's
 * interleavings are sequentially consistent, which is what the fences buy
 * (docs/ordering.md).
 *
 * Queues are counts: tasks of a kind are alike, and which task runs where is
 * not the property. ring[i] is core i's ring as others see it (tail - real
 * head), fj[i] its fork-join deque (bottom - top), priv (a worker's local)
 * what only that core can run: the LIFO slot. Counted tasks (hive_spawn) go
 * to rings, the global queue and priv; group tasks (hive_group_spawn) to
 * fork-join deques; the rest of a global pull's batch to the puller's ring.
 *
 * Property: the run ends. A task left queued while every worker sleeps for
 * good keeps the outstanding count above zero, so no worker can leave: spin
 * reports an invalid end state (every process blocked, not at its end).
 * At the end, init checks the idle state and that whatever is still queued
 * was counted after the run's end (it waits for the next run).
 *
 * -DLONG: a task may also run for as long as work that other cores could
 * take is queued (a long computation, or a task that waits for the work it
 * spawned without helping). Then a task pushed to a busy core's ring must
 * be run by another core, or that busy core waits forever: the property
 * becomes "no core sleeps for good while another's takeable work waits".
 * It needs rule 3 as sched/idle.c has it: a worker that parks leaving
 * nobody searching rescans, a non-searcher too (README.md, "The LONG
 * finding": with the rescan of the last searcher only, spin shows a core
 * asleep beside a task waiting in a busy core's ring).
 *
 * A worker's push to its own ring or deque has no fence before its load of
 * S (publish.c): the load may come before the push, so the model takes
 * both orders (PUSH_THEN_LOAD, LOAD_THEN_PUSH). A push that woke nobody
 * arms its core's backstop, whose check (BACKSTOP_CHECK: the core's timer
 * interrupt, while it runs a long task) clears the flag and, if the core's
 * queues or the global queue hold work, runs the fenced notify. Without it
 * a core that parks as a push is made can miss it and sleep beside a busy
 * core's work: -DLONG must fail then (-DBUG_NO_BACKSTOP).
 *
 * Planted bugs, each of which spin must catch:
 *   -DBUG_NO_RESCAN       no parker rescans, the last searcher neither (rule 3)
 *   -DBUG_NO_NOTIFY       a global push from outside notifies nobody (rule 1)
 *   -DBUG_WAKE_DROPPED    hive_port_wait drops a wake that came before it
 *   -DBUG_AWAIT_NO_WAKE   (WAIT) the last group task wakes no sleeping waiter
 * and, under -DLONG:
 *   -DBUG_NO_RING_NOTIFY  a worker's ring push notifies nobody and arms no
 *                         backstop (rule 1 forgotten at that call)
 *   -DBUG_NO_BACKSTOP     own pushes notify without the fence and arm no
 *                         backstop (Rayon's push)
 *   -DBUG_NO_PULLED_NOTIFY (with NOUT >= NW: batches) the rest of a global
 *                         pull goes into the ring unannounced - as when it
 *                         was a list of the puller's own, run first
 *   -DBUG_NO_HANDOFF      the last searcher to find work wakes nobody (rule 2)
 *   -DBUG_RESCAN_LAST_SEARCHER_ONLY  only the last searcher rescans (rule 3
 *                         as it was, and as Tokio has it)
 *
 * -DPROBES=mask: REACHED(k) reports, once, that the search got there, and
 * pan stops as soon as every probe k of the mask (bit k) has been reached;
 * -DPROBES=0 reports and never stops. The pass ctests run with -DPROBES=0
 * and check.sh checks that the probes each is meant to reach were reported
 * (PAN_PROBES; README.md lists them), so the rare branches stay inside the
 * bounds the ctests check. The report is C (c_code): it is no part of the
 * state and cannot change what the search explores.
 */
#ifndef NW
#define NW     2          /* workers (cores in the run): ctest runs 2 and 3 */
#endif
#ifndef NOUT
#define NOUT   1          /* spawns from outside the workers (global queue) */
#endif
#ifndef NSPAWN
#define NSPAWN 1          /* spawns by running tasks, in all (ring pushes) */
#endif
#ifndef CB
#define CB     1          /* HIVE_CREDIT_BATCH: taken when a worker has none */
#endif
#ifndef NGROUP
#define NGROUP 1          /* WAIT: group tasks the entry spawns, then waits for */
#endif

#ifdef PROBES
c_decl { unsigned long hive_reached; }
#define REACHED(k) c_code { \
  if (!(hive_reached >> k & 1)) { \
    hive_reached |= 1ul << k; printf("probe %d reached\n", k); \
    if ((PROBES) && (hive_reached & (PROBES)) == (PROBES)) { \
      printf("every probe reached\n"); exit(0); \
    } \
  } };
#else
#define REACHED(k)
#endif

#define COUNTED 1         /* task kinds (t): 0 is none */
#define GROUP   2

/* S = unparked << 32 | searching: one atomic word in C, two bytes here,
   always read and written together in one step. */
byte un = NW;
byte se;
byte pmask;               /* P: bit i = worker i parked and not claimed */

/* kernel/port.c, per core */
bit wake[NW];             /* a wake is pending */
#ifndef PORT_SEMAPHORE
bit sleeping[NW];         /* deep sleep announced: wakers must ring */
bit doorbell[NW];         /* the doorbell interrupt is pending */
#endif

byte glen;                /* the global queue's length (hive_global.len) */
byte ring[NW];            /* ring i: tail - real head */
bit busy[NW];             /* ring i: a steal is in flight (steal != real) */
#ifdef WAIT
byte fj[NW];              /* fork-join deque i: bottom - top */
byte pending;             /* the group's awaited word: its count ... */
bit gsleep;               /* ... and HIVE_AWAIT_SLEEPING (the core: 0) */
#endif

/* A global pull takes more than one task (n = glen / NW + 1) only once
   NW tasks can be in the global queue: the rest goes to the puller's ring. */
#if NOUT >= NW
#define PULL_BATCH 1
#else
#define PULL_BATCH 0
#endif

#if NSPAWN > 0 || defined(WAIT) || PULL_BATCH
#define OWN_PUSHES 1
#else
#define OWN_PUSHES 0
#endif
#if OWN_PUSHES
bit armed[NW];            /* worker i's backstop_armed: a check is pending */
#endif

bit running;              /* hive_scheduler.phase == RUNNING */
byte outstanding = 1;     /* the entry task, counted by hive_run; plus credits */
byte credit[NW];          /* the counts each worker holds (run.c, "Credits") */
bit done;                 /* hive_scheduler.done */

/* Ghosts: not in the C code. */
byte spawns = NSPAWN;     /* spawns the running tasks may still make */
byte leftover;            /* private tasks of workers that left */
#ifdef LONG
byte inlong;              /* workers inside a long task */
#endif

#if NW == 2
#define TAKEABLE (glen + ring[0] + ring[1])
#else
#define TAKEABLE (glen + ring[0] + ring[1] + ring[2])
#endif

#if defined(WAIT) && defined(FJ_LONG)
#undef TAKEABLE
#if NW == 2
#define TAKEABLE (glen + ring[0] + ring[1] + fj[0] + fj[1])
#else
#define TAKEABLE (glen + ring[0] + ring[1] + ring[2] + fj[0] + fj[1] + fj[2])
#endif
#endif

/* Nobody writes a ring without ring pushes (spawns, or a pull's batch):
   its loads are left out then, as loads of a constant (they commute with
   every step). */
#if NSPAWN > 0 || PULL_BATCH
#define RINGS 1
#else
#define RINGS 0
#endif

/* ---- kernel/port.c ---- */

#ifdef PORT_SEMAPHORE
/* What the port implements, one step each: a wake sets the core's pending
   wake; a wait blocks until one is pending and consumes it. The detailed
   port below is checked with 2 workers (README.md). */
inline WAKE(c) { wake[c] = 1 }
inline PORT_WAIT() { d_step { wake[me]; wake[me] = 0 } }
#else
/* hive_port_wake(c) */
inline WAKE(c) {
  d_step {                                        /* exchange(&p->wake, 1) */
    old = wake[c]; wake[c] = 1;
    if :: old -> REACHED(8) skip :: else -> skip fi
  };
  if
  :: old == 0 ->
     /* fence */
     if
     :: sleeping[c] ->                            /* load sleeping (relaxed) */
        doorbell[c] = 1                           /* arch_irq_doorbell */
     :: else -> skip
     fi
  :: else -> skip                                 /* pending: its setter rang */
  fi;
  old = 0
}

/* hive_port_wait(0): phase 2, the deep sleep. Phase 1 (WFE on aarch64,
   absent on riscv64) only returns early when the wake word is set, which
   phase 2's exchange then consumes: it changes no outcome. No timeout. */
inline PORT_WAIT() {
#ifdef BUG_WAKE_DROPPED
  wake[me] = 0;                                   /* "a stale wake is spurious" */
#endif
  /* arch_irq_save: from here a doorbell stays pending until the unmask */
  do
  :: d_step { old = wake[me]; wake[me] = 0 };     /* exchange(&p->wake, 0) */
     if
     :: old -> break
     :: else ->
        d_step {                                  /* store sleeping (relaxed) */
          sleeping[me] = 1; printf("W%d: sleeping\n", me)
        };
        /* fence */
        if
        :: wake[me] -> skip                       /* load wake (relaxed) */
        :: else ->
           d_step {                               /* WFI: until an interrupt is pending */
             doorbell[me];
             if :: wake[me] -> REACHED(9) skip :: else -> REACHED(10) skip fi
           }
        fi;
        sleeping[me] = 0;                         /* store sleeping (relaxed) */
        doorbell[me] = 0                          /* unmask: it is taken; mask again */
     fi
  od;
  atomic { doorbell[me] = 0; old = 0 }            /* arch_irq_restore */
}
#endif

/* ---- sched/idle.c ---- */

/* hive_idle_notify (through hive_notify_idle, publish.c) */
inline NOTIFY() {
  /* fence */
  d_step {                                        /* atomic_load(&idle->state) */
    claim = se == 0 && un < NW                    /* nobody searches, someone parked */
  };
  CLAIM();
  atomic { claim = 0; bits = 0; b = 0; old = 0 }
}

/* The rest of hive_idle_notify, on what the load of S decided (claim):
   claim the lowest set bit and wake it. With b = NW before it, b < NW
   after it says it woke a core. */
inline CLAIM() {
  if
  :: claim ->
     bits = pmask;                                /* atomic_load(&idle->parked[w]) */
     do
     :: bits == 0 -> REACHED(2) break             /* all claimed, or left on their own */
     :: bits != 0 ->
        d_step {
          b = 0;                                  /* __builtin_ctzll(bits) */
          do
          :: (bits >> b) & 1 -> break
          :: else -> b++
          od;
          old = pmask; pmask = pmask & ~(1 << b); /* fetch_and(~mask) */
          if
          :: old & (1 << b) -> bits = 0;          /* ours */
             printf("P%d claims W%d\n", _pid, b)
          :: else -> REACHED(1)                   /* another waker won it */
             bits = old & ~(1 << b); b = NW
          fi
        };
        if
        :: b < NW -> WAKE(b); break               /* hive_port_wake(id) */
        :: else -> skip
        fi
     od
  :: else -> skip
  fi
}

#if OWN_PUSHES
/* publish.c, a worker's push to its own queue: the push, then
   hive_idle_notify_unfenced - no fence, so the load of S may be ordered
   before the push's store, and the model takes both orders (PUSH_THEN_LOAD,
   LOAD_THEN_PUSH: PRE is what comes before the push in the same step, PUSH
   the store). Then OWN_NOTIFY: the claim, and if it woke nobody the
   backstop, unless one is pending. */
#define LOAD_S claim = se == 0 && un < NW; b = NW
#define PUSH_THEN_LOAD(PRE, PUSH) \
  d_step { PRE; PUSH }; d_step { LOAD_S }
#define LOAD_THEN_PUSH(PRE, PUSH) \
  d_step { PRE; LOAD_S }; d_step { PUSH }

inline OWN_NOTIFY() {
#ifndef BUG_NO_RING_NOTIFY
  CLAIM();
#endif
  atomic {
#if !defined(BUG_NO_RING_NOTIFY) && !defined(BUG_NO_BACKSTOP)
    if                                            /* woke nobody: the backstop */
    :: b >= NW && !armed[me] -> armed[me] = 1     /* hive_port_backstop */
    :: else -> skip
    fi;
#endif
    claim = 0; bits = 0; b = 0; old = 0
  }
}

/* publish.c, backstop_check: the core's timer interrupt, HIVE_BACKSTOP_NS
   after the push that armed it, and every period after while it asks
   again. While no core is parked it only looks at S and keeps the flag.
   Once one is: clear the flag, fence, then if anything is queued where the
   core pushed - its ring, its deque, the global queue - the fenced notify.
   The three lengths are one step: loads of counts that only
   the worker's pushes raise; a task that leaves them in between was taken
   by an awake core, and a taker that found work is covered by rule 2.
   It runs inside a long task (RUN_SIMPLE): the one place the property
   needs it. Elsewhere a check is no more than a notify with the fence at a
   moment of its own - the model's outside spawn already makes those at every
   point - and it comes after the push it checks, so the push is visible to
   every park after it. */
inline BACKSTOP_CHECK() {
  if
  :: un == NW -> skip                             /* load S: none parked, look again later */
  :: else ->
     armed[me] = 0;                               /* store false; the fence */
     if
#if defined(WAIT) && !defined(BUG_BACKSTOP_NO_FJ)
     :: ring[me] + fj[me] + glen > 0 ->
#else
     :: ring[me] + glen > 0 ->
#endif
        REACHED(23) printf("W%d: the backstop finds work\n", me);
        NOTIFY()
     :: else -> skip
     fi
  fi
}
#endif

/* hive_idle_start_search. Its load of S and its CAS loop are one step: a
   CAS that succeeds saw the value the load (or the last failure) read, so
   the outcome is that of one step at the CAS; a refusal is one at the
   load; a failed CAS only repeats. */
inline START_SEARCH() {
  d_step {
    if
    :: 2 * se >= NW -> REACHED(3) skip            /* half the workers search */
    :: else -> se++; srch = 1;                    /* then a fence */
       printf("W%d searches\n", me);
       if :: se == 2 -> REACHED(20) skip :: else -> skip fi
    fi
  }
}

/* hive_stop_searching, find_work.c (hive_idle_stop_search) */
inline STOP_SEARCHING() {
  d_step {                                        /* atomic_fetch_sub */
    assert(se > 0);                               /* "searching count underflow" */
    srch = 0; last = se == 1; se--;
    printf("W%d found work, stops searching (last: %d)\n", me, last)
  };
#ifndef BUG_NO_HANDOFF
  if
  :: last -> NOTIFY()                             /* rule 2 */
  :: else -> skip
  fi;
#endif
  last = 0
}

/* ---- sched/find_work.c, steal.c, victims.c ---- */

/* hive_publish_pulled: the n tasks of the batch's rest into this core's
   ring (empty when the pull was sized), then the own push's notify, as a
   spawn's ring push (RUN_SIMPLE): the load of S in either order with the
   push, then OWN_NOTIFY. The pushes are one step: a thief that took some of
   them before the last found work (rule 2 covers it), and the notify comes
   after them all in the C code as here. */
inline PULLED() {
#if PULL_BATCH
  if
  :: n > 0 ->
     REACHED(25) printf("W%d pushes %d pulled task(s) to its ring\n", me, n);
     if
     :: PUSH_THEN_LOAD(skip, ring[me] = ring[me] + n)
     :: LOAD_THEN_PUSH(skip, ring[me] = ring[me] + n)
     fi;
#ifndef BUG_NO_PULLED_NOTIFY
     OWN_NOTIFY()
#else
     claim = 0; b = 0
#endif
  :: else -> skip
  fi;
#endif
  n = 0
}

/* hive_pull_global: hive_take_global, a batch only when the ring is empty
   (else one task), then the batch's rest into the ring (PULLED). Its loads
   (the ring's length, whether the global queue is empty and how long) are
   one step: only this core raises its ring's length (a thief that lowers it
   in between makes the pull take one task, which the protocol allows), and
   the global length only sizes the batch - any batch of at least one is
   what the protocol allows. The pop's own early-out load is merged with
   its locked section: both decide "empty" alike. */
inline TAKE_GLOBAL() {
  d_step {                                        /* hive_ring_len, hive_global_is_empty, _len */
    if
    :: glen > 0 ->
       if :: RINGS && ring[me] == 0 -> n = glen / NW + 1 :: else -> n = 1 fi
    :: else -> n = 0
    fi
  };
  if
  :: n > 0 ->
     d_step {                                     /* hive_global_pop_batch (locked) */
       if :: glen < n -> n = glen :: else -> skip fi;
       glen = glen - n;
       if
       :: n > 0 -> t = COUNTED; n = n - 1;
          printf("W%d takes %d task(s) from the global queue\n", me, n + 1)
       :: else -> skip
       fi
     };
     PULLED()
  :: else -> skip
  fi
}

/* hive_find_work's first pull (step 5), before any steal: the same calls
   as TAKE_GLOBAL, the loads and the pop as one step. Sound because the
   early-out load of the length only gates the locked pop, which decides
   again: a load that sees 0 changes nothing (the worker goes on as if it
   had not looked, here or a moment later), and one that sees more than 0
   leads to the pop, which takes what is there then (nothing included: the
   same as seeing 0) - any batch of at least one being what the protocol
   allows, as above. So the interleavings between the two steps add no
   state the worker could not reach as one. Kept apart from TAKE_GLOBAL,
   which stays as it was: as two steps here too, model.idle.3 needed 1.95 GB
   of pan's 2 GB (-DMEMLIM in check.sh); as one, 1.4 GB. */
inline TAKE_GLOBAL_FIRST() {
  d_step {                                        /* hive_ring_len, hive_global_is_empty, _len, _pop_batch */
    if
    :: glen > 0 ->
       if :: RINGS && ring[me] == 0 -> n = glen / NW + 1 :: else -> n = 1 fi;
       if :: glen < n -> n = glen :: else -> skip fi;
       glen = glen - n; t = COUNTED; n = n - 1;
       printf("W%d takes %d task(s) from the global queue\n", me, n + 1)
    :: else -> skip
    fi
  };
  PULLED()
}

/* hive_steal_from. The parked hint (hive_idle_hint_parked) is merged into
   the first load: a core whose bit is set has empty queues (asserted), so
   skipping it and finding it empty are the same outcome. */
inline STEAL_FROM(v) {
#ifdef WAIT
  d_step {                                        /* hive_steal_forkjoin: the CAS on top */
    assert(!((pmask >> v) & 1) || fj[v] == 0);    /* parked: its deque is empty */
    if
    :: (pmask >> v) & 1 -> REACHED(5) skip        /* hint: parked, skip it */
    :: else ->
       if
       :: fj[v] > 0 -> fj[v]--; t = GROUP;
          printf("W%d steals a group task from W%d\n", me, v)
       :: else -> skip
       fi
    fi
  };
  if
  :: t == 0 ->
#endif
  d_step {                                        /* hive_ring_steal_claim: the CAS on head */
    assert(!((pmask >> v) & 1) || ring[v] == 0);  /* parked: its ring is empty */
    if
    :: (pmask >> v) & 1 -> REACHED(5) n = 0       /* hint: parked, skip it */
    :: else ->
       if
       :: busy[v] -> REACHED(4) n = 0             /* BUSY */
       :: ring[v] == 0 && !busy[v] -> n = 0       /* EMPTY */
       :: ring[v] > 0 && !busy[v] ->
          n = ring[v] - ring[v] / 2;              /* half, rounded up */
          ring[v] = ring[v] - n; busy[v] = 1;
          printf("W%d claims %d task(s) of W%d's ring\n", me, n, v)
       fi
    fi
  };
  if
  :: n > 0 ->                                     /* hive_ring_steal_finish */
     busy[v] = 0;                                 /* the release CAS of head */
     if
     :: n > 1 -> REACHED(6)
        ring[me] = ring[me] + n - 1               /* store our tail (release) */
     :: else -> skip
     fi;
     atomic { t = COUNTED; n = 0 }
  :: else -> skip
  fi
#ifdef WAIT
  :: else -> skip
  fi
#endif
}

/* hive_steal_round: every other core once, from a random start. */
inline STEAL_ROUND() {
#if !RINGS && !defined(WAIT)
  skip                                            /* every queue stays empty */
#elif NW == 2
  v = 1 - me;
  STEAL_FROM(v);
#else
  if
  :: v = (me + 1) % NW
  :: v = (me + 2) % NW
  fi;
  STEAL_FROM(v);
  if
  :: t == 0 ->
     v = (v + 1) % NW;
     if :: v == me -> v = (v + 1) % NW :: else -> skip fi;
     STEAL_FROM(v)
  :: else -> skip
  fi;
#endif
  v = 0
}

/* hive_find_local: the batch and the LIFO slot (private), the fork-join
   deque, the ring. Its poll of the global queue every `interval` polls is
   hive_find_work's first pull (step 6) made earlier: not modelled apart. */
inline FIND_LOCAL() {
  if
  :: priv > 0 -> priv--; t = COUNTED
  :: else ->
#ifdef WAIT
     d_step {                                     /* hive_deque_len, hive_deque_pop */
       if :: fj[me] > 0 -> fj[me]--; t = GROUP :: else -> skip fi
     };
     if
     :: t == 0 ->
#endif
#if RINGS
     d_step {                                     /* hive_ring_pop: its CAS */
       if :: ring[me] > 0 -> ring[me]--; t = COUNTED :: else -> skip fi
     }
#else
     skip                                         /* every ring stays empty */
#endif
#ifdef WAIT
     :: else -> skip
     fi
#endif
  fi
}

/* hive_find_work */
inline FIND_WORK() {
  FIND_LOCAL();
  if
  :: t == 0 -> TAKE_GLOBAL_FIRST()                /* before any steal */
  :: else -> skip
  fi;
  if
  :: t == 0 ->
     if
     :: !srch -> START_SEARCH()
     :: else -> skip
     fi;
     if
     :: srch -> STEAL_ROUND()
     :: else -> skip
     fi;
     if
     :: t == 0 -> TAKE_GLOBAL()
     :: else -> skip
     fi
  :: else -> skip
  fi;
  if
  :: t && srch -> STOP_SEARCHING()
  :: else -> skip
  fi
}

/* ---- sched/run.c, run_task.c, spawn.c, publish.c, group.c ---- */

/* hive_outstanding_sub's last decrement: done, and every other core woken */
inline END_RUN() {
  d_step {                                        /* atomic_store(&done, true) */
    done = 1; printf("W%d: the run ends\n", me)
  };
  i = 0;
  do
  :: i < NW && i != me -> WAKE(i); i++            /* every other core */
  :: i < NW && i == me -> i++
  :: else -> break
  od;
  atomic { i = 0; last = 0 }
}

/* hive_outstanding_done: a counted task finished; its count becomes our
   credit, and past twice the batch a batch goes back (a seq_cst fetch_sub
   that cannot reach zero: the count includes what we keep). */
inline OUTSTANDING_DONE() {
  credit[me]++;                                   /* owner-only */
  if
  :: credit[me] > 2 * CB -> REACHED(22)
     d_step {                                     /* hive_credits_give_back */
       assert(outstanding > CB);
       outstanding = outstanding - CB; credit[me] = credit[me] - CB
     }
  :: else -> skip
  fi
}

/* The end of the run's entry (run_task.c, HIVE_TASK_ENTRY): its count goes
   off the shared count itself (hive_outstanding_sub(1), a seq_cst fetch_sub),
   not to a credit; if it was the last count, the run ends here. */
inline ENTRY_DONE() {
  d_step {
    assert(outstanding > 0);
    last = outstanding == 1; outstanding--
  };
  if
  :: last -> REACHED(24) END_RUN()
  :: else -> skip
  fi
}

/* hive_credits_return, before a core sleeps (park.c) */
inline RETURN_CREDITS() {
#ifndef BUG_KEEP_CREDITS
  if
  :: credit[me] > 0 ->
     d_step {                                     /* atomic_fetch_sub */
       last = outstanding == credit[me];
       outstanding = outstanding - credit[me]; credit[me] = 0
     };
     if
     :: last -> REACHED(21) END_RUN()
     :: else -> skip
     fi
  :: else -> skip
  fi
#else
  skip
#endif
}

/* hive_await_done (hive_group_task_done), wait.c */
#ifdef WAIT
inline AWAIT_DONE() {
  d_step {                                        /* fetch_sub (release) */
    assert(pending > 0);
    last = pending == 1 && gsleep; pending--;
    printf("W%d: a group task done (wake the waiter: %d)\n", me, last)
  };
  if
  :: last -> REACHED(15)
#ifndef BUG_AWAIT_NO_WAKE
     WAKE(0)                                      /* the core in the word */
#else
     skip
#endif
  :: else -> skip
  fi;
  last = 0
}
#else
inline AWAIT_DONE() { skip }
#endif

/* hive_spawn: count it (relaxed add), then the LIFO slot's previous task is
   published to the ring (hive_publish_spawn). The add is in
   the push's step: the running task holds a count, so nobody can see the
   run end in between, and nothing else reads the count. */
#define SPAWN_COUNT \
  spawns > 0 -> spawns--; \
  if                                              /* hive_outstanding_add */ \
  :: credit[me] == 0 ->                           /* hive_credits_refill */ \
     outstanding = outstanding + CB; credit[me] = CB \
  :: else -> skip \
  fi; \
  credit[me]--
#define RING_PUSH                                 /* hive_ring_push: store tail */ \
  ring[me]++; printf("W%d pushes a task to its ring\n", me)

/* hive_run_task of a task that does not wait, and what its fn does */
inline RUN_SIMPLE() {
  if
  :: t == GROUP -> t = 0; AWAIT_DONE()            /* group.c: uncounted */
  :: t == COUNTED ->
     d_step { t = 0; printf("W%d runs a task\n", me) };
     do
     :: if
        :: PUSH_THEN_LOAD(SPAWN_COUNT, RING_PUSH)
        :: LOAD_THEN_PUSH(SPAWN_COUNT, RING_PUSH)
        fi;
        OWN_NOTIFY()
     :: break
     od;
#ifdef LONG
     /* A long task: it ends once no work others could take is queued (or
        the run ended). One worker at least is never in one. */
     if
     :: d_step {
          inlong < NW - 1 -> inlong++;
          printf("W%d runs a long task\n", me);
          if :: TAKEABLE > 0 -> REACHED(19) skip :: else -> skip fi
        };
#if OWN_PUSHES
        do
        :: TAKEABLE == 0 || done -> break
        :: armed[me] -> BACKSTOP_CHECK()          /* its timer interrupt */
        od;
#else
        TAKEABLE == 0 || done;
#endif
        inlong--
     :: skip
     fi;
#endif
     if
     :: entry -> entry = 0; ENTRY_DONE()          /* core 0's first task */
     :: else -> OUTSTANDING_DONE()
     fi
  fi
}

/* ---- sched/park.c ---- */

inline SCAN() {
     if
     :: glen > 0 -> found = 1                     /* hive_global_is_empty */
     :: else ->
        i = 0;
        do
        :: i < NW ->
#if RINGS
           d_step {                               /* hive_ring_len */
             if :: ring[i] > 0 -> found = 1 :: else -> skip fi
           };
#endif
#ifdef WAIT
           if
           :: !found ->
              d_step {                            /* hive_deque_len */
                if :: fj[i] > 0 -> found = 1 :: else -> skip fi
              }
           :: else -> skip
           fi;
#endif
           if :: found -> break :: else -> i++ fi
        :: else -> break
        od
     fi
}

/* hive_idle_park and the rescan of hive_park_until */
inline IDLE_PARK() {
#ifdef BUG_RESCAN_FIRST
  SCAN(); skip;                                   /* any_work() before the RMWs */
#endif
#ifndef BUG_PARK_COUNT_FIRST
  d_step {                                        /* fetch_or: set our bit */
    assert(((pmask >> me) & 1) == 0);             /* "parked twice" */
    pmask = pmask | (1 << me)
  };
#endif
  d_step {                                        /* fetch_sub, then a fence if rescan */
    assert(un > 0 && (!srch || se > 0));          /* "idle count underflow" */
#ifndef BUG_RESCAN_LAST_SEARCHER_ONLY
    last = se == srch;                            /* nobody searches after us */
#else
    last = srch && se == 1;                       /* we were the last searcher */
#endif
    un--;
    if :: srch -> se-- :: else -> skip fi;
    printf("W%d parks (searching: %d, rescans: %d)\n", me, srch, last);
    srch = 0                                      /* w->searching = false (later in C) */
  };
#ifdef BUG_PARK_COUNT_FIRST
  d_step { assert(((pmask >> me) & 1) == 0); pmask = pmask | (1 << me) };
#endif
#ifndef BUG_NO_RESCAN
  if
  :: last ->                                      /* any_work(), park.c */
#ifndef BUG_RESCAN_FIRST
     SCAN();
#endif
     if
     :: found -> NOTIFY()                         /* may claim ourselves */
#ifdef PROBES
        ; if :: !((pmask >> me) & 1) -> REACHED(7) skip :: else -> skip fi
#endif
     :: else -> skip
     fi
  :: else -> skip
  fi;
#endif
  atomic { last = 0; found = 0; i = 0 }
}

/* hive_idle_unpark: leave as a searcher */
inline IDLE_UNPARK() {
  pmask = pmask & ~(1 << me);                     /* fetch_and: clear our bit */
  d_step {                                        /* fetch_add, then a fence */
    assert(un < NW && se < NW);                   /* "idle count overflow" */
    un++; se++; srch = 1;
    printf("W%d unparks, searching\n", me)
  }
}

/* hive_park: hive_park_until(w, NULL), no timeout */
inline PARK() {
  RETURN_CREDITS();
  IDLE_PARK();
  do
  :: ((pmask >> me) & 1) == 0 -> break            /* hive_idle_is_parked */
  :: else ->
     if
     :: done -> REACHED(12) break                 /* hive_run_done */
     :: else -> PORT_WAIT()
     fi
  od;
  IDLE_UNPARK()
}

#ifdef WAIT
/* ---- sched/wait.c, group.c: the entry is a group waiter ---- */

/* help_group_waiter (group.c) at depth 1: our deque, then
   hive_wait_find_work (wait.c), which is not deep: hive_find_local, a steal
   round, the global queue. */
inline HELP() {
  d_step {                                        /* hive_deque_len, hive_deque_pop */
    if :: fj[me] > 0 -> fj[me]--; t = GROUP :: else -> skip fi
  };
  if
  :: t == 0 -> FIND_LOCAL()
  :: else -> skip
  fi;
  if
  :: t == 0 ->
     STEAL_ROUND();
     if
     :: t ->                                      /* a batch in our ring: notify */
#if RINGS
        if
        :: ring[me] > 0 -> REACHED(18) NOTIFY()   /* hive_ring_len */
        :: else -> skip
        fi
#else
        skip
#endif
     :: else -> TAKE_GLOBAL()
     fi
  :: else -> skip
  fi
}

/* hive_park_until(w, awaited) */
inline PARK_UNTIL() {
  RETURN_CREDITS();
  IDLE_PARK();
  do
  :: ((pmask >> me) & 1) == 0 -> REACHED(16) break /* hive_idle_is_parked */
  :: else ->
     if
     :: done -> break                             /* hive_run_done */
     :: else ->
        if
        :: pending == 0 -> break                  /* hive_await_count */
        :: else -> PORT_WAIT()
        fi
     fi
  od;
  IDLE_UNPARK()
}

/* hive_group_spawn (group_push), then hive_group_wait -> hive_wait_for.
   The wait's spin (HIVE_WAIT_SPIN_NS of fruitless helping) is one look: a
   fruitless look changes nothing shared, so more of them add no state. */
#define FJ_PUSH                                   /* hive_deque_push: store bottom */ \
  fj[me]++; printf("W%d pushes a group task to its deque\n", me)

inline GROUP_AND_WAIT() {
  do
  :: gi < NGROUP ->
     gi++;
     pending++;                                   /* fetch_add (relaxed) */
     if                                           /* hive_publish_forkjoin */
     :: PUSH_THEN_LOAD(skip, FJ_PUSH)
     :: LOAD_THEN_PUSH(skip, FJ_PUSH)
     fi;
#ifndef BUG_NO_FJ_NOTIFY
     OWN_NOTIFY()
#else
     atomic { claim = 0; b = 0 }
#endif
  :: else -> break
  od;
#if defined(LONG) && defined(FJ_LONG)
  /* join.c: a task's first join is shared at once and its fa may be one
     long leaf: the pushing core runs long beside its deque's work. */
  if
  :: d_step { inlong < NW - 1 -> inlong++; printf("W%d: fa runs long\n", me) };
     do
     :: TAKEABLE == 0 || done -> break
     :: armed[me] -> BACKSTOP_CHECK()
     od;
     inlong--
  :: skip
  fi;
#endif
  do
  :: pending == 0 -> break                        /* hive_await_count */
  :: else ->
     HELP();
     if
     :: t ->
        if :: srch -> STOP_SEARCHING() :: else -> skip fi;
        RUN_SIMPLE()
     :: else ->
        if :: !srch -> START_SEARCH() :: else -> skip fi;
        if :: srch -> HELP() :: else -> skip fi;
        if
        :: t -> STOP_SEARCHING(); RUN_SIMPLE()
        :: else ->
           /* announce: its load and CAS. With one waiter, SLEEPING (gsleep)
            * is only ever its own and clear here, so only a zero count
            * refuses; a second waiter, which marks OTHERS and sleeps too,
            * is await.pml's. */
           d_step {
             if
             :: pending == 0 || gsleep -> REACHED(17) ok = 0
             :: else -> gsleep = 1; ok = 1;
                printf("W%d waits for the group: sleeping on its count\n", me)
             fi
           };
           if
           :: ok -> REACHED(14)
              ok = 0;
              PARK_UNTIL();
              gsleep = 0                          /* withdraw: fetch_and */
           :: else -> skip
           fi
        fi
     fi
  od;
  if :: srch -> STOP_SEARCHING() :: else -> skip fi  /* our continuation */
}
#endif

/* ---- processes ---- */

/* hive_worker_main */
proctype Worker(byte me) {
  bit srch, last, found, claim;
  bit entry;                                      /* t, when taken, is the run's entry */
  byte t, priv, old, bits, b, i, v, n;
#ifdef WAIT
  bit ok;
  byte gi;
#endif
  if
  :: me == 0 -> priv = 1; entry = 1               /* the entry in core 0's LIFO slot */
  :: else -> skip
  fi;
  do
  :: done -> break                                /* hive_run_done */
  :: else ->
     FIND_WORK();
     if
#ifdef WAIT
     :: t && entry ->                             /* the entry: a group waiter */
        atomic { t = 0; entry = 0 };
        GROUP_AND_WAIT();
        ENTRY_DONE()
     :: t && !entry -> RUN_SIMPLE()
#else
     :: t -> RUN_SIMPLE()
#endif
     :: else -> PARK()
     fi
  od;
  if
  :: srch -> d_step { assert(se > 0); se--; srch = 0 } /* hive_idle_stop_search */
  :: else -> skip
  fi;
  /* A task taken between the decrement that ended the run and the store of
     done (an outside spawn for the next run) leaves its count with us. */
  RETURN_CREDITS();
  /* hive_run's move_leftovers: what only this core could run */
  d_step { leftover = leftover + priv; priv = 0 }
}

/* hive_spawn from outside the run's workers (another thread, an interrupt
   handler): hive_publish_global(t) */
proctype Outside() {
  byte k, old, bits, b;
  bit claim;
  do
  :: k < NOUT ->
     k++;
     d_step {                                     /* hive_outstanding_add */
       if :: outstanding == 0 -> REACHED(13) skip :: else -> skip fi;
       outstanding++
     };
#ifdef BUG_GLOBAL_NO_FENCE
     d_step { claim = se == 0 && un < NW };       /* load S passes the push */
#endif
     d_step {                                     /* hive_global_push (locked) */
       glen++; printf("P%d (outside) pushes a task to the global queue\n", _pid)
     };
     /* fence */
     if
     :: running ->                                /* atomic_load(&phase) */
#if defined(BUG_GLOBAL_NO_FENCE)
        CLAIM(); atomic { claim = 0; bits = 0; b = 0; old = 0 }
#elif !defined(BUG_NO_NOTIFY)
        NOTIFY()
#else
        skip
#endif
     :: else -> REACHED(11) skip                  /* the run's workers will look */
     fi
  :: else -> break
  od
}

init {
  byte j, total;
  run Outside();                                  /* may push before the run starts */
  running = 1;                                    /* hive_run: store RUNNING, fence */
  atomic {                                        /* hive_port_run_on_cores */
    j = 0;
    do
    :: j < NW -> run Worker(j); j++
    :: else -> break
    od
  };
  _nr_pr == 1;                                    /* the workers left, the outside is done */
  d_step {
    /* Every worker left awake and not searching, nobody parked. */
    assert(un == NW && se == 0 && pmask == 0);
    /* What is still queued is exactly what is still counted: tasks spawned
       after the run's end, for the next run (move_leftovers). */
    total = glen + leftover;
    j = 0;
    do
    :: j < NW -> assert(busy[j] == 0); total = total + ring[j]; j++
    :: else -> break
    od;
    assert(total == outstanding);
    /* The run ended at zero, with every credit given back. */
    j = 0;
    do
    :: j < NW -> assert(credit[j] == 0); j++
    :: else -> break
    od
#ifdef WAIT
    ; assert(pending == 0 && !gsleep && fj[0] == 0)   /* only core 0 pushes */
#endif
  }
}
