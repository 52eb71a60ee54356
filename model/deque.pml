/*
 * The fork-join deque of sched/deque.h and sched/deque.c (Chase-Lev on a
 * fixed ring), step for step: one owner pushes and pops at the bottom, two
 * thieves take from the top through hive_steal_forkjoin's loop (steal.c:
 * hive_deque_len, then hive_deque_steal, again on BUSY). What is covered and
 * why sequentially consistent interleavings are enough: README.md.
 *
 * Granularity: each C11 atomic access on shared data is one Promela step.
 * A step also absorbs reads of data that only the stepping process writes
 * (the owner's bottom, the slots it wrote), because no other step can change
 * them. A seq_cst fence is no step: spin's interleavings are sequentially
 * consistent, which is what the fence pair of pop and steal buys. The bugs
 * that remove a fence model what the fence forbids explicitly: the two
 * accesses it separated, taken in the other order.
 *
 * Bounds: the owner pushes tasks 1..NPUSH and pops NPOP times, in every
 * order; each of NTHIEF thieves makes NSTEAL steal attempts (each one a
 * hive_steal_forkjoin: it may retry after BUSY). CAP 2, so a push can be
 * refused (full: the owner runs the task inline).
 *
 *   -DJOIN   one of the pushes is a shared join frame (join.c's share:
 *            its index is the bottom read before the push), and the owner
 *            joins it once, anywhere after (join_shared: pop while the
 *            bottom is above the frame's index, running what is newer,
 *            until the frame or NULL comes back)
 *   -DSOLO   the one-worker pop (d->solo: no fence, no CAS); with
 *            -DNTHIEF=0, as hive runs it
 *   -DPRIVATE the owner's private entries (deque.h, Lace's split):
 *            push_private writes the slot at private_end and moves only
 *            private_end; pop takes an entry above bottom with no fence
 *            and no CAS; publish moves bottom up to private_end (all) or
 *            over the older half (publish_oldest); a public push publishes
 *            everything first (publish.c). Thieves are unchanged: they
 *            never read private_end
 *
 * Planted bugs, each of which spin must catch:
 *   -DBROKEN_POP_NO_FENCE    pop's load of top passes its store of bottom
 *                            (the seq_cst fence between them missing)
 *   -DBROKEN_STEAL_NO_FENCE  steal's load of bottom passes its load of top
 *   -DBROKEN_POP_NO_CAS      pop takes the last task like any other,
 *                            without the CAS on top
 *   -DBROKEN_STEAL_READ_LATE steal reads the slot after its CAS on top
 *   -DBROKEN_FULL            push refuses only past CAP (off by one)
 *   -DSOLO (with thieves)    a solo deque stolen from (deque.c's
 *                            HIVE_RULE_DEQUE_SOLO check)
 *   -DJOIN -DBROKEN_JOIN_FLOOR  join_shared pops while bottom >= the
 *                            frame's index: it runs work from under its frame
 *   -DPRIVATE -DBROKEN_PRIVATE_POP  pop takes the entry at bottom - 1 the
 *                            private way (no fence, no CAS) when none is
 *                            private: a public entry raced for unprotected
 *   -DPRIVATE -DBROKEN_PUBLISH_PAST  publish moves bottom one past
 *                            private_end: a slot never written (or stale)
 *                            becomes stealable
 */
#ifndef CAP
#define CAP    2             /* a power of two */
#endif
#ifndef NPUSH
#define NPUSH  4             /* tasks 1..NPUSH, pushed in this order */
#endif
#ifndef NPOP
#define NPOP   2             /* owner pops, anywhere between the pushes */
#endif
#ifndef NTHIEF
#define NTHIEF 2
#endif
#ifndef NSTEAL
#define NSTEAL 2             /* hive_steal_forkjoin calls per thief */
#endif

/* Indices never wrap here: short, and the C code's signed differences of
   uint32_t are plain differences (wrap: the unit tests, hive_deque_init_at). */
