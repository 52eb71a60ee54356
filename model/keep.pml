/*
 * Kept holds (sched/group.c, "Kept holds"; as of commit 0c54b95, and the
 * full deque's path, which takes no mark, as of 2026-11-30): a group
 * task that a busy core runs at once (hive_group_spawn's busy_at_once path
 * through a hold where the top hold is the group's, or with no hold -
 * kept_at_once: past a full deque, or on the busy path otherwise) does
 * not give its count of the group back when it returns: the count stays
 * as the core's keep (hive_worker.hold_keeping and kept_group), and the
 * group's next task run at once or held there takes it over (keep_of,
 * count_of) with no RMW of the group. The keep holds the group's count while its spawner runs on, so
 * it ends at any wait and at the spawning task's end (hive_group_keep_drop),
 * before a task of another group is run at once or held there (keep_of),
 * and - for a spawner that runs on without calling hive, perhaps for ever -
 * from the core's interrupt: the backstop's check (publish.c,
 * backstop_check), once a core is parked or a deep waiter has asked this
 * core (work_asked), pokes it, and the poke (hive_sched_poked) ends the
 * keep (hive_group_keep_poked), leaving the wake its decrement owes in
 * keep_wake for the check to make (keep_wake_owed).
 *
 * Checked: no waiter of the group on another core waits for good once the
 * spawner has returned its tasks, whatever the spawner runs after them (an
 * invalid end state otherwise: see "Polling and spinning" below); the count
 * never goes below zero and reaches zero only once every task of the group
 * has returned (assertions at every decrement, and where a waiter sees
 * zero); the keep ends once - the interrupt and the owner never both end
 * it (assertion in keep_off); owed wakes that merge in keep_wake reach every
 * waiter they name (a lost one is a waiter asleep for good).
 *
 * Processes (cores: 0 the keeping core, 1 and 2 waiters):
 *   - Owner: core 0's task, the spawner. It runs NAT group tasks at once,
 *     one after another, as hive_group_spawn does while every core is busy:
 *     hold_at_once (hold_for under the private mark: keep_of, then a new
 *     hold whose count is the kept one, count_of, or the group's RMW), fn
 *     (user code: nothing of hive), hive_run_at_once's keep_drop, then
 *     at_once_done under the mark (the hold's last task: the hold ends and
 *     its count becomes the keep, keep_begin, which arms the backstop).
 *     (In the code that is the busy path where the top hold is the
 *     group's, or a hold opened alone where that look went stale.)
 *     With -DKINDS a task may also run with no hold (kept_at_once: past a
 *     full deque, or the busy path where the top hold is another
 *     group's), which takes no mark (keep_take: the look at hold_keeping,
 *     its store, then kept_group read and cleared; g's count the keep's or
 *     the RMW; fn; then keep_begin - kept_group, then the flag - or
 *     hive_group_task_done) or be hive_group_spawn_fn's (through the hold
 *     and hive_run_task, whose end is hive_group_hold_done: no keep).
 *     Between two tasks it goes on, or the keep ends: a wait or a task's
 *     end (hive_group_keep_drop: a look at hold_keeping, then
 *     hive_group_keep_end under the mark), or a task of another group run
 *     at once or held (keep_of, under the mark). After the last it either
 *     spins - user code that calls nothing of hive - until every waiter's
 *     wait has returned (the case the poke is for: without it, for ever),
 *     or goes on to its task's end, which drops the keep.
 *   - Irq: core 0's interrupt, the poke's handler (hive_sched_poked). The
 *     owner runs no step while it runs (Owner's provided clause); it comes
 *     between any two of the owner's steps, also under the private mark,
 *     where it only asks (private_asked) and hive_private_leave then serves
 *     (hive_private_serve: the keep dropped there). Outside the mark it ends
 *     the keep (keep_off, hold_task_done: the decrement without the wake),
 *     merges the owed wake into keep_wake (the CAS loop: a word already
 *     there makes it OTHERS, every core) and answers an ask.
 *   - Check: backstop_check for core 0. On the host a thread of the port's
 *     (arch/host/backstop.c), concurrent with everything, which runs a due
 *     check only while some core is in hive_port_wait or polls, and whose
 *     poke is a signal waited for at most 20 ms (hive_port_poke: it may give
 *     up, and the handler run later, concurrently with a later check); on
 *     the boards core 0's own timer interrupt, never held back, whose poke
 *     is a call. The host's is modelled (at most NLATE pokes given up);
 *     -DNO_GIVE_UP: every poke's handler runs in time; -DBOARD: no give-up
 *     and no holding back. The check runs concurrently with the owner even
 *     for the boards: a superset of the interleavings of an interrupt.
 *   - Waiter (core 1; with -DTWO cores 1 and 2, one per group): a task
 *     that waits for the group on another core, as await.pml's waiter: the
 *     count's load, announce on the word (SLEEPING and its core), the park
 *     (counted parked in the idle word S, which the check reads), the park
 *     loop (the count, then hive_port_wait: a pending wake, one per core),
 *     withdraw. A park may also end early (claimed, or its timeout) NSPUR
 *     times. -DDEEP: a deep wait instead, which never parks: it polls the
 *     count and, each time HIVE_WAIT_SPIN_NS passes fruitless, asks every
 *     core whose hold_keeping it sees (ask_holders: work_asked) and, the
 *     first time, tells the port it polls (hive_port_poll_begin).
 *   - Done: NDONE other tasks of group 0, queued and run on other cores,
 *     whose ends are hive_await_done (the decrement, and the wake it owes).
 *
 * Abstractions (README.md says why each is sound):
 *   - The group's word as await.pml has it (count, SLEEPING and the core;
 *     one waiter per group, so OTHERS only from a merge in keep_wake). An
 *     owed word is the set of cores its wake reaches: the core named, or
 *     every waiter core for OTHERS.
 *   - Polling and spinning as blocking: a deep waiter's look that finds
 *     the count not zero and nothing to ask, and a check that would only
 *     look (no wake owed, none parked, none asked) and ask again a period
 *     later, change nothing and are no steps; so a state where the waiter
 *     could only poll, the check only look and the owner only spin is one
 *     where every process is blocked - an invalid end state, as a sleeping
 *     waiter is.
 *   - Granularity: each access to data another process reads or writes is
 *     one step; the owner's own data (its hold's tasks, the top hold, the
 *     mark) goes with the step next to it, as the interrupt that could
 *     come in between would only see the mark. A seq_cst fence (the
 *     check's hive_port_backstop_fence) is no step.
 *   - Not modelled: the owner's private tasks, the heartbeat's publish and
 *     private_held (the check's `held` is hold_keeping alone; heartbeat.pml
 *     has them, with the same check and poke), holds nested
 *     deeper than one (a wait inside a task run at once), the group's other
 *     waiters (await.pml has them).
 *
 * Bounds: NAT tasks at once (per group), NDONE other tasks of group 0,
 * NSPUR early park ends per waiter, NLATE pokes given up (the host).
 *
 * -DTWO: two groups, each with its shallow waiter; the owner runs NAT tasks
 * of group 0 at once, then NAT of group 1 (the first of which ends a keep
 * of group 0 still held: keep_of). Two keeps' owed wakes can then meet in
 * keep_wake (on the host, after a poke given up).
 *
 * Finding (README.md, "Finding: a late poke's wake was lost"): on the host
 * the model failed as the code stood - a handler of a poke that was given
 * up ran while the next check looked, which saw the keep ended but not yet
 * its owed wake, and returned with no check due; the wake waited in
 * keep_wake for good. -DPROMPT (the owner runs no step while a poke is
 * pending) failed the same way. The code now does what this models: a poke
 * counts as answered only by a handler begun after it was sent
 * (arch/host/port.c, pokes_sent and pokes_answered), and a check looks
 * again while a poke it sent may still run (hive_port_poke_pending);
 * -DBUG_LATE_POKE is the code before (any handler answers; no look).
 *
 * Planted bugs, each of which spin must catch:
 *   -DBUG_POKE_KEEPS        the poke does not end the keep
 *   -DDEEP -DBUG_NO_ASK     the deep waiter never asks keepers
 *   -DDEEP -DBUG_NO_POLL    the deep waiter asks but does not tell the port
 *                           it polls (the host's checks stay held back)
 *   -DDEEP -DBUG_CHECK_NO_ASK the check looks only for parked cores, not
 *                           at work_asked
 *   -DTWO -DBUG_PLAIN_STORE
 *                           the poke stores its owed wake in keep_wake with
 *                           a plain store: a second owed word overwrites
 *                           the first
 *   -DBUG_NO_END_OWED       the check makes owed wakes only at its start,
 *                           not after its poke
 *   -DBUG_NO_MARK           the owner ends the keep (keep_drop) without the
 *                           private mark and its second look
 *   -DBUG_NO_RELOAD         the owner's keep_end under the mark trusts the
 *                           look before it
 *   -DBUG_POKE_IGNORES_MARK the poke ends the keep under the owner's mark
 *   -DBUG_NO_SERVE          hive_private_leave does not serve a poke that
 *                           found the mark
 *   -DBUG_ARM_FIRST         at_once_done arms the backstop before it sets
 *                           hold_keeping
 *   -DBUG_LOOK_FIRST        the check reads hold_keeping before it clears
 *                           backstop_armed
 *   -DKINDS -DBUG_TAKE_TRUSTS_LOOK
 *                           keep_take reads kept_group with its look and
 *                           trusts it after the store
 *   -DKINDS -DBUG_FLAG_FIRST keep_begin outside the mark sets hold_keeping
 *                           before kept_group
 *   -DKINDS -DBUG_OFF_LEAVES_GROUP
 *                           keep_off leaves kept_group as it was, so
 *                           keep_take after a poke finds a stale group
 * And one that passes: -DBUG_NO_START_OWED, the check without the
 * keep_wake_owed at its start (README.md: the one after the poke covers
 * every wake a sleeping waiter needs).
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

#ifndef NAT
#define NAT 3
#endif
#ifndef NDONE
#define NDONE 1
#endif
#ifndef NSPUR
#define NSPUR 1
#endif
#ifndef NLATE
#define NLATE 1
#endif
#ifdef TWO
#define NG 2
#ifdef DEEP
#error "DEEP: one group (TWO's waiters both park)"
#endif
#else
#define NG 1
#endif
/* kept_group's NULL. */
#define NONE 255

