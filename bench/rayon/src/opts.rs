//! Options, warm-up sizes and the main loop: bench/sched_bench.h's, in Rust,
//! so that bench/run drives this program like the C ones and
//! bench/sched_report.py reads its lines the same way.

use crate::kernels;
use std::io::Write;

#[derive(Clone, Copy, PartialEq)]
pub enum Wl {
    Empty,
    Fib,
    FibTg,
    Sort,
    Queens,
    Spawn,
    UtsT1,
    UtsT3,
    Skynet,
}

pub const ALL: [Wl; 9] = [
    Wl::Empty,
    Wl::Fib,
    Wl::FibTg,
    Wl::Sort,
    Wl::Queens,
    Wl::Spawn,
    Wl::UtsT1,
    Wl::UtsT3,
    Wl::Skynet,
];

impl Wl {
    pub fn name(self) -> &'static str {
        match self {
            Wl::Empty => "empty",
            Wl::Fib => "fib",
            Wl::FibTg => "fib-tg",
            Wl::Sort => "sort",
            Wl::Queens => "queens",
            Wl::Spawn => "spawn",
            Wl::UtsT1 => "uts-t1",
            Wl::UtsT3 => "uts-t3",
            Wl::Skynet => "skynet",
        }
    }
}

pub const MAX_THREADS: usize = 64;

pub struct Opts {
    pub threads: Vec<usize>,
    pub reps: u32,
    pub warm: bool,       // warm-up runs first (--no-warmup: not, for callgrind)
    pub size: [usize; 9], // per workload, indexed by Wl as usize; 0: skip it
}

/// What one timed run produced; `ok` is set by the runtime's own check.
#[derive(Default)]
pub struct Outcome {
    pub secs: f64,
    pub tasks: u64,
    pub ok: bool,
}

fn usage(prog: &str) -> ! {
    eprintln!(
        "usage: {} [serial] [--threads 1,2] [--reps R] [--fib N] [--sort N] [--queens N] \
         [--spawn N] [--uts-t1 DEPTH] [--uts-t3 ROOT_BRANCHING] [--skynet LEAVES] \
         [--only WORKLOAD] [--smoke] [--no-warmup]",
        prog
    );
    std::process::exit(2);
}

fn int(prog: &str, v: &str) -> usize {
    v.parse().unwrap_or_else(|_| usage(prog))
}

/// A count that may be written 1e6.
fn count(prog: &str, v: &str) -> usize {
    v.parse::<f64>()
        .map(|x| x as usize)
        .unwrap_or_else(|_| usage(prog))
}

