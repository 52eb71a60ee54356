#!/usr/bin/env python3
"""Turn the scheduler benchmark's raw lines into bench/results/sched.md,
sched.svg and sched.json (bench/run sched calls it).

    sched_report.py RAW MD SVG HEADER [JSON META] [--boards BOARDS_RAW BOARDS_META]
                    [--footprint FOOTPRINT_JSON]

RAW holds the programs' lines from every repetition (bench/sched_bench.h):
"R runtime workload threads seconds size tasks ok|FAILED", hive's counters
"S runtime workload threads name value ...", the cores-free probe
"M capacity X" before each program's run (its R lines follow it; older raw
files have it once per repetition, which reads the same way), the load
average "M load X" before each repetition, and callgrind's counts
"C runtime workload n1 instr1 n2 instr2", and hive's pairs of runs at two
thread counts back to back "P runtime workload lo hi probe secs_lo secs_hi
ok|FAILED" (sched_bench pairs).
HEADER is a file of Markdown put first (the date, the machine, the load
average); META holds "key=value" lines (machine, commit, load) for the JSON.
Figures are the median over the repetitions, with min and max, since the
machine is shared and noisy. The SVG is written by hand: no plotting library
is assumed.

Each runtime's times are given over the serial gcc build and, where its
compiler is another, over its own serial baseline too: libomp's over
clang's (serial-clang), Rayon's over rustc's (serial-rust) - compilers differ
on the leaf code (SHA-1 in UTS, the sort's loops) by more than some
schedulers differ.

--boards adds the same workloads on the emulated boards (bench/board/
sched_board.c, booted by `bench/run boards`): BOARDS_RAW holds the images'
lines "B board workload cores ns size tasks ok|FAILED" and "BS board workload
cores name value ...", with "M load X" and "M board B" before each boot;
BOARDS_META "key=value" lines (QEMU, date, load, commit). --footprint adds
bench/footprint's footprint.json. Both go into the Markdown (speedups from 1
to 2 to 4 cores per workload per board; the footprint table) and into the
JSON: board records have runtime "hive" and a "board" key; the footprint is
an object of its own. RAW may then be empty (no host run yet).
"""
import json
import math
import statistics
import sys
from collections import defaultdict

NAMES = {
    "serial": "serial (gcc)",
    "serial-clang": "serial (clang)",
    "serial-rust": "serial (rustc)",
    "queued": "queued, plain (gcc)",
    "queued-claim": "queued, claimed (gcc)",
    "hive": "hive",
    "tbb": "oneTBB",
    "omp-gcc": "OpenMP gcc/libgomp",
    "omp-llvm": "OpenMP clang/libomp",
    "rayon": "Rayon",
}
ORDER = ["serial", "serial-clang", "serial-rust", "queued", "queued-claim", "hive", "tbb", "omp-gcc",
         "omp-llvm", "rayon"]
# One-thread baselines; the queued ones are spawn's floors (bench/spawn_queued.c).
SERIALS = ("serial", "serial-clang", "serial-rust", "queued", "queued-claim")
PEERS = [rt for rt in ORDER if rt not in SERIALS]
OWN_SERIAL = {"hive": "serial", "tbb": "serial", "omp-gcc": "serial", "omp-llvm": "serial-clang",
              "rayon": "serial-rust"}
SHORT = {"hive": "hive", "tbb": "TBB", "omp-gcc": "gomp", "omp-llvm": "libomp",
         "rayon": "Rayon"}  # the SVG's and the console's labels
JSON_NAME = {"omp-gcc": "gomp", "omp-llvm": "libomp", "queued": "serial-queued",
             "queued-claim": "serial-queued-claim"}  # sched.json's runtime names
CONSTRUCT = {  # the construct each runtime uses, per workload
    "fib": {"hive": "hive_join", "tbb": "parallel_invoke", "omp-gcc": "task + taskwait",
            "omp-llvm": "task + taskwait", "rayon": "rayon::join"},
    "fib-tg": {"tbb": "task_group run + wait"},
}
TREES = ("uts-t1", "uts-t3")
SERIAL_WL = {"fib-tg": "fib"}  # the serial run a workload's speedups are over
LOW_CAP = 1.5  # a cores-free probe under this: other work held a core
PAIR_RUNS = 3  # runs at each thread count of a pair, the best kept (PAIR_RUNS in sched_bench.c)
DAGGER = "\u2020"
COUNTERS = ("steals", "stolen_tasks", "parks", "wait_parks", "wakes")


def fib(n):
    a, b = 0, 1
    for _ in range(n):
        a, b = b, a + b
    return a


