#!/usr/bin/env python3
"""Turn the scheduler benchmark's raw lines into bench/results/sched.md and
sched.svg (bench/run sched calls it).

    sched_report.py RAW MD SVG HEADER

RAW holds the programs' lines "R runtime workload threads seconds size tasks
ok|FAILED" from every repetition; HEADER is a file of Markdown put first (the
date, the machine, the load average). Figures are the median over the
repetitions, with min and max, since the machine is shared and noisy. The SVG
is written by hand: no plotting library is assumed.
"""
import statistics
import sys
from collections import defaultdict

NAMES = {
    "serial": "serial (gcc)",
    "hive": "hive",
    "tbb": "oneTBB",
    "omp-gcc": "OpenMP gcc/libgomp",
    "omp-llvm": "OpenMP clang/libomp",
}
ORDER = ["serial", "hive", "tbb", "omp-gcc", "omp-llvm"]
SHORT = {"hive": "hive", "tbb": "TBB", "omp-gcc": "OMP gcc", "omp-llvm": "OMP llvm"}  # the SVG's labels
WHAT = {  # the construct each runtime uses, per workload
    "fib": {"hive": "hive_join", "tbb": "parallel_invoke", "omp-gcc": "task + taskwait",
            "omp-llvm": "task + taskwait", "serial": "plain recursion"},
    "fib-tg": {"tbb": "task_group run + wait"},
}


def load(path):
    runs = defaultdict(list)  # (runtime, workload, threads) -> [seconds]
    info = {}  # (workload) -> (size, tasks)
    failed = []
    instr = {}  # (runtime, workload) -> instructions per fork at 1 thread
    cap = []  # cores free, per repetition (sched_bench capacity)
    for line in open(path):
        f = line.split()
        if len(f) == 3 and f[:2] == ["M", "capacity"]:
            cap.append(float(f[2]))
            continue
        if len(f) == 7 and f[0] == "C":  # C runtime workload n1 instr1 n2 instr2
            n1, i1, n2, i2 = int(f[3]), int(f[4]), int(f[5]), int(f[6])
            instr[(f[1], f[2])] = (i2 - i1) / (fib(n2 + 1) - fib(n1 + 1))
            continue
        if len(f) != 8 or f[0] != "R":
            continue
        rt, wl, th, secs, size, tasks, ok = f[1], f[2], int(f[3]), float(f[4]), f[5], int(f[6]), f[7]
        runs[(rt, wl, th)].append(secs)
        info[wl] = (size, tasks)
        if ok != "ok":
            failed.append(f"{rt} {wl} threads={th}")
    return runs, info, failed, instr, cap


def fib(n):
    a, b = 0, 1
    for _ in range(n):
        a, b = b, a + b
    return a


def order(keys):
    return sorted(keys, key=lambda k: (ORDER.index(k[0]) if k[0] in ORDER else 99, k[1], k[2]))


def med(v):
    return statistics.median(v)


def fmt_t(s):
    return f"{s * 1e3:.1f} ms" if s >= 1e-3 else f"{s * 1e6:.1f} us"


