//! Scheduler benchmark, Rayon's side (Debian's librust-rayon-dev), and a
//! serial Rust baseline, since rustc and gcc do not compile the leaf code
//! (SHA-1 above all) to the same speed:
//!   sched_bench_rayon [serial] [options of bench/sched_bench.h]
//! The same workloads as bench/sched_bench.c, written the same way, with the
//! same leaf code ported line for line (kernels.rs, sha1.rs, uts.rs) and the
//! same checkers; only the forks and waits are Rayon's:
//!   hive_join   -> rayon::join (fib, sort: the second closure is the one
//!                  offered to thieves, as hive's fb)
//!   hive_group  -> rayon::scope with a spawn per child (queens, uts-t1,
//!                  uts-t3, skynet)
//!   hive_spawn  -> rayon::scope, s.spawn in a loop from one task (spawn)
//! A timed run is one ThreadPool::install() on a pool of exactly `threads`
//! workers, built once per thread count and kept, as an application would
//! (the calling thread only waits). Output: sched_bench.h's R lines, runtime
//! "rayon", or "serial-rust" for `serial`.

mod kernels;
mod opts;
mod sha1;
mod uts;

use kernels::*;
use opts::{Outcome, Wl};
use std::time::Instant;

fn fib(n: u32) -> u64 {
    if n < 2 {
        return n as u64;
    }
    let (x, y) = rayon::join(|| fib(n - 1), || fib(n - 2));
    x + y
}

fn sort(a: &mut [u32], tmp: &mut [u32]) {
    let n = a.len();
    if n <= MSORT_LEAF {
        insertion_sort(a);
        return;
    }
    let h = n / 2;
    {
        let (al, ah) = a.split_at_mut(h);
        let (tl, th) = tmp.split_at_mut(h);
        rayon::join(|| sort(al, tl), || sort(ah, th));
    }
    merge(a, tmp, h);
}

fn queens(n: u32, row: u32, p: Pos) -> u64 {
    if queens_leaf(n, row) {
        return queens_serial(n, row, p);
    }
    let mut count = [0u64; QUEENS_MAX as usize];
    let mut k = 0;
    rayon::scope(|s| {
        let mut slots = count.iter_mut();
        let mut set = queens_safe(n, p);
        while set != 0 {
            let c = slots.next().unwrap();
            let next = queens_place(p, queens_lowest(set));
            s.spawn(move |_| *c = queens(n, row + 1, next));
            set &= set - 1;
            k += 1;
        }
    });
    count[..k].iter().sum()
}

fn uts_node(t: &uts::Tree, n: &uts::Node) -> u64 {
    let k = t.num_children(n);
    if k == 0 {
        return 1;
    }
    let mut inline_counts = [0u64; uts::INLINE_CHILDREN];
    let mut heap: Vec<u64>;
    let count: &mut [u64] = if k <= uts::INLINE_CHILDREN {
        &mut inline_counts[..k]
    } else {
        heap = vec![0; k];
        &mut heap
    };
    rayon::scope(|s| {
        for (i, c) in count.iter_mut().enumerate() {
            s.spawn(move |_| *c = uts_node(t, &n.child(i as u32)));
        }
    });
    1 + count.iter().sum::<u64>()
}

fn skynet(num: u64, size: u64) -> u64 {
    if size == 1 {
        return num;
    }
    let sub = size / SKYNET_FANOUT;
    let mut sum = [0u64; SKYNET_FANOUT as usize];
    rayon::scope(|s| {
        for (i, c) in sum.iter_mut().enumerate() {
            s.spawn(move |_| *c = skynet(num + i as u64 * sub, sub));
        }
    });
    sum.iter().sum()
}

/// Buffers kept between runs and filled outside the timing.
struct Bench {
    a: Vec<u32>,
    tmp: Vec<u32>,
    hits: Vec<u8>,
    items: Vec<SpawnItem>,
    expect: uts::Expect,
}

/// A buffer of n zeros whose every page has been written (sched_bench.h's
/// sb_touch): vec![0; n] is a calloc, whose fresh pages would take their
/// faults in the first timed run that writes them.
fn touched<T: Copy + Default>(n: usize) -> Vec<T> {
    let mut v = vec![T::default(); n];
    let step = (4096 / std::mem::size_of::<T>().max(1)).max(1);
    for i in (0..n).step_by(step).chain(n.checked_sub(1)) {
        // SAFETY: i < n = v.len().
        unsafe { std::ptr::write_volatile(v.as_mut_ptr().add(i), T::default()) };
    }
    v
}

