/*
 * Bring-up: every core is online exactly once, atomics are exact across
 * cores, printf and malloc are safe from every core at once.
 */
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <errno.h>
#include <string.h>

#include "harness.h"
#include "hive/board.h"
#include "hive/hive.h"
#include "kernel/kernel.h"

int main(void) { return hive_test_main(); }

static atomic_uint seen[HIVE_MAX_CORES];

static void report_online(void *arg)
{
    (void)arg;
    struct hive_cpu *cpu = arch_this_cpu();
    printf("core %u online (hw id %#lx)\n", cpu->id, (unsigned long)cpu->hw_id);
    atomic_fetch_add(&seen[cpu->id], 1);
}

HIVE_TEST(every_core_online_once)
{
    unsigned n = hive_cpu_count();
    CHECK(n >= 1 && n <= HIVE_MAX_CORES);
    hive_smp_call_all(report_online, NULL);
    for (unsigned i = 0; i < HIVE_MAX_CORES; i++)
        CHECK_EQ(atomic_load(&seen[i]), i < n ? 1u : 0u);
    /* Logical ids are dense and each core's block is its own. */
    for (unsigned i = 0; i < n; i++)
        CHECK_EQ(hive_cpus[i].id, i);
}

/* The public core queries (hive/hive.h) agree with the kernel's, outside
 * any run, on every core. */
static atomic_uint core_id_wrong;

static void check_core_id(void *arg)
{
    (void)arg;
    if (hive_core_id() != (int)hive_cpu_id())
        atomic_fetch_add(&core_id_wrong, 1);
}

HIVE_TEST(public_core_queries)
{
    CHECK_EQ(hive_core_count(), hive_cpu_count());
    CHECK_EQ(hive_core_id(), 0);
    atomic_store(&core_id_wrong, 0);
    hive_smp_call_all(check_core_id, NULL);
    CHECK_EQ(atomic_load(&core_id_wrong), 0u);
}

/* hive/board.h's build facts are the ones this image was built and linked
 * with (memory.ld's symbols). */
extern char __ram_start[], __ram_end[];
/* The build's HIVE_MAX_CORES (hive/limits.h) may lower the board's, never
 * raise it (cmake/limits.cmake). */
_Static_assert(HIVE_MAX_CORES <= HIVE_BOARD_MAX_CORES, "hive/board.h: most cores");

/* A linker symbol's value, hidden from the optimiser: to the compiler an
 * object's address is never 0, so it would fold a comparison with rpi3's
 * RAM base (0) to false. */
static uintptr_t symbol_value(char *sym)
{
    uintptr_t v = (uintptr_t)sym;
    __asm__ volatile("" : "+r"(v));
    return v;
}

HIVE_TEST(board_header_matches_the_image)
{
    uintptr_t ram_start = symbol_value(__ram_start), ram_end = symbol_value(__ram_end);
    CHECK_EQ(ram_start, (uintptr_t)HIVE_BOARD_RAM_BASE);
    CHECK_EQ(ram_end - ram_start, (uintptr_t)HIVE_BOARD_RAM_SIZE);
    CHECK(hive_cpu_count() <= HIVE_BOARD_MAX_CORES);
}

#define ADDS 1000000u
static atomic_ulong counter;

static void add_many(void *arg)
{
    (void)arg;
    for (unsigned i = 0; i < ADDS; i++)
        /* relaxed: the total is read after hive_smp_call_all joined every core. */
        atomic_fetch_add_explicit(&counter, 1, memory_order_relaxed);
}

HIVE_TEST(shared_counter_exact)
{
    atomic_store(&counter, 0);
    hive_smp_call_all(add_many, NULL);
    CHECK_EQ(atomic_load(&counter), (unsigned long)ADDS * hive_cpu_count());
}

/* tools/run-image checks that each "<<...>>" line arrived whole. */
static void print_lines(void *arg)
{
    (void)arg;
    unsigned id = hive_cpu_id();
    for (unsigned i = 0; i < 50; i++)
        printf("<<core %u line %u: the quick brown fox jumps over the lazy dog>>\n", id, i);
}

HIVE_TEST(concurrent_printf_whole_lines)
{
    hive_smp_call_all(print_lines, NULL);
}

static atomic_uint malloc_errors;

static void malloc_churn(void *arg)
{
    (void)arg;
    unsigned id = hive_cpu_id();
    uint32_t rnd = 0x9e3779b9u * (id + 1);
    enum { LIVE = 16 };
    unsigned char *blocks[LIVE] = {0};
    size_t sizes[LIVE] = {0};
    for (unsigned i = 0; i < 20000; i++) {
        rnd ^= rnd << 13, rnd ^= rnd >> 17, rnd ^= rnd << 5;
        unsigned slot = rnd % LIVE;
        if (blocks[slot]) {
            unsigned char tag = (unsigned char)(id * 31 + slot);
            for (size_t k = 0; k < sizes[slot]; k++)
                if (blocks[slot][k] != tag) {
                    atomic_fetch_add(&malloc_errors, 1);
                    break;
                }
            free(blocks[slot]);
        }
        sizes[slot] = 1 + (rnd >> 8) % 512;
        blocks[slot] = malloc(sizes[slot]);
        if (!blocks[slot]) {
            atomic_fetch_add(&malloc_errors, 1);
            continue;
        }
        memset(blocks[slot], id * 31 + slot, sizes[slot]);
    }
    for (unsigned s = 0; s < LIVE; s++)
        free(blocks[s]);
}

HIVE_TEST(concurrent_malloc_free)
{
    atomic_store(&malloc_errors, 0);
    hive_smp_call_all(malloc_churn, NULL);
    CHECK_EQ(atomic_load(&malloc_errors), 0);
}

static atomic_uint errno_errors;

static void errno_is_per_core(void *arg)
{
    (void)arg;
    unsigned id = hive_cpu_id();
    for (unsigned i = 0; i < 10000; i++) {
        errno = (int)(id + 1);
        if (errno != (int)(id + 1))
            atomic_fetch_add(&errno_errors, 1);
    }
}

HIVE_TEST(errno_per_core)
{
    hive_smp_call_all(errno_is_per_core, NULL);
    CHECK_EQ(atomic_load(&errno_errors), 0);
    CHECK(&errno != NULL);
}
