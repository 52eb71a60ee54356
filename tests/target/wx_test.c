/*
 * W^X: text is never writable and data never executable, whatever page size
 * maps them. The highest core either stores into a function's code
 * (WX_WRITE_TEXT) or calls a return instruction it wrote into the middle of
 * a 6 MiB static array, at a 2 MiB boundary: there a large page (Sv39
 * megapage, aarch64 block) maps it. Either must fault with a panic line
 * naming that fault and a non-zero exit (EXPECT_FAIL). Built twice, one
 * image per way (tests/target/CMakeLists.txt).
 */
#include <stdint.h>
#include <stdio.h>

#include "harness.h"
#include "kernel/kernel.h"

int main(void) { return hive_test_main(); }

#ifndef WX_WRITE_TEXT
#define LARGE_PAGE (2ul << 20)
static uint32_t big_data[(6ul << 20) / sizeof(uint32_t)];

#if defined(__aarch64__)
#define RET 0xd65f03c0u     /* ret */
#else
#define RET 0x00008067u     /* ret (jalr x0, 0(ra)) */
#endif

static void (*ret_in_data(void))(void)
{
    uintptr_t at = ((uintptr_t)big_data + LARGE_PAGE - 1) & ~(LARGE_PAGE - 1);
    *(volatile uint32_t *)at = RET;
    /* Make the store visible to instruction fetch, as a loader would, so
     * that only the missing execute permission can stop the call. */
#if defined(__aarch64__)
    __builtin___clear_cache((char *)at, (char *)at + sizeof(uint32_t));
#else
    __asm__ volatile("fence.i" : : : "memory");
#endif
    return (void (*)(void))at;
}
#endif

static void violate_on_last_core(void *arg)
{
    (void)arg;
    unsigned id = hive_cpu_id();
    if (id + 1 != hive_cpu_count())
        return;
#ifdef WX_WRITE_TEXT
    volatile uint32_t *text = (volatile uint32_t *)(uintptr_t)violate_on_last_core;
    printf("core %u: storing into text at %p\n", id, (void *)text);
    *text = *text;
#else
    void (*fn)(void) = ret_in_data();
    printf("core %u: calling code in data at %p\n", id, (void *)(uintptr_t)fn);
    fn();
#endif
    printf("core %u: it did not fault\n", id);
}

HIVE_TEST(wx_violation_faults)
{
    hive_smp_call_all(violate_on_last_core, NULL);
    CHECK(!"the W^X violation returned instead of stopping the system");
}
