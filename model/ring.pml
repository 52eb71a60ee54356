/*
 * The dual-head ring of sched/ring.c, step for step: one owner (ring 0) and
 * two thieves (rings 1 and 2). Each thief steals from the owner or from the
 * other thief into its own ring, and pops its own ring. What is covered and
 * why sequentially consistent interleavings are enough: README.md.
 *
 * Granularity: each C11 atomic access on shared data is one Promela step.
 * A step also absorbs reads of data that only the stepping process writes
 * (its own tail, its own slots), because no other step can change them.
 * Weak CAS is modelled strong: a spurious failure re-runs a loop iteration
 * with the head it already had (see README).
 *
 * Planted bugs, each of which spin must catch:
 *   -DBROKEN_OVERFLOW  push_slow overflows even while a steal is in flight
 *   -DBROKEN_ROOM      steal_claim measures dst's room from its real head
 */
#ifndef CAP
#define CAP   4              /* a power of two; ctest also runs 8 */
#endif
#define HALF  (CAP / 2)
#ifndef NOWN
#define NOWN  5              /* the owner pushes tasks 1..NOWN: can overflow */
#endif
#ifndef NPOP
#define NPOP  1              /* and pops this many times, anywhere in between */
#endif
#ifndef NOPS
#define NOPS  2              /* operations per thief: steal or pop */
#endif
#ifndef FILL1
#define FILL1 CAP            /* thief 1's ring starts full: NO_ROOM, room checks */
#endif
#ifndef FILL2
#define FILL2 1
#endif
#define NT    (NOWN + FILL1 + FILL2)
#define NR    3

typedef Ring {
  byte steal;                /* head = steal << 32 | real: one atomic in C */
  byte real;
  byte tail;                 /* written by the ring's owner only */
  byte slot[CAP]             /* task number; 0 = never written */
}

Ring q[NR];
byte inglobal[NT + 1];       /* the global queue as a multiset */
byte taken[NT + 1];

/* Index invariants (ring.c I1, I4). -DNO_INDEX_CHECKS leaves only the
   exactly-once accounting, to see what a bug does to tasks. */
#ifndef NO_INDEX_CHECKS
#define IDX(c) assert(c)
#else
#define IDX(c) skip
#endif

/* I1 for ring i, checked inside every step that moves one of its indices. */
#define I1(i) IDX(q[i].steal <= q[i].real && q[i].real <= q[i].tail && \
                     q[i].tail - q[i].steal <= CAP)

/* A task run twice is caught here; a lost one at the final drain. */
inline TAKE(t) {
  if
  :: t != 0 ->
     d_step {
       printf("P%d runs task %d\n", _pid, t);
       assert(t <= NT); assert(taken[t] == 0); taken[t]++; t = 0
     }
  :: else -> skip
  fi
}

/* compare_exchange on head; on failure es/er receive the current head. */
inline CAS(i, es, er, ns, nr, ok) {
  d_step {
    if
    :: q[i].steal == es && q[i].real == er ->
       q[i].steal = ns; q[i].real = nr; ok = true; I1(i)
    :: else -> es = q[i].steal; er = q[i].real; ok = false
    fi
  }
}

inline STORE_TAIL(i, v) {
  d_step { q[i].tail = v; I1(i) }
}