def load(path):
    d = {
        "runs": defaultdict(list),   # (runtime, workload, threads) -> [seconds]
        "info": {},                  # workload -> (size, tasks)
        "failed": [],
        "instr": {},                 # (runtime, workload) -> instructions per fork at 1 thread
        "cap": [],                   # cores free, every probe (sched_bench capacity)
        "probe": defaultdict(list),  # (runtime, workload, threads) -> [the probe before each run]
        "load": [],                  # 1-minute load average, per repetition
        "stats": defaultdict(list),  # (runtime, workload, threads) -> [{counter: value}]
        "pairs": defaultdict(list),  # (runtime, workload, lo, hi) -> [(probe, secs lo, secs hi)]
    }
    probe = None  # the last cores-free probe: the one before the runs that follow
    for line in open(path):
        f = line.split()
        if len(f) == 3 and f[:2] == ["M", "capacity"]:
            probe = float(f[2])
            d["cap"].append(probe)
        elif len(f) == 3 and f[:2] == ["M", "load"]:
            d["load"].append(float(f[2]))
        elif len(f) == 7 and f[0] == "C":  # C runtime workload n1 instr1 n2 instr2
            try:
                n1, i1, n2, i2 = int(f[3]), int(f[4]), int(f[5]), int(f[6])
            except ValueError:
                continue  # callgrind gave nothing
            d["instr"][(f[1], f[2])] = (i2 - i1) / (fib(n2 + 1) - fib(n1 + 1))
        elif len(f) >= 6 and f[0] == "S" and len(f) % 2 == 0:
            d["stats"][(f[1], f[2], int(f[3]))].append(
                {f[i]: int(f[i + 1]) for i in range(4, len(f), 2)})
        elif len(f) == 9 and f[0] == "P":  # P runtime workload lo hi probe secs_lo secs_hi ok
            if f[8] != "ok" or float(f[7]) <= 0:
                d["failed"].append(f"{f[1]} {f[2]} pairs")
                continue
            d["pairs"][(f[1], f[2], int(f[3]), int(f[4]))].append(
                (float(f[5]), float(f[6]), float(f[7])))
        elif len(f) == 8 and f[0] == "R":
            rt, wl, th, secs, size, tasks, ok = f[1], f[2], int(f[3]), float(f[4]), f[5], int(f[6]), f[7]
            d["runs"][(rt, wl, th)].append(secs)
            d["probe"][(rt, wl, th)].append(probe)
            d["info"][wl] = (size, tasks)
            if ok != "ok":
                d["failed"].append(f"{rt} {wl} threads={th}")
    return d


def pair_ratios(v):
    """A pairs list's ratios: the time at the lower thread count over the time at the higher."""
    return [a / b for _, a, b in v]


def order(keys):
    return sorted(keys, key=lambda k: (ORDER.index(k[0]) if k[0] in ORDER else 99, k[1], k[2]))


def med(v):
    return statistics.median(v)


def fmt_t(s):
    if s >= 1:
        return f"{s:.2f} s"
    return f"{s * 1e3:.1f} ms" if s >= 1e-3 else f"{s * 1e6:.1f} us"


def fmt_x(x):
    return "" if x is None or math.isnan(x) else f"{x:.2f}"


class Report:
    def __init__(self, d):
        self.__dict__.update(d)

    agg = staticmethod(med)  # how the repetitions are summed up: med, or min for the best run

    def t(self, rt, wl, th=1):
        """Median (or best) seconds, or None."""
        v = self.runs.get((rt, wl, th))
        return self.agg(v) if v else None

    def over(self, base_rt, rt, wl, th):
        """base's serial time / rt's time (a speedup), or None. fib-tg's
        serial run is fib's: the same recursion."""
        b, t = self.t(base_rt, SERIAL_WL.get(wl, wl), 1), self.t(rt, wl, th)
        return b / t if b and t else None

    def low(self, key):
        """Whether a figure of more than one thread came after low cores-free
        probes: of the medians, when at least half of its runs did; of the
        best runs (agg = min), when its best run did."""
        v, p = self.runs.get(key), self.probe.get(key)
        if key[2] < 2 or not v or not p or len(p) != len(v):
            return False
        low = [x is not None and x < LOW_CAP for x in p]
        if self.agg is min:
            return low[v.index(min(v))]
        return 2 * sum(low) >= len(low)

    def mark(self, key):
        return DAGGER if self.low(key) else ""

    def own(self, rt):
        return OWN_SERIAL.get(rt, rt)

    def parks_per_stolen(self, key):
        """hive's idle parks per task its steals moved: the median over the
        runs that stole anything, or None."""
        v = [x.get("parks", 0) / x["stolen_tasks"] for x in self.stats.get(key, ())
             if x.get("stolen_tasks")]
        return med(v) if v else None

    def threads(self):
        return sorted({k[2] for k in self.runs if k[0] not in SERIALS})

    def rows(self, wls, serials=True):
        return [k for k in order(self.runs) if k[1] in wls and (serials or k[0] not in SERIALS)]