impl Bench {
    /// The sort's buffers, kept between runs and only growing, and the same
    /// pseudo-random input in a[..n] every run; returns its sum.
    fn sort_fill(&mut self, n: usize) -> u64 {
        if self.a.len() < n {
            self.a = touched(n);
            self.tmp = touched(n); // its page faults are not the sort's
        }
        msort_fill(&mut self.a[..n])
    }

    /// spawn's marks, an array of n a thread (spawn_stride(n) apart): kept
    /// between runs, only growing, zeroed before each.
    fn hits_zero(&mut self, n: usize, threads: usize) -> &mut [u8] {
        let len = threads * spawn_stride(n);
        if self.hits.len() < len {
            self.hits = touched(len);
        }
        let h = &mut self.hits[..len];
        h.fill(0);
        h
    }

    /// spawn's task records (SpawnItem), kept between runs, only growing,
    /// numbered before each (as every program's are).
    fn items_fill(&mut self, n: usize) {
        if self.items.len() < n {
            self.items = touched(n);
        }
        for (i, x) in self.items[..n].iter_mut().enumerate() {
            x.i = i;
        }
    }

    fn tree(w: Wl, size: usize) -> uts::Tree {
        if w == Wl::UtsT1 {
            uts::t1(size as u32)
        } else {
            uts::t3(size as u32)
        }
    }

    fn run_rayon(&mut self, pool: &rayon::ThreadPool, w: Wl, size: usize) -> Option<Outcome> {
        let mut r = Outcome::default();
        let n = size as u32;
        match w {
            Wl::Empty => {
                r.secs = timed(|| pool.install(|| {})).1;
                r.ok = true;
            }
            Wl::Fib => {
                let (v, secs) = timed(|| pool.install(|| fib(n)));
                r.secs = secs;
                r.tasks = fib_forks(n);
                r.ok = v == fib_ref(n);
            }
            Wl::Sort => {
                let sum = self.sort_fill(size);
                let (a, tmp) = (&mut self.a[..size], &mut self.tmp[..size]);
                r.secs = timed(|| pool.install(|| sort(a, tmp))).1;
                r.tasks = msort_forks(size);
                r.ok = msort_ok(&self.a[..size], sum);
            }
            Wl::Queens => {
                let (v, secs) = timed(|| pool.install(|| queens(n, 0, QUEENS_EMPTY)));
                r.secs = secs;
                r.tasks = queens_tasks(n, 0, QUEENS_EMPTY);
                r.ok = v == queens_expect(n);
            }
            Wl::Spawn => {
                let threads = pool.current_num_threads();
                let stride = spawn_stride(size);
                let marks = Marks(self.hits_zero(size, threads).as_mut_ptr());
                self.items_fill(size);
                let items = &self.items[..size];
                r.secs = timed(|| {
                    pool.install(|| {
                        rayon::scope(|s| {
                            for x in items {
                                // x: the task's record.
                                s.spawn(move |_| {
                                    // The worker's index in this pool, 0 ..
                                    // threads - 1; any other marks nothing,
                                    // and the check fails.
                                    if let Some(t) = rayon::current_thread_index() {
                                        if t < threads {
                                            marks.add_one(t * stride + x.i);
                                        }
                                    }
                                });
                            }
                        })
                    })
                })
                .1;
                r.tasks = size as u64;
                r.ok = spawn_ok(&self.hits, size, threads);
            }
            Wl::UtsT1 | Wl::UtsT3 => {
                let t = Bench::tree(w, size);
                let expect = self.expect.get(&t); // before the clock: it may count serially
                let (v, secs) = timed(|| pool.install(|| uts_node(&t, &t.root())));
                r.secs = secs;
                r.tasks = v;
                r.ok = v == expect;
            }
            Wl::Skynet => {
                let (v, secs) = timed(|| pool.install(|| skynet(0, size as u64)));
                r.secs = secs;
                r.tasks = skynet_nodes(size as u64) - 1;
                r.ok = v == skynet_expect(size as u64);
            }
            Wl::FibTg => return None,
        }
        Some(r)
    }

