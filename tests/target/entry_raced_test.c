/*
 * A hart started through SBI HSM may come in at the image's entry (_start,
 * a1 = the DTB) instead of where it was started (arch_secondary_entry, a1 =
 * its logical id): OpenSBI before 1.3 marks the hart START_PENDING before it
 * stores the start address, and a hart that reaches its wait after that
 * leaves with the boot defaults. Seen on a loaded host as a second boot -
 * .bss cleared under the running cores, "hart 0 stays in SBI HSM state 0",
 * a core short. The entry must make such a hart the secondary it was
 * started as.
 *
 * The race itself depends on how the host schedules QEMU's threads, so this
 * image makes its outcome happen every time: the last core stops itself
 * through HSM, and core 0 starts it again at _start with an a1 that is no
 * logical id, as the racing firmware does. The hart must come back as the
 * same logical core (it runs the call again, as a secondary that comes
 * online does), with this image's .bss intact.
 */
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>

#include "drivers/sbi.h"
#include "harness.h"
#include "kernel/cpu.h"
#include "kernel/kernel.h"

int main(void) { return hive_test_main(); }

extern char _start[];

static unsigned last_core;
static atomic_uint stopped;          /* the last core is about to stop */
static atomic_uint came_back_as;     /* its logical id + 1, once back */
static volatile uint64_t sentinel;   /* .bss: a second boot would clear it */

static int wait_for(atomic_uint *word, unsigned seconds)
{
    uint64_t deadline = arch_counter() + arch_counter_hz() * seconds;
    while (atomic_load(word) == 0)
        if (arch_counter() > deadline)
            return 0;
    return 1;
}

static void restart_at_entry(void)
{
    uintptr_t hart = hive_cpus[last_core].hw_id;
    if (!wait_for(&stopped, 10)) {
        CHECK(!"the last core never got to its stop");
        return;
    }
    uint64_t deadline = arch_counter() + arch_counter_hz() * 10;
    struct sbi_ret st = sbi_hart_get_status(hart);
    while (st.error == SBI_SUCCESS && st.value != SBI_HSM_STOPPED && arch_counter() < deadline)
        st = sbi_hart_get_status(hart);
    CHECK(st.error == SBI_SUCCESS && st.value == SBI_HSM_STOPPED);
    if (st.value != SBI_HSM_STOPPED)
        return;

    /* What the racing firmware does: the image's entry, the DTB's place. */
    struct sbi_ret r = sbi_hart_start(hart, (uintptr_t)_start, 0x82200000u);
    CHECK(r.error == SBI_SUCCESS);
    if (r.error != SBI_SUCCESS)
        return;
    if (!wait_for(&came_back_as, 10)) {
        CHECK(!"the restarted hart never came back as a secondary");
        return;
    }
    printf("hart %lu came back as core %u\n", (unsigned long)hart, atomic_load(&came_back_as) - 1);
    CHECK(atomic_load(&came_back_as) == last_core + 1);
    CHECK(hive_cpus[last_core].hw_id == hart);
    CHECK(sentinel == 0x5eed5eed5eed5eedull);
}

static void on_every_core(void *arg)
{
    (void)arg;
    unsigned id = hive_cpu_id();
    if (id == 0) {
        restart_at_entry();
        return;
    }
    if (id != last_core)
        return;
    if (atomic_load(&stopped)) {
        atomic_store(&came_back_as, id + 1);
        return;
    }
    atomic_store(&stopped, 1);
    (void)arch_irq_save();   /* nothing may interrupt it on its way out */
    sbi_hart_stop();
    hive_panic("SBI hart_stop returned");
}

HIVE_TEST(hart_started_at_the_entry_joins_as_a_secondary)
{
    CHECK(hive_cpu_count() >= 2);
    last_core = hive_cpu_count() - 1;
    sentinel = 0x5eed5eed5eed5eedull;
    hive_smp_call_all(on_every_core, NULL);
}
