/*
 * The await word of sched/wait.c, with two (or three) waiters on it: the
 * count of a group's (or a join frame's) unfinished work and the waiters
 * that sleep on it, in one atomic word. hive_group_wait may be called by
 * more than one task for one group; the first to park is named in the
 * word (SLEEPING and its core), and a second finds SLEEPING taken, sets
 * OTHERS and sleeps too; the last completion wakes the core named and,
 * with OTHERS, every core.
 * The named waiter withdraws after its park (SLEEPING and the core), and
 * the other may be named in its turn; OTHERS stays until the group is
 * re-initialised. idle.pml has one waiter and the whole idle protocol
 * around it; this model has the word alone, with every waiter, so that
 * every order of announce, park, withdraw and the completers' decrements is
 * searched.
 *
 * Checked: no waiter sleeps for good once the count has reached zero
 * (every process blocked with a waiter not at its end is an invalid end
 * state), and a wait returns only once every task spawned into the group
 * before it is done (assertion; without REUSE, the count is zero).
 *
 * Modelled, step for step (one atomic step per atomic access of the C code;
 * every access is to the word alone, so its modification order is the
 * whole story and sequential consistency loses nothing - the wake's own
 * ordering is the port's, kernel/port.c and idle.pml):
 *   - hive_await_done: one RMW that takes one off the count and returns
 *     the word as it was; if it took the last one, the wake of the core
 *     the word names if it said SLEEPING, or of every waiter core if it
 *     said OTHERS (separate steps: the port's pending wake, consumed by
 *     that core's next wait);
 *   - hive_wait_for's loop: the count's load; announce (a CAS that
 *     succeeds only on a word whose count is not zero: it sets SLEEPING
 *     and the core if SLEEPING is clear, else OTHERS); then
 *     hive_park_until's loop (the count's load, then hive_port_wait,
 *     which returns at once on a pending wake and consumes it); then, the
 *     named waiter only, withdraw (clear SLEEPING and the core); announce
 *     on a zero count goes back to the loop's look, which ends the wait;
 *   - a park also ends when the idle protocol claims the core or its
 *     timeout passes: each waiter may leave the park so, NSPUR times in
 *     all, with the count not yet zero - it withdraws if named, and polls
 *     again;
 *   - a group task may spawn another into its group before it ends (the
 *     count up, from the task that is still counted): one completer does.
 *
 * Bounds: NWAIT waiters (2; cores 0 to NWAIT-1), NDONE completers (one of
 * which spawns one more), NSPUR early park ends per waiter. The completers
 * run on other cores, which are not modelled beyond their wakes. With
 * -DNWAIT=3 two waiters may sleep on OTHERS at once, and one of them be
 * named in its turn while the other still sleeps there.
 *
 * Three looks at the count guard the race of a park with the last
 * completion: announce refuses a word whose count is zero, the park loop
 * loads the count before its first wait, and again after every wait. The
 * last is needed: it is what ends a park on the last completion's wake (a
 * wake that is not a claim leaves the core parked in the idle protocol's
 * bitmap). Of the first two, either alone is enough: the pass variants
 * -DNO_ANNOUNCE_LOOK (announce succeeds on a zero count; the park looks
 * before it waits, and leaves) and -DPARK_WAIT_FIRST (the park waits before
 * it looks; a waiter whose announce succeeded on a count that was not zero
 * is woken by the last completion, whose RMW comes after the announce's and
 * sees its mark) pass. Both are kept: the announce's look spares a park (the
 * idle protocol's count and rescan) that would end at once, and the look
 * before the first wait is the loop's own condition, which also serves the
 * park's other exits.
 *
 * Planted bugs, each of which spin must catch:
 *   -DNO_ANNOUNCE_LOOK -DPARK_WAIT_FIRST
 *                           announce succeeds on a zero count and the park
 *                           waits before it looks: it sleeps after the last
 *                           completion, which woke nobody
 *   -DBUG_DONE_BY_LOAD      a completer decides whether to wake from a load
 *                           of the word before its decrement, not from the
 *                           decrement's RMW
 *   -DBUG_WITHDRAW_ANY      a waiter that was not named withdraws all the
 *                           same, clearing the whole mark (SLEEPING, the
 *                           core and OTHERS, as fetch_and(COUNT_MASK))
 *   -DBUG_WITHDRAW_OTHERS   the named waiter's withdraw clears OTHERS too,
 *                           while the other still sleeps on it
 *   -DBUG_NO_BROADCAST      the last completion wakes only the core named
 *   -DBUG_WAKE_NOT_PENDING  the port drops a wake sent to a core that is not
 *                           in hive_port_wait yet
 *   -DBUG_RETURN_AFTER_PARK a waiter takes the end of its park for the end of
 *                           its wait (the assertion)
 *   -DREUSE -DBUG_REINIT    W0, its wait returned, re-initialises the group
 *                           (the whole word 0) before it reuses it, while
 *                           the other may still be in its wait (hive.h
 *                           forbids it)
 *
 * -DREUSE: W0 reuses the group as soon as its wait returns - one more task
 * spawned into it, one more wait - while W1 may still be in its wait or on
 * its way out (the count back up from zero).
 *
 * A waiter blocked in its wait is a deadlock only once it has no early park
 * end left (spur 0), so every counter-example spends those first; sound, as
 * parks that end early can follow one another for as long as the count is
 * not zero.
 */
