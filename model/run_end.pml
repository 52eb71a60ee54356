/*
 * How a run ends (sched/run.c: "Termination", "Credits", "Late ends"), over
 * two runs in a row: hive_run's setup and teardown, the shared count
 * (hive_scheduler.outstanding), the workers' credits, `done`, `ending`, the
 * phase and an open run's hold, the worker loop (worker.c) and its parks
 * (park.c), and callers from outside the run's workers - a thread that
 * spawns, a hive_stop, a cancelled hive_after - that can be held up at any
 * step, while the run they took their count off ends and the next starts.
 *
 * Granularity: each C11 atomic access to shared data is one Promela step,
 * with the caller's owner-only data (a worker's credits, its LIFO slot) in
 * the same step. A seq_cst fence is no step: spin's interleavings are
 * sequentially consistent, which is what the fences buy; the one a missing
 * fence lets through is planted by hand (BUG_RUN_NO_FENCE).
 *
 * Queues are abstracted: `queued` counts counted tasks queued anywhere (a
 * spawn from outside goes to the global queue, one from a task to its
 * core's queues; any worker of a run may take one), and the entry sits in
 * core 0's LIFO slot (`lifo0`), which only worker 0 takes. A parked worker
 * leaves its park when work is queued: the idle protocol's notify and
 * claim, which idle.pml checks, are taken as given here.
 *
 * Ghosts (no part of the C state): `live`, the counts the run really owes -
 * counted tasks spawned and not finished, the entry until it returns, an
 * open run's hold, a hive_after's promise; `epoch`, the runs begun (hive_run
 * adds its entry's count); `ended`, the epoch of the last decrement that
 * brought the count to zero; `in_end`, outside callers between such a
 * decrement and their release of `ending`; `entry_ran`.
 *
 * Properties (README.md states them): a decrement brings the count to zero
 * only when nothing is owed (live == 0); the count never goes below zero;
 * a run's workers leave only after a decrement of that run reached zero,
 * and its entry has run; no setup write (hive_scheduler.workers, done) is
 * made while an outside caller's end_run may still read or write them; no
 * hang (spin's invalid end states): both runs end and every process ends;
 * at the end, what is counted is what is queued.
 *
 * -DSTOP: run 1 is open (until_stopped) and a thread stops it (hive_stop).
 * -DAFTER: a thread's hive_after: its count (hive_spawn_count) at any time,
 *          then its cancel (hive_spawn_cancel: uncount) or its timer (queued).
 * -DIRQ:   (with STOP) the hive_stop comes from an interrupt handler on
 *          worker 1's core, taken while that core waits in its park.
 * NOUT spawns from outside (a thread), TSPAWN spawns from tasks (in all).
 *
 * Planted bugs, each of which spin must catch:
 *   -DBUG_NO_WAIT          hive_run does not wait for `ending` to be zero
 *   -DBUG_ENDING_AFTER     hive_outstanding_sub_anywhere counts itself in
 *                          `ending` after its decrement, not before
 *   -DBUG_RUN_NO_FENCE     hive_run's load of `ending` before its add of the
 *                          entry's count (what the missing fence allows)
 *   -DBUG_KEEP_CREDITS     a worker parks without giving its credits back
 *   -DBUG_EXIT_KEEPS_CREDITS a worker leaves its loop holding credits
 *   -DBUG_IRQ_NO_SELF_WAKE (IRQ) end_run in an interrupt handler does not
 *                          wake the core it interrupted
 *
 * -DPROBES=0: REACHED(k) reports, once, that the search got to the rare
 * branch k (README.md lists them); check.sh's PAN_PROBES makes a pass ctest
 * fail if one of its probes is never reported. C code, no part of the state.
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
#ifndef NW
#define NW 2           /* workers per run */
#endif
#ifndef NRUN
#define NRUN 2
#endif
#ifndef NOUT
#define NOUT 1         /* spawns from an outside thread */
#endif
#ifndef TSPAWN
#define TSPAWN 1       /* spawns from task context, over both runs */
#endif
#ifndef CB
#define CB 1           /* HIVE_CREDIT_BATCH */
#endif

