/*
 * An image with 34 MiB of static data boots, and the data is all there: the
 * MMU maps large regions with large pages (riscv64 Sv39 megapages, aarch64
 * 2 MiB blocks), so the page-table pool does not grow with the image. Every
 * core writes and reads back the first and the last byte, and one byte in
 * every 4 KiB page in between on its own share.
 */
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>

#include "harness.h"
#include "kernel/kernel.h"

int main(void) { return hive_test_main(); }

#define BIG (34u << 20)
#define PAGE 4096u

static volatile unsigned char big[BIG];
static atomic_uint bad;

static void touch(void *arg)
{
    (void)arg;
    unsigned id = hive_cpu_id(), n = hive_cpu_count();
    unsigned char mark = (unsigned char)(0xa5 ^ id);
    if (id == n - 1) {
        big[0] = mark;
        big[BIG - 1] = mark;
        if (big[0] != mark || big[BIG - 1] != mark)
            atomic_fetch_add(&bad, 1);
    }
    /* Pages id, id + n, ...: each core its own, so no two write one byte. */
    for (uintptr_t p = 1 + id; p < BIG / PAGE - 1; p += n)
        big[p * PAGE + id % PAGE] = mark;
    for (uintptr_t p = 1 + id; p < BIG / PAGE - 1; p += n)
        if (big[p * PAGE + id % PAGE] != mark)
            atomic_fetch_add(&bad, 1);
}

HIVE_TEST(big_static_array_is_mapped)
{
    printf("static array of %u MiB at %p..%p\n", BIG >> 20, (void *)big, (void *)(big + BIG));
    hive_smp_call_all(touch, NULL);
    CHECK_EQ(atomic_load(&bad), 0);
    CHECK_EQ(big[0], 0xa5 ^ (hive_cpu_count() - 1));
    CHECK_EQ(big[BIG - 1], 0xa5 ^ (hive_cpu_count() - 1));
}
