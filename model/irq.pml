/*
 * Device handlers (kernel/irq.c): hive_irq_attach and hive_irq_detach on
 * any core, in task or interrupt context, against device() dispatching the
 * line's interrupts on other cores; the interrupt controller underneath
 * (board_irq_route, claim, complete) as the GIC and the PLIC behave. What is
 * covered and why sequentially consistent interleavings are enough:
 * README.md.
 *
 * Granularity: each C11 atomic access to shared data is one Promela step.
 * A step also takes accesses nobody else can change in between: data of the
 * stepping core alone (cores[c].line, the ghost variables) and, under
 * attach_lock, the fields only attach_lock's holders write (fn's relaxed
 * load, arg, core, the route). A seq_cst fence is no step: spin's
 * interleavings are sequentially consistent, which is what the two fences of
 * the running/fn handshake buy (docs/ordering.md).
 *
 * Two lines, NC cores (2). Each core makes NOPS calls from task context,
 * each one of attach or detach of either line, in any order, results
 * ignored (EBUSY and EINVAL are outcomes too), and takes interrupts whenever
 * its interrupts are unmasked: between calls, and while a detach waits for
 * handlers. A device raises each line up to NINT times, at any moment. A
 * core claims a raised line routed to it (the claim makes it active: the
 * controller signals it to no core until its completion), runs device(),
 * and completes it; between the claim and device()'s first step the other
 * cores may do anything. Handler ids are attach's: each successful attach is
 * a new handler, its arg the same number. A handler may return at once or
 * detach its own line, and line 0's may also detach or attach line 1: line
 * 1's handler detaches nothing but its own line, so no two handlers wait
 * for each other (hive/irq.h's rule).
 *
 * Checked:
 *   - a handler runs with the arg attached with it;
 *   - a handler never starts once its detach has returned;
 *   - when a detach returns, the detached handler runs on no core but the
 *     caller's own (a handler detaching its own line returns at once);
 *   - an attached line stays on, routed to its attacher, until its detach
 *     (looked at by every attach and detach that finds it attached);
 *   - no deadlock (invalid end state): every call returns.
 *   - a handler runs only on the core that attached it (hive/irq.h), even
 *     for an interrupt claimed before a detach and attach of its line;
 *   - what device() leaves uncalled for that reason was claimed under
 *     another handler (ghost ch: fn at the claim), never one claimed while
 *     the handler it finds was attached;
 *   - an attach the route refused returns only once no device() that may
 *     have found its handler is inside (it never runs, and the caller may
 *     reuse arg), with -DSTRAY.
 *
 * Options:
 *   -DPRE          line 0 attached by core 0, line 1 by core 1, at the start
 *   -DTIMER        a timer interrupt of core 0 whose callback (hive_after_irq)
 *                  detaches either line (the cores are alike: one suffices)
 *   -DNINT1=n      line 1 raised n times (default NINT)
 *   -DCROSS        line 1's handler may detach line 0 too: the two handlers
 *                  may detach each other's lines, which hive/irq.h forbids;
 *                  spin must find the deadlock it warns of
 *   -DNO_ACTIVE    a controller that may signal a claimed line again on
 *                  another core before its completion
 *   -DSTRAY        line 1 is no device line of the board (board_irq_route
 *                  refuses it) but the controller delivers it anyway, on
 *                  any core (a source left enabled by firmware): an attach
 *                  of it must return HIVE_EINVAL with its handler not
 *                  running, never to run
 *
 * Planted bugs, each of which spin must catch:
 *   -DBUG_NO_WAIT         detach returns without waiting for handlers
 *   -DBUG_LOOK_FIRST      device() looks at fn before it counts itself in
 *                         running (its fence missing: the look passes the add)
 *   -DBUG_DETACH_NO_FENCE detach's look at running passes its store of
 *                         DETACHING (its fence missing)
 *   -DBUG_DETACH_NULL     detach clears fn at once, not DETACHING while it
 *                         waits: an attach meanwhile writes arg under the
 *                         old handler
 *   -DBUG_NO_SELF         a handler detaching its own line waits for itself
 *   -DBUG_LINE_STALE      (TIMER) device() leaves cores[c].line set, and a
 *                         caller in interrupt context (depth) on the line
 *                         its core last handled is taken for its handler:
 *                         a timer callback's detach returns at once
 *   -DBUG_ROUTE_OFF_UNLOCKED an unclaimed interrupt turns its line off on
 *                         device()'s own look, not the look under attach_lock
 *   -DBUG_ANY_CORE        device() calls the handler it found on any core,
 *                         not only on the one that attached it
 *   -DBUG_DROP_OWN        device() on core 1 takes its own handler for
 *                         another core's and drops the interrupt
 *   -DBUG_REFUSED_AT_ONCE (STRAY) a refused attach stores NULL and returns
 *                         at once, without waiting for device() calls that
 *                         may have found its handler
 */