def md_report(r, header):
    out = [header.rstrip(), ""]
    if r.cap:
        nlow = sum(x < LOW_CAP for x in r.cap)
        out += [f"Cores free, measured right before each program's run (a busy loop on two threads"
                f" against one; 2.0 = both cores free; {len(r.cap)} probes): median {med(r.cap):.2f},"
                f" min {min(r.cap):.2f}, max {max(r.cap):.2f}; {nlow} under {LOW_CAP}."
                + (f" {DAGGER} marks a figure at more than one thread at least half of whose runs"
                   f" came right after a probe under {LOW_CAP} (in the table of best runs: whose best"
                   " run did): other work held a core as that program started, so it likely"
                   " understates scaling. A program runs for seconds after its probe, so an unmarked"
                   " figure can still have been disturbed." if nlow else "")
                + (" (Above 2: the one-thread loop itself was slowed - the machine was busy with"
                   " other work, and every figure here is noisier than usual.)"
                   if max(r.cap) > 2.2 else ""), ""]
    if r.load:
        out += ["Load average (1 min) before each repetition: " + ", ".join(f"{x:.2f}" for x in r.load)
                + f" (median {med(r.load):.2f}; the machine has 2 cores).", ""]
    if r.failed:
        out += ["**FAILED**: wrong results in: " + ", ".join(sorted(set(r.failed))), ""]
    if any(t > 2 for t in r.threads()):
        out += ["More threads than the machine's 2 cores are time-sharing, not parallelism.", ""]
    out += ["Speedups: \"vs serial\" is over the serial gcc build; \"vs own serial\" over the serial"
            " build of the runtime's own compiler (libomp: clang, Rayon: rustc; the others: gcc)."
            " Compilers differ on the leaf code, so the second says what the scheduler does with"
            " the work its compiler made.", ""]
    out += summary_table(r)
    r.agg = min
    out += summary_table(r, "best")
    r.agg = med

    # 1. fork-join overhead
    if "fib" in r.info:
        n, forks = r.info["fib"]
        calls = 2 * forks + 1
        out += [f"## Fork-join overhead: fib({n}), one fork per call, no cutoff", "",
                f"{forks:,} forks (fib(n-2) forked, fib(n-1) inline, then the wait);"
                f" {calls:,} calls. ns per fork-join = run time / forks; overhead ="
                " (run time - own serial time) / forks, at 1 thread only (at more threads the run"
                " time holds the speedup too). Instructions: per fork at 1 thread, from"
                " callgrind (fib(20) minus fib(18)): exact where the times are noisy. Serial rows:"
                " ns per fork is the time of the plain recursion over the same count.", ""]
        out += ["| runtime | construct | threads | time (median) | ns per fork-join (median, min-max) |"
                " overhead ns, 1 thread | speedup vs serial | vs own serial | instructions |",
                "|---|---|---|---|---|---|---|---|---|"]
        for k in r.rows(("fib", "fib-tg")):
            rt, wl, th = k
            v = r.runs[k]
            per = [s * 1e9 / forks for s in v]
            own = r.t(r.own(rt), "fib")
            over = f"{(med(v) - own) * 1e9 / forks:.1f}" if own and rt not in SERIALS and th == 1 else ""
            ins = f"{r.instr[(rt, wl)]:.0f}" if th == 1 and (rt, wl) in r.instr else ""
            construct = "plain recursion" if rt in SERIALS else CONSTRUCT.get(wl, {}).get(rt, wl)
            out.append(f"| {NAMES.get(rt, rt)} | {construct} | {th}{r.mark(k)} | {fmt_t(med(v))} |"
                       f" {med(per):.1f} ({min(per):.1f}-{max(per):.1f}) | {over} |"
                       f" {fmt_x(r.over('serial', rt, wl, th))} |"
                       f" {fmt_x(r.over(r.own(rt), rt, wl, th))} | {ins} |")
        out.append("")

    # 2. coarse and irregular workloads: speedups
    titles = {
        "sort": "Merge sort of {n} uint32 (fork down to 32-element leaves)",
        "queens": "N-Queens({n}) (a task per placement in the first 4 rows)",
        "uts-t1": "UTS T1 (geometric, depth {n}): a task per node",
        "uts-t3": "UTS T3 (binomial, root branching {n}): a task per node",
    }
    for wl in ("uts-t1", "uts-t3", "sort", "queens"):
        if wl not in r.info:
            continue
        n, tasks = r.info[wl]
        what = "nodes" if wl in TREES else "tasks"
        out += [f"## {titles[wl].format(n=n)}", "", f"{tasks:,} {what} per run."
                + (" Work per node: one SHA-1 block; the tree's size is checked against UTS's"
                   " published one." if wl in TREES else ""), "",
                f"| runtime | threads | time (median) | min-max | ns per {what[:-1]} |"
                " speedup vs serial | vs own serial | vs own 1 thread |",
                "|---|---|---|---|---|---|---|---|"]
        for k in r.rows((wl,)):
            rt, _, th = k
            v = r.runs[k]
            one = r.t(rt, wl, 1)
            out.append(f"| {NAMES.get(rt, rt)} | {th}{r.mark(k)} | {fmt_t(med(v))} | {fmt_t(min(v))}-{fmt_t(max(v))} |"
                       f" {med(v) * 1e9 / tasks:.1f} | {fmt_x(r.over('serial', rt, wl, th))} |"
                       f" {fmt_x(r.over(r.own(rt), rt, wl, th))} |"
                       f" {fmt_x(one / med(v) if one else None)} |")
        out.append("")

    # 3. fine-grained task throughput: spawn (both kinds) and skynet
    spawn_how = {
        "spawn": ("Spawn throughput: {n:,} independent tasks from one task, then all awaited",
                  "hive: hive_spawn, every task queued (LIFO slot, FIFO ring, overflow to the global"
                  " queue, steals); oneTBB: task_group::run; OpenMP: task in a loop, then taskwait"
                  " (libgomp and libomp run a task at once when too many are queued); Rayon:"
                  " rayon::scope, spawn in a loop. Each task reads its number from a 64-byte"
                  " record of its own (hive's holds its task header) and marks its byte in its"
                  " thread's own array, for the check."),
        "spawn-or-run": ("Spawn or run: the same {n:,} tasks, where a spawn may run its task at once",
                         "hive: hive_spawn_or_run, which runs the task on the spawner's stack when"
                         " the spawner's queues are full (its LIFO slot and 256 in its ring) and every"
                         " core is busy, or its ring holds tasks that the cores looking for work can"
                         " take; OpenMP:"
                         " the same task loop as spawn (its runtimes may run a task at once). oneTBB"
                         " and Rayon have no such spawn."),
    }
    queued_how = {"spawn": (
        " Queued (no runtime, one thread: bench/spawn_queued.c): every task's record linked into a"
        " list at its spawn, then the list walked and each task run - the floor of queueing every"
        " task on this machine, where each record is written at its spawn and read again when it"
        " runs (64 MB apart at 10^6); plain: with plain stores; claimed: with the compare-and-swap"
        " that claims a task at its spawn and the exchange that gives it back before it runs,"
        " which hive_spawn's contract needs (a second spawn of a queued task refused; a refused"
        " spawn promised a run that sees its writes): two locked instructions a task. A runtime"
        " whose spawn may run the task at once reads each record once, as the serial row does.")}
    for wl, (title, how) in spawn_how.items():
        if wl not in r.info:
            continue
        n, tasks = r.info[wl]
        out += [f"## {title.format(n=int(n))}", "",
                how + " Serial: the same task bodies called through a pointer." + queued_how.get(wl, "")
                + " Parks per stolen task: hive's idle parks over the tasks its steals moved"
                " (hive_stats; medians).", "",
                "| runtime | threads | time (median) | M tasks/s (median, min-max) | ns per task |"
                " parks per stolen task |", "|---|---|---|---|---|---|"]
        for k in r.rows((wl,)):
            v = r.runs[k]
            rate = [tasks / s * 1e-6 for s in v]
            pps = r.parks_per_stolen(k)
            out.append(f"| {NAMES.get(k[0], k[0])} | {k[2]}{r.mark(k)} | {fmt_t(med(v))} |"
                       f" {med(rate):.1f} ({min(rate):.1f}-{max(rate):.1f}) | {med(v) * 1e9 / tasks:.1f} |"
                       f" {'' if pps is None else f'{pps:.3f}'} |")
        out.append("")
    if "skynet" in r.info:
        n, tasks = r.info["skynet"]
        out += [f"## skynet: a 10-ary tree of tasks over {int(n):,} leaves", "",
                f"{tasks:,} spawned tasks, a group (task_group, taskwait, scope) per inner node;"
                " the leaves' numbers summed and checked. Serial: the same recursion, plain calls.", "",
                "| runtime | threads | time (median) | min-max | ns per task | vs own 1 thread |",
                "|---|---|---|---|---|---|"]
        for k in r.rows(("skynet",)):
            v = r.runs[k]
            one = r.t(k[0], "skynet", 1)
            out.append(f"| {NAMES.get(k[0], k[0])} | {k[2]}{r.mark(k)} | {fmt_t(med(v))} | {fmt_t(min(v))}-{fmt_t(max(v))} |"
                       f" {med(v) * 1e9 / tasks:.1f} | {fmt_x(one / med(v) if one else None)} |")
        out.append("")

    # 3b. more workers against fewer, pair by pair
    for k in sorted(r.pairs):
        rt, wl, lo, hi = k
        v = r.pairs[k]
        ratios = pair_ratios(v)
        cut = med([c for c, _, _ in v])
        upper = [a / b for c, a, b in v if c >= cut]
        out += [f"## {wl}: {hi} workers against {lo}, in pairs ({NAMES.get(rt, rt)})", "",
                f"{len(v)} pairs of runs back to back (bench/sched_bench.c, pairs()): the cores-free"
                f" probe, then the best of {PAIR_RUNS} runs at {lo} and the best of {PAIR_RUNS} at {hi}"
                " worker(s), the order alternating from pair to pair. A pair's runs lie a few hundred milliseconds apart, so"
                " its ratio compares the two under the same load, where the tables above compare"
                " medians of runs seconds apart. Ratio: the time at"
                f" {lo} over the time at {hi} (above 1: {hi} were faster).", "",
                f"Ratio median {med(ratios):.2f} (min {min(ratios):.2f}, max {max(ratios):.2f});"
                f" {hi} faster in {sum(x > 1 for x in ratios)} of {len(v)} pairs. In the"
                f" {len(upper)} pairs whose probe was at least the median probe ({cut:.2f}):"
                f" median {med(upper):.2f}.", "",
                f"| pair | cores free | {lo} worker(s) | {hi} workers | ratio |", "|---|---|---|---|---|"]
        for i, (c, a, b) in enumerate(v):
            out.append(f"| {i + 1} | {c:.2f} | {fmt_t(a)} | {fmt_t(b)} | {a / b:.2f} |")
        out.append("")

    # 4. fixed cost of a run
    if "empty" in r.info:
        out += ["## An empty run", "",
                "hive: hive_run() on its kept worker threads (parked between runs); oneTBB:"
                " task_arena::execute on a kept arena; OpenMP: a parallel region (pooled team);"
                " Rayon: ThreadPool::install on a kept pool.", "",
                "| runtime | threads | median | min-max |", "|---|---|---|---|"]
        for k in r.rows(("empty",)):
            v = r.runs[k]
            out.append(f"| {NAMES.get(k[0], k[0])} | {k[2]}{r.mark(k)} | {fmt_t(med(v))} | {fmt_t(min(v))}-{fmt_t(max(v))} |")
        out.append("")

    # 5. hive's own counters
    hk = [k for k in order(r.stats) if k[0] == "hive"]
    if hk:
        out += ["## hive's counters (hive_stats, whole run, medians)", "",
                "| workload | threads | " + " | ".join(COUNTERS) + " | parks per stolen task |",
                "|---|---|" + "---|" * len(COUNTERS) + "---|"]
        for k in hk:
            s = r.stats[k]
            pps = r.parks_per_stolen(k)
            out.append(f"| {k[1]} | {k[2]} | " + " | ".join(f"{med([x.get(c, 0) for x in s]):.0f}"
                                                           for c in COUNTERS)
                       + f" | {'' if pps is None else f'{pps:.3f}'} |")
        out.append("")
    return "\n".join(out)


