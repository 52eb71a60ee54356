/* Starting a core from a spin table: see spin_table.h. */
#include "drivers/spin_table/spin_table.h"

extern const char spin_table_entries[];
void spin_table_store_physical(uintptr_t address, uint64_t value);

/* Each entry of spin_table_entries: mov + b. */
#define ENTRY_SIZE 8

int spin_table_start(uintptr_t release, unsigned id)
{
    if (id >= HIVE_MAX_CORES)
        return -1;
    uint64_t entry = (uintptr_t)spin_table_entries + (uint64_t)id * ENTRY_SIZE;
    spin_table_store_physical(release, entry);
    /* The store is complete (its DSB): the parked core's WFE ends, and it
     * reads the word again. */
    __asm__ volatile("sev" : : : "memory");
    return 0;
}
