/*
 * A task's state word and the promise of a refused hive_spawn (sched/spawn.c,
 * the top; sched/run_task.c): a spawn refused with HIVE_EBUSY because the
 * task is still queued promises that the queued run sees everything the
 * caller wrote before the call - one task drains what many events left.
 *
 * Both sides write the state with a read-modify-write: the refusal marks
 * it (QUEUED -> QUEUED | REFUSED, a release CAS, also over a mark already
 * there), the worker takes it back to IDLE with an acquire exchange before
 * fn reads the data; a claim given back unqueued (hive_after's with no
 * timer, hive_after_cancel) is a CAS QUEUED -> IDLE, acquire on failure,
 * and queues the task after all when a mark stops it. Every access is to
 * the one word, and each is a read-modify-write, so the word's
 * modification order is the whole interleaving: one atomic step per
 * access, searched in every order.
 *
 * What a weaker order may hide is modelled as what the C11 model grants
 * and no more. A run's fn sees a writer's write of version v (each writer
 * numbers its own) only if some synchronisation hands it over: the push
 * that queued the task (release, the worker's take acquires it) - the
 * pusher's own writes - or a release mark read by the worker's acquire
 * exchange, directly or through later read-modify-writes (a release
 * sequence: every write of a queued counted task's word is one) - the
 * marker's own writes, gathered in `carried` for the queued instance. A
 * plain load may see more; the model assumes it does not.
 *
 * Checked: at the step where a refusal decides to return EBUSY, an
 * instance is queued in the word (its claim: `inst`), which that refusal
 * is owed; and at the end of every interleaving (all spawns and claims
 * done, the worker ran everything queued):
 *   - each promise is kept: every instance's run was granted, of each
 *     writer, at least the version of every refusal of that writer's it
 *     owes (versions are per writer: one writer's data says nothing of
 *     another's);
 *   - every instance claimed ran once, or was given back unmarked; the
 *     task ends idle.
 *
 * Processes: NPROD producers (an interrupt handler's hive_spawn of the
 * drain task, each NSPAWN times: write the data, then spawn), a worker
 * that runs what is queued, and a timer (hive_after: a claim with no
 * promise, then queued when it fires or given back when it gets no timer,
 * chosen freely).
 *
 * Planted bugs (each must be found; model/CMakeLists.txt):
 *   -DBUG_NO_REMARK   a refusal that finds the mark on already returns
 *                     EBUSY without writing the word (the old protocol's
 *                     path, without its fences): nothing hands its data on;
 *   -DBUG_STORE_IDLE  the worker stores IDLE (release) instead of
 *                     exchanging it: it reads no mark;
 *   -DBUG_BLIND_GIVE_BACK  a claim given back stores IDLE whatever the
 *                     word holds: a marked refusal's run never comes;
 *   -DBUG_GIVE_UP_ON_MOVE  a mark's CAS that fails (the state moved) returns
 *                     EBUSY instead of looking again: where the run took the
 *                     task back meanwhile, no queued run is left to keep it.
 */

#ifndef NPROD
#define NPROD 2
#endif
#ifndef NSPAWN
#define NSPAWN 2
#endif
#define NINST (NPROD * NSPAWN + 2)

#define IDLE 0
#define QUEUED 1
#define REFUSED 2

/* Writers: the producers 0 .. NPROD-1, then the timer (NPROD). Each numbers
 * its own writes 1, 2, ... A view - what of the data a run is granted, or
 * what a run is owed - holds each writer's newest version, packed two bits
 * a writer: writer w's in bits 2w and 2w+1. Seeing one writer's write says
 * nothing of another's. */
#define NW (NPROD + 1)
#if NW > 4 || NSPAWN > 3
#error "a view packs two bits a writer: NPROD <= 3, NSPAWN <= 3"
#endif
#define FIELD(view, w) (((view) >> (2 * (w))) & 3)
#define ONLY(w, v) ((v) << (2 * (w)))
#define COVERS(a, b) (FIELD(a, 0) >= FIELD(b, 0) && FIELD(a, 1) >= FIELD(b, 1) && \
                      FIELD(a, 2) >= FIELD(b, 2) && FIELD(a, 3) >= FIELD(b, 3))

/* view rv's field rw raised to rval at least */
inline raise(rv, rw, rval) {
    if
    :: FIELD(rv, rw) < rval -> rv = (rv & ~(3 << (2 * (rw)))) | ONLY(rw, rval)
    :: FIELD(rv, rw) >= rval -> skip
    fi
}

/* view jv joined with view jo: each writer's newer version */
inline join(jv, jo) {
    raise(jv, 0, FIELD(jo, 0));
    raise(jv, 1, FIELD(jo, 1));
    raise(jv, 2, FIELD(jo, 2));
    raise(jv, 3, FIELD(jo, 3))
}

/* -DPROBES=0: REACHED(k) reports, once, that the search got there (as in
 * idle.pml; check.sh's PAN_PROBES names the ones a ctest must reach). */
