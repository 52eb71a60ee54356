/*
 * The idle protocol of sched/idle.c as the scheduler runs it: the worker loop
 * (worker.c), the search (find_work.c, victims.c, steal.c), parking
 * (park.c), the places that publish work (publish.c: a worker's ring push,
 * the global queue push from outside a run's workers), the end of a run
 * (run.c) and the port's wait and wake (kernel/port.c: a pending wake word
 * and a doorbell per core). What is covered, the step-by-step mapping to the
 * C code and why sequentially consistent interleavings are enough: README.md.
 *
 * Granularity: each C11 atomic access to shared data is one Promela step
 * (the few merged accesses are argued where they are). A seq_cst fence is
 * no step: spin's interleavings are sequentially consistent already, which
 * is what the fences buy (docs/ordering.md).
 *
 * Queues are counts: tasks are alike, and which task runs where is not the
 * property. ring[i] is core i's ring (tail - real head: what thieves and the
 * rescan can see), priv the tasks only their core can run (the LIFO slot and
 * the private batch of a global pull).
 *
 * Property: the run ends. A task left queued while every worker sleeps for
 * good keeps the outstanding count above zero, so no worker leaves and spin
 * reports an invalid end state (every process blocked, not at its end).
 * With -DLONG a task may also run "for as long as takeable work remains":
 * then a worker's ring push must get its task run by another worker, or the
 * pusher waits forever and the run cannot end either.
 *
 * Planted bugs, each of which spin must catch:
 *   -DBUG_NO_RESCAN       the last searcher to park does not rescan (rule 3)
 *   -DBUG_NO_NOTIFY       a global push from outside notifies nobody (rule 1)
 *   -DBUG_NO_RING_NOTIFY  a worker's ring push notifies nobody (rule 1; LONG)
 *   -DBUG_WAKE_DROPPED    hive_port_wait discards a wake that came before it
 *   -DBUG_NO_HANDOFF      the last searcher to find work wakes nobody (rule 2)
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

/* S = unparked << 32 | searching: one atomic word in C, two bytes here,
   always read and written together in one step. */
byte un = NW;
byte se;
byte pmask;               /* P: bit i = worker i parked and not claimed */

/* kernel/port.c, per core */
bit wake[NW];             /* a wake is pending */
bit sleeping[NW];         /* deep sleep announced: wakers must ring */
bit doorbell[NW];         /* the doorbell interrupt is pending */

byte glen;                /* the global queue's length (hive_global.len) */
byte ring[NW];            /* ring i: tail - real head */
bit busy[NW];             /* ring i: a steal is in flight (steal != real) */

byte outstanding = 1;     /* the entry task, counted by hive_run */
bit done;                 /* hive_scheduler.done */
bit running;              /* hive_scheduler.phase == RUNNING */

/* Ghosts: not in the C code. */
byte spawns = NSPAWN;     /* spawns the running tasks may still make */
byte inlong;              /* workers inside a long task (LONG) */
bit ended;                /* outstanding reached 0 once: the run's end */
byte late;                /* tasks counted after the run's end */
byte leftover;            /* private tasks of workers that left */
byte exited;              /* workers that left */

/* Work that other cores can take: what a long task waits to see gone. */
#if NW == 2
#define TAKEABLE (glen + ring[0] + ring[1])
#else
#define TAKEABLE (glen + ring[0] + ring[1] + ring[2])
#endif

#ifdef PORT_SEMAPHORE
/* The port as what it implements: one pending wake per core (README). */
inline WAKE(c) { wake[c] = 1 }
#else
/* hive_port_wake(c), kernel/port.c */
inline WAKE(c) {
  d_step { old = wake[c]; wake[c] = 1 };          /* exchange(&p->wake, 1) */
  if
  :: old == 0 ->
     /* fence */
     if
     :: sleeping[c] ->                            /* load sleeping (relaxed) */
        doorbell[c] = 1                           /* arch_irq_doorbell */
     :: else -> skip
     fi
  :: else -> skip                                 /* already pending */
  fi;
  old = 0
}
#endif

