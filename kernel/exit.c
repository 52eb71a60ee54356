/*
 * How the system stops with a status. picolibc's exit() ends here, in
 * _exit, after atexit handlers and stdio flushes.
 *
 * The verdict of a run is main's return value on the boot core: hive_kernel_main
 * hands it to exit() through hive_exit_from_main, which marks it as such.
 * Any other exit() - main calling it itself, a task, an interrupt handler, a
 * function a secondary core runs - ends the system from the middle of
 * whatever was going on, so it first says so: "hive: core N called exit(S)".
 *   - On the boot core the status stands: the caller chose it.
 *   - On a secondary core it is a fault. A secondary has no verdict to give,
 *     and its exit(0) would make an image that went wrong look like a pass;
 *     it panics instead (status 1), naming the core and the status.
 */
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>

#include "kernel/console.h"
#include "kernel/kernel.h"

/* Written and read by the boot core only (a secondary never gets as far as
 * reading it), so a plain bool. */
static bool main_returned;

noreturn void hive_exit_from_main(int status)
{
    main_returned = true;
    exit(status);
}

noreturn void _exit(int status)
{
    unsigned core = hive_cpu_id();
    if (core != 0 || !main_returned) {
        printf("hive: core %u called exit(%d)\n", core, status);
        if (core != 0)
            hive_panic("exit(%d) on a secondary core: only the boot core's exit "
                       "or main's return ends the system with a status", status);
    }
    /* Whoever launched the board sees 8 bits of it (QEMU's exit code, for
     * every exit path of every board): keep a failure whose low byte is 0
     * (256, -256) from reading as a pass, and say so - the status seen is
     * not the one given. */
    if (status != 0 && (status & 0xff) == 0) {
        printf("hive: exit status %d would read as 0 in 8 bits: exiting with 1\n", status);
        status = 1;
    }
    /* A panic on another core is halting the system (its doorbell may not
     * have reached this core: interrupts masked, or just late): the run has
     * failed, whatever this status says. And where a board's exit is a
     * request that the last one overrides (QEMU's riscv virt test finisher,
     * acted on from QEMU's main loop), a pass now could undo the panic's
     * failure. seq_cst: the panic's exchange is, too; a panic that begins
     * after this look still ends in its own failing exit. */
    if (status == 0 && atomic_load(&hive_halting)) {
        printf("hive: exit(0) while a panic halts the system: exiting with 1\n");
        status = 1;
    }
    hive_console_flush();
    board_exit(status);
}