#ifdef PROBES
c_decl { unsigned long hive_reached; }
#define REACHED(k) c_code { \
  if (!(hive_reached >> k & 1)) { \
    hive_reached |= 1ul << k; printf("probe %d reached\n", k); \
  } };
#else
#define REACHED(k)
#endif
/* 1  a mark's CAS found IDLE (the run took the task back between the
 *    refusal's look and its mark) and the spawn claimed it again
 * 2  a refusal marked over a mark already there
 * 3  a give-back found a mark and queued the task after all
 * 4  a run read a mark: it was granted more than its push's view */

byte state = IDLE;
byte inst = 0;          /* the claim that put QUEUED in the word: 1, 2, ... */
byte carried = 0;       /* view: what the release marks on the queued instance carry */
byte owed[NINST];       /* view, per instance: what its run was promised */
byte seen[NINST];       /* view, per instance: what its run's fn was granted */
bit ran[NINST];
bit given_back[NINST];
chan queue = [NINST] of { byte, byte }; /* queued: instance, the push's view */
byte finished = 0;

/* A refusal returns HIVE_EBUSY, decided in the step that calls this: the
 * run it promises is the instance queued in the word at that step - there
 * must be one - and that run must see the caller's version. */
inline refuse() {
    assert(state & QUEUED);
    raise(owed[inst], me, myver)
}

proctype producer(byte me)
{
    byte n = 0, myver = 0, s;
    bit done;
    do
    :: n == NSPAWN -> break
    :: else ->
        myver++;                /* the write: its own data, version myver */
        done = 0;
        do
        :: done -> break
        :: else ->
            /* the claim: CAS IDLE -> QUEUED (acquire) */
            atomic {
                if
                :: state == IDLE ->
                    state = QUEUED; inst++; queue!inst, ONLY(me, myver); done = 1
#ifdef BUG_NO_REMARK
                :: state == (QUEUED | REFUSED) -> refuse(); done = 1
                :: state == QUEUED -> s = state
#else
                :: state != IDLE -> s = state
#endif
                fi
            }
            if
            :: !done ->
                /* the mark: CAS s -> s | REFUSED (release) */
                atomic {
                    if
                    :: state == s ->
                        if :: s & REFUSED -> REACHED(2) skip :: else -> skip fi;
                        state = s | REFUSED; raise(carried, me, myver);
                        refuse(); done = 1
                    :: state != s ->
                        if :: state == IDLE -> REACHED(1) skip :: else -> skip fi;
#ifdef BUG_GIVE_UP_ON_MOVE
                        refuse(); done = 1
#else
                        skip /* the state moved: look again */
#endif
                    fi
                }
            :: else -> skip
            fi
        od;
        n++
    od;
    finished++
}

proctype timer()
{
    byte me = NPROD, myver = 1, mine, pushed; /* its one write: version 1 */
    /* hive_after's claim: no promise, so a refusal is a plain EBUSY */
    atomic {
        if
        :: state == IDLE -> state = QUEUED; inst++; mine = inst
        :: else -> skip
        fi
    }
    if
    :: mine != 0 ->
        if
        :: queue!mine, ONLY(me, myver)  /* its timer fires: queued */
        :: true ->                      /* no timer (or cancelled): given back */
#ifdef BUG_BLIND_GIVE_BACK
            atomic { state = IDLE; given_back[mine] = 1 }
#else
            atomic {
                if
                :: state == QUEUED -> state = IDLE; given_back[mine] = 1
                :: else ->
                    /* a mark: acquire on failure, then queued after all */
                    REACHED(3) pushed = ONLY(me, myver); join(pushed, carried)
                fi
            }
            if :: !given_back[mine] -> queue!mine, pushed :: else -> skip fi
#endif
        fi
    :: else -> skip
    fi;
    finished++
}

proctype worker()
{
    byte i, pushed, v;
    do
    :: queue?i, pushed ->
        atomic {
            assert(!ran[i]);
#ifdef BUG_STORE_IDLE
            v = pushed; state = IDLE
#else
            /* the exchange of IDLE (acquire): what the marks on this
             * instance carried. (C11 would grant more - earlier marks, through
             * the runs before it - which the model does not count.) */
            v = pushed; join(v, carried);
            if :: v != pushed -> REACHED(4) skip :: else -> skip fi;
            state = IDLE
#endif
            ; carried = 0
        }
        atomic { ran[i] = 1; seen[i] = v }
    :: finished == NPROD + 1 && empty(queue) -> break
    od
}

init
{
    byte i;
    atomic {
        i = 0;
        do
        :: i < NPROD -> run producer(i); i++
        :: else -> break
        od;
        run timer();
        run worker()
    }
    (_nr_pr == 1);
    assert(state == IDLE);
    i = 1;
    do
    :: i <= inst ->
        assert(ran[i] || given_back[i]);
        assert(!(ran[i] && given_back[i]));
        assert(COVERS(seen[i], owed[i]));
        assert(!given_back[i] || owed[i] == 0);
        i++
    :: else -> break
    od
}
