/* picolibc's exit() ends here, after atexit handlers and stdio flushes. */
#include "kernel/console.h"
#include "kernel/kernel.h"

noreturn void _exit(int status)
{
    hive_console_flush();
    board_exit(status);
}