mtype = { OVER, NAMED, OTHER };

#ifndef NDONE
#define NDONE 4
#endif
#ifndef NWAIT
#define NWAIT 2
#endif
#if NWAIT < 2 || NWAIT > 3
#error "NWAIT: 2 or 3 (the broadcast wakes cores 0 to 2)"
#endif
#ifndef NSPUR
#define NSPUR 3
#endif

/* -DPROBES=0: REACHED(k) reports, once, that the search got there (as in
 * idle.pml; check.sh's PAN_PROBES names the ones a ctest must reach). C,
 * no part of the state. */
#ifdef PROBES
c_decl { unsigned long hive_reached; }
#define REACHED(k) c_code { \
  if (!(hive_reached >> k & 1)) { \
    hive_reached |= 1ul << k; printf("probe %d reached\n", k); \
  } };
#else
#define REACHED(k)
#endif

/* Probes 7 and 8 (three waiters): whether another waiter's mark is OTHER,
 * from a ghost copy of the marks kept in the steps that set and clear them.
 * It costs states (the merged local step that clears a mark touches a
 * global), so only where asked for. */
#if defined(PROBES) && NWAIT > 2
bit on_others[NWAIT];
#define SET_ON_OTHERS on_others[me] = 1
#define CLEAR_MARK d_step { mark = 0; on_others[me] = 0 }
#define ANOTHER_ON_OTHERS (on_others[0] + on_others[1] + on_others[2] > on_others[me])
#else
#define SET_ON_OTHERS skip
#define CLEAR_MARK mark = 0
#define ANOTHER_ON_OTHERS 0
#endif

byte count = NDONE; /* HIVE_AWAIT_COUNT_MASK's part of the word */
byte unfinished = NDONE; /* ghost: the first round's tasks not done yet (the
                          * count itself, but for REUSE's second round) */
bit slept;          /* HIVE_AWAIT_SLEEPING */
byte core;          /* the core field: whose waiter sleeps on the word */
bit others;         /* HIVE_AWAIT_OTHERS */
bit pending[NWAIT]; /* the port's pending wake, per waiter core */
#ifdef BUG_WAKE_NOT_PENDING
bit in_wait[NWAIT]; /* the core is inside hive_port_wait */
#define IN_WAIT(c, v) in_wait[c] = v
#else
#define IN_WAIT(c, v) skip
#endif
#ifdef PROBES
byte withdrew;      /* ghost, for the probes: bit w, waiter w has withdrawn */
bit second[NWAIT];  /* ghost: named after another's withdraw */

#define GHOST(x) x
#else
#define GHOST(x) skip
#endif

/* hive_port_wake(c) */
inline port_wake(c) {
#ifdef BUG_WAKE_NOT_PENDING
  if
  :: in_wait[c] -> pending[c] = 1
  :: else -> skip /* lost: nothing kept for the core's next wait */
  fi
#else
  pending[c] = 1
#endif
}

/* hive_group_task_done -> hive_await_done */
/* Whether the last completion wakes every core: the word said OTHERS
 * (hive_await_done), or never (the planted bug). */
#ifdef BUG_NO_BROADCAST
#define BROADCAST 0
#else
#define BROADCAST was_others
#endif

proctype Done(bit spawns; bit first) {
  byte was_count, was_core;
  bit was_slept, was_others;
  if
  :: spawns ->
     atomic {                  /* hive_group_spawn's count, from a counted task */
       if :: slept -> REACHED(5) skip :: else -> skip fi;
       count++; unfinished++
     };
     printf("a task spawns another into the group\n");
     run Done(0, 1)
  :: else -> skip
  fi;
#ifdef BUG_DONE_BY_LOAD
  d_step { was_count = count; was_slept = slept; was_core = core; was_others = others };
  d_step { count--; if :: first -> unfinished-- :: else -> skip fi };
#else
  d_step {                     /* fetch_sub (release), returns the old word */
    was_count = count; was_slept = slept; was_core = core; was_others = others;
    count--;
    if :: first -> unfinished-- :: else -> skip fi
  };
#endif
  if
  :: was_count == 1 && BROADCAST ->
     GHOST(if :: was_slept && second[was_core] -> REACHED(4) skip :: else -> skip fi);
     printf("the last task done wakes every core (OTHERS)\n");
     port_wake(0);             /* every waiter core, the one named among */
     port_wake(1)              /* them: one step a wake */
#if NWAIT > 2
     ; port_wake(2)
#endif
  :: was_count == 1 && !BROADCAST && was_slept ->
     GHOST(if :: second[was_core] -> REACHED(4) skip :: else -> skip fi);
     printf("the last task done wakes core %d\n", was_core);
     port_wake(was_core)
  :: else -> skip
  fi;
  /* dead from here: not part of the state */
  d_step { was_count = 0; was_slept = 0; was_core = 0; was_others = 0 }
}