#ifndef NC
#define NC 2
#endif
#ifndef NOPS
#define NOPS 2
#endif
#ifndef NINT
#define NINT 2
#endif
#ifndef NINT1
#define NINT1 NINT      /* line 1's raises */
#endif

#define NL 2            /* device lines */
#define NONE NL         /* cores[c].line outside device(): HIVE_IRQ_LINES */
#define NULLH 0         /* fn values: no handler, */
#define DETACHING 1     /* a detach waiting, */
#define MAXID 12        /* else a handler id (2, 3, ...) */

/* REACHED(k): with -DPROBES=0, pan prints "probe k reached" the first time
 * the search gets there (check.sh's PAN_PROBES; README.md lists them). */
#ifdef PROBES
c_decl { unsigned long hive_reached; }
#define REACHED(k) c_code { \
  if (!(hive_reached >> k & 1)) { \
    hive_reached |= 1ul << k; printf("probe %d reached\n", k); \
    if ((PROBES) && (hive_reached & (PROBES)) == (PROBES)) { \
      printf("every probe reached\n"); exit(0); \
    } \
  } }
#else
#define REACHED(k) skip
#endif

/* kernel/irq.c's lines[] and cores[].line */
byte fn[NL];            /* _Atomic fn */
byte arg[NL];           /* arg (plain; written under attach_lock) */
byte lcore[NL];         /* core (plain; written under attach_lock) */
byte running[NL];       /* _Atomic running */
byte lock;              /* attach_lock: 0 free, else holder + 1 */
byte cline[NC];         /* cores[c].line (plain, that core's own) */

/* The controller: a line's enable and target (board_irq_route), the
 * device's raise (pend) and the claim in flight (inflight). */
bool en[NL];
byte target[NL];
bool pend[NL];
bool inflight[NL];
byte raised[NL];

/* Ghosts. */
byte nextid = 2;
bool gone[MAXID];       /* its detach has returned */
byte inside[MAXID];     /* cores running it */
byte hcore[MAXID];      /* the core that attached it */
byte seen[MAXID];       /* device() calls inside that read it from fn */
byte cur[NC];           /* the handler the core runs, else 0 */
byte attaching;         /* the handler whose attach holds attach_lock */
byte ch[NC];            /* fn of the line at the core's routed claim */

inline spin_lock() { atomic { lock == 0 -> lock = me + 1 } }

/* hive_irq_attach(l, handler, arg) up to a refusal's wait: the check and
 * the writes under attach_lock; the release store of fn before the route.
 * rf: with -DSTRAY, the handler whose route was refused (fn DETACHING,
 * attach_lock free; the caller waits, then attach_refused_end), else 0. */