/* The wake of an OTHERS word: every core but the waker's - the waiter
 * cores (core 0 runs the owner, which sleeps nowhere here). */
#define ALL ((1 << (NG + 1)) - 2)

/* ---- group g's await word (sched/wait.c), waited for by core g + 1 ---- */
byte count[NG];      /* HIVE_AWAIT_COUNT_MASK's part */
bit slept[NG];       /* HIVE_AWAIT_SLEEPING, with the core g + 1 */
byte unfinished[NG]; /* ghost: the group's tasks not yet returned */

/* ---- the waiter cores ---- */
bit pending[NG + 1]; /* the port's pending wake, per core */
bit parked[NG + 1];  /* counted parked in the idle word S */
bit in_wait[NG + 1]; /* inside hive_port_wait (the host's `waiters`) */
bit polling;         /* the deep waiter has called hive_port_poll_begin */
byte waits_done;     /* waiters whose wait has returned */

/* ---- core 0, the keeping core (struct hive_worker) ---- */
bit busy;            /* private_busy: under the private mark */
bit asked;           /* private_asked: a poke found the mark */
bit keeping;         /* hold_keeping */
bit armed;           /* backstop_armed */
bit work_asked;      /* a deep waiter's ask */
byte keep_wake;      /* the owed wake: a set of cores, 0 for none */
byte kept;           /* kept_group: NONE when none is kept */
bit used;            /* holds_used (one hold at most here) */
byte top;            /* the top hold's group */
byte tasks;          /* the top hold's tasks */