/* No setup write while an outside caller's end_run may still read or
   write what it writes. -DNO_SETUP_CHECK leaves it out, to see what a
   planted bug does next. */
#ifdef NO_SETUP_CHECK
#define SETUP_CHECK skip
#else
#define SETUP_CHECK assert(in_end == 0)
#endif

#define STOPPED 0
#define STARTING 1
#define RUNNING 2
#define STOPPING 3

byte outstanding;      /* hive_scheduler.outstanding */
byte credit[NW];       /* hive_workers[i].credits: owner-only */
bit done;              /* hive_scheduler.done */
byte ending;           /* hive_scheduler.ending */
byte phase;            /* hive_scheduler.phase */
bit open;              /* hive_scheduler.open */
byte nworkers;         /* hive_scheduler.workers: a plain field */
bit wake[NW];          /* the port's pending wake per core */
byte queued;           /* counted tasks queued (abstract queues) */
bit lifo0;             /* the entry in core 0's LIFO slot */
byte tspawn = TSPAWN;  /* task-context spawns left (a bound) */
bit irq = 1;           /* the interrupt's hive_stop not yet taken (IRQ) */
byte left;             /* workers of this run that have returned */

/* ghosts */
byte live, epoch, ended, in_end;
bit entry_ran;

/* A decrement of the shared count by n (seq_cst fetch_sub), owing `owed`
   fewer: `last` if it was the last count. */
#define DECREMENT(n, owed) \
  assert(outstanding >= n && live >= owed); \
  live = live - owed; \
  last = outstanding == n; \
  outstanding = outstanding - n; \
  if \
  :: last -> assert(live == 0); ended = epoch; \
     if :: phase != RUNNING -> REACHED(5) :: else -> skip fi; \
     printf("P%d: the count reaches zero (run %d)\n", _pid, epoch) \
  :: else -> skip \
  fi

/* end_run, from a worker in task or worker context: done, then every other
   core of the run woken; self: the core it runs on (NW: none). */
inline END_RUN(self) {
  d_step { done = 1; printf("W%d stores done\n", me) };  /* atomic_store(&done, true) */
  i = 0;
  do
  :: i < nworkers ->                              /* reads hive_scheduler.workers */
     if
     :: i != self -> wake[i] = 1                  /* hive_port_wake(i) */
     :: else -> skip
     fi;
     i++
  :: else -> break
  od
}

/* hive_outstanding_sub (a worker's: the entry's end, its credits) */
inline SUB(n, owed) {
  d_step { DECREMENT(n, owed) };
  if
  :: last -> END_RUN(me)
  :: else -> skip
  fi
}

/* hive_credits_return: before a core sleeps, and as it leaves its loop */
inline RETURN_CREDITS() {
  if
  :: credit[me] > 0 ->                            /* n = w->credits; w->credits = 0 */
     d_step {
       n = credit[me]; credit[me] = 0;
       printf("W%d gives back %d credit(s)\n", me, n);
       DECREMENT(n, 0)
     };
     if
     :: last -> END_RUN(me)
     :: else -> skip
     fi
  :: else -> skip
  fi
}

/* hive_outstanding_sub_anywhere(1), from outside the run's workers (a
   thread: no self; an interrupt handler on core self: wakes it too),
   taking off one count that was owed. */