inline attach_begin(l, id, rf) {
  atomic {
    lock == 0 -> lock = me + 1; id = fn[l];
    if
    :: id == DETACHING -> REACHED(1)        /* refused: a detach waits */
    :: id >= 2 -> assert(en[l] && target[l] == hcore[id])
    :: else -> skip
    fi
  };
  if
  :: id != NULLH -> d_step { id = 0; lock = 0; attaching = 0 }   /* HIVE_EBUSY */
  :: else ->
     d_step { id = nextid; nextid++; assert(id < MAXID); arg[l] = id; lcore[l] = me; hcore[id] = me };
     d_step { fn[l] = id; attaching = id }  /* release */
     printf("C%d: attach line %d: handler %d\n", me, l, id);
#ifdef STRAY
     if
     :: l == 1 ->                           /* board_irq_route fails */
#ifdef BUG_REFUSED_AT_ONCE
        fn[l] = NULLH;                      /* never routed: HIVE_EINVAL */
        d_step { lock = 0; attaching = 0; rf = id; id = 0 }
#else
        /* As a detach: DETACHING, unlock, settle (the caller's wait; NULL
         * under attach_lock). The caller is no handler of line 1 (it had
         * none), so its wait is for running to be 0. */
        fn[l] = DETACHING;
        d_step {
          lock = 0; attaching = 0; rf = id; id = 0;
          if
          :: seen[rf] > 0 -> REACHED(13)    /* a device() found it: wait */
          :: else -> skip
          fi
        }
#endif
     :: else ->
#endif
     d_step { target[l] = me; en[l] = true; id = 0 };  /* board_irq_route on */
     d_step { lock = 0; attaching = 0 }
#ifdef STRAY
     fi
#endif
  fi
}

/* A refused attach after its wait: fn = NULL under attach_lock (not in
 * the old code, BUG_REFUSED_AT_ONCE), and HIVE_EINVAL. */
inline attach_refused_end(l, rf) {
#ifndef BUG_REFUSED_AT_ONCE
  spin_lock();
  fn[l] = NULLH;
  lock = 0;
#endif
  d_step {
    /* Refused: never ran, and no device() that found it is inside. */
    assert(inside[rf] == 0 && seen[rf] == 0);
    gone[rf] = true; rf = 0
  }
}

#ifdef BUG_REFUSED_AT_ONCE
#define REFUSED_WAIT(l) skip
#else
#define REFUSED_WAIT(l) (running[l] == 0)
#endif

/* From a handler: interrupts masked, the wait spins. */
inline attach_masked(l) {
  attach_begin(l, id, hr);
  if
  :: hr != 0 -> REFUSED_WAIT(l); attach_refused_end(l, hr)
  :: else -> skip
  fi
}

/* hive_irq_detach up to its wait, from context ctx (TASK, HANDLER,
 * CALLBACK): under attach_lock, the look at fn, the route off, fn =
 * DETACHING. f: the handler detached, else 0 (HIVE_EINVAL). self:
 * wait_for_handlers' look at the core's own line (own data: it may be read
 * in any step before the fence). */
#define TASK 0
#define HANDLER 1
#define CALLBACK 2
inline detach_begin(l, f, self, early, ctx) {
  atomic {
    lock == 0 -> lock = me + 1; f = fn[l];
    if
    :: f == DETACHING -> REACHED(2); f = 0  /* another detach waits */
    :: f >= 2 -> assert(en[l] && target[l] == hcore[f])  /* still routed */
    :: else -> skip
    fi
  };
  if
  :: f != NULLH ->
     en[l] = false;                         /* board_irq_route off */
#ifdef BUG_DETACH_NO_FENCE
     early = running[l];                    /* the look passes the store */
#endif
#ifdef BUG_DETACH_NULL
     fn[l] = NULLH;
#else
     fn[l] = DETACHING;
#endif
     printf("C%d: detach line %d: handler %d\n", me, l, f);
     atomic {
       lock = 0;
#ifdef BUG_NO_SELF
       self = 0;
#else
       self = (cline[me] == l -> 1 : 0);
#endif
#ifdef BUG_LINE_STALE
       if
       :: ctx == TASK -> self = 0           /* and a task's depth is 0 */
       :: else -> skip
       fi;
#endif
       /* Probes (no step): what the wait's first look will find. */
       if
       :: running[l] > self && ctx == TASK -> REACHED(3)
       :: running[l] > self && ctx == HANDLER && self == 0 -> REACHED(4)
       :: running[l] > self && ctx == CALLBACK -> REACHED(5)
       :: running[l] > self && self == 1 -> REACHED(6)
       :: else -> skip
       fi
     }
  :: else -> lock = 0
  fi
}