/* ---- the port ---- */
bit due;             /* a check is due (hive_port_backstop) */
bit irq;             /* a poke is pending for core 0 */
bit in_irq;          /* core 0 runs the poke's handler */
byte pokes;          /* -DBUG_LATE_POKE: the port's old pokes_done, mod 3:
                      * a poker waited for any handler (one under way, or
                      * its own) */
#ifndef BUG_LATE_POKE
bit wanted;          /* a poke sent, no handler begun since: pokes_sent
                      * ahead of what the handler under way saw */
#endif

/* A check runs: on the host only while some core waits or polls. */
#ifdef BOARD
#define MAY_CHECK 1
#ifndef NO_GIVE_UP
#define NO_GIVE_UP
#endif
#else
#define MAY_CHECK (in_wait[1] || in_wait[NG] || polling)
#endif
#define SOME_PARKED (parked[1] || parked[NG])

/* hive_await_wake(was) of an owed set: one step a wake (the port's pending
 * wake, consumed by that core's next wait). */
inline WAKE(o) {
  if
  :: o & 2 -> pending[1] = 1
  :: else -> skip
  fi;
#ifdef TWO
  if
  :: o & 4 -> pending[2] = 1
  :: else -> skip
  fi;
#endif
  o = 0
}

/* hive_await_done_unwoken on group g: the release RMW, returning what the
 * decrement owes - the named core if it took the last count with SLEEPING
 * set. The count never goes below zero and reaches zero only with every
 * task of the group returned. */
