/* Powering off with a status: semihosting SYS_EXIT carries it to QEMU's exit code. */
#include "arch/aarch64/aarch64.h"
#include "kernel/kernel.h"
#include "psci.h"

noreturn void board_exit(int status)
{
    aarch64_semihost_exit(status);
    /* Only without -semihosting-config enable=on: stop rather than hang,
     * though QEMU then exits 0 whatever the status. */
    hive_console_emergency("board: no semihosting, powering off without the exit status\n");
    psci_call(PSCI_SYSTEM_OFF, 0, 0, 0);
    arch_halt();
}