/* After the wait: fn = NULL under attach_lock; the detach returns. */
inline detach_end(l, f, self, early) {
  spin_lock();
  fn[l] = NULLH;
  d_step {
    lock = 0;
    /* Returned: f runs on no core but (from inside it) the caller's. */
    assert(inside[f] == (cur[me] == f -> 1 : 0));
    gone[f] = true;
    f = 0; self = 0; early = 0
  }
}

#ifdef BUG_DETACH_NO_FENCE
#define WAIT_DONE(l, self, early) (early <= self || running[l] <= self)
#else
#define WAIT_DONE(l, self, early) (running[l] <= self)
#endif

/* From a handler or a timer callback: interrupts masked, the wait spins. */
inline detach_masked(l, ctx) {
  detach_begin(l, hf, hself, hearly, ctx);
  if
  :: hf != 0 ->
#ifndef BUG_NO_WAIT
     WAIT_DONE(l, hself, hearly);
#endif
     detach_end(l, hf, hself, hearly)
  :: else -> skip
  fi
}

/* The attached handler's body: what it may call. */
inline handler(l) {
  if
  :: skip
  :: detach_masked(l, HANDLER)              /* its own line */
  :: l == 0 -> detach_masked(1, HANDLER)
  :: l == 0 -> attach_masked(1)
#ifdef CROSS
  :: l == 1 -> detach_masked(0, HANDLER)
#endif
  fi
}

/* device(l), from hive_kernel_irq. */
inline device(l) {
#ifdef BUG_LOOK_FIRST
  d_step { f = fn[l]; sf = f };
  d_step { cline[me] = l; running[l]++; if :: sf >= 2 -> seen[sf]++ :: else -> skip fi };
#else
  d_step { cline[me] = l; running[l]++ };   /* relaxed add, then the fence */
  d_step { f = fn[l]; sf = f; if :: sf >= 2 -> seen[sf]++ :: else -> skip fi };  /* acquire */
#endif
#ifndef BUG_ANY_CORE
  /* Only on the core that attached it (core, read after fn like arg):
   * else the unclaimed way, which leaves a line attached again on. */
  if
  :: f >= 2 ->
     a = lcore[l];
     if
#ifdef BUG_DROP_OWN
     :: a != me || me == 1 ->                 /* core 1 drops its own too */
#else
     :: a != me ->
#endif
        REACHED(11);
        /* Only a claim made under another handler is not called here:
         * one the line's handler was attached (to this core) at drops
         * nothing that was its. */
        assert(ch[me] != f);
        f = MAXID                             /* an old claim: not here */
     :: else -> skip
     fi;
     a = 0
  :: else -> skip
  fi;
#endif
  if
  :: f >= 2 && f != MAXID ->
     a = arg[l];
     d_step {
       printf("C%d: line %d runs handler %d (arg %d)\n", me, l, f, a);
       assert(a == f);
       assert(!gone[f]);
       assert(hcore[f] == me);              /* on its attacher's core */
       assert(attaching != f);              /* its attach has returned */
       assert(inside[f] == 0);              /* on no other core at once */
       inside[f]++; cur[me] = f
     };
     handler(l);
     d_step {
       if
       :: fn[l] == DETACHING -> REACHED(7)  /* taken away while it ran */
       :: else -> skip
       fi;
       inside[f]--; cur[me] = 0;
#ifndef BUG_LINE_STALE
       cline[me] = NONE;
#endif
       running[l]--;                        /* release */
       if :: sf >= 2 -> seen[sf]-- :: else -> skip fi;
       f = 0; a = 0; sf = 0
     }
  :: else ->
     d_step {
       if
       :: f == DETACHING -> REACHED(8)      /* raced a detach */
       :: else -> skip
       fi;
#ifndef BUG_LINE_STALE
       cline[me] = NONE;
#endif
       running[l]--;
       if :: sf >= 2 -> seen[sf]-- :: else -> skip fi;
       sf = 0
     };
     /* Unclaimed: off, unless attached again since the look. */
#ifdef BUG_ROUTE_OFF_UNLOCKED
     if
     :: f == NULLH ->
        atomic { lock == 0 -> lock = me + 1;
                 assert(fn[l] == NULLH || fn[l] == DETACHING);
                 en[l] = false }
     :: else -> spin_lock()
     fi;
#else
     atomic { lock == 0 -> lock = me + 1;
              if
              :: fn[l] == NULLH -> en[l] = false; REACHED(10)
              :: fn[l] >= 2 -> REACHED(9)    /* attached again: left on */
              :: else -> skip
              fi };
#endif
     d_step { lock = 0; f = 0 }
  fi
}