inline DEC(g, o) {
  d_step {
    assert(count[g] > 0);
    if
    :: count[g] == 1 ->
       assert(unfinished[g] == 0);
       if
       :: slept[g] -> o = 1 << (g + 1)
       :: else -> o = 0
       fi
    :: else -> o = 0
    fi;
    count[g]--
  }
}

/* hold_task_done: one task off the top hold (its own fields); the
 * group's decrement, and what it owes, if that was the hold's last. */
inline HOLD_TASK_DONE(o) {
  d_step {
    assert(tasks > 0);
    tasks--;
    last = (tasks == 0);
    if
    :: last -> used = 0        /* the stack shrinks */
    :: else -> skip
    fi
  };
  if
  :: last -> last = 0; DEC(top, o)
  :: else -> o = 0
  fi
}

/* keep_off: the store of hold_keeping (which others read as a hint), with
 * kept_group, the core's own, read and cleared; then the release RMW of
 * that group. */
inline KEEP_OFF(o) {
  d_step {
    assert(keeping);           /* the keep ends once */
    keeping = 0;
    last = kept;
    assert(last != NONE);      /* a keep's flag is set after its group */
#ifndef BUG_OFF_LEAVES_GROUP
    kept = NONE
#else
    skip
#endif
  };
  DEC(last, o);
  last = 0
}

/* hive_work_asked_answered: a look, then the store. */
inline ANSWERED() {
  if
  :: work_asked -> work_asked = 0
  :: else -> skip
  fi
}

/* ---- the owner, core 0's task ---- */

/* The owner's keep end under the mark (hive_group_keep_end's body, and
 * keep_of's), with the wake it owes made at once. */
inline OWN_KEEP_OFF() {
  KEEP_OFF(owed);
  if
  :: owed -> REACHED(8) printf("C0: the keep's end wakes its waiter\n"); WAKE(owed)
  :: else -> skip
  fi
}

/* hive_private_leave: the unmark, then the look at private_asked; a poke
 * that found the mark is served (hive_private_serve: the keep dropped,
 * the ask answered). The serve's own keep_end leaves the mark again, and
 * serves again if asked meanwhile: the loop. */