def summary_table(r, what="median"):
    """One table with every runtime's headline figure per workload, at the
    most threads measured (and fib at 1 thread too): of the medians, or of
    the best runs (r.agg = min: the runs least disturbed by other work)."""
    ths = r.threads()
    if not ths:
        return []
    th = ths[-1]
    cols = []  # (title, function(rt) -> text)

    def ns_per(wl, t):
        def f(rt):
            if rt in SERIALS and t != 1 and wl in ("fib", "spawn", "spawn-or-run"):
                return ""  # its 1-thread column has it
            key = (rt, wl, 1 if rt in SERIALS else t)
            v = r.t(*key)
            return f"{v * 1e9 / r.info[wl][1]:.1f}{r.mark(key)}" if v else ""
        return f

    def speed(wl):
        def f(rt):
            if rt in SERIALS:
                v = r.t(rt, wl, 1)
                return fmt_t(v) if v else ""
            a, b = r.over("serial", rt, wl, th), r.over(r.own(rt), rt, wl, th)
            if a is None:
                return ""
            return (f"{a:.2f}" + (f" ({b:.2f})" if r.own(rt) != "serial" and b else "")
                    + r.mark((rt, wl, th)))
        return f

    if "fib" in r.info:
        cols.append(("fib: ns per fork, 1 thread", ns_per("fib", 1)))
        if th != 1:
            cols.append((f"fib: ns per fork, {th} threads", ns_per("fib", th)))
    for wl in ("uts-t1", "uts-t3", "sort", "queens"):
        if wl in r.info:
            cols.append((f"{wl}: speedup, {th} threads", speed(wl)))
    for wl in ("skynet", "spawn", "spawn-or-run"):
        if wl in r.info:
            if wl != "skynet" and th != 1:
                cols.append((f"{wl}: ns per task, 1 thread", ns_per(wl, 1)))
            cols.append((f"{wl}: ns per task, {th} threads", ns_per(wl, th)))
    rts = [rt for rt in ORDER if any(k[0] == rt for k in r.runs)]
    if what == "median":
        out = ["## Summary", "", f"Medians. Speedups at {th} threads over the serial gcc build (in"
               " brackets: over the runtime's own compiler's serial build); serial rows give their"
               " time instead. spawn: hive (hive_spawn), oneTBB and Rayon queue every task, while"
               " OpenMP's task may run at once (libgomp does past 64 queued a thread), as"
               " hive_spawn_or_run may: compare OpenMP with hive's spawn-or-run. The queued rows are"
               " spawn's floor for queueing every task on one thread with no scheduler at all"
               " (plain stores; claimed: with the two locked instructions of hive_spawn's"
               " contract).", ""]
    else:
        out = ["## Summary of the best runs", "", "The same from each figure's best repetition (its"
               " fastest run, and the serial builds' fastest): the runs least disturbed by other work"
               " on a shared machine.", ""]
    out += ["| runtime | " + " | ".join(c[0] for c in cols) + " |", "|---|" + "---|" * len(cols)]
    for rt in rts:
        out.append(f"| {NAMES.get(rt, rt)} | " + " | ".join(c[1](rt) for c in cols) + " |")
    return out + [""]


