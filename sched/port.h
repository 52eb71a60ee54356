/*
 * The port: everything sched/ needs from the machine below it, and nothing more.
 *
 * sched/ is portable C11. It never includes an arch or OS header; each target
 * (arch/host with pthreads, arch/aarch64 and arch/riscv64 through kernel/)
 * implements these functions once. Keeping the list short keeps the scheduler
 * honest about what it assumes of the hardware.
 */
#ifndef HIVE_SCHED_PORT_H
#define HIVE_SCHED_PORT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

/*
 * Logical id of the calling core, dense in [0, hive_port_core_count()); or
 * HIVE_PORT_NOT_A_CORE on a hosted port, for a thread that is none of its
 * cores (one the program made itself, spawning from outside). On bare metal
 * every caller is a core.
 */
#define HIVE_PORT_NOT_A_CORE 0xffffffffu
unsigned hive_port_core_id(void);

/* Number of cores the port has brought up (on the host: worker threads). */
unsigned hive_port_core_count(void);

/*
 * Bytes of the calling core's stack below the caller's frame: how deep it
 * may still grow (stacks grow down on every port). Asked once per run on
 * each core, by the worker loop, to bound how much of the stack waits may
 * spend on unrelated work (wait.c). 0 if the caller is not on a stack the
 * port knows, which makes every wait of that core keep to its own work.
 */
size_t hive_port_stack_room(void);

/*
 * Mask interrupts on the calling core and return the previous state, so a
 * spinlock that an interrupt handler may also take cannot deadlock against the
 * code it interrupted. Nests: restore exactly what save returned.
 */
unsigned long hive_port_irq_save(void);
void hive_port_irq_restore(unsigned long state);

/* A hint inside spin loops (yield / pause): lets an SMT sibling or QEMU run. */
void hive_port_cpu_relax(void);

/* Monotonic time in nanoseconds since an arbitrary point before the first call. */
uint64_t hive_port_now_ns(void);

/*
 * The same clock as raw ticks, and their rate: what the trace stamps its
 * events with (sched/trace.c), because converting to nanoseconds costs two
 * divisions on the boards and an event should cost as little as possible.
 * Consistent across cores, like hive_port_now_ns. The tracer keeps the low
 * 56 bits of a tick.
 */
uint64_t hive_port_ticks(void);
uint64_t hive_port_ticks_hz(void);

/*
 * Where a traced build (HIVE_TRACE) writes its trace at the end of each run:
 * the host port appends to the file named by the environment variable
 * HIVE_TRACE_FILE if it is set and opens, else stdout; the boards, their
 * console (stdout). close gets back what open returned, after the trace.
 */
FILE *hive_port_trace_open(void);
void hive_port_trace_close(FILE *f);

/*
 * Parking. hive_port_wait() sleeps the calling core until hive_port_wake()
 * names it, or until timeout_ns passes (0: no timeout). A wake that arrives
 * before the wait must not be lost: the port keeps one pending wake per core,
 * which the next wait consumes and returns at once. Spurious returns are
 * allowed; callers re-check their condition.
 */
void hive_port_wait(uint64_t timeout_ns);
void hive_port_wake(unsigned core);

/*
 * True while the calling core runs an interrupt handler. What keeps handlers
 * off the interrupted core's own queues (they spawn into the global queue)
 * and refuses their joins and waits is the interrupt hooks every handler
 * passes (sched/sched.h), not a call of this at every spawn; the scheduler
 * uses it to refuse hive_run from a handler, to decide whom the run's end
 * wakes, and in its debug checks (one of them: that a handler passed the
 * hooks).
 */
bool hive_port_in_interrupt(void);

/*
 * Run fn(arg) on cores 0..ncores-1 - the caller is core 0 and runs it too -
 * and return once every one of them that began fn has returned. 1 <= ncores
 * <= hive_port_core_count(). How hive_run starts its workers. A core that has
 * not begun fn when core 0's fn returns may be left out of this call (the
 * host port does so rather than wait for a sleeping thread to wake): fn must
 * have nothing left for a core that would begin it after that - hive's worker
 * loop does nothing once the run has ended, and core 0's loop ends only then.
 */