def md_report(runs, info, failed, instr, cap, header):
    out = [header.rstrip(), ""]
    if cap:
        out += [f"Cores free for the run, measured before each repetition (a busy loop on two threads"
                f" against one; 2.0 = both cores free): median {med(cap):.2f}, min {min(cap):.2f},"
                f" max {max(cap):.2f}." + (" **Other work held a core for much of this run: the"
                " 2-thread figures understate scaling.**" if med(cap) < 1.5 else ""), ""]
    if failed:
        out += ["**FAILED**: wrong results in: " + ", ".join(sorted(set(failed))), ""]
    threads = sorted({k[2] for k in runs})
    if any(t > 2 for t in threads):
        out += ["More threads than the machine's 2 cores are time-sharing, not parallelism.", ""]
    ser = {wl: med(runs[("serial", wl, 1)]) for (rt, wl, t) in runs if rt == "serial"}

    def rows(wls):
        return [k for k in order(runs) if k[1] in wls]

    # 1. fork-join overhead
    if "fib" in info:
        n, forks = info["fib"]
        calls = 2 * forks + 1
        out += [f"## Fork-join overhead: fib({n}), one fork per call, no cutoff", "",
                f"{forks:,} forks (fib(n-2) forked, fib(n-1) inline, then the wait);"
                f" {calls:,} calls. ns per fork-join = run time / forks; overhead ="
                " (run time - serial time) / forks; speedup = serial time / run time."
                " Instructions: per fork at 1 thread, from callgrind (fib(20) minus fib(18)):"
                " exact where the times are noisy.", ""]
        if "fib" in ser:
            out += [f"Serial baseline: {fmt_t(ser['fib'])}, {ser['fib'] * 1e9 / calls:.2f} ns per call.", ""]
        out += ["| runtime | construct | threads | time (median) | ns per fork-join (median, min-max) |"
                " overhead ns | speedup vs serial | instructions |", "|---|---|---|---|---|---|---|---|"]
        for k in rows(("fib", "fib-tg")):
            rt, wl, th = k
            v = runs[k]
            per = [s * 1e9 / forks for s in v]
            over = (med(v) - ser["fib"]) * 1e9 / forks if "fib" in ser else float("nan")
            sp = ser["fib"] / med(v) if "fib" in ser else float("nan")
            ins = f"{instr[(rt, wl)]:.0f}" if th == 1 and (rt, wl) in instr else ""
            out.append(f"| {NAMES.get(rt, rt)} | {WHAT.get(wl, {}).get(rt, wl)} | {th} | {fmt_t(med(v))} |"
                       f" {med(per):.1f} ({min(per):.1f}-{max(per):.1f}) | {over:.1f} | {sp:.2f} | {ins} |")
        out.append("")

    # 2. coarse workloads
    for wl, title in (("sort", "Merge sort of {} uint32 (fork down to 32-element leaves)"),
                      ("queens", "N-Queens({}) (a task per placement in the first 4 rows)")):
        if wl not in info:
            continue
        n, tasks = info[wl]
        out += [f"## {title.format(n)}", "", f"{tasks:,} tasks per run.", "",
                "| runtime | threads | time (median) | min-max | speedup vs serial | vs own 1 thread |",
                "|---|---|---|---|---|---|"]
        for k in rows((wl,)):
            v = runs[k]
            own = runs.get((k[0], wl, 1))
            out.append(f"| {NAMES.get(k[0], k[0])} | {k[2]} | {fmt_t(med(v))} | {fmt_t(min(v))}-{fmt_t(max(v))} |"
                       f" {ser[wl] / med(v) if wl in ser else float('nan'):.2f} |"
                       f" {med(own) / med(v) if own else float('nan'):.2f} |")
        out.append("")

    # 3. spawn throughput
    if "spawn" in info:
        n, tasks = info["spawn"]
        out += [f"## Spawn throughput: {int(n):,} independent tasks from one task, then all awaited", "",
                "hive: hive_spawn (LIFO slot, FIFO ring, overflow to the global queue, steals);"
                " oneTBB: task_group::run; OpenMP: task in a loop, then taskwait. Serial: the same"
                " task bodies called through a pointer.", "",
                "| runtime | threads | time (median) | M tasks/s (median, min-max) | ns per task |",
                "|---|---|---|---|---|"]
        for k in rows(("spawn",)):
            v = runs[k]
            rate = [tasks / s * 1e-6 for s in v]
            out.append(f"| {NAMES.get(k[0], k[0])} | {k[2]} | {fmt_t(med(v))} |"
                       f" {med(rate):.1f} ({min(rate):.1f}-{max(rate):.1f}) | {med(v) * 1e9 / tasks:.1f} |")
        out.append("")

    # 4. fixed cost of a run
    if "empty" in info:
        out += ["## An empty run", "",
                "hive: hive_run() starts and joins its worker threads every time; oneTBB:"
                " task_arena::execute on a kept arena; OpenMP: a parallel region (pooled team).", "",
                "| runtime | threads | median | min-max |", "|---|---|---|---|"]
        for k in rows(("empty",)):
            v = runs[k]
            out.append(f"| {NAMES.get(k[0], k[0])} | {k[2]} | {fmt_t(med(v))} | {fmt_t(min(v))}-{fmt_t(max(v))} |")
        out.append("")
    return "\n".join(out)


