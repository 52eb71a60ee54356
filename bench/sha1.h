/*
 * SHA-1 (FIPS 180-4) of a short message, for UTS's splittable random number
 * generator (uts.h): a node's state is the digest of its parent's state and
 * its child index, so UTS's trees are the same on every runtime and every
 * machine. Not for security; written for clarity, and the same way in
 * bench/rayon/src/sha1.rs (four loops of 20 rounds, no table, the schedule
 * in a circular queue of 16 words), so that both compilers get the same
 * work. The queue, FIPS 180-4's alternate method, rather than all 80 words
 * computed first: gcc 12 at -O2 vectorizes that loop two words at a time,
 * each pair loaded across two stores just made (w[i-3] feeds w[i]), and the
 * failed store forwarding made gcc's SHA-1 1.65 times clang's (325 against
 * 195 ns a hash here; with the queue 163 against 157), a difference in the
 * compilers that UTS's speedups over gcc's serial build then carried.
 *
 * Plain C that also compiles as C++: every program of the benchmark includes
 * it. sb_sha1_selftest() checks it against the standard's test vectors.
 */
#ifndef HIVE_BENCH_SHA1_H
#define HIVE_BENCH_SHA1_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

#define SB_SHA1_BYTES 20

static inline uint32_t sb_rol32(uint32_t x, unsigned k)
{
    return x << k | x >> (32 - k);
}

/* Word i of the message schedule, i in 0..79, from w: the block's 16 words
 * at first, then the last 16 computed (FIPS 180-4's alternate method,
 * section 6.1.3: a circular queue of 16 words instead of all 80). */
static inline uint32_t sb_sha1_w(uint32_t w[16], int i)
{
    if (i >= 16)
        w[i & 15] = sb_rol32(w[(i + 13) & 15] ^ w[(i + 8) & 15] ^ w[(i + 2) & 15] ^ w[i & 15], 1);
    return w[i & 15];
}

/* One 64-byte block into the chaining value h. */
static inline void sb_sha1_block(uint32_t h[5], const uint8_t *p)
{
    uint32_t w[16];
    for (int i = 0; i < 16; i++)
        w[i] = (uint32_t)p[4 * i] << 24 | (uint32_t)p[4 * i + 1] << 16 |
               (uint32_t)p[4 * i + 2] << 8 | (uint32_t)p[4 * i + 3];
    uint32_t a = h[0], b = h[1], c = h[2], d = h[3], e = h[4], t;
    for (int i = 0; i < 20; i++) {
        t = sb_rol32(a, 5) + ((b & c) | (~b & d)) + e + 0x5A827999u + sb_sha1_w(w, i);
        e = d, d = c, c = sb_rol32(b, 30), b = a, a = t;
    }
    for (int i = 20; i < 40; i++) {
        t = sb_rol32(a, 5) + (b ^ c ^ d) + e + 0x6ED9EBA1u + sb_sha1_w(w, i);
        e = d, d = c, c = sb_rol32(b, 30), b = a, a = t;
    }
    for (int i = 40; i < 60; i++) {
        t = sb_rol32(a, 5) + ((b & c) | (b & d) | (c & d)) + e + 0x8F1BBCDCu + sb_sha1_w(w, i);
        e = d, d = c, c = sb_rol32(b, 30), b = a, a = t;
    }
    for (int i = 60; i < 80; i++) {
        t = sb_rol32(a, 5) + (b ^ c ^ d) + e + 0xCA62C1D6u + sb_sha1_w(w, i);
        e = d, d = c, c = sb_rol32(b, 30), b = a, a = t;
    }
    h[0] += a, h[1] += b, h[2] += c, h[3] += d, h[4] += e;
}

/* out = SHA-1(msg[0..len)). */
static inline void sb_sha1(const uint8_t *msg, size_t len, uint8_t out[SB_SHA1_BYTES])
{
    uint32_t h[5] = {0x67452301u, 0xEFCDAB89u, 0x98BADCFEu, 0x10325476u, 0xC3D2E1F0u};
    size_t full = len / 64, rest = len % 64;
    for (size_t i = 0; i < full; i++)
        sb_sha1_block(h, msg + 64 * i);
    /* The padding: a 1 bit, zeros, the length in bits (big-endian), in one
     * block if the rest leaves 8 bytes for it after the 1, else in two. */
    uint8_t last[128];
    size_t blocks = rest < 56 ? 1 : 2;
    memset(last, 0, 64 * blocks);
    memcpy(last, msg + 64 * full, rest);
    last[rest] = 0x80;
    uint64_t bits = (uint64_t)len * 8;
    for (int i = 0; i < 8; i++)
        last[64 * blocks - 1 - i] = (uint8_t)(bits >> (8 * i));
    for (size_t i = 0; i < blocks; i++)
        sb_sha1_block(h, last + 64 * i);
    for (int i = 0; i < 5; i++)
        for (int j = 0; j < 4; j++)
            out[4 * i + j] = (uint8_t)(h[i] >> (24 - 8 * j));
}

/* 1 if sb_sha1 gives the published digests of FIPS 180's examples ("abc",
 * the two-block 448-bit message) and of the empty message. */
static inline int sb_sha1_selftest(void)
{
    static const char *const msg[3] = {
        "abc", "", "abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq"};
    static const uint8_t want[3][SB_SHA1_BYTES] = {
        {0xa9, 0x99, 0x3e, 0x36, 0x47, 0x06, 0x81, 0x6a, 0xba, 0x3e,
         0x25, 0x71, 0x78, 0x50, 0xc2, 0x6c, 0x9c, 0xd0, 0xd8, 0x9d},
        {0xda, 0x39, 0xa3, 0xee, 0x5e, 0x6b, 0x4b, 0x0d, 0x32, 0x55,
         0xbf, 0xef, 0x95, 0x60, 0x18, 0x90, 0xaf, 0xd8, 0x07, 0x09},
        {0x84, 0x98, 0x3e, 0x44, 0x1c, 0x3b, 0xd2, 0x6e, 0xba, 0xae,
         0x4a, 0xa1, 0xf9, 0x51, 0x29, 0xe5, 0xe5, 0x46, 0x70, 0xf1},
    };
    for (int i = 0; i < 3; i++) {
        uint8_t d[SB_SHA1_BYTES];
        sb_sha1((const uint8_t *)msg[i], strlen(msg[i]), d);
        if (memcmp(d, want[i], SB_SHA1_BYTES) != 0)
            return 0;
    }
    return 1;
}

#endif