/* hive_ring_push + hive_ring_push_slow, by the owner of ring i. */
inline PUSH(i, task) {
  d_step { tl = q[i].tail; s = q[i].steal; r = q[i].real };    /* head acquire */
  if
  :: tl - s < CAP -> skip
  :: else ->
     /* push_slow re-reads head (acquire) */
     d_step { s = q[i].steal; r = q[i].real };
     do
     :: tl - s < CAP -> break
#ifndef BROKEN_OVERFLOW
     :: tl - s >= CAP && s != r -> break
     :: tl - s >= CAP && s == r ->
#else
     :: tl - s >= CAP ->
#endif
        CAS(i, s, r, tl, tl, ok);
        if
        :: ok -> break
        :: else -> skip
        fi
     od
  fi;
  if
  :: tl - s < CAP ->
     d_step {
       IDX(tl - q[i].steal < CAP);                              /* I4 */
       q[i].slot[tl % CAP] = task;
       printf("P%d pushes task %d at %d\n", _pid, task, tl)
     };
     STORE_TAIL(i, tl + 1)
  :: tl - s >= CAP && !ok ->
     d_step { inglobal[task]++; printf("P%d: full, steal in flight: task %d to global\n", _pid, task) }
  :: tl - s >= CAP && ok ->
     /* Link the newer half (own slots), then give the older half back by
        moving tail (release). */
     d_step {
       j = 0;
       do
       :: j < HALF -> batch[j] = q[i].slot[(tl - HALF + j) % CAP]; j++
       :: else -> break
       od;
       j = 0
     };
     STORE_TAIL(i, tl + HALF);
     d_step {                                                   /* push_batch */
       j = 0;
       do
       :: j < HALF -> inglobal[batch[j]]++; batch[j] = 0; j++
       :: else -> break
       od;
       inglobal[task]++;
       printf("P%d: overflow: newer half and task %d to global, tail %d\n", _pid, task, tl + HALF);
       j = 0
     }
  fi
}

#ifdef LIST
/* hive_ring_push_list of LIST tasks (bound LIST), by the owner of ring i;
   on refusal (ok = false) the caller pushes them one by one. */
inline PUSH_LIST(i, first) {
  d_step { tl = q[i].tail; s = q[i].steal };                    /* head acquire */
  if
#ifndef BROKEN_LIST_ROOM
  :: CAP - (tl - s) < LIST -> ok = false
  :: CAP - (tl - s) >= LIST ->
#else
  :: d_step { CAP - (tl - q[i].real) < LIST -> ok = false }
  :: d_step { CAP - (tl - q[i].real) >= LIST -> skip };
#endif
     d_step {
       j = 0;
       do
       :: j < LIST ->
          IDX(tl + j - q[i].steal < CAP);                       /* I4 */
          q[i].slot[(tl + j) % CAP] = first + j; j++
       :: else -> break
       od;
       j = 0;
       printf("P%d pushes tasks %d..%d at %d\n", _pid, first, first + LIST - 1, tl)
     };
     STORE_TAIL(i, tl + LIST);
     ok = true
  fi
}
#endif

/* hive_ring_pop, by the owner of ring i: t = 0 when empty. */
inline POP(i, t) {
  d_step { s = q[i].steal; r = q[i].real; tl = q[i].tail };   /* relaxed */
  do
  :: r == tl -> t = 0; break
  :: r != tl ->
     d_step {
       if
       :: q[i].steal == s && q[i].real == r ->
          if
          :: s == r -> q[i].steal = r + 1
          :: else -> skip
          fi;
          q[i].real = r + 1; I1(i);
          t = q[i].slot[r % CAP];                               /* own slot */
          printf("P%d pops index %d of ring %d\n", _pid, r, i);
          ok = true
       :: else -> s = q[i].steal; r = q[i].real; ok = false
       fi
     };
     if
     :: ok -> break
     :: else -> skip
     fi
  od
}

/* A ring steal (hive_steal_from in sched/steal.c) = steal_claim +
 * steal_finish, src -> dst (the caller's). */