short top;                   /* only ever CASed up */
short bottom;                /* written by the owner only */
byte slot[CAP];              /* task number; 0 = never written */
byte taken[NPUSH + 1];
bool popping;                /* ghost: the owner is inside a pop (bottom may sit below top) */
short pend;                  /* private_end: the owner's own end, >= bottom (-DPRIVATE) */

#ifndef NO_INDEX_CHECKS
#define IDX(c) assert(c)
#else
#define IDX(c) skip
#endif

/* Index invariants, checked inside every step that moves an index:
   I1: top <= bottom, except inside a pop, where top <= bottom + 1;
   I2: bottom - top <= CAP. */
#ifndef PRIVATE
#define INV IDX(top <= bottom + 1 && (popping || top <= bottom) && bottom - top <= CAP)
#else
/* and I4: bottom <= private_end, private_end - top <= CAP. */
#define INV IDX(top <= bottom + 1 && (popping || top <= bottom) && bottom - top <= CAP && \
                bottom <= pend && pend - top <= CAP)
#endif

/* The owner's end: hive_deque_bottom. */
#ifdef PRIVATE
#define OWN_END pend
#else
#define OWN_END bottom
#endif

/* Running a task: a task run twice is caught here, a lost one at the end.
   A thief runs it in the step whose CAS made it its own. */
inline RUN(t) {
  assert(t != 0 && t <= NPUSH);
  printf("P%d runs task %d\n", _pid, t);
  assert(taken[t] == 0);
  taken[t]++
}

inline TAKE(t) {
  if
  :: t != 0 -> d_step { RUN(t); t = 0 }
  :: else -> skip
  fi
}

/* hive_deque_push by the owner: refused (t handed back, run inline) when
   full. ok: queued. */
inline PUSH(task) {
  /* bottom: relaxed, own; top: acquire. With -DPRIVATE the caller has
     published every private entry: private_end == bottom. */
  d_step { IDX(OWN_END == bottom); b = bottom; tp = top };
  if
#ifndef BROKEN_FULL
  :: b - tp >= CAP ->
#else
  :: b - tp > CAP ->
#endif
     ok = false;
     d_step { printf("P%d: full, runs task %d inline\n", _pid, task); RUN(task) }
  :: else ->
     ok = true;
     /* the slot: relaxed; I3: never the slot of an index still queued */
     d_step {
       IDX(b - top < CAP);
       slot[b % CAP] = task;
       printf("P%d pushes task %d at %d\n", _pid, task, b)
     };
#ifdef PRIVATE
     d_step { bottom = b + 1; pend = b + 1; INV }    /* release */
#else
     d_step { bottom = b + 1; INV }                   /* release */
#endif
  fi
}

#ifdef PRIVATE
/* hive_deque_push_private: the slot, then private_end; no index a thief
   reads moves. */
inline PUSH_PRIVATE(task) {
  d_step { b = pend; tp = top };                       /* top: acquire */
  if
  :: b - tp >= CAP ->
     ok = false;
     d_step { printf("P%d: full, runs task %d inline\n", _pid, task); RUN(task) }
  :: else ->
     ok = true;
     d_step {
       IDX(b - top < CAP);
       slot[b % CAP] = task;
       pend = b + 1; INV;
       printf("P%d pushes task %d privately at %d\n", _pid, task, b)
     }
  fi
}

/* hive_deque_publish_oldest of all or of the older half (publish.c): one
   release store of bottom. */
inline PUBLISH(half) {
  d_step {
    if
    :: half -> b = bottom + (pend - bottom + 1) / 2
    :: else -> b = pend
    fi;
#ifdef BROKEN_PUBLISH_PAST
    b = pend + 1;
#endif
    bottom = b;
    printf("P%d publishes up to %d\n", _pid, b)
  }
}
#endif