def json_report(r, meta, extra_recs=(), extra=None):
    recs = []
    for k in order(r.runs):
        rt, wl, th = k
        v = r.runs[k]
        size, tasks = r.info[wl]
        name = f"{wl}({size})" if wl in ("fib", "fib-tg") else wl
        rec = {"workload": name, "runtime": JSON_NAME.get(rt, rt), "workers": th,
               "median_ns": round(med(v) * 1e9), "min_ns": round(min(v) * 1e9),
               "max_ns": round(max(v) * 1e9), "runs": len(v), "size": int(size), "tasks": tasks}
        if th == 1 and (rt, wl) in r.instr:
            rec["instructions_per_fork"] = round(r.instr[(rt, wl)], 1)
        p = r.probe.get(k)
        if th > 1 and p and any(x is not None for x in p):
            rec["cores_free_before_runs"] = p  # the probe before each run, in run order
        if rt not in SERIALS:
            for key, base in (("speedup_vs_serial", "serial"), ("speedup_vs_own_serial", r.own(rt))):
                x = r.over(base, rt, wl, th)
                if x is not None:
                    rec[key] = round(x, 3)
            if r.own(rt) != "serial":
                rec["own_serial"] = JSON_NAME.get(r.own(rt), r.own(rt))
        s = r.stats.get(k)
        if s:
            rec["stats"] = {c: med([x.get(c, 0) for x in s]) for c in sorted(s[0])}
            pps = r.parks_per_stolen(k)
            if pps is not None:
                rec["parks_per_stolen_task"] = round(pps, 4)
        recs.append(rec)
    machine = {key: meta[key] for key in meta if key not in ("commit",)}
    if r.cap:
        machine["cores_free"] = {"median": med(r.cap), "min": min(r.cap), "max": max(r.cap)}
    if r.load:
        machine["load_per_repetition"] = r.load
    recs += extra_recs
    obj = {"machine": machine, "commit": meta.get("commit", "?"), "records": recs}
    if r.pairs:
        obj["pairs"] = [{"workload": wl, "runtime": JSON_NAME.get(rt, rt), "workers": [lo, hi],
                         "runs_each": PAIR_RUNS,
                         "pairs": [{"cores_free": c, "lo_ns": round(a * 1e9), "hi_ns": round(b * 1e9)}
                                   for c, a, b in r.pairs[(rt, wl, lo, hi)]]}
                        for rt, wl, lo, hi in sorted(r.pairs)]
    obj.update(extra or {})
    return json.dumps(obj, indent=1) + "\n"