inline STEAL(src, dst, t) {
  t = 0;
  /* claim: dst's room, measured from its steal head (acquire) */
#ifndef BROKEN_ROOM
  d_step { dtl = q[dst].tail; room = CAP - (dtl - q[dst].steal) };
#else
  d_step { dtl = q[dst].tail; room = CAP - (dtl - q[dst].real) };
#endif
  d_step { s = q[src].steal; r = q[src].real };                /* relaxed */
  do
  :: s != r -> ok = false; break                                /* BUSY */
  :: s == r ->
     n = q[src].tail - r;                                       /* acquire */
     if
     :: n < 0 || n > CAP ->                   /* stale head: look again */
        d_step { s = q[src].steal; r = q[src].real }
     :: n == 0 -> ok = false; break                             /* EMPTY */
     :: n > 0 && n <= CAP ->
        n = n - n / 2;
        if
        :: n > HALF -> n = HALF
        :: else -> skip
        fi;
        if
        :: n - 1 > room -> ok = false; break                    /* NO_ROOM */
        :: else -> CAS(src, s, r, s, r + n, ok);
           if
           :: ok -> break
           :: else -> skip
           fi
        fi
     fi
  od;
  if
  :: ok ->
     /* finish: copy out, then release the claim, then publish dst's tail */
     d_step {
       t = q[src].slot[r % CAP];
       assert(t != 0);
       printf("P%d claimed [%d,%d) of ring %d, reads task %d\n", _pid, r, r + n, src, t)
     };
#ifdef BROKEN_PUBLISH_EARLY
     if
     :: n > 1 -> STORE_TAIL(dst, dtl + n - 1)       /* published before the copy */
     :: else -> skip
     fi;
#endif
     j = 1;
     do
     :: j < n ->
        x = q[src].slot[(r + j) % CAP];
        d_step {
          IDX(dtl + j - 1 - q[dst].steal < CAP);                /* I4 */
          q[dst].slot[(dtl + j - 1) % CAP] = x
        };
        j++
     :: else -> break
     od;
     j = 0;
     d_step { s = q[src].steal; r = q[src].real };             /* relaxed */
     do
     :: CAS(src, s, r, r, r, ok);
        if
        :: ok -> break
        :: else -> skip
        fi
     od;
#ifndef BROKEN_PUBLISH_EARLY
     if
     :: n > 1 -> STORE_TAIL(dst, dtl + n - 1)
     :: else -> skip
     fi
#endif
  :: else -> skip
  fi
}

/* Locals are cleared between operations so that stale values do not split
   otherwise equal states. */
inline FORGET() {
  d_step { s = 0; r = 0; tl = 0; x = 0; dtl = 0; n = 0; room = 0; ok = false }
}

proctype Owner() {
  byte next = 1, pops, t, s, r, tl, j, x, dtl, m, batch[HALF];
  short n, room;
  bool ok;
  do
  :: next <= NOWN -> PUSH(0, next); next++; FORGET()
#ifdef LIST
  :: next + LIST - 1 <= NOWN ->
     PUSH_LIST(0, next);
     if
     :: ok -> next = next + LIST
     :: else ->                                   /* one by one */
        m = 0;
        do
        :: m < LIST -> PUSH(0, next); next++; m++; FORGET()
        :: else -> break
        od;
        m = 0
     fi;
     FORGET()
#endif
  :: pops < NPOP -> pops++; POP(0, t); TAKE(t); FORGET()
  :: else -> break
  od
}

proctype Thief(byte me; byte other) {
  byte ops, t, s, r, tl, j, x, dtl;
  short n, room;
  bool ok;
  do
  :: ops < NOPS -> ops++; STEAL(0, me, t); TAKE(t); FORGET()
  :: ops < NOPS -> ops++; STEAL(other, me, t); TAKE(t); FORGET()
  :: ops < NOPS -> ops++; POP(me, t); TAKE(t); FORGET()
  :: else -> break
  od
}

init {
  byte i, k, t;
  d_step {
    /* The thieves' rings start with tasks of their own, as if pushed. */
    k = 0;
    do
    :: k < FILL1 -> q[1].slot[k] = NOWN + 1 + k; k++
    :: else -> break
    od;
    q[1].tail = FILL1;
    k = 0;
    do
    :: k < FILL2 -> q[2].slot[k] = NOWN + FILL1 + 1 + k; k++
    :: else -> break
    od;
    q[2].tail = FILL2;
    k = 0
  };
  atomic { run Owner(); run Thief(1, 2); run Thief(2, 1) }
  _nr_pr == 1;
  /* Everyone is done: what is still queued is taken now, then every task
     must have been taken exactly once. */
  d_step {
    i = 0;
    do
    :: i < NR ->
       assert(q[i].steal == q[i].real);
       k = q[i].real;
       do
       :: k < q[i].tail -> t = q[i].slot[k % CAP]; assert(t != 0); taken[t]++; k++
       :: else -> break
       od;
       i++
    :: else -> break
    od;
    t = 1;
    do
    :: t <= NT -> assert(taken[t] + inglobal[t] == 1); t++
    :: else -> break
    od
  }
}