inline SUB_ANYWHERE(self) {
#ifndef BUG_ENDING_AFTER
  ending++;                                       /* fetch_add (seq_cst); fence */
#endif
  d_step {
    DECREMENT(1, 1);
    if :: last -> in_end++ :: else -> skip fi
  };
#ifdef BUG_ENDING_AFTER
  ending++;
#endif
  if
  :: last ->                                      /* end_run */
     atomic {                                     /* atomic_store(&done, true) */
       if :: self < NW -> REACHED(6) :: else -> skip fi;
       if :: done -> REACHED(2) :: else -> skip fi;  /* another end came first */
       done = 1; printf("P%d stores done\n", _pid)
     };
     i = 0;
     do
     :: i < nworkers ->
        if
#ifdef BUG_IRQ_NO_SELF_WAKE
        :: i == self -> skip
#endif
        :: else -> wake[i] = 1
        fi;
        i++
     :: else -> break
     od
  :: else -> skip
  fi;
  atomic {                                        /* fetch_sub (release) */
    ending--; printf("P%d leaves ending\n", _pid);
    if :: last -> in_end-- :: else -> skip fi
  }
}

/* The task's function: may spawn a counted task from task context
   (hive_outstanding_add(w): a credit, a batch from the shared count when it
   has none; then the task is queued) */
inline TASK_BODY() {
  if
  :: d_step {
       tspawn > 0 -> tspawn--;
       if
       :: credit[me] == 0 ->                      /* hive_credits_refill */
          outstanding = outstanding + CB; credit[me] = CB
       :: else -> skip
       fi;
       credit[me]--; live++
     };
     queued++                                     /* hive_publish_spawn */
  :: skip
  fi
}

/* A counted task: run it, then hive_outstanding_done: its count becomes our
   credit; past twice the batch a batch goes back (cannot be the last). */
inline TASK() {
  TASK_BODY();
  d_step { assert(live > 0); live--; credit[me]++ };
  if
  :: credit[me] > 2 * CB -> REACHED(8)            /* hive_credits_give_back */
     d_step { credit[me] = credit[me] - CB; DECREMENT(CB, 0); assert(!last) }
  :: else -> skip
  fi
}

/* The run's entry: its end takes its count off the shared count itself. */
inline ENTRY() {
  d_step { assert(!entry_ran); entry_ran = 1; printf("W%d runs the entry of run %d\n", me, epoch) };
  TASK_BODY();
  SUB(1, 1)
}

/* hive_park_until: credits back, then wait until claimed (work queued: the
   idle protocol), the run is done, or (in the port's wait) a wake comes. */
inline PARK() {
#ifndef BUG_KEEP_CREDITS
  RETURN_CREDITS();
#endif
  do
  :: queued > 0 -> break                          /* claimed: hive_idle_is_parked */
  :: else ->
     if
     :: done -> break                             /* hive_run_done */
     :: else ->
wait:                                             /* hive_port_wait */
        if
        :: d_step { wake[me] -> wake[me] = 0 }
        :: queued > 0 -> skip                     /* a notify's claim and wake */
#ifdef IRQ
        :: me == 1 && irq && open ->              /* the interrupt, on this core */
           d_step {                               /* hive_stop's exchange reads true */
             irq = 0; open = 0; printf("W%d: an interrupt's hive_stop\n", me)
           };
           SUB_ANYWHERE(me);
           goto wait                              /* back into the port's wait */
#endif
        fi
     fi
  od
}

proctype Worker(byte me) {
  bit last;
  byte i, n;
  do
  :: done -> break                                /* while (!hive_run_done()) */
  :: else ->
     if                                           /* hive_find_work */
     :: me == 0 && lifo0 -> lifo0 = 0; ENTRY()
     :: atomic { queued > 0 -> queued--;
          if :: ended == epoch -> REACHED(4) :: else -> skip fi;
          printf("W%d takes a task\n", me) };
        TASK()
     :: else -> PARK()
     fi
  od;
#ifndef BUG_EXIT_KEEPS_CREDITS
  /* a task taken between the decrement that ended the run and the store of
     done left its count here */
  if :: credit[me] > 0 -> REACHED(7) :: else -> skip fi;
  RETURN_CREDITS();
#endif
  atomic { left++; printf("W%d leaves run %d\n", me, epoch) }
}

