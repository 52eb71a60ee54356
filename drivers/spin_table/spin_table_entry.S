/*
 * The spin table's two pieces of assembly (spin_table.h).
 */

/*
 * spin_table_entries: one entry per logical id, 8 bytes each - x0 = id,
 * then arch_secondary_entry, which expects its id there (as PSCI CPU_ON's
 * context would give it). A core enters here with the MMU off, at EL2 or
 * EL1, and touches no data before arch_secondary_entry.
 */
    .text
    .balign 8
    .global spin_table_entries
    .type spin_table_entries, %function
spin_table_entries:
    .set id, 0
    .rept HIVE_MAX_CORES
    mov     x0, #id
    b       arch_secondary_entry
    .set id, id + 1
    .endr
    .size spin_table_entries, . - spin_table_entries

/*
 * spin_table_halt: where an unused core goes (spin_table_park), at the EL
 * and with the MMU state the firmware left it in: nothing is touched but
 * DAIF. WFI ends on a pending interrupt even while masked, hence the loop.
 */
    .global spin_table_halt
    .type spin_table_halt, %function
spin_table_halt:
    msr     daifset, #0xf
1:  wfi
    b       1b
    .size spin_table_halt, . - spin_table_halt

/*
 * spin_table_store_physical(address x0, value x1): one 64-bit store to a
 * physical address that hive's identity map leaves unmapped - the release
 * words sit in page 0, which stays unmapped so that a null pointer faults.
 * The store is made with this core's EL1 MMU off for the three
 * instructions it takes: the address is then physical, the access Device
 * (uncached), so it reaches memory itself, where a parked core reading with
 * its MMU and caches off finds it; no cache maintenance is needed, and no
 * cached copy of page 0 ever exists on this core. The code runs from the
 * identity map, so turning the MMU off or on does not move it.
 *
 * Every exception is masked meanwhile (no handler may run with the MMU
 * off). From C: no stack; x2-x4 clobbered.
 */
    .global spin_table_store_physical
    .type spin_table_store_physical, %function
spin_table_store_physical:
    mrs     x4, daif
    msr     daifset, #0xf
    mrs     x2, sctlr_el1
    bic     x3, x2, #1          /* SCTLR_EL1.M */
    dsb     sy                  /* accesses made through the MMU complete first */
    msr     sctlr_el1, x3
    isb
    str     x1, [x0]
    dsb     sy                  /* the release word is in memory before the MMU returns (and before the caller's SEV) */
    msr     sctlr_el1, x2
    isb
    msr     daif, x4
    ret
    .size spin_table_store_physical, . - spin_table_store_physical