/* hive_deque_pop by the owner: t = 0 when it got nothing. */
inline POP(t) {
#ifdef PRIVATE
  /* A private entry: plain, owner-only; bottom stays. */
  if
#ifndef BROKEN_PRIVATE_POP
  :: pend != bottom ->
     d_step { pend = pend - 1; t = slot[pend % CAP]; INV;
              printf("P%d pops index %d (private)\n", _pid, pend) }
#else
  :: pend != top ->
     d_step { pend = pend - 1; t = slot[pend % CAP];
              if
              :: bottom > pend -> bottom = pend
              :: else -> skip
              fi;
              printf("P%d pops index %d (private)\n", _pid, pend) }
#endif
  :: else ->
#endif
#ifdef SOLO
  /* relaxed (all): nobody else takes from a solo deque */
  d_step { b = bottom; tp = top };
  if
  :: b == tp -> t = 0
  :: else ->
     d_step { popping = true; bottom = b - 1; INV; popping = false };
     d_step { t = slot[(b - 1) % CAP]; printf("P%d pops index %d (solo)\n", _pid, b - 1) }
  fi
#else
#ifndef BROKEN_POP_NO_FENCE
  d_step { b = bottom - 1; popping = true; bottom = b; INV };  /* release */
  /* fence (seq_cst), then top: relaxed; the slot: own */
  d_step {
    tp = top; size = b - tp;
    if
    :: size >= 0 -> x = slot[b % CAP]
    :: else -> skip
    fi
  };
#else
  /* the load of top before the claim of slot b is seen */
  d_step {
    b = bottom - 1; tp = top; size = b - tp;
    if
    :: size >= 0 -> x = slot[b % CAP]
    :: else -> skip
    fi
  };
  d_step { popping = true; bottom = b; INV };
#endif
  if
#ifndef BROKEN_POP_NO_CAS
  :: size > 0 ->
#else
  :: size >= 0 ->
#endif
     t = x; d_step { popping = false; pend = b; printf("P%d pops index %d\n", _pid, b) }
  :: else ->
     if
     :: size == 0 ->
        /* the last task: CAS top (seq_cst); relaxed on failure */
        d_step {
          if
          :: top == tp -> top = tp + 1; INV; ok = true
          :: else -> ok = false
          fi
        };
        if
        :: ok -> t = x; printf("P%d pops index %d, the last, by CAS\n", _pid, b)
        :: else -> t = 0; printf("P%d loses index %d to a thief\n", _pid, b)
        fi
     :: else -> t = 0
     fi;
     d_step { bottom = b + 1; pend = b + 1; popping = false; INV }     /* release */
  fi
#endif
#ifdef PRIVATE
  fi
#endif
}

/* hive_deque_len by a thief: two relaxed loads; n = 0 when empty, negative
   or torn. */
inline LEN() {
  tp = top;
  b = bottom;
  if
  :: b - tp > 0 && b - tp <= CAP -> n = b - tp
  :: b - tp <= 0 -> n = 0
  :: b - tp > CAP ->         /* torn: top read before steals, bottom after pushes */
     n = 0; printf("P%d: len torn (top %d, bottom %d)\n", _pid, tp, b)
  fi
}

/* hive_deque_steal: r = 0 EMPTY, 1 BUSY, 2 OK (and the task run). */
inline STEAL(r) {
#ifndef BROKEN_STEAL_NO_FENCE
  tp = top;                                            /* acquire */
  /* fence (seq_cst) */
  b = bottom;                                          /* acquire */
#else
  b = bottom;
  tp = top;
#endif
  if
  :: b - tp <= 0 -> r = 0
  :: else ->
#ifndef BROKEN_STEAL_READ_LATE
     x = slot[tp % CAP];                               /* relaxed */
     d_step {                                          /* CAS top, seq_cst */
       if
       :: top == tp ->
          top = tp + 1; INV;
          /* whatever the owner did since, the slot still holds what we read */
          IDX(x == slot[tp % CAP]);
          printf("P%d steals index %d\n", _pid, tp);
          RUN(x); x = 0; r = 2
       :: else -> r = 1
       fi
     }
#else
     d_step {
       if
       :: top == tp -> top = tp + 1; INV; r = 2
       :: else -> r = 1
       fi
     };
     if
     :: r == 2 ->
        d_step { x = slot[tp % CAP]; printf("P%d steals index %d\n", _pid, tp); RUN(x); x = 0 }
     :: else -> skip
     fi
#endif
  fi
}