/* hive_idle_notify, sched/idle.c (hive_notify_idle, publish.c) */
inline NOTIFY() {
  /* fence */
  d_step { s_se = se; s_un = un };                /* atomic_load(&idle->state) */
  if
  :: s_se == 0 && s_un < NW ->
     bits = pmask;                                /* atomic_load(&idle->parked[w]) */
     do
     :: bits == 0 -> break                        /* nobody to claim */
     :: bits != 0 ->
        d_step {
          b = 0;                                  /* __builtin_ctzll(bits) */
          do
          :: (bits >> b) & 1 -> break
          :: else -> b++
          od;
          old = pmask; pmask = pmask & ~(1 << b)  /* fetch_and(~mask): claim */
        };
        if
        :: old & (1 << b) ->
           printf("P%d claims worker %d\n", _pid, b);
           WAKE(b); break
        :: else -> bits = old & ~(1 << b)         /* another waker won it */
        fi
     od
  :: else -> skip                                 /* someone searches, or all awake */
  fi;
  atomic { s_se = 0; s_un = 0; bits = 0; b = 0; old = 0 }
}

#ifdef PORT_SEMAPHORE
inline PORT_WAIT() { d_step { wake[me]; wake[me] = 0 } }
#else
/* hive_port_wait(0), kernel/port.c: phase 2 (the deep sleep). Phase 1 (WFE
   on aarch64, absent on riscv64) only returns early when the wake word is
   set, which the exchange below then consumes: it changes no outcome. */
inline PORT_WAIT() {
#ifdef BUG_WAKE_DROPPED
  wake[me] = 0;                                   /* "a stale wake is spurious" */
#endif
  /* arch_irq_save: from here the doorbell stays pending until the unmask */
  do
  :: d_step { old = wake[me]; wake[me] = 0 };     /* exchange(&p->wake, 0) */
     if
     :: old -> break
     :: else ->
        sleeping[me] = 1;                         /* store sleeping (relaxed) */
        /* fence */
        if
        :: wake[me] -> skip                       /* load wake (relaxed) */
        :: else ->
           printf("P%d sleeps\n", _pid);
           doorbell[me]                           /* WFI: until an interrupt is pending */
        fi;
        sleeping[me] = 0;                         /* store sleeping (relaxed) */
        doorbell[me] = 0                          /* unmask: the interrupt is taken */
     fi
  od;
  atomic { doorbell[me] = 0; old = 0 }            /* arch_irq_restore */
}
#endif

/* hive_outstanding_done, run.c */
inline OUTSTANDING_DONE() {
  d_step {                                        /* atomic_fetch_sub */
    prev = outstanding; outstanding--;
    if :: prev == 1 -> ended = 1 :: else -> skip fi
  };
  if
  :: prev == 1 ->
     done = 1;                                    /* atomic_store(&done, true) */
     printf("P%d: the run ends\n", _pid);
     i = 0;
     do
     :: i < NW && i != me -> WAKE(i); i++
     :: i < NW && i == me -> i++
     :: else -> break
     od;
     i = 0
  :: else -> skip
  fi;
  prev = 0
}

/* hive_idle_start_search, idle.c */
inline START_SEARCH() {
  d_step { s_se = se; s_un = un };                /* atomic_load(&idle->state) */
  do
  :: 2 * s_se >= NW -> break                      /* half the workers search */
  :: else ->
     d_step {                                     /* compare_exchange_weak */
       if
       :: se == s_se && un == s_un -> se++; srch = 1
       :: else -> s_se = se; s_un = un
       fi
     };
     if
     :: srch -> break                             /* then a fence */
     :: else -> skip
     fi
  od;
  atomic { s_se = 0; s_un = 0 }
}

/* hive_stop_searching, find_work.c (hive_idle_stop_search, idle.c) */
inline STOP_SEARCHING() {
  srch = 0;
  d_step {                                        /* atomic_fetch_sub */
    assert(se > 0);                               /* "searching count underflow" */
    prev = se; se--
  };
#ifndef BUG_NO_HANDOFF
  if
  :: prev == 1 -> NOTIFY()                        /* rule 2 */
  :: else -> skip
  fi;
#endif
  prev = 0
}

