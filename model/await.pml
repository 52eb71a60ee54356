/*
 * The await word of sched/wait.c, with two waiters on it: the count of a
 * group's (or a join frame's) unfinished work and the one waiter that may
 * sleep on it, in one atomic word. hive_group_wait may be called by more
 * than one task for one group; the first to park announces itself in the
 * word (SLEEPING and its core), and a second finds the bit taken and goes
 * on polling - until the first withdraws, when the second may announce in
 * its turn. idle.pml has one waiter and the whole idle protocol around it;
 * this model has the word alone, with both waiters, so that every order of
 * announce, park, withdraw and the completers' decrements is searched.
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
 *     the word as it was; if it took the last one and the word said
 *     SLEEPING, the wake of the core the word names (a separate step:
 *     the port's pending wake, consumed by that core's next wait);
 *   - hive_wait_for's loop: the count's load; announce (a CAS that
 *     succeeds only on a word whose count is not zero and whose SLEEPING
 *     bit is clear); then hive_park_until's loop (the count's load, then
 *     hive_port_wait, which returns at once on a pending wake and consumes
 *     it) and withdraw (clear SLEEPING and the core); a failed announce
 *     goes back to polling;
 *   - a park also ends when the idle protocol claims the core or its
 *     timeout passes: each waiter may leave the park so, NSPUR times in
 *     all, with the count not yet zero - it withdraws and polls again;
 *   - a group task may spawn another into its group before it ends (the
 *     count up, from the task that is still counted): one completer does.
 *
 * Bounds: two waiters (cores 0 and 1), NDONE completers (one of which
 * spawns one more), NSPUR early park ends per waiter. The completers run
 * on other cores, which are not modelled beyond their wakes.
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
 * sees SLEEPING) pass. Both are kept: the announce's look spares a park (the
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
 *   -DBUG_WITHDRAW_ANY      a waiter whose announce failed withdraws all the
 *                           same, clearing the other waiter's bits
 *   -DBUG_WAKE_NOT_PENDING  the port drops a wake sent to a core that is not
 *                           in hive_port_wait yet
 *   -DBUG_RETURN_AFTER_PARK a waiter takes the end of its park for the end of
 *                           its wait (the assertion)
 *   -DREUSE -DBUG_REINIT    W0, its wait returned, re-initialises the group
 *                           before it reuses it, while the other may still
 *                           be in its wait (hive.h forbids it)
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
#ifndef NDONE
#define NDONE 3
#endif
#ifndef NSPUR
#define NSPUR 2
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

byte count = NDONE; /* HIVE_AWAIT_COUNT_MASK's part of the word */
byte unfinished = NDONE; /* ghost: the first round's tasks not done yet (the
                          * count itself, but for REUSE's second round) */
bit slept;          /* HIVE_AWAIT_SLEEPING */
byte core;          /* the core field: whose waiter sleeps on the word */
bit pending[2];     /* the port's pending wake, per waiter core */
#ifdef BUG_WAKE_NOT_PENDING
bit in_wait[2];     /* the core is inside hive_port_wait */
#define IN_WAIT(c, v) in_wait[c] = v
#else
#define IN_WAIT(c, v) skip
#endif
#ifdef PROBES
bit withdrew[2];    /* ghost, for the probes: the waiter has withdrawn once */
bit second[2];      /* ghost: its announce came after the other's withdraw */
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
proctype Done(bit spawns; bit first) {
  byte was_count, was_core;
  bit was_slept;
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
  d_step { was_count = count; was_slept = slept; was_core = core };
  d_step { count--; if :: first -> unfinished-- :: else -> skip fi };
#else
  d_step {                     /* fetch_sub (release), returns the old word */
    was_count = count; was_slept = slept; was_core = core;
    count--;
    if :: first -> unfinished-- :: else -> skip fi
  };
#endif
  if
  :: was_count == 1 && was_slept ->
     GHOST(if :: second[was_core] -> REACHED(4) skip :: else -> skip fi);
     printf("the last task done wakes core %d\n", was_core);
     port_wake(was_core)
  :: else -> skip
  fi
}

proctype Waiter(byte me) {
  byte spur = NSPUR;
  bit announced;
#ifdef REUSE
  bit reused;
wait:
#endif
  do
  :: count == 0 -> break       /* hive_await_count (acquire) */
  :: else ->
     /* help() found nothing for a while: announce (wait.c's CAS) */
     d_step {
#ifdef NO_ANNOUNCE_LOOK
       if
       :: !slept -> slept = 1; core = me; announced = 1
#else
       if
       :: count != 0 && !slept -> slept = 1; core = me; announced = 1
#endif
       :: else -> announced = 0
       fi
     };
     GHOST(if
     :: announced && withdrew[1 - me] -> second[me] = 1; REACHED(2) skip
     :: !announced && slept -> REACHED(1) skip /* the other waiter sleeps on it */
     :: else -> skip
     fi);
     if
     :: announced ->
        printf("W%d announces: sleeps on the word\n", me);
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
              if :: count == 0 -> REACHED(3) skip :: else -> skip fi
#ifdef PARK_WAIT_FIRST
              ; if :: count == 0 -> break :: else -> skip fi
#endif
           :: d_step { spur > 0 -> spur--; IN_WAIT(me, 0) };
              printf("W%d: the park ends early (claimed, or timed out)\n", me);
              break
           fi
        od;
        atomic {               /* withdraw: fetch_and(COUNT_MASK) */
          slept = 0; core = 0; GHOST(withdrew[me] = 1)
        };
        printf("W%d withdraws\n", me)
#ifdef BUG_RETURN_AFTER_PARK
        ; break
#endif
     :: else ->                /* another waiter sleeps on the word: poll */
#ifdef BUG_WITHDRAW_ANY
        d_step { slept = 0; core = 0 };
        printf("W%d, refused, withdraws all the same\n", me)
#else
        skip
#endif
     fi
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
     d_step { slept = 0; core = 0 }; /* hive_group_init: the whole word 0 */
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
    run Waiter(0);
    run Waiter(1);
    run Done(1, 1);
    do
    :: i < NDONE -> run Done(0, 1); i++
    :: else -> break
    od
  }
}
