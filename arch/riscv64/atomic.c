/*
 * 1- and 2-byte atomics for GCC 12, which calls out to libatomic for them on
 * RISC-V (the A extension only has 32- and 64-bit AMOs and LR/SC), and the
 * bare-metal toolchain ships no libatomic. Each operation is a compare-and-
 * swap loop on the aligned 32-bit word that holds the value, which GCC does
 * inline (LR/SC). A neighbouring byte written meanwhile only makes the CAS
 * retry; it is never overwritten with a stale value.
 *
 * Every operation is seq_cst whatever order the caller asked for: stronger is
 * always correct, and these are rare (atomic_bool flags, small counters).
 * The functions get their libatomic names through asm labels, since GCC
 * reserves the __atomic_* names for its builtins.
 */
#include <stdbool.h>
#include <stdint.h>

struct slot {
    volatile uint32_t *word;
    unsigned shift;
    uint32_t mask;
};

static struct slot slot_of(volatile void *p, unsigned size)
{
    uintptr_t a = (uintptr_t)p;
    struct slot s;
    s.word = (volatile uint32_t *)(a & ~(uintptr_t)3);
    s.shift = (unsigned)(a & 3) * 8;    /* little-endian */
    s.mask = (size == 1 ? 0xffu : 0xffffu) << s.shift;
    return s;
}

static uint32_t get(struct slot s, uint32_t word)
{
    return (word & s.mask) >> s.shift;
}

static uint32_t put(struct slot s, uint32_t word, uint32_t v)
{
    return (word & ~s.mask) | ((v << s.shift) & s.mask);
}

static bool cas_word(struct slot s, uint32_t *old, uint32_t new)
{
    return __atomic_compare_exchange_n(s.word, old, new, false, __ATOMIC_SEQ_CST,
                                       __ATOMIC_SEQ_CST);
}

enum op { XCHG, ADD, SUB, AND, OR, XOR, NAND };

/* Apply op to the value at p; return the value before. */
static uint32_t rmw(volatile void *p, unsigned size, enum op op, uint32_t v)
{
    struct slot s = slot_of(p, size);
    /* relaxed: pairs with nothing; only a first guess, which the seq_cst
     * CAS below checks (and replaces on failure). */
    uint32_t old = __atomic_load_n(s.word, __ATOMIC_RELAXED);
    for (;;) {
        uint32_t cur = get(s, old), next;
        switch (op) {
        case XCHG: next = v; break;
        case ADD:  next = cur + v; break;
        case SUB:  next = cur - v; break;
        case AND:  next = cur & v; break;
        case OR:   next = cur | v; break;
        case XOR:  next = cur ^ v; break;
        default:   next = ~(cur & v); break;
        }
        if (cas_word(s, &old, put(s, old, next)))
            return cur;
    }
}

static bool cas(volatile void *p, unsigned size, void *expected, uint32_t desired)
{
    struct slot s = slot_of(p, size);
    uint32_t want = size == 1 ? *(uint8_t *)expected : *(uint16_t *)expected;
    /* seq_cst, not a guess as in rmw(): a failed compare may return this
     * value, and must then order like the seq_cst load it stands for. */
    uint32_t old = __atomic_load_n(s.word, __ATOMIC_SEQ_CST);
    for (;;) {
        uint32_t cur = get(s, old);
        if (cur != want) {
            if (size == 1)
                *(uint8_t *)expected = (uint8_t)cur;
            else
                *(uint16_t *)expected = (uint16_t)cur;
            return false;
        }
        if (cas_word(s, &old, put(s, old, desired)))
            return true;
    }
}

#define RMW(name, op, N, T, after)                                             \
    T rv_##name##_##N(volatile void *p, T v, int order)                        \
        __asm__("__atomic_" #name "_" #N);                                     \
    T rv_##name##_##N(volatile void *p, T v, int order)                        \
    {                                                                          \
        (void)order;                                                           \
        T before = (T)rmw(p, N, op, v);                                        \
        return after;                                                          \
    }

#define SIZE(N, T)                                                             \
    RMW(exchange, XCHG, N, T, before)                                          \
    RMW(fetch_add, ADD, N, T, before)                                          \
    RMW(fetch_sub, SUB, N, T, before)                                          \
    RMW(fetch_and, AND, N, T, before)                                          \
    RMW(fetch_or, OR, N, T, before)                                            \
    RMW(fetch_xor, XOR, N, T, before)                                          \
    RMW(fetch_nand, NAND, N, T, before)                                        \
    RMW(add_fetch, ADD, N, T, (T)(before + v))                                 \
    RMW(sub_fetch, SUB, N, T, (T)(before - v))                                 \
    RMW(and_fetch, AND, N, T, (T)(before & v))                                 \
    RMW(or_fetch, OR, N, T, (T)(before | v))                                   \
    RMW(xor_fetch, XOR, N, T, (T)(before ^ v))                                 \
    RMW(nand_fetch, NAND, N, T, (T)~(before & v))                              \
    bool rv_cas_##N(volatile void *p, void *expected, T desired, bool weak,    \
                    int success, int failure)                                  \
        __asm__("__atomic_compare_exchange_" #N);                              \
    bool rv_cas_##N(volatile void *p, void *expected, T desired, bool weak,    \
                    int success, int failure)                                  \
    {                                                                          \
        (void)weak, (void)success, (void)failure;                              \
        return cas(p, N, expected, desired);                                   \
    }

SIZE(1, uint8_t)
SIZE(2, uint16_t)