/* hive_take_global, steal.c (hive_pull_global, find_work.c) */
inline TAKE_GLOBAL() {
  if
  :: glen == 0 -> skip                            /* hive_global_is_empty */
  :: else ->
     n = glen / NW + 1;                           /* hive_global_len: batch size */
     d_step {                                     /* hive_global_pop_batch */
       if :: glen < n -> got = glen :: else -> got = n fi;
       glen = glen - got
     };
     if
     :: got > 0 -> t = 1; priv = priv + got - 1   /* the rest into w->batch */
     :: else -> skip
     fi
  fi;
  d_step { n = 0; got = 0 }
}

/* hive_steal_from, steal.c: the victim's ring (its fork-join deque is empty
   in this model). The claim is one step: its CAS on the victim's head. */
inline STEAL_FROM(v) {
  d_step {                                        /* hive_ring_steal_claim */
    if
    :: busy[v] || ring[v] == 0 -> got = 0         /* BUSY, EMPTY */
    :: else ->
       got = ring[v] - ring[v] / 2;               /* half, rounded up */
       ring[v] = ring[v] - got; busy[v] = 1
    fi
  };
  if
  :: got > 0 ->                                   /* hive_ring_steal_finish */
     busy[v] = 0;                                 /* the release CAS of head */
     if
     :: got > 1 -> ring[me] = ring[me] + got - 1  /* store our tail (release) */
     :: else -> skip
     fi;
     t = 1;
     printf("P%d stole %d from %d\n", _pid, got, v)
  :: else -> skip
  fi;
  got = 0
}

/* hive_steal_round, victims.c: every other core from a random start,
   skipping those whose parked bit is set. */
inline STEAL_VICTIM(v) {
  if
  :: pmask & (1 << v) -> skip                     /* hive_idle_hint_parked */
  :: else -> STEAL_FROM(v)
  fi
}

inline STEAL_ROUND() {
#if NW == 2
  v = 1 - me;
  STEAL_VICTIM(v);
#else
  if
  :: v = (me + 1) % NW
  :: v = (me + 2) % NW
  fi;
  STEAL_VICTIM(v);
  if
  :: !t -> v = (v + 1) % NW;
     if :: v == me -> v = (v + 1) % NW :: else -> skip fi;
     STEAL_VICTIM(v)
  :: else -> skip
  fi;
#endif
  v = 0
}

/* hive_find_work, find_work.c */
inline FIND_WORK() {
  /* hive_find_local: the batch and the LIFO slot first (private) */
  if
  :: priv > 0 -> priv--; t = 1
  :: else ->
     d_step {                                     /* hive_ring_pop (its CAS) */
       if :: ring[me] > 0 -> ring[me]--; t = 1 :: else -> skip fi
     }
  fi;
  if
  :: !t ->
     if
     :: !srch -> START_SEARCH()
     :: else -> skip
     fi;
     if
     :: srch -> STEAL_ROUND()
     :: else -> skip
     fi;
     if
     :: !t -> TAKE_GLOBAL()
     :: else -> skip
     fi
  :: else -> skip
  fi;
  if
  :: t && srch -> STOP_SEARCHING()
  :: else -> skip
  fi
}

/* hive_run_task with a counted task (run_task.c), and what its fn does. */
inline RUN_TASK() {
  t = 0;
  /* hive_spawn inside the task: count it, then the LIFO slot's previous
     task is published to the ring (hive_publish_spawn, publish.c) */
  do
  :: d_step {                                     /* hive_outstanding_add */
       spawns > 0 -> spawns--;
       if :: ended -> late++ :: else -> skip fi;
       outstanding++
     };
     d_step { ring[me]++ };                       /* hive_ring_push: store tail */
     printf("P%d pushes a task to its ring\n", _pid);
#ifndef BUG_NO_RING_NOTIFY
     NOTIFY()
#endif
  :: break
  od;
#ifdef LONG
  /* A task as long as you like: it ends only once no takeable work is left
     (the others must take it). One worker at least stays out of them. */
  if
  :: d_step { inlong < NW - 1 -> inlong++ };
     printf("P%d runs a long task\n", _pid);
     TAKEABLE == 0 || done;                       /* or the run ended */
     inlong--
  :: skip
  fi;
#endif
  OUTSTANDING_DONE()
}

