//! SHA-1 (FIPS 180-4) of a short message, for UTS's splittable generator
//! (uts.rs). The same code as bench/sha1.h: four loops of 20 rounds, no
//! table, the schedule in a circular queue of 16 words (FIPS 180-4's
//! alternate method; sha1.h says why), so that rustc and gcc get the same
//! work.

pub const BYTES: usize = 20;

/// Word i of the message schedule, i in 0..80, from w: the block's 16 words
/// at first, then the last 16 computed.
fn schedule(w: &mut [u32; 16], i: usize) -> u32 {
    if i >= 16 {
        w[i & 15] = (w[(i + 13) & 15] ^ w[(i + 8) & 15] ^ w[(i + 2) & 15] ^ w[i & 15]).rotate_left(1);
    }
    w[i & 15]
}

/// One 64-byte block into the chaining value h.
fn block(h: &mut [u32; 5], p: &[u8]) {
    let mut w = [0u32; 16];
    for i in 0..16 {
        w[i] = u32::from_be_bytes([p[4 * i], p[4 * i + 1], p[4 * i + 2], p[4 * i + 3]]);
    }
    let (mut a, mut b, mut c, mut d, mut e) = (h[0], h[1], h[2], h[3], h[4]);
    for i in 0..20 {
        let t = a
            .rotate_left(5)
            .wrapping_add((b & c) | (!b & d))
            .wrapping_add(e)
            .wrapping_add(0x5A827999)
            .wrapping_add(schedule(&mut w, i));
        e = d;
        d = c;
        c = b.rotate_left(30);
        b = a;
        a = t;
    }
    for i in 20..40 {
        let t = a
            .rotate_left(5)
            .wrapping_add(b ^ c ^ d)
            .wrapping_add(e)
            .wrapping_add(0x6ED9EBA1)
            .wrapping_add(schedule(&mut w, i));
        e = d;
        d = c;
        c = b.rotate_left(30);
        b = a;
        a = t;
    }
    for i in 40..60 {
        let t = a
            .rotate_left(5)
            .wrapping_add((b & c) | (b & d) | (c & d))
            .wrapping_add(e)
            .wrapping_add(0x8F1BBCDC)
            .wrapping_add(schedule(&mut w, i));
        e = d;
        d = c;
        c = b.rotate_left(30);
        b = a;
        a = t;
    }
    for i in 60..80 {
        let t = a
            .rotate_left(5)
            .wrapping_add(b ^ c ^ d)
            .wrapping_add(e)
            .wrapping_add(0xCA62C1D6)
            .wrapping_add(schedule(&mut w, i));
        e = d;
        d = c;
        c = b.rotate_left(30);
        b = a;
        a = t;
    }
    h[0] = h[0].wrapping_add(a);
    h[1] = h[1].wrapping_add(b);
    h[2] = h[2].wrapping_add(c);
    h[3] = h[3].wrapping_add(d);
    h[4] = h[4].wrapping_add(e);
}

/// SHA-1(msg).
pub fn sha1(msg: &[u8]) -> [u8; BYTES] {
    let mut h: [u32; 5] = [0x67452301, 0xEFCDAB89, 0x98BADCFE, 0x10325476, 0xC3D2E1F0];
    let full = msg.len() / 64;
    let rest = msg.len() % 64;
    for i in 0..full {
        block(&mut h, &msg[64 * i..64 * i + 64]);
    }
    // The padding: a 1 bit, zeros, the length in bits (big-endian), in one
    // block if the rest leaves 8 bytes for it after the 1, else in two.
    let mut last = [0u8; 128];
    let blocks = if rest < 56 { 1 } else { 2 };
    last[..rest].copy_from_slice(&msg[64 * full..]);
    last[rest] = 0x80;
    let bits = (msg.len() as u64) * 8;
    last[64 * blocks - 8..64 * blocks].copy_from_slice(&bits.to_be_bytes());
    for i in 0..blocks {
        block(&mut h, &last[64 * i..64 * i + 64]);
    }
    let mut out = [0u8; BYTES];
    for i in 0..5 {
        out[4 * i..4 * i + 4].copy_from_slice(&h[i].to_be_bytes());
    }
    out
}

/// True if sha1 gives the published digests of FIPS 180's examples ("abc",
/// the two-block 448-bit message) and of the empty message.
pub fn selftest() -> bool {
    let cases: [(&[u8], &str); 3] = [
        (b"abc", "a9993e364706816aba3e25717850c26c9cd0d89d"),
        (b"", "da39a3ee5e6b4b0d3255bfef95601890afd80709"),
        (
            b"abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq",
            "84983e441c3bd26ebaae4aa1f95129e5e54670f1",
        ),
    ];
    cases.iter().all(|(m, want)| {
        let hex: String = sha1(m).iter().map(|b| format!("{:02x}", b)).collect();
        hex == *want
    })
}