inline LEAVE() {
  busy = 0;
#ifndef BUG_NO_SERVE
  do
  :: asked ->
     asked = 0;                /* hive_private_serve */
     if
     :: keeping ->             /* hive_group_keep_drop's look */
        busy = 1;              /* hive_group_keep_end */
        if
        :: keeping -> REACHED(4) OWN_KEEP_OFF()
        :: else -> skip
        fi;
        busy = 0
     :: else -> skip
     fi;
     ANSWERED()
  :: else -> break
  od
#endif
}

/* hive_group_keep_drop: a wait's entry, a task's end (run_task.c, and
 * hive_run_at_once after fn). */
inline KEEP_DROP() {
  if
  :: keeping ->
#ifdef BUG_NO_MARK
     OWN_KEEP_OFF()
#else
     busy = 1;                 /* hive_group_keep_end */
#ifdef BUG_NO_RELOAD
     OWN_KEEP_OFF();
#else
     if
     :: keeping -> OWN_KEEP_OFF()
     :: else -> REACHED(9) skip /* the poke ended it after the look */
     fi;
#endif
     LEAVE()
#endif
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

/* keep_begin (under the mark): a count of g this core has finished with
 * stays as the keep, if none is kept - hold_keeping set, then the arm. */
#ifdef BUG_ARM_FIRST
#define KEEP_BEGIN(g) \
  ARM(); \
  d_step { kept = g; keeping = 1; unfinished[g]-- }; \
  printf("C0 keeps group %d\n", g)
#else
#define KEEP_BEGIN(g) \
  d_step { kept = g; keeping = 1; unfinished[g]-- }; \
  printf("C0 keeps group %d\n", g); \
  ARM()
#endif

/* A task of group g run at once through a hold, under the mark: kind 0,
 * hive_group_spawn's busy_at_once path; 2, hive_group_spawn_fn's busy
 * path (a pool header through the hold and hive_run_task: its end is a
 * hold's task's, no keep). */
inline MARKED_AT_ONCE(g) {
  busy = 1;                    /* hold_at_once */
  if                           /* keep_of: a keep of another group ends */
  :: keeping && kept != g -> REACHED(10) OWN_KEEP_OFF()
  :: else -> skip
  fi;
  if
  :: used && top == g ->       /* hold_for: joins the top hold */
     d_step { tasks++; unfinished[g]++ }
  :: else ->
     if
     :: keeping ->             /* count_of: g's kept count, no RMW */
        d_step {
          keeping = 0; kept = NONE; unfinished[g]++;
          used = 1; top = g; tasks = 1
        };
        REACHED(1) skip
     :: else ->                /* the group's RMW */
        d_step {
          count[g]++; unfinished[g]++;
          used = 1; top = g; tasks = 1
        }
     fi
  fi;
  LEAVE();
  /* fn: user code, nothing of hive; the interrupt may come (as anywhere) */
  KEEP_DROP();                 /* hive_run_at_once's (run_body's), after fn */
  busy = 1;                    /* its end, under the mark */
  if
  :: kind == 2 ->              /* run_body's hive_group_hold_done */
     d_step { unfinished[g]-- };
     HOLD_TASK_DONE(owed);
     if
     :: owed -> REACHED(15) WAKE(owed)
     :: else -> skip
     fi
  :: else ->                   /* at_once_done */
     if
     :: tasks == 1 && used && top == g && !keeping ->
        KEEP_BEGIN(g);
        d_step { tasks = 0; used = 0 } /* the hold ends: its count is kept */
     :: else ->                /* hive_group_hold_done (not reached here) */
        d_step { unfinished[g]-- };
        HOLD_TASK_DONE(owed);
        WAKE(owed)
     fi
  fi;
  LEAVE()
}

/* A task of group g run at once with no hold (kind 1: kept_at_once, past
 * a full deque or on the busy path where the top hold is not g's): no
 * mark. keep_take: the look at hold_keeping, its store, then
 * kept_group read and cleared - the interrupt ends only a keep whose flag
 * it sees, and clears kept_group as it does, so after the store the keep
 * is the owner's, or NONE. g's count is the keep's if it was g's, else
 * the group's RMW (a keep of another group ends). Then fn, keep_drop, and
 * keep_begin outside the mark: kept_group, then the flag, then the arm. */
inline FULL_AT_ONCE(g) {
  if
  :: keeping ->
#ifdef BUG_TAKE_TRUSTS_LOOK
     took = kept;              /* read with the look, trusted after the store */
     keeping = 0;
     kept = NONE
#else
     keeping = 0;              /* from here the interrupt leaves the keep */
     d_step { took = kept; kept = NONE };
     if
     :: took == NONE -> REACHED(17) skip /* it ended between look and store */
     :: else -> skip
     fi
#endif
  :: else -> took = NONE
  fi;
  if
  :: took == g -> d_step { unfinished[g]++; took = NONE }; REACHED(1) skip
  :: else ->
     d_step { count[g]++; unfinished[g]++ };
     if
     :: took != NONE ->        /* hive_group_task_done: another group's keep */
        REACHED(18) DEC(took, owed); took = NONE; WAKE(owed)
     :: else -> skip
     fi
  fi;
  /* fn: user code, nothing of hive; the interrupt may come (as anywhere) */
  KEEP_DROP();                 /* hive_run_at_once's, after fn */
  if                           /* keep_begin, else hive_group_task_done */
  :: !keeping ->
#ifdef BUG_FLAG_FIRST
     keeping = 1;
     d_step { kept = g; unfinished[g]-- };
#else
     d_step { kept = g; unfinished[g]-- };
     keeping = 1;
#endif
     REACHED(16) printf("C0 keeps group %d\n", g);
     ARM()
  :: else -> d_step { unfinished[g]-- }; DEC(g, owed); WAKE(owed)
  fi
}

/* A task of group g run at once. With -DKINDS its kind is chosen: 0,
 * hive_group_spawn's busy_at_once path through a hold; 1, kept_at_once
 * (no hold); 2, hive_group_spawn_fn's busy path. Without, always 0. */
inline AT_ONCE(g) {
#ifdef KINDS
  if
  :: kind = 0
  :: kind = 1
  :: kind = 2
  fi;
  if
  :: kind == 1 -> FULL_AT_ONCE(g)
  :: else -> MARKED_AT_ONCE(g)
  fi;
#else
  MARKED_AT_ONCE(g);
#endif
  kind = 0
}

/* After a task run at once: on to the next spawn, or the keep ends - a
 * wait or a task's end (keep_drop), a task of another group run at once or
 * held here (keep_of, under the mark). */
inline BETWEEN() {
  if
  :: skip
  :: KEEP_DROP()
#ifndef TWO
  :: busy = 1;                 /* keep_of for a group nobody waits for here */
     if
     :: keeping -> OWN_KEEP_OFF()
     :: else -> skip
     fi;
     LEAVE()                   /* that task's own life is not modelled */
#endif
  fi
}

/* The owner runs no step while its interrupt's handler runs; -DPROMPT: nor
 * while a poke is pending (a signal delivered before the thread runs on). */
#ifdef PROMPT
#define OWNER_RUNS (!in_irq && !irq)
#else
#define OWNER_RUNS (!in_irq)
#endif
proctype Owner() provided (OWNER_RUNS) {
  byte i, owed, last;
  byte kind;                   /* the task's path (AT_ONCE) */
  byte took = NONE;            /* keep_take's group (FULL_AT_ONCE) */
  do
  :: i < NAT -> AT_ONCE(0); i++; BETWEEN()
  :: else -> break
  od;
#ifdef TWO
  i = 0;
  do
  :: i < NAT -> AT_ONCE(1); i++; BETWEEN()
  :: else -> break
  od;
#endif
  if
  :: printf("C0 spins\n");    /* user code, nothing of hive, until */
     waits_done == NG          /* every waiter's wait has returned */
  :: skip                      /* or runs on to its end */
  fi;
  KEEP_DROP()                  /* its task's end (run_task.c) */
}

/* ---- core 0's interrupt: the poke's handler, hive_sched_poked ---- */
proctype Irq() {
  byte owed, last;
end:
  do
  :: d_step { irq -> irq = 0; in_irq = 1
#ifndef BUG_LATE_POKE
     ; wanted = 0
#endif
     };
     if
#ifdef BUG_POKE_IGNORES_MARK
     :: true ->
#else
     :: busy -> asked = 1; REACHED(3) /* the mark's operation serves it */
        printf("C0 poked under the mark: asks\n")
     :: else ->
#endif
#ifndef BUG_POKE_KEEPS
        if
        :: keeping ->          /* hive_group_keep_poked */
           KEEP_OFF(owed);
           printf("C0 poked: the keep ends, owing %d\n", owed);
           if
           :: owed ->          /* the CAS loop of keep_wake (release) */
              d_step {
#ifdef BUG_PLAIN_STORE
                keep_wake = owed;
#else
                if
                :: keep_wake -> keep_wake = ALL; REACHED(11) skip /* two words: OTHERS */
                :: else -> keep_wake = owed
                fi;
#endif
                owed = 0
              };
              REACHED(2) skip
           :: else -> skip
           fi
        :: else -> skip
        fi;
#endif
        if                     /* hive_work_asked_answered */
        :: work_asked -> REACHED(12) work_asked = 0
        :: else -> skip
        fi
     fi;
     d_step { pokes = (pokes + 1) % 3; in_irq = 0 } /* pokes_done, release */
  od
}

/* ---- the backstop's check for core 0, backstop_check ---- */

/* keep_wake_owed: a look, then the exchange (acquire), then the wake. */
inline OWED() {
  if
  :: keep_wake -> d_step { owed = keep_wake; keep_wake = 0 }; REACHED(13)
     printf("check: makes the owed wake %d\n", owed); WAKE(owed)
  :: else -> skip
  fi
}

/* What makes a check more than a look that asks again (see the top): a
 * wake owed, a core parked, an ask - each only where the check acts on it. */
#ifdef BUG_NO_START_OWED
#define OWED_ACTS 0
#else
#define OWED_ACTS keep_wake
#endif
#ifdef BUG_CHECK_NO_ASK
#define ASK_ACTS 0
#else
#define ASK_ACTS work_asked
#endif
#define CHECK_ACTS (OWED_ACTS || SOME_PARKED || ASK_ACTS)

proctype Check() {
  byte owed, before;
  byte late;                   /* pokes given up so far (at most NLATE) */
  bit held, again;
end:
  do
  :: d_step {                  /* due, and it would do more than look */
       due && MAY_CHECK && CHECK_ACTS -> due = 0
     };
#ifndef BUG_NO_START_OWED
     if
     :: keep_wake -> REACHED(5) skip
     :: else -> skip
     fi;
     OWED();
#endif
     if
     :: SOME_PARKED -> skip    /* S (seq_cst): a core is parked */
     :: else ->
#ifdef BUG_CHECK_NO_ASK
        again = 1
#else
        if
        :: work_asked -> skip  /* a deep waiter asked */
        :: else -> again = 1   /* look again a period later */
        fi
#endif
     fi;
     if
     :: again -> skip
     :: else ->
#ifdef BUG_LOOK_FIRST
        held = keeping;
        armed = 0;
#else
        armed = 0;             /* then hive_port_backstop_fence */
        held = keeping;        /* || private_held (not modelled) */
#endif
        if
        :: held ->             /* hive_port_poke */
           printf("check: pokes C0\n");
#ifndef BUG_LATE_POKE
           d_step { wanted = 1; irq = 1 };
#define ANSWERED_POKE (!wanted && !in_irq) /* a handler begun after it ran */
#else
           d_step { before = pokes; irq = 1 };
#define ANSWERED_POKE (pokes != before) /* a handler ran */
#endif
           if
           :: ANSWERED_POKE -> skip
#ifndef NO_GIVE_UP
           :: late < NLATE && !ANSWERED_POKE -> /* 20 ms, and it did not */
              late++;
              armed = 1;
              again = 1;
              REACHED(6) printf("check: the poke is given up\n")
#endif
           fi
        :: else -> REACHED(7) printf("check: nothing held\n"); ANSWERED()
        fi;
#ifndef BUG_LATE_POKE
        if                     /* a handler may still come: again */
        :: wanted || in_irq -> again = 1
        :: else -> skip
        fi;
#endif
#ifndef BUG_NO_END_OWED
        OWED()
#else
        skip
#endif
     fi;
     d_step {                  /* return again: due a period later */
       if
       :: again -> due = 1
       :: else -> skip
       fi;
       again = 0; held = 0; before = 0
     }
  od
}

/* ---- a waiter of group me - 1 on core me ---- */
proctype Waiter(byte me) {
  byte g = me - 1;
  byte spur = NSPUR;
  do
  :: d_step { count[g] == 0 -> assert(unfinished[g] == 0) } -> break
  :: else ->
     if
     :: d_step {               /* announce: the CAS, only on a count not zero */
          count[g] != 0 -> slept[g] = 1
        } ->
        printf("W%d announces, parks\n", me);
        parked[me] = 1;        /* hive_idle_park: counted parked in S */
        do                     /* hive_park_until's loop */
        :: count[g] == 0 -> break
        :: d_step { count[g] != 0 -> in_wait[me] = 1 };
           if                  /* hive_port_wait */
           :: d_step { pending[me] -> pending[me] = 0; in_wait[me] = 0 }
           :: d_step { spur > 0 -> spur--; in_wait[me] = 0 }; break /* claimed, timed out */
           fi
        od;
        parked[me] = 0;        /* hive_idle_unpark */
        slept[g] = 0           /* withdraw */
     :: else -> skip           /* the count is zero: the loop's look ends it */
     fi
  od;
  printf("W%d: the wait returns\n", me);
  waits_done++
}

/* A deep waiter: polls, never parks. The look that finds the count not
 * zero and asks nothing is no step (see the top). */
#ifdef BUG_NO_ASK
#define ASK_AGAIN 0
#else
#define ASK_AGAIN (keeping && !work_asked)
#endif
proctype Deep(byte me) {
  byte g = me - 1;
  bit begun;                   /* hive_port_poll_begin called */
  do
  :: d_step { count[g] == 0 -> assert(unfinished[g] == 0) } -> break
  :: !begun || ASK_AGAIN ->    /* fruitless for HIVE_WAIT_SPIN_NS */
#ifndef BUG_NO_ASK
     if                        /* ask_holders: two looks, the store */
     :: keeping ->
        if
        :: !work_asked -> work_asked = 1
        :: else -> skip
        fi
     :: else -> skip
     fi;
#endif
     if
     :: !begun ->
        begun = 1;
#ifndef BUG_NO_POLL
        polling = 1            /* hive_port_poll_begin */
#endif
     :: else -> skip
     fi
  od;
  polling = 0;                 /* hive_port_poll_end */
  printf("W%d: the wait returns\n", me);
  waits_done++
}

/* ---- other tasks of group 0, run on other cores ---- */
proctype Done() {
  byte owed;
  d_step { unfinished[0]-- };  /* fn returns */
  DEC(0, owed);                /* hive_await_done */
  if
  :: owed -> REACHED(14) WAKE(owed)
  :: else -> skip
  fi
}

init {
  atomic {
    kept = NONE;
    count[0] = NDONE;
    unfinished[0] = NDONE;
    run Owner();
    run Irq();
    run Check();
#ifdef DEEP
    run Deep(1);
#else
    run Waiter(1);
#endif
#ifdef TWO
    run Waiter(2);
#endif
    byte i = 0;
    do
    :: i < NDONE -> run Done(); i++
    :: else -> break
    od
  }
}
