//! The workloads' serial kernels, inputs and checkers: the same code as
//! tests/workloads/*.h and bench/skynet.h (see bench/sched_bench.h), so that
//! Rayon runs the leaf code every C runtime runs and is checked the same way.

// ---- fib (workloads/fib.h) ----

/// fib(n) by iteration: the checker's value.
pub fn fib_ref(n: u32) -> u64 {
    let (mut a, mut b) = (0u64, 1u64);
    for _ in 0..n {
        let t = a.wrapping_add(b);
        a = b;
        b = t;
    }
    a
}

/// Forks a fib(n) with a fork per call makes: fib(n+1) - 1.
pub fn fib_forks(n: u32) -> u64 {
    fib_ref(n + 1) - 1
}

/// The serial baseline: a real call per fib call.
#[inline(never)]
pub fn fib_serial(n: u32) -> u64 {
    if n < 2 {
        n as u64
    } else {
        fib_serial(n - 1) + fib_serial(n - 2)
    }
}

// ---- merge sort (workloads/msort.h) ----

/// Insertion sort at and below this many elements.
pub const MSORT_LEAF: usize = 32;

/// The same pseudo-random input every time (xorshift); returns its sum.
pub fn msort_fill(a: &mut [u32]) -> u64 {
    let mut x: u32 = 2463534242;
    let mut sum = 0u64;
    for v in a.iter_mut() {
        x ^= x << 13;
        x ^= x >> 17;
        x ^= x << 5;
        *v = x;
        sum += x as u64;
    }
    sum
}

/// The leaf.
pub fn insertion_sort(a: &mut [u32]) {
    for i in 1..a.len() {
        let v = a[i];
        let mut j = i;
        while j > 0 && a[j - 1] > v {
            a[j] = a[j - 1];
            j -= 1;
        }
        a[j] = v;
    }
}

/// Merge the sorted halves a[0, h) and a[h, n) through tmp[0, n).
pub fn merge(a: &mut [u32], tmp: &mut [u32], h: usize) {
    let n = a.len();
    let (mut i, mut j, mut k) = (0, h, 0);
    // The smaller head without a branch on the data, as workloads/msort.h
    // (which says why).
    while i < h && j < n {
        let (x, y) = (a[i], a[j]);
        let left = x <= y;
        tmp[k] = if left { x } else { y };
        i += left as usize;
        j += (!left) as usize;
        k += 1;
    }
    while i < h {
        tmp[k] = a[i];
        i += 1;
        k += 1;
    }
    while j < n {
        tmp[k] = a[j];
        j += 1;
        k += 1;
    }
    a.copy_from_slice(&tmp[..n]);
}

/// The serial version: the same splits, leaves and merges, no forks.
pub fn msort_serial(a: &mut [u32], tmp: &mut [u32]) {
    let n = a.len();
    if n <= MSORT_LEAF {
        insertion_sort(a);
        return;
    }
    let h = n / 2;
    {
        let (al, ah) = a.split_at_mut(h);
        let (tl, th) = tmp.split_at_mut(h);
        msort_serial(al, tl);
        msort_serial(ah, th);
    }
    merge(a, tmp, h);
}

/// Forks a sort of n makes: one per split.
pub fn msort_forks(n: usize) -> u64 {
    if n <= MSORT_LEAF {
        0
    } else {
        1 + msort_forks(n / 2) + msort_forks(n - n / 2)
    }
}

/// Sorted and, as far as its sum can tell, the filled input.
pub fn msort_ok(a: &[u32], sum: u64) -> bool {
    a.windows(2).all(|w| w[0] <= w[1]) && a.iter().map(|&v| v as u64).sum::<u64>() == sum
}

// ---- N-Queens (workloads/nqueens.h) ----

/// Largest board: the table of known counts ends here.
pub const QUEENS_MAX: u32 = 16;
/// The benchmark's grain: a task per placement in the first 4 rows.
pub const QUEENS_TASK_ROWS: u32 = 4;

/// The squares of the next row attacked by the queens placed so far.
#[derive(Clone, Copy)]
pub struct Pos {
    cols: u32,
    d1: u32,
    d2: u32,
}

pub const QUEENS_EMPTY: Pos = Pos {
    cols: 0,
    d1: 0,
    d2: 0,
};