/* Locals are cleared between operations so that stale values do not split
   otherwise equal states. */
inline FORGET() {
  d_step { b = 0; tp = 0; x = 0; size = 0; ok = false }
}

proctype Owner() {
  byte next = 1, pops, t, x;
  short b, tp, size;
  bool ok;
#ifdef JOIN
  byte frame;                /* the join frame's task; 0: not shared yet */
  short fidx;                /* f->deque_index */
  bool joined;
#endif
  do
#ifndef PRIVATE
  :: next <= NPUSH -> PUSH(next); next++; FORGET()
#else
  /* a public push publishes what is private first (publish.c) */
  :: next <= NPUSH -> PUBLISH(false); PUSH(next); next++; FORGET()
  :: next <= NPUSH -> PUSH_PRIVATE(next); next++; FORGET()
  :: pend != bottom -> PUBLISH(true); FORGET()
  :: pend != bottom -> PUBLISH(false); FORGET()
#endif
  :: pops < NPOP -> pops++; POP(t); TAKE(t); FORGET()
#ifdef JOIN
  /* share: the frame's index is the bottom before the push (own, exact) */
  :: frame == 0 && next <= NPUSH ->
#ifdef PRIVATE
     PUBLISH(false);
#endif
     frame = next; fidx = OWN_END; PUSH(next); next++;
     joined = !ok;           /* refused: the frame stays latent, run inline */
     FORGET()
  /* fa returns: join_shared */
  :: frame != 0 && !joined ->
     do
#ifndef BROKEN_JOIN_FLOOR
     :: OWN_END - fidx > 0 ->
#else
     :: OWN_END - fidx >= 0 ->
#endif
        POP(t);
        if
        :: t == frame -> TAKE(t); break
        :: t == 0 -> break
        :: else ->
           /* newer than the frame: a task pushed after it */
           assert(t > frame); TAKE(t)
        fi;
        FORGET()
     :: else -> break
     od;
     /* Gone from the deque: run by us (here, or a pop before the join, as
        a wait inside fa may), or stolen. */
     assert(taken[frame] == 1);
     joined = true;
     FORGET()
#endif
  :: else -> break
  od
}

proctype Thief() {
  byte ops, x, r;
  short b, tp, n;
  do
  :: ops < NSTEAL ->
     ops++;
     /* hive_steal_forkjoin */
     do
     :: LEN();
        if
        :: n == 0 -> break
        :: else -> STEAL(r);
           if
           :: r == 1 -> skip                           /* BUSY: again */
           :: else -> break
           fi
        fi
     od;
     atomic { b = 0; tp = 0; n = 0; r = 0 }  /* atomic: a break lands here */
  :: else -> break
  od
}

init {
  byte i, t;
  atomic {
    run Owner();
    i = 0;
    do
    :: i < NTHIEF -> run Thief(); i++
    :: else -> break
    od
  };
  _nr_pr == 1;
  /* Everyone is done: what is still queued is taken now (run.c drains the
     deque at a run's end), then every task must have been taken exactly
     once. */
  d_step {
    assert(top <= bottom && bottom <= OWN_END);
    i = top;
    do
    :: i < OWN_END -> t = slot[i % CAP]; RUN(t); i++
    :: else -> break
    od;
    t = 1;
    do
    :: t <= NPUSH -> assert(taken[t] == 1); t++
    :: else -> break
    od
  }
}