proctype Waiter(byte me) {
  byte spur = NSPUR;
  mtype mark;                  /* announce's */
#ifdef REUSE
  bit reused;
wait:
#endif
  do
  :: count == 0 -> break       /* hive_await_count (acquire) */
  :: else ->
     /* help() found nothing for a while: announce (wait.c's CAS) */
     d_step {
       if
#ifdef NO_ANNOUNCE_LOOK
       :: !slept -> slept = 1; core = me; mark = NAMED
       :: slept -> others = 1; mark = OTHER; SET_ON_OTHERS
#else
       :: count != 0 && !slept -> slept = 1; core = me; mark = NAMED
       :: count != 0 && slept -> others = 1; mark = OTHER; SET_ON_OTHERS
       :: else -> mark = OVER
#endif
       fi
     };
     GHOST(if
     :: mark == NAMED && (withdrew & ~(1 << me)) && ANOTHER_ON_OTHERS ->
        second[me] = 1; REACHED(2) REACHED(8) skip
     :: mark == NAMED && (withdrew & ~(1 << me)) && !ANOTHER_ON_OTHERS ->
        second[me] = 1; REACHED(2) skip
     :: mark == OTHER && ANOTHER_ON_OTHERS -> REACHED(1) REACHED(7) skip
     :: mark == OTHER && !ANOTHER_ON_OTHERS -> REACHED(1) skip /* another is named */
     :: else -> skip
     fi);
     if
     :: mark != OVER ->
        printf("W%d announces (%e): sleeps on the word\n", me, mark);
        do                     /* hive_park_until's loop */
#ifdef PARK_WAIT_FIRST
        :: true ->
#else
        :: count == 0 -> break
        :: else ->
#endif
           IN_WAIT(me, 1);
           if
           :: d_step { pending[me] -> pending[me] = 0; IN_WAIT(me, 0) };
              printf("W%d: woken\n", me);
              GHOST(if
              :: count == 0 && mark == OTHER -> REACHED(6) skip /* by OTHERS */
              :: count == 0 && mark == NAMED -> REACHED(3) skip
              :: else -> skip
              fi)
#ifdef PARK_WAIT_FIRST
              ; if :: count == 0 -> break :: else -> skip fi
#endif
           :: d_step { spur > 0 -> spur--; IN_WAIT(me, 0) };
              printf("W%d: the park ends early (claimed, or timed out)\n", me);
              break
           fi
        od;
        if
        :: mark == NAMED ->
           atomic {            /* withdraw: fetch_and(~(SLEEPING | CORE)) */
             slept = 0; core = 0; GHOST(withdrew = withdrew | (1 << me))
#ifdef BUG_WITHDRAW_OTHERS
             ; others = 0
#endif
           };
           printf("W%d withdraws\n", me)
#ifdef BUG_WITHDRAW_ANY
        :: else ->
           d_step { slept = 0; core = 0; others = 0 };
           printf("W%d, not named, withdraws all the same\n", me)
#else
        :: else -> skip        /* not named: nothing of ours to clear */
#endif
        fi
#ifdef BUG_RETURN_AFTER_PARK
        ; break
#endif
     :: else -> skip           /* the count is zero: the loop's look ends it */
     fi;
     CLEAR_MARK                /* dead from here: not part of the state */
  od;
  printf("W%d: the wait returns\n", me);
  assert(unfinished == 0);     /* every task spawned before it is done */
#ifdef REUSE
  /* W0 reuses the group at once: one more task, one more wait, while W1
   * may still be on its way out of its wait. */
  if
  :: me == 0 && !reused ->
     reused = 1;
#ifdef BUG_REINIT
     d_step { slept = 0; core = 0; others = 0 }; /* hive_group_init: the word 0 */
#endif
     count++;                  /* hive_group_spawn */
     printf("W0 reuses the group\n");
     run Done(0, 0);
     goto wait
  :: else -> skip
  fi
#endif
}

init {
  byte i = 1;
  atomic {
    do
    :: i <= NWAIT -> run Waiter(i - 1); i++
    :: else -> break
    od;
    i = 1;
    run Done(1, 1);
    do
    :: i < NDONE -> run Done(0, 1); i++
    :: else -> break
    od
  }
}
