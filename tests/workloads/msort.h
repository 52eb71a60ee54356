/*
 * Merge sort of n uint32: fork the two halves down to WL_MSORT_LEAF-element
 * leaves, sorted by insertion; then merge the halves serially through a
 * scratch buffer of the same size. A fork per split: n / 32 leaves make about
 * n / 32 forks, each with real work under it (unlike fib).
 *
 * The input (a fixed xorshift sequence), the leaf sort, the merge, the serial
 * version, the fork count and the checker below are plain C that also
 * compiles as C++: the oneTBB and OpenMP programs of bench/ use them, so every
 * runtime sorts the same input with the same leaf and merge code and is
 * checked the same way. hive's version (msort.c) uses only the public API,
 * include/hive/hive.h.
 */
#ifndef HIVE_WORKLOADS_MSORT_H
#define HIVE_WORKLOADS_MSORT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#define WL_MSORT_LEAF 32 /* insertion sort at and below this many elements */

/* Fill a[0..n) with the same pseudo-random sequence every time; returns its
 * sum, for wl_msort_ok. */
static inline uint64_t wl_msort_fill(uint32_t *a, size_t n)
{
    uint32_t x = 2463534242u;
    uint64_t sum = 0;
    for (size_t i = 0; i < n; i++) {
        x ^= x << 13, x ^= x >> 17, x ^= x << 5;
        a[i] = x;
        sum += x;
    }
    return sum;
}

/* The leaf. */
static inline void wl_insertion_sort(uint32_t *a, size_t n)
{
    for (size_t i = 1; i < n; i++) {
        uint32_t v = a[i];
        size_t j = i;
        while (j > 0 && a[j - 1] > v) {
            a[j] = a[j - 1];
            j--;
        }
        a[j] = v;
    }
}

/* Merge the sorted halves a[0,h) and a[h,n) through tmp[0,n). */
/* The merge loop takes the smaller head without a branch on the data (a
 * select and two adds): random input makes such a branch a coin toss, and
 * gcc 12 at -O2 compiled the obvious `a[i] <= a[j] ? a[i++] : a[j++]` to
 * one, clang to a conditional move - gcc's serial sort took 1.7 times
 * clang's here (82 against 48 ms), a difference in the compilers that the
 * sort's speedups over gcc's build then carried. Written so, both make the
 * same branch-free loop (45 and 48 ms); bench/rayon/src/kernels.rs does the
 * same. */
static inline void wl_merge(uint32_t *a, uint32_t *tmp, size_t n, size_t h)
{
    size_t i = 0, j = h, k = 0;
    while (i < h && j < n) {
        uint32_t x = a[i], y = a[j];
        bool left = x <= y;
        tmp[k++] = left ? x : y;
        i += left;
        j += !left;
    }
    while (i < h)
        tmp[k++] = a[i++];
    while (j < n)
        tmp[k++] = a[j++];
    memcpy(a, tmp, n * sizeof *a);
}

/* The serial version: the same splits, leaves and merges, no forks. */
static inline void wl_msort_serial(uint32_t *a, uint32_t *tmp, size_t n)
{
    if (n <= WL_MSORT_LEAF) {
        wl_insertion_sort(a, n);
        return;
    }
    size_t h = n / 2;
    wl_msort_serial(a, tmp, h);
    wl_msort_serial(a + h, tmp + h, n - h);
    wl_merge(a, tmp, n, h);
}

/* Forks a sort of n makes: one per split. */
static inline uint64_t wl_msort_forks(size_t n)
{
    return n <= WL_MSORT_LEAF ? 0 : 1 + wl_msort_forks(n / 2) + wl_msort_forks(n - n / 2);
}

/* a[0..n) is sorted and, as far as its sum can tell, the filled input. */
static inline int wl_msort_ok(const uint32_t *a, size_t n, uint64_t sum)
{
    uint64_t s = 0;
    for (size_t i = 0; i < n; i++) {
        s += a[i];
        if (i && a[i - 1] > a[i])
            return 0;
    }
    return s == sum;
}

/* ---- hive's version (msort.c) --------------------------------------------- */

struct wl_msort {
    uint32_t *a, *tmp; /* sorted in place; tmp: scratch of the same size */
    size_t n;
};

/* In task context (a hive_run entry, or called from a task): sort s->a, a
 * hive_join for the halves of every split. */
void wl_msort_task(void *s);

#endif