def svg_report(r):
    """Three panels: ns per fork-join (fib), ns per task (skynet, spawn), both
    log scale; speedup over each runtime's own serial build (trees, sort,
    queens)."""
    colors = ["#4c72b0", "#dd8452", "#55a868", "#c44e52", "#8172b3"]
    threads = r.threads()
    W, H, top, bottom = 1560, 420, 60, 90
    el = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{W}" height="{H}" font-family="sans-serif" font-size="12">',
          f'<rect width="{W}" height="{H}" fill="white"/>']

    def panel(x0, w, title, groups, value, logscale, vmax, ref=None, vmin=1):
        h = H - top - bottom
        el.append(f'<text x="{x0 + w / 2}" y="22" text-anchor="middle" font-size="14">{title}</text>')
        if logscale:
            lo, hi = math.floor(math.log10(vmin)), max(math.ceil(math.log10(vmax)), math.floor(math.log10(vmin)) + 1)
            ticks = [10 ** e for e in range(lo, hi + 1)]
            ypos = lambda v: top + h - (math.log10(max(v, 10 ** lo)) - lo) / (hi - lo) * h
        else:
            step = 0.5 if vmax <= 3 else 1
            ticks = [i * step for i in range(int(vmax / step) + 2)]
            hi = ticks[-1]
            ypos = lambda v: top + h - v / hi * h
        for t in ticks:
            y = ypos(t)
            el.append(f'<line x1="{x0}" x2="{x0 + w}" y1="{y:.1f}" y2="{y:.1f}" stroke="#ddd"/>')
            el.append(f'<text x="{x0 - 4}" y="{y + 4:.1f}" text-anchor="end">{t:g}</text>')
        if ref is not None:
            el.append(f'<line x1="{x0}" x2="{x0 + w}" y1="{ypos(ref):.1f}" y2="{ypos(ref):.1f}"'
                      ' stroke="#555" stroke-dasharray="4 3"/>')
        gw = w / max(len(groups), 1)
        bw = gw * 0.8 / max(len(threads), 1)
        for gi, (label, key) in enumerate(groups):
            for ti, th in enumerate(threads):
                v = value(key, th)
                if v is None:
                    continue
                med_, lo_, hi_ = v
                x = x0 + gi * gw + gw * 0.1 + ti * bw
                y = ypos(med_)
                el.append(f'<rect x="{x:.1f}" y="{y:.1f}" width="{max(bw - 2, 1):.1f}" height="{top + h - y:.1f}"'
                          f' fill="{colors[ti % len(colors)]}"><title>{label}, {th} threads: {med_:.3g}</title></rect>')
                cx = x + (bw - 2) / 2
                el.append(f'<line x1="{cx:.1f}" x2="{cx:.1f}" y1="{ypos(lo_):.1f}" y2="{ypos(hi_):.1f}" stroke="black"/>')
            tx = x0 + gi * gw + gw / 2
            el.append(f'<text x="{tx:.1f}" y="{top + h + 14}" text-anchor="end" '
                      f'transform="rotate(-35 {tx:.1f} {top + h + 14})">{label}</text>')
        el.append(f'<line x1="{x0}" x2="{x0 + w}" y1="{top + h}" y2="{top + h}" stroke="black"/>')

    def per_task(key, th):
        v = r.runs.get((key[0], key[1], th))
        n = r.info.get(key[1], (0, 0))[1]
        return (med(v) * 1e9 / n, min(v) * 1e9 / n, max(v) * 1e9 / n) if v and n else None

    def vals(groups, f):
        return [x for _, k in groups for th in threads for x in (f(k, th) or ())]

    # 1. fib
    fib_groups = [(SHORT.get(rt, rt) + (" task_group" if wl == "fib-tg" else ""), (rt, wl))
                  for rt, wl, th in order(r.runs) if wl in ("fib", "fib-tg") and rt not in SERIALS
                  and th == threads[0]] if threads else []
    v = vals(fib_groups, per_task)
    panel(70, 380, f"fib({r.info.get('fib', ('?',))[0]}): ns per fork-join (log, lower is better)",
          fib_groups, per_task, True, max(v + [10]) * 1.2, vmin=min(v + [10]))
    # 2. fine tasks
    fine = [(f"{SHORT.get(rt, rt)} {wl}", (rt, wl)) for wl in ("skynet", "spawn", "spawn-or-run")
            for rt in PEERS if threads and (rt, wl, threads[0]) in r.runs]
    v = vals(fine, per_task)
    panel(530, 380, "skynet, spawn, spawn-or-run: ns per task (log, lower is better)", fine, per_task, True,
          max(v + [10]) * 1.2, vmin=min(v + [10]))

    # 3. speedups over the own serial build
    sp_groups = [(f"{SHORT.get(rt, rt)} {wl}", (rt, wl)) for wl in ("uts-t1", "uts-t3", "sort", "queens")
                 for rt in PEERS if threads and (rt, wl, threads[0]) in r.runs]

    def sp_val(key, th):
        v, s = r.runs.get((key[0], key[1], th)), r.runs.get((r.own(key[0]), key[1], 1))
        if not v or not s:
            return None
        return (med(s) / med(v), med(s) / max(v), med(s) / min(v))

    spv = vals(sp_groups, sp_val)
    panel(990, 540, "speedup vs own serial build (higher is better)", sp_groups, sp_val, False,
          max(spv + [1]), ref=1)
    for ti, th in enumerate(threads):  # legend, under the titles
        el.append(f'<rect x="{70 + ti * 100}" y="32" width="12" height="12" fill="{colors[ti % len(colors)]}"/>')
        el.append(f'<text x="{86 + ti * 100}" y="42">{th} thread{"s" if th > 1 else ""}</text>')
    el.append(f'<text x="{W - 20}" y="42" text-anchor="end" fill="#555">bars: median; lines: min-max;'
              ' dashed: own serial</text>')
    el.append("</svg>")
    return "\n".join(el) + "\n"


