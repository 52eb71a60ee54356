/* Starting a core from a spin table: see spin_table.h. */
#include "drivers/spin_table/spin_table.h"

extern const char spin_table_entries[], spin_table_halt[];
void spin_table_store_physical(uintptr_t address, uint64_t value);

/* Each entry of spin_table_entries: mov + b. */
#define ENTRY_SIZE 8

static void release_to(uintptr_t release, uint64_t entry)
{
    spin_table_store_physical(release, entry);
    /* The store is complete (its DSB): the parked core's WFE ends, and it
     * reads the word again. */
    __asm__ volatile("sev" : : : "memory");
}

int spin_table_start(uintptr_t release, unsigned id)
{
    if (id >= HIVE_MAX_CORES)
        return -1;
    release_to(release, (uintptr_t)spin_table_entries + (uint64_t)id * ENTRY_SIZE);
    return 0;
}

void spin_table_park(uintptr_t release)
{
    release_to(release, (uintptr_t)spin_table_halt);
}

int spin_table_start_or_park(uintptr_t release, unsigned id, unsigned wanted)
{
    if (id >= wanted) {
        spin_table_park(release);
        return -1;
    }
    return spin_table_start(release, id);
}