void hive_port_run_on_cores(unsigned ncores, void (*fn)(void *arg), void *arg);

/* Stop everything with a message: a broken scheduler invariant. */
_Noreturn void hive_port_panic(const char *msg);

/* The same for a fault of `core`, found by the caller (which may be another
 * core, or no core at all on a hosted port): the line names `core`. */
_Noreturn void hive_port_panic_core(unsigned core, const char *msg);

/*
 * The backstop of a worker's own pushes (sched/publish.c): about delay_ns
 * from now, call check(core) with the calling core's id - on the boards from
 * that core's own timer interrupt, on the host from a thread of the port's -
 * and again every delay_ns for as long as check returns true. While one is
 * pending a second call changes nothing. Only a core inside
 * hive_port_run_on_cores calls it, and no check is called once that returns
 * (a pending one is dropped). A port may hold a due check back while no core
 * is inside hive_port_wait or polls (hive_port_poll_begin, below) and call it
 * as soon as one enters: check acts only when some core is parked or has
 * asked for work by polling, and a parked core sleeps only there (the host
 * port does, to spare its thread a wake-up per period while every core is
 * busy) - and then call it when due even if that core has left by then. A
 * port whose wait spins before it sleeps may count a core as inside only
 * once its spin is over, a bounded time: a spin ends early only at a wake,
 * after which the core is no longer parked or waits again (the host port
 * does, so that its thread does not take the CPU of a core that may be
 * woken any moment).
 *
 * hive_port_backstop_fence, called by check between its stores and its
 * loads, orders as a seq_cst fence executed by `core` at that moment would:
 * what the core stored before is visible to the loads after, and what check
 * stored before is visible to the core's loads after. On the boards check
 * runs on the core itself, and it is a fence; on the host, a membarrier
 * (which interrupts every core thread: dear, so check calls it only when it
 * must).
 */
void hive_port_backstop(uint64_t delay_ns, bool (*check)(unsigned core));
void hive_port_backstop_fence(void);
/*
 * The calling core polls in a wait that never sleeps (a deep one:
 * sched/wait.c) and has asked other cores for what only their checks free
 * (group.c, "Kept holds"): from _begin to _end a port that holds due checks
 * back while no core is inside hive_port_wait calls them as if one were.
 * Each _begin has its _end on the same core before that core calls
 * _begin again (a wait that finds work ends its poll before running it).
 */
void hive_port_poll_begin(void);
void hive_port_poll_end(void);
/*
 * From a backstop check for `core` only: have `core` call fn() as an
 * interrupt of it - whatever it runs, at an instruction boundary - and
 * return once that has returned, its stores visible to the caller. On the boards the check runs on the core itself: a call. On the
 * host a signal to the core's thread, and a bounded wait for its handler;
 * false if the handler did not run in time (the check then looks again a
 * period later).
 */
bool hive_port_poke(unsigned core, void (*fn)(void));
/* From a backstop check for `core` only: may a poke of it not have run yet -
 * one given up, or on its way? Its fn may still end a keep and leave the
 * wake it owes for a check (sched/publish.c), so the check looks again a
 * period later while one may. False once every poke sent has run, its
 * stores visible to the caller. Always false on the boards (a call). */
bool hive_port_poke_pending(unsigned core);
/* The calling core, in task context, is about to hold work that only a
 * poke reaches (group.c's private tasks): from now until its run ends,
 * hive_port_poke must reach it. Called before the first such work of each
 * run (worker.c's poke_ready). The boards' timer interrupt always does; the
 * host unblocks the poke's signal in hive_run's calling thread for the rest
 * of the run (the cores' own threads have it unblocked). */
void hive_port_poke_ready(void);

/*
 * The watchdog's clock (sched/watchdog.c). During the next
 * hive_port_run_on_cores, call check() about every period_ns from somewhere
 * that runs even while every one of its cores is inside a task that never
 * returns: on the boards, the timer interrupt of each of those cores (so
 * check runs on several cores at once, in interrupt context); on the host, a
 * thread of its own. Never outside that hive_port_run_on_cores call.
 * period_ns 0: no checks. hive_run sets it before every run.
 */
void hive_port_watch(uint64_t period_ns, void (*check)(void));

#endif