def summary(r):
    """A few lines for the console (stderr): the headline figures."""
    threads = r.threads()
    if "fib" in r.info:
        forks = r.info["fib"][1]
        for th in threads:
            v = [f"{SHORT[rt]} {r.t(rt, 'fib', th) * 1e9 / forks:.1f}" for rt in PEERS if r.t(rt, "fib", th)]
            print(f"sched: ns per fork-join, fib({r.info['fib'][0]}), {th} thread(s): " + ", ".join(v),
                  file=sys.stderr)
    for wl in ("uts-t1", "uts-t3", "sort", "queens"):
        if threads and r.t("serial", wl):
            th = threads[-1]
            v = [f"{SHORT[rt]} {r.over(r.own(rt), rt, wl, th):.2f}" for rt in PEERS
                 if r.over(r.own(rt), rt, wl, th)]
            print(f"sched: {wl} speedup vs own serial, {th} thread(s): " + ", ".join(v), file=sys.stderr)
    for (rt, wl, lo, hi), v in sorted(r.pairs.items()):
        ratios = pair_ratios(v)
        print(f"sched: {wl}, {SHORT.get(rt, rt)} at {lo} over {hi} workers, {len(v)} pairs: median"
              f" {med(ratios):.2f}, {hi} faster in {sum(x > 1 for x in ratios)}", file=sys.stderr)
    if r.cap:
        print(f"sched: cores free (median of {len(r.cap)} probes, one before each program):"
              f" {med(r.cap):.2f} of 2; {sum(x < LOW_CAP for x in r.cap)} under {LOW_CAP}", file=sys.stderr)


# ---- the boards (bench/board/sched_board.c) -------------------------------------

BOARD_WL = ("fib", "sort", "queens", "spawn", "skynet", "uts-t1")
BOARD_TITLE = {"fib": "fib({n}), hive_join per call", "sort": "merge sort of {n}",
               "queens": "N-Queens({n})", "spawn": "{n} hive_spawns", "skynet": "skynet, {n} leaves",
               "uts-t1": "UTS T1 cut at depth {n}"}


def load_boards(path):
    b = {"runs": defaultdict(list),   # (board, workload, cores) -> [seconds]
         "info": {},                  # (board, workload) -> (size, tasks)
         "failed": [], "boots": {}, "load": [],  # boots: board -> count, in first-boot order
         "stats": defaultdict(list)}  # (board, workload, cores) -> [{counter: value}]
    for line in open(path):
        f = line.split()
        if len(f) == 3 and f[:2] == ["M", "load"]:
            b["load"].append(float(f[2]))
        elif len(f) == 3 and f[:2] == ["M", "board"]:
            b["boots"][f[2]] = b["boots"].get(f[2], 0) + 1
        elif len(f) == 8 and f[0] == "B":
            bd, wl, th, ns, size, tasks, ok = f[1], f[2], int(f[3]), int(f[4]), f[5], int(f[6]), f[7]
            b["runs"][(bd, wl, th)].append(ns * 1e-9)
            b["info"][(bd, wl)] = (size, tasks)
            if ok != "ok":
                b["failed"].append(f"{bd} {wl} cores={th}")
        elif len(f) >= 6 and f[0] == "BS" and len(f) % 2 == 0:
            b["stats"][(f[1], f[2], int(f[3]))].append(
                {f[i]: int(f[i + 1]) for i in range(4, len(f), 2)})
    return b


def board_order(b):
    seen = {k[0] for k in b["runs"]}
    boards = [bd for bd in b["boots"] if bd in seen] + sorted(seen - set(b["boots"]))
    return boards, sorted({k[2] for k in b["runs"]})


def md_boards(b, meta):
    if not b["runs"]:
        return []
    boards, cores = board_order(b)
    reps = max(len(v) for v in b["runs"].values())
    out = ["## On the boards, under QEMU (bench/board/sched_board.c)", "",
           f"{meta.get('date', '?')}, {meta.get('qemu', 'QEMU ?')}, hive at {meta.get('commit', '?')}; "
           f"{reps} boot(s) of each board's image with {max(cores)} cores, each running every workload at"
           f" {', '.join(map(str, cores))} cores (hive_config.cores) after an untimed warm-up. Times are"
           " guest time (hive_now_ns) of one whole hive_run; medians over the boots, min-max in brackets."
           " **Under QEMU's TCG guest time is host time**: each vCPU is a host thread, so these figures"
           " carry whatever else the host runs" + (f" - on a {meta['host_cores']}-core host, 4 vCPUs"
           " time-share even when it is idle, and 4 cores cannot reach a speedup of 4"
           if meta.get("host_cores", "").isdigit() and int(meta["host_cores"]) < 4 else "") + ".", ""]
    if meta.get("load_start"):
        out += [f"Load average (1, 5, 15 min) at the start: {meta['load_start']}; at the end:"
                f" {meta.get('load_end', '?')}."
                + (" Load before each boot (1 min): " + ", ".join(f"{x:.2f}" for x in b["load"])
                   + "." if b["load"] else ""), ""]
    if b["failed"]:
        out += ["**FAILED**: wrong results in: " + ", ".join(sorted(set(b["failed"]))), ""]
    head = " | ".join(f"{c} core{'s' if c > 1 else ''}" for c in cores)
    # Group spawns run at once (hive_stats' run_at_spawn) at the first count above 1: the rest of a
    # group workload's tasks were queued, which costs far more under TCG than a call.
    at_once_cores = next((c for c in cores if c > 1), None)
    out += ["Speedup " + " -> ".join(map(str, cores)) + " cores: the 1-core median over each median."
            + (f" Run at spawn: the group spawns run at once at {at_once_cores} cores (hive_stats'"
               " run_at_spawn; the other tasks were queued)." if at_once_cores else ""), "",
            f"| board | workload | tasks | {head} | speedup {'->'.join(map(str, cores))} | steals at"
            f" {max(cores)} cores |" + (f" run at spawn, {at_once_cores} cores |" if at_once_cores else ""),
            "|---|---|---|" + "---|" * len(cores) + "---|---|" + ("---|" if at_once_cores else "")]
    for bd in boards:
        for wl in BOARD_WL:
            if (bd, wl) not in b["info"]:
                continue
            size, tasks = b["info"][(bd, wl)]
            cells, sp = [], []
            one = b["runs"].get((bd, wl, 1))
            for c in cores:
                v = b["runs"].get((bd, wl, c))
                cells.append(f"{fmt_t(med(v))} ({fmt_t(min(v))}-{fmt_t(max(v))})" if v else "")
                sp.append(fmt_x(med(one) / med(v)) if v and one else "")
            st = b["stats"].get((bd, wl, max(cores)))
            steals = f"{med([x.get('steals', 0) for x in st]):.0f}" if st else ""
            row = (f"| {bd} | {BOARD_TITLE.get(wl, wl).format(n=size)} | {tasks:,} | "
                   + " | ".join(cells) + f" | {' -> '.join(sp)} | {steals} |")
            if at_once_cores:
                # Older boards.raw files have no run_at_spawn: an empty cell.
                sa = [x["run_at_spawn"] for x in b["stats"].get((bd, wl, at_once_cores), ())
                      if "run_at_spawn" in x]
                row += f" {med(sa):,.0f} |" if sa else " |"
            out.append(row)
    return out + [""]