/* hive_spawn from another thread: count (relaxed add), then queue. */
proctype Spawner() {
  byte k;
  do
  :: k < NOUT ->
     d_step { outstanding++; live++ };            /* hive_outstanding_add(NULL) */
     d_step { queued++; printf("P%d (outside) spawns a task\n", _pid) };  /* hive_publish_global */
     k++
  :: else -> break
  od
}

#if defined(STOP) && !defined(IRQ)
/* hive_stop from another thread, the call that finds the run open */
proctype Stopper() {
  bit last;
  byte i;
  d_step {                                        /* atomic_exchange(&open, false) */
    open -> open = 0; printf("P%d (outside): hive_stop\n", _pid)
  };
  SUB_ANYWHERE(NW)
}
#endif

#ifdef AFTER
/* hive_after from another thread: hive_spawn_count, then the cancel
   (hive_spawn_cancel: give_back, uncount) or the timer (hive_spawn_queue) */
proctype After() {
  bit last;
  byte i;
  d_step { outstanding++; live++ };               /* hive_spawn_count */
  if
  :: SUB_ANYWHERE(NW)                             /* cancelled */
  :: queued++                                     /* fired */
  fi
}
#endif

/* hive_run: run r (0 or 1); run 0 is open under STOP. */
inline HIVE_RUN(r) {
  d_step { assert(phase == STOPPED); phase = STARTING };  /* the CAS */
#ifdef BUG_RUN_NO_FENCE
  ending == 0;
#endif
  d_step {                                        /* the entry's count */
    outstanding++; live++; epoch++; entry_ran = 0;
    printf("hive_run: run %d counts its entry (count %d)\n", epoch, outstanding)
  };
#ifdef STOP
  if
  :: r == 0 -> d_step { outstanding++; live++ }   /* the open run's hold */
  :: else -> skip
  fi;
#endif
  /* fence */
#if !defined(BUG_NO_WAIT) && !defined(BUG_RUN_NO_FENCE)
  if                                              /* while (load(ending)) relax */
  :: ending == 0 -> skip
  :: atomic {
       ending > 0 ->
       if :: in_end > 0 -> REACHED(3) :: else -> REACHED(1) fi
     };
     ending == 0
  fi;
#endif
  d_step { SETUP_CHECK; nworkers = NW };  /* hive_scheduler.workers = */
  d_step {                                        /* store(done, false), relaxed */
    SETUP_CHECK; done = 0; printf("hive_run: run %d setup, done = 0\n", epoch);
    j = 0;                                        /* worker_reset */
    do
    :: j < NW -> assert(credit[j] == 0); j++
    :: else -> break
    od;
    lifo0 = 1                                     /* the entry in core 0's slot */
  };
#ifdef STOP
  open = (r == 0);                                /* store(open), release */
#endif
  d_step { phase = RUNNING; printf("hive_run: run %d RUNNING\n", epoch) };  /* seq_cst; fence */
  atomic {                                        /* hive_port_run_on_cores */
    j = 0;
    do
    :: j < NW -> run Worker(j); j++
    :: else -> break
    od
  };
  left == NW;
  left = 0;
  phase = STOPPING;
  d_step {
    assert(!open);                                /* HIVE_CHECK: stopped */
    j = 0;
    do
    :: j < NW -> assert(credit[j] == 0); j++      /* HIVE_CHECK: no credits */
    :: else -> break
    od;
    assert(entry_ran && !lifo0);                  /* the entry ran */
    assert(ended == epoch)                        /* this run's count reached zero */
  };
  phase = STOPPED
}

init {
  byte j, r;
  atomic {
    run Spawner();
#if defined(STOP) && !defined(IRQ)
    run Stopper();
#endif
#ifdef AFTER
    run After();
#endif
  };
  do
  :: r < NRUN -> HIVE_RUN(r); r++
  :: else -> break
  od;
  _nr_pr == 1;                                    /* the outside callers are done */
  d_step {
    assert(ending == 0 && in_end == 0);
    assert(outstanding == live && live == queued) /* counted = queued, for the next run */
  }
}