    /// The serial baselines: sched_bench.c's run_serial_wl, compiled by rustc.
    fn run_serial(&mut self, w: Wl, size: usize) -> Option<Outcome> {
        let mut r = Outcome::default();
        let n = size as u32;
        match w {
            Wl::Fib => {
                let (v, secs) = timed(|| fib_serial(n));
                r.secs = secs;
                r.tasks = fib_forks(n); // as forked elsewhere
                r.ok = v == fib_ref(n);
            }
            Wl::Sort => {
                let sum = self.sort_fill(size);
                let (a, tmp) = (&mut self.a[..size], &mut self.tmp[..size]);
                r.secs = timed(|| msort_serial(a, tmp)).1;
                r.tasks = msort_forks(size);
                r.ok = msort_ok(&self.a[..size], sum);
            }
            Wl::Queens => {
                let (v, secs) = timed(|| queens_serial(n, 0, QUEENS_EMPTY));
                r.secs = secs;
                r.tasks = queens_tasks(n, 0, QUEENS_EMPTY);
                r.ok = v == queens_expect(n);
            }
            Wl::Spawn => {
                self.items_fill(size);
                self.hits_zero(size, 1);
                let (items, hits) = (&self.items[..size], &mut self.hits[..size]);
                // Read through a volatile load: a real indirect call per task,
                // as the scheduler makes (sched_bench.c calls through a
                // volatile function pointer).
                let body: fn(&SpawnItem, &mut [u8]) = task_body;
                let f = unsafe { std::ptr::read_volatile(&body) };
                r.secs = timed(|| items.iter().for_each(|x| f(x, hits))).1;
                r.tasks = size as u64;
                r.ok = spawn_ok(&self.hits, size, 1);
            }
            Wl::UtsT1 | Wl::UtsT3 => {
                let t = Bench::tree(w, size);
                let expect = self.expect.get(&t); // before the clock: it may count serially
                let (v, secs) = timed(|| t.count_serial(&t.root()));
                r.secs = secs;
                r.tasks = v;
                r.ok = v == expect;
            }
            Wl::Skynet => {
                let (v, secs) = timed(|| skynet_serial(0, size as u64));
                r.secs = secs;
                r.tasks = skynet_nodes(size as u64) - 1;
                r.ok = v == skynet_expect(size as u64);
            }
            Wl::Empty | Wl::FibTg => return None,
        }
        Some(r)
    }
}

/// f's value and the seconds it took.
fn timed<T>(f: impl FnOnce() -> T) -> (T, f64) {
    let t0 = Instant::now();
    let v = f();
    (v, t0.elapsed().as_secs_f64())
}

/// The spawn workload's task: mark its own byte, the one its record names.
fn task_body(x: &SpawnItem, hits: &mut [u8]) {
    hits[x.i] += 1;
}

/// The spawn workload's marks as its tasks reach them: every thread its own
/// array of them (Bench::hits_zero), which is why a raw pointer may cross
/// threads here - no two threads write the same byte.
#[derive(Clone, Copy)]
struct Marks(*mut u8);

// SAFETY: see the type: each thread writes only its own array's bytes, and
// the pool's end (scope, install) orders those writes before the check.
unsafe impl Send for Marks {}
unsafe impl Sync for Marks {}

impl Marks {
    /// A method, so that a closure captures the whole Marks (Send), not
    /// its raw pointer field (edition 2021 captures fields).
    fn add_one(self, at: usize) {
        // SAFETY: the caller's at is t * stride + i with t < threads and
        // i < n, inside the threads * stride bytes of the zeroed marks.
        unsafe { *self.0.add(at) += 1 };
    }
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let prog = args[0].clone();
    let serial = args.get(1).map(|a| a == "serial").unwrap_or(false);
    let o = opts::parse(&prog, &args[1 + serial as usize..]);
    let mut b = Bench {
        a: Vec::new(),
        tmp: Vec::new(),
        hits: Vec::new(),
        items: Vec::new(),
        expect: uts::Expect::new(),
    };
    if serial {
        let o = opts::Opts {
            threads: vec![1],
            ..o
        };
        std::process::exit(opts::run_loop(&o, "serial-rust", &mut |w, _, size| {
            b.run_serial(w, size)
        }));
    }
    let mut pools: Vec<Option<rayon::ThreadPool>> = (0..=opts::MAX_THREADS).map(|_| None).collect();
    for &t in &o.threads {
        if pools[t].is_none() {
            // 8 MiB stacks, as a pthread's default: T3 is 1572 levels deep and
            // a wait runs other tasks on top of the waiting one.
            let pool = rayon::ThreadPoolBuilder::new()
                .num_threads(t)
                .stack_size(8 << 20)
                .build();
            pools[t] = Some(pool.unwrap_or_else(|e| {
                eprintln!("{}: rayon: {}", prog, e);
                std::process::exit(1)
            }));
        }
    }
    std::process::exit(opts::run_loop(&o, "rayon", &mut |w, t, size| {
        b.run_rayon(pools[t].as_ref().unwrap(), w, size)
    }));
}