/* hive_park (hive_park_until without a timeout), park.c */
inline PARK() {
  /* hive_idle_park, idle.c */
  d_step {                                        /* fetch_or: set our bit */
    assert((pmask & (1 << me)) == 0);             /* "parked twice" */
    pmask = pmask | (1 << me)
  };
  d_step {                                        /* fetch_sub(ONE_UNPARKED [| ONE_SEARCHING]) */
    assert(un > 0 && (!srch || se > 0));          /* "idle count underflow" */
#ifndef PARK_RESCAN_IDLE
    last = srch && se == 1;
#else
    last = se == srch;                            /* nobody searches after us */
#endif
    un--;
    if :: srch -> se-- :: else -> skip fi
  };
  printf("P%d parks (last searcher: %d)\n", _pid, last);
#ifndef BUG_NO_RESCAN
  if
  :: last ->                                      /* fence, then any_work() */
     if
     :: glen > 0 -> found = 1                     /* hive_global_is_empty */
     :: else ->
        i = 0;
        do
        :: i < NW ->
           d_step {                               /* hive_ring_len (and deque_len) */
             if :: ring[i] > 0 -> found = 1 :: else -> skip fi;
             i++
           };
           if :: found -> break :: else -> skip fi
        :: else -> break
        od;
        i = 0
     fi;
     if
     :: found -> NOTIFY()                         /* may claim ourselves */
     :: else -> skip
     fi;
     found = 0
  :: else -> skip
  fi;
#endif
  last = 0;
  srch = 0;
  do
  :: (pmask & (1 << me)) == 0 -> break            /* hive_idle_is_parked */
  :: else ->
     if
     :: done -> break                             /* hive_run_done */
     :: else -> PORT_WAIT()
     fi
  od;
  /* hive_idle_unpark, idle.c */
  pmask = pmask & ~(1 << me);                     /* fetch_and: clear our bit */
  d_step {                                        /* fetch_add, then a fence */
    assert(un < NW && se < NW);                   /* "idle count overflow" */
    un++; se++
  };
  srch = 1
}

/* hive_worker_main, worker.c */
proctype Worker(byte me) {
  bit srch, t, last, found;
  byte priv, old, s_se, s_un, bits, b, prev, i, v, n, got;
  if
  :: me == 0 -> priv = 1                          /* the entry in core 0's LIFO slot */
  :: else -> skip
  fi;
  do
  :: done -> break                                /* hive_run_done */
  :: else ->
     FIND_WORK();
     if
     :: t -> RUN_TASK()
     :: else -> PARK()
     fi
  od;
  if
  :: srch ->
     srch = 0;
     d_step { assert(se > 0); se-- }              /* hive_idle_stop_search */
  :: else -> skip
  fi;
  /* hive_run's move_leftovers: what only this core could run */
  d_step { leftover = leftover + priv; priv = 0; exited++ }
}

/* hive_spawn from outside the run's workers (another thread, an interrupt
   handler): hive_publish(NULL, HIVE_PUBLISH_GLOBAL, t), publish.c */
proctype Outside() {
  byte k, old, s_se, s_un, bits, b;
  do
  :: k < NOUT ->
     k++;
     d_step {                                     /* hive_outstanding_add */
       if :: ended -> late++ :: else -> skip fi;
       outstanding++
     };
     glen++;                                      /* hive_global_push (locked) */
     printf("P%d pushes a task to the global queue\n", _pid);
     /* fence */
     if
     :: running ->                                /* atomic_load(&phase) */
#ifndef BUG_NO_NOTIFY
        NOTIFY()
#else
        skip
#endif
     :: else -> skip                              /* the run's workers will look */
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
  exited == NW;
  running = 0;                                    /* STOPPING */
  _nr_pr == 1;                                    /* the outside is done too */
  d_step {
    /* Every worker left awake and not searching, nobody parked. */
    assert(un == NW && se == 0 && pmask == 0);
    /* What is still queued was counted after the run's end: it waits for
       the next run (move_leftovers). Everything counted before ran. */
    total = glen + leftover;
    j = 0;
    do
    :: j < NW -> assert(busy[j] == 0); total = total + ring[j]; j++
    :: else -> break
    od;
    assert(total == outstanding && outstanding <= late)
  }
}