pub fn parse(prog: &str, args: &[String]) -> Opts {
    let mut o = Opts {
        threads: vec![1, 2],
        reps: 5,
        warm: true,
        size: [0; 9],
    };
    let s = &mut o.size;
    s[Wl::Empty as usize] = 1;
    s[Wl::Fib as usize] = 30;
    s[Wl::FibTg as usize] = 30;
    s[Wl::Sort as usize] = 1000000;
    s[Wl::Queens as usize] = 12;
    s[Wl::Spawn as usize] = 1000000;
    s[Wl::UtsT1 as usize] = 10;
    s[Wl::UtsT3 as usize] = 2000;
    s[Wl::Skynet as usize] = 1000000;
    let mut only: Option<String> = None;
    let mut i = 0;
    while i < args.len() {
        let a = args[i].as_str();
        i += 1;
        match a {
            "--smoke" => {
                o.reps = 1;
                let s = &mut o.size;
                s[Wl::Fib as usize] = 15;
                s[Wl::FibTg as usize] = 15;
                s[Wl::Sort as usize] = 5000;
                s[Wl::Queens as usize] = 7;
                s[Wl::Spawn as usize] = 2000;
                s[Wl::UtsT1 as usize] = 5;
                s[Wl::UtsT3 as usize] = 20;
                s[Wl::Skynet as usize] = 1000;
                continue;
            }
            "--no-warmup" => {
                o.warm = false;
                continue;
            }
            _ => {}
        }
        let v = match args.get(i) {
            Some(v) => v.as_str(),
            None => usage(prog),
        };
        i += 1;
        let s = &mut o.size;
        match a {
            "--threads" => {
                o.threads = v.split(',').map(|t| int(prog, t)).collect();
                if o.threads.is_empty()
                    || o.threads.len() > 16
                    || o.threads.iter().any(|&t| t < 1 || t > MAX_THREADS)
                {
                    usage(prog);
                }
            }
            "--reps" => o.reps = int(prog, v) as u32,
            "--fib" => {
                s[Wl::Fib as usize] = int(prog, v);
                s[Wl::FibTg as usize] = s[Wl::Fib as usize];
            }
            "--sort" => s[Wl::Sort as usize] = count(prog, v),
            "--queens" => s[Wl::Queens as usize] = int(prog, v),
            "--spawn" => s[Wl::Spawn as usize] = count(prog, v),
            "--uts-t1" => s[Wl::UtsT1 as usize] = int(prog, v),
            "--uts-t3" => s[Wl::UtsT3 as usize] = int(prog, v),
            "--skynet" => s[Wl::Skynet as usize] = count(prog, v),
            "--only" => only = Some(v.to_string()),
            _ => usage(prog),
        }
    }
    let s = &o.size;
    if s[Wl::Fib as usize] > 60
        || s[Wl::Queens as usize] < 1
        || s[Wl::Queens as usize] > kernels::QUEENS_MAX as usize
        || s[Wl::UtsT1 as usize] > 20
        || s[Wl::UtsT3 as usize] > 100000
        || !kernels::skynet_size_ok(s[Wl::Skynet as usize] as u64)
    {
        usage(prog);
    }
    if let Some(only) = only {
        for w in ALL {
            if w.name() != only {
                o.size[w as usize] = 0;
            }
        }
    }
    o
}

/// A smaller size for the untimed warm-up runs (sched_bench.h's sb_warm_size;
/// spawn warms up at its full size: Rayon allocates a job per spawn inside
/// the timing, all n queued before most run, and the allocator's pages must
/// already have held them, as for every runtime).
fn warm_size(w: Wl, n: usize) -> usize {
    match w {
        Wl::Spawn => n,
        Wl::Fib | Wl::FibTg => {
            if n > 8 {
                n - 4
            } else {
                n
            }
        }
        Wl::Queens => {
            if n > 8 {
                n - 2
            } else {
                n
            }
        }
        Wl::UtsT1 => {
            if n > 4 {
                n - 3
            } else {
                n
            }
        }
        Wl::UtsT3 => n / 20 + 1,
        Wl::Skynet => {
            if n >= 1000 {
                n / 100
            } else {
                n
            }
        }
        _ => n / 4 + 1,
    }
}

/// run(w, threads, size) -> None if the runtime does not have w. Every
/// (workload, thread count): two warm-ups, then `reps` timed runs, each
/// printed as an R line. Returns the exit status: 1 if any result was wrong.
pub fn run_loop(
    o: &Opts,
    runtime: &str,
    run: &mut dyn FnMut(Wl, usize, usize) -> Option<Outcome>,
) -> i32 {
    let mut failed = false;
    let out = std::io::stdout();
    for w in ALL {
        let size = o.size[w as usize];
        if size == 0 {
            continue;
        }
        'threads: for &t in &o.threads {
            for _ in 0..(if o.warm { 2 } else { 0 }) {
                match run(w, t, warm_size(w, size)) {
                    None => break 'threads,
                    Some(r) => failed |= !r.ok,
                }
            }
            for _ in 0..o.reps {
                let r = match run(w, t, size) {
                    None => break 'threads,
                    Some(r) => r,
                };
                let mut out = out.lock();
                let _ = writeln!(
                    out,
                    "R {} {} {} {:.9} {} {} {}",
                    runtime,
                    w.name(),
                    t,
                    r.secs,
                    size,
                    r.tasks,
                    if r.ok { "ok" } else { "FAILED" }
                );
                let _ = out.flush();
                failed |= !r.ok;
            }
        }
    }
    if failed {
        eprintln!("{}: FAILED: a run computed a wrong result", runtime);
    }
    failed as i32
}