/// The safe squares of the next row of an n-column board, one bit each.
pub fn queens_safe(n: u32, p: Pos) -> u32 {
    ((1u32 << n) - 1) & !(p.cols | p.d1 | p.d2)
}

/// The lowest square of a non-empty set.
pub fn queens_lowest(set: u32) -> u32 {
    set & set.wrapping_neg()
}

/// The position after a queen on square `bit` of the next row.
pub fn queens_place(p: Pos, bit: u32) -> Pos {
    Pos {
        cols: p.cols | bit,
        d1: (p.d1 | bit) << 1,
        d2: (p.d2 | bit) >> 1,
    }
}

/// Solutions below position p, whose next row is `row`: the leaf.
pub fn queens_serial(n: u32, row: u32, p: Pos) -> u64 {
    if row == n {
        return 1;
    }
    let mut c = 0;
    let mut s = queens_safe(n, p);
    while s != 0 {
        c += queens_serial(n, row + 1, queens_place(p, queens_lowest(s)));
        s &= s - 1;
    }
    c
}

/// A position whose next row is `row` is counted serially, in its task.
pub fn queens_leaf(n: u32, row: u32) -> bool {
    row == n || row >= QUEENS_TASK_ROWS
}

/// Tasks a parallel version spawns below position p (next row `row`).
pub fn queens_tasks(n: u32, row: u32, p: Pos) -> u64 {
    if queens_leaf(n, row) {
        return 0;
    }
    let mut c = 0;
    let mut s = queens_safe(n, p);
    while s != 0 {
        c += 1 + queens_tasks(n, row + 1, queens_place(p, queens_lowest(s)));
        s &= s - 1;
    }
    c
}

/// The published counts (OEIS A000170).
pub fn queens_expect(n: u32) -> u64 {
    const KNOWN: [u64; 17] = [
        1, 1, 0, 0, 2, 10, 4, 40, 92, 352, 724, 2680, 14200, 73712, 365596, 2279184, 14772512,
    ];
    KNOWN.get(n as usize).copied().unwrap_or(0)
}

// ---- spawn (workloads/spawn.h) ----

/// Bytes from one thread's marks to the next's: n, in whole cache lines
/// (each thread marks in an array of its own: workloads/spawn.h).
pub fn spawn_stride(n: usize) -> usize {
    (n + 63) / 64 * 64
}

/// A task's own record, from which it reads its number: one cache line
/// each, in one array (workloads/spawn.h, struct wl_spawn_item: the same
/// work in every program, hive's tasks reading theirs from the record that
/// holds their header).
#[repr(C, align(64))]
#[derive(Clone, Copy, Default)]
pub struct SpawnItem {
    pub i: usize,
}

/// Every task ran exactly once: the `threads` threads' marks of each of the
/// n tasks add up to 1.
pub fn spawn_ok(hit: &[u8], n: usize, threads: usize) -> bool {
    let stride = spawn_stride(n);
    (0..n).all(|i| (0..threads).map(|t| hit[t * stride + i] as u32).sum::<u32>() == 1)
}

// ---- skynet (bench/skynet.h) ----

pub const SKYNET_FANOUT: u64 = 10;

/// n is a power of 10 (1 included).
pub fn skynet_size_ok(mut n: u64) -> bool {
    while n > 1 && n % SKYNET_FANOUT == 0 {
        n /= SKYNET_FANOUT;
    }
    n == 1
}

/// Nodes of the tree over n leaves.
pub fn skynet_nodes(n: u64) -> u64 {
    if n <= 1 {
        1
    } else {
        n + skynet_nodes(n / SKYNET_FANOUT)
    }
}

/// The leaves' numbers 0..n-1, summed.
pub fn skynet_expect(n: u64) -> u64 {
    n * (n - 1) / 2
}

/// The serial version: the leaves num..num+size-1, the same recursion.
pub fn skynet_serial(num: u64, size: u64) -> u64 {
    if size == 1 {
        return num;
    }
    let sub = size / SKYNET_FANOUT;
    let mut sum = 0;
    for i in 0..SKYNET_FANOUT {
        sum += skynet_serial(num + i * sub, sub);
    }
    sum
}