def md_footprint(fp):
    if not fp:
        return []
    out = ["## Footprint per board (bench/footprint)", "",
           f"Commit {fp.get('commit', '?')}, {fp.get('build', 'MinSizeRel')} (-Os), bytes: text, data and bss"
           " of the scheduler (libhive_sched.a) and of the rest of hive every image links (kernel, arch, the"
           " board's wiring and drivers); static RAM per core: the arrays with one element per core (stacks,"
           " task-header pools, timer pools...), sized for the board's most cores, divided by that count."
           " bench/results/footprint.md has the details.", "",
           "| board | arch | scheduler text / data / bss | kernel, arch, board text / data / bss |"
           " most cores | static RAM per core |", "|---|---|---|---|---|---|"]
    for rec in fp.get("records", []):
        s, k = rec["sched"], rec["kernel"]
        out.append(f"| {rec['board']} | {rec['arch']} | {s['text']} / {s['data']} / {s['bss']} |"
                   f" {k['text']} / {k['data']} / {k['bss']} | {rec['max_cores']} |"
                   f" {rec['static_ram_per_core']} |")
    return out + [""]


def json_boards(b):
    recs = []
    boards, cores = board_order(b)
    for bd in boards:
        for wl in BOARD_WL:
            if (bd, wl) not in b["info"]:
                continue
            size, tasks = b["info"][(bd, wl)]
            one = b["runs"].get((bd, wl, 1))
            for c in cores:
                v = b["runs"].get((bd, wl, c))
                if not v:
                    continue
                rec = {"workload": f"{wl}({size})" if wl == "fib" else wl, "runtime": "hive",
                       "board": bd, "workers": c, "median_ns": round(med(v) * 1e9),
                       "min_ns": round(min(v) * 1e9), "max_ns": round(max(v) * 1e9), "runs": len(v),
                       "size": int(size), "tasks": tasks, "clock": "guest"}
                if one:
                    rec["speedup_vs_1_worker"] = round(med(one) / med(v), 3)
                s = b["stats"].get((bd, wl, c))
                if s:
                    rec["stats"] = {k: med([x.get(k, 0) for x in s]) for k in sorted(s[0])}
                recs.append(rec)
    return recs


def board_summary(b):
    boards, cores = board_order(b)
    for bd in boards:
        v = []
        for wl in BOARD_WL:
            one, most = b["runs"].get((bd, wl, 1)), b["runs"].get((bd, wl, max(cores)))
            if one and most:
                v.append(f"{wl} {med(one) / med(most):.2f}")
        print(f"boards: {bd}: speedup 1 -> {max(cores)} cores: " + ", ".join(v), file=sys.stderr)


def main():
    args, boards, footprint = [], None, None
    argv = sys.argv[1:]
    while argv:
        a = argv.pop(0)
        if a == "--boards" and len(argv) >= 2:
            boards = (argv.pop(0), argv.pop(0))
        elif a == "--footprint" and argv:
            footprint = argv.pop(0)
        else:
            args.append(a)
    if len(args) not in (4, 6):
        sys.exit(__doc__)
    raw, md, svg, header = args[:4]
    r = Report(load(raw))
    b = load_boards(boards[0]) if boards else None
    bmeta = read_meta(boards[1]) if boards else {}
    fp = json.load(open(footprint)) if footprint else None
    if not r.runs and not (b and b["runs"]):
        sys.exit("sched_report: no results")
    text = md_report(r, open(header).read()) if r.runs else open(header).read().rstrip() + "\n"
    text += "\n".join([""] + (md_boards(b, bmeta) if b else []) + md_footprint(fp))
    open(md, "w").write(text)
    open(svg, "w").write(svg_report(r))
    if len(args) == 6:
        extra = {}
        if b and b["runs"]:
            extra["boards"] = bmeta
        if fp:
            extra["footprint"] = fp
        open(args[4], "w").write(json_report(r, read_meta(args[5]), json_boards(b) if b else [], extra))
    if r.runs:
        summary(r)
    if b:
        board_summary(b)
    sys.exit(1 if r.failed or (b and b["failed"]) else 0)


def read_meta(path):
    meta = {}
    for line in open(path):
        if "=" in line:
            key, val = line.rstrip("\n").split("=", 1)
            meta[key] = val
    return meta


if __name__ == "__main__":
    main()
