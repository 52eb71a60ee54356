//! UTS, the Unbalanced Tree Search benchmark: the same trees, generator and
//! child-count rules as bench/uts.h (see there for T1, T3 and the sizes).

use crate::sha1;

/// Slots in a node's frame; more children take one heap array.
pub const INLINE_CHILDREN: usize = 16;
/// UTS's cap on the children of any node but a binomial root.
const MAX_CHILDREN: i32 = 100;

#[derive(Clone, Copy, PartialEq)]
pub enum Kind {
    Binomial,
    GeometricFixed,
}

#[derive(Clone, Copy, PartialEq)]
pub struct Tree {
    kind: Kind,
    b0: f64,     // -b
    gen_mx: i32, // -d
    q: f64,      // -q
    m: u32,      // -m
    seed: i32,   // -r
}

pub struct Node {
    state: [u8; sha1::BYTES],
    height: i32,
}

/// T1 cut at depth d (d = 10: the published T1).
pub fn t1(d: u32) -> Tree {
    Tree {
        kind: Kind::GeometricFixed,
        b0: 4.0,
        gen_mx: d as i32,
        q: 0.0,
        m: 0,
        seed: 19,
    }
}

/// T3 with the root's first b subtrees (b = 2000: the published T3).
pub fn t3(b: u32) -> Tree {
    Tree {
        kind: Kind::Binomial,
        b0: b as f64,
        gen_mx: 0,
        q: 0.124875,
        m: 8,
        seed: 42,
    }
}

impl Tree {
    /// The size of the tree if it is known, else 0: bench/uts.h's uts_known
    /// (T1 and T3 as published; T1 cut at depth 4 to 9 and T3 with 20 root
    /// subtrees as counted by this code, which gives the published sizes).
    pub fn known(&self) -> u64 {
        const T1_BY_DEPTH: [u64; 11] = [
            0, 0, 0, 0, 944, 3987, 16000, 63914, 257042, 1031269, 4130071,
        ];
        for (d, &n) in T1_BY_DEPTH.iter().enumerate() {
            if *self == t1(d as u32) {
                return n;
            }
        }
        if *self == t3(2000) {
            4112897
        } else if *self == t3(20) {
            6213
        } else {
            0
        }
    }

    /// The root: SHA-1 of 16 zero bytes and the seed (big-endian).
    pub fn root(&self) -> Node {
        let mut msg = [0u8; 20];
        msg[16..].copy_from_slice(&(self.seed as u32).to_be_bytes());
        Node {
            state: sha1::sha1(&msg),
            height: 0,
        }
    }

    pub fn num_children(&self, n: &Node) -> usize {
        if self.kind == Kind::Binomial {
            if n.height == 0 {
                return self.b0.floor() as usize;
            }
            return if n.uniform() < self.q {
                self.m as usize
            } else {
                0
            };
        }
        // Geometric with mean b, by inverting its distribution function; b = 0
        // from depth gen_mx on, where ln(1 - p) is -inf and every draw gives 0.
        let b = if n.height < self.gen_mx { self.b0 } else { 0.0 };
        let p = 1.0 / (1.0 + b);
        let k = ((1.0 - n.uniform()).ln() / (1.0 - p).ln()).floor() as i32;
        k.min(MAX_CHILDREN) as usize
    }

    /// The serial version: the same nodes in the same order, no tasks.
    pub fn count_serial(&self, n: &Node) -> u64 {
        let k = self.num_children(n);
        let mut count = 1;
        for i in 0..k {
            count += self.count_serial(&n.child(i as u32));
        }
        count
    }
}

impl Node {
    /// Child i: SHA-1 of this state and i (big-endian).
    pub fn child(&self, i: u32) -> Node {
        let mut msg = [0u8; sha1::BYTES + 4];
        msg[..sha1::BYTES].copy_from_slice(&self.state);
        msg[sha1::BYTES..].copy_from_slice(&i.to_be_bytes());
        Node {
            state: sha1::sha1(&msg),
            height: self.height + 1,
        }
    }

    /// The node's uniform draw in [0, 1): its state's last 4 bytes, 31 bits.
    fn uniform(&self) -> f64 {
        let r = u32::from_be_bytes([
            self.state[16],
            self.state[17],
            self.state[18],
            self.state[19],
        ]);
        (r & 0x7fff_ffff) as f64 / 2147483648.0
    }
}

/// The sizes a run must find: the known one (the published sizes of T1 and
/// T3, which also check SHA-1 and the generator), otherwise the serial count,
/// computed once per tree and kept. 0 when SHA-1 fails its test vectors.
pub struct Expect {
    sha1_ok: Option<bool>,
    last: Option<(Tree, u64)>,
}

impl Expect {
    pub fn new() -> Expect {
        Expect {
            sha1_ok: None,
            last: None,
        }
    }

    pub fn get(&mut self, t: &Tree) -> u64 {
        let ok = *self.sha1_ok.get_or_insert_with(sha1::selftest);
        if !ok {
            return 0;
        }
        if t.known() != 0 {
            return t.known();
        }
        match self.last {
            Some((lt, n)) if lt == *t => n,
            _ => {
                let n = t.count_serial(&t.root());
                self.last = Some((*t, n));
                n
            }
        }
    }
}