def svg_report(runs, info):
    """Two panels: ns per fork-join (fib, log scale) and speedup vs serial."""
    colors = ["#4c72b0", "#dd8452", "#55a868", "#c44e52", "#8172b3"]
    threads = sorted({k[2] for k in runs if k[0] != "serial"})
    W, H, top, bottom = 960, 400, 60, 80
    el = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{W}" height="{H}" font-family="sans-serif" font-size="12">',
          f'<rect width="{W}" height="{H}" fill="white"/>']

    def panel(x0, w, title, groups, value, logscale, vmax, ref=None):
        import math
        h = H - top - bottom
        el.append(f'<text x="{x0 + w / 2}" y="22" text-anchor="middle" font-size="14">{title}</text>')
        if logscale:
            lo, hi = 0, math.ceil(math.log10(vmax))
            ticks = [10 ** e for e in range(lo, hi + 1)]
            ypos = lambda v: top + h - (math.log10(max(v, 1)) - lo) / (hi - lo) * h
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
                el.append(f'<rect x="{x:.1f}" y="{y:.1f}" width="{bw - 2:.1f}" height="{top + h - y:.1f}"'
                          f' fill="{colors[ti % len(colors)]}"><title>{label}, {th} threads: {med_:.3g}</title></rect>')
                cx = x + (bw - 2) / 2
                el.append(f'<line x1="{cx:.1f}" x2="{cx:.1f}" y1="{ypos(lo_):.1f}" y2="{ypos(hi_):.1f}" stroke="black"/>')
            tx = x0 + gi * gw + gw / 2
            el.append(f'<text x="{tx:.1f}" y="{top + h + 14}" text-anchor="end" '
                      f'transform="rotate(-30 {tx:.1f} {top + h + 14})">{label}</text>')
        el.append(f'<line x1="{x0}" x2="{x0 + w}" y1="{top + h}" y2="{top + h}" stroke="black"/>')

    def stat(vals):
        return (med(vals), min(vals), max(vals))

    forks = info.get("fib", (0, 0))[1]
    fib_groups = [(SHORT.get(rt, rt) + (" task_group" if wl == "fib-tg" else ""), (rt, wl))
                  for rt, wl, th in order(runs) if wl in ("fib", "fib-tg") and rt != "serial" and th == threads[0]]

    def fib_val(key, th):
        v = runs.get((key[0], key[1], th))
        return stat([s * 1e9 / forks for s in v]) if v and forks else None

    allv = [x for k, v in runs.items() if k[1] in ("fib", "fib-tg") for x in v]
    panel(70, 380, f"fib({info.get('fib', ('?',))[0]}): ns per fork-join (log, lower is better)", fib_groups,
          fib_val, True, max(allv) * 1e9 / forks * 1.2 if allv and forks else 1000)

    sp_groups = [(f"{SHORT.get(rt, rt)} {wl}", (rt, wl)) for wl in ("sort", "queens")
                 for rt in ORDER if rt != "serial" and (rt, wl, threads[0]) in runs]

    def sp_val(key, th):
        v, s = runs.get((key[0], key[1], th)), runs.get(("serial", key[1], 1))
        if not v or not s:
            return None
        return (med(s) / med(v), med(s) / max(v), med(s) / min(v))

    spv = [sp_val(k, th)[2] for _, k in sp_groups for th in threads if sp_val(k, th)]
    panel(540, 400, "speedup vs serial (higher is better)", sp_groups, sp_val, False, max(spv + [1]), ref=1)
    for ti, th in enumerate(threads):  # legend, under the titles
        el.append(f'<rect x="{70 + ti * 100}" y="32" width="12" height="12" fill="{colors[ti % len(colors)]}"/>')
        el.append(f'<text x="{86 + ti * 100}" y="42">{th} thread{"s" if th > 1 else ""}</text>')
    el.append(f'<text x="{W - 20}" y="42" text-anchor="end" fill="#555">bars: median; lines: min-max;'
              ' dashed: serial</text>')
    el.append("</svg>")
    return "\n".join(el) + "\n"


def summary(runs, info, cap):
    """A few lines for the console (stderr): the headline figures."""
    threads = sorted({k[2] for k in runs if k[0] not in ("serial",)})
    rts = [rt for rt in ORDER if rt != "serial"]
    if "fib" in info:
        forks = info["fib"][1]
        for th in threads:
            v = [f"{SHORT[rt]} {med(runs[(rt, 'fib', th)]) * 1e9 / forks:.1f}" for rt in rts if (rt, "fib", th) in runs]
            print(f"sched: ns per fork-join, fib({info['fib'][0]}), {th} thread(s): " + ", ".join(v), file=sys.stderr)
    for wl in ("sort", "queens"):
        if ("serial", wl, 1) in runs and threads:
            th = threads[-1]
            v = [f"{SHORT[rt]} {med(runs[('serial', wl, 1)]) / med(runs[(rt, wl, th)]):.2f}" for rt in rts
                 if (rt, wl, th) in runs]
            print(f"sched: {wl} speedup vs serial, {th} thread(s): " + ", ".join(v), file=sys.stderr)
    if cap:
        print(f"sched: cores free (median of repetitions): {med(cap):.2f} of 2", file=sys.stderr)


def main():
    if len(sys.argv) != 5:
        sys.exit(__doc__)
    raw, md, svg, header = sys.argv[1:]
    runs, info, failed, instr, cap = load(raw)
    if not runs:
        sys.exit("sched_report: no results")
    open(md, "w").write(md_report(runs, info, failed, instr, cap, open(header).read()))
    open(svg, "w").write(svg_report(runs, info))
    summary(runs, info, cap)
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()