/* The arch's claim, hive_kernel_irq, the completion. The claim takes a
 * raised line routed to this core (edge: the raise is consumed; a raise
 * while it is active is kept for after the completion). */
inline take_irq() {
  atomic {
    if
    :: en[0] && target[0] == me && pend[0] && !inflight[0] -> il = 0; ch[me] = fn[0]
    :: en[1] && target[1] == me && pend[1] && !inflight[1] -> il = 1; ch[me] = fn[1]
#ifdef STRAY
    :: pend[1] && !inflight[1] -> il = 1; ch[me] = 0  /* on any core, never routed */
#endif
    fi;
    /* A routed claim is made on the handler's own core. */
    assert(ch[me] < 2 || hcore[ch[me]] == me);
    pend[il] = false;
    if
    :: tf != 0 -> REACHED(12)               /* inside a task's detach wait */
    :: else -> skip
    fi;
#ifndef NO_ACTIVE
    inflight[il] = true
#endif
  };
  device(il);
  d_step { inflight[il] = false; il = 0; ch[me] = 0 }  /* board_irq_complete */
}

/* An interrupt, wherever this core's interrupts are unmasked. */
inline interrupt() {
  if
  :: take_irq()
#ifdef TIMER
  :: timer ->
     /* A hive_after_irq callback: interrupts masked, in no device(). */
     timer = false;
     if
     :: detach_masked(0, CALLBACK)
     :: detach_masked(1, CALLBACK)
     fi
#endif
  fi
}

/* From a task: interrupts unmasked while it waits. */
inline detach_task(l) {
  detach_begin(l, tf, tself, tearly, TASK);
  if
  :: tf != 0 ->
#ifndef BUG_NO_WAIT
     do
     :: WAIT_DONE(l, tself, tearly) -> break
     :: interrupt()
     od;
#endif
     detach_end(l, tf, tself, tearly)
  :: else -> skip
  fi
}

/* From a task: interrupts unmasked while a refusal waits. */
inline attach_task(l) {
  attach_begin(l, id, tr);
  if
  :: tr != 0 ->
     do
     :: REFUSED_WAIT(l) -> break
     :: interrupt()
     od;
     attach_refused_end(l, tr)
  :: else -> skip
  fi
}

proctype core(byte me) {
  byte op;
  byte tf, tself, tearly;           /* a task's detach */
  byte il, f, a, sf;                /* the interrupt being handled; sf: fn as read */
  byte hf, hself, hearly;           /* a handler's or callback's detach */
  byte id, tr, hr;                  /* attach's scratch; a task's, a handler's refusal */
#ifdef TIMER
  bool timer = (me == 0);        /* core 0 only: the cores are alike */
#endif
end:
  do
  :: interrupt()
  :: op < NOPS ->
     if
     :: attach_task(0)
     :: attach_task(1)
     :: detach_task(0)
     :: detach_task(1)
     fi;
     op++
  od
}

active proctype dev() {
end:
  do
  :: raised[0] < NINT -> d_step { pend[0] = true; raised[0]++ }
  :: raised[1] < NINT1 -> d_step { pend[1] = true; raised[1]++ }
  od
}

init {
  atomic {
    byte c = 0;
    do
    :: c < NC -> cline[c] = NONE; c++
    :: else -> break
    od;
#ifdef PRE
    fn[0] = 2; arg[0] = 2; lcore[0] = 0; hcore[2] = 0; target[0] = 0; en[0] = true;
    fn[1] = 3; arg[1] = 3; lcore[1] = 1; hcore[3] = 1; target[1] = 1; en[1] = true;
    nextid = 4;
#endif
    c = 0;
    do
    :: c < NC -> run core(c); c++
    :: else -> break
    od
  }
}
