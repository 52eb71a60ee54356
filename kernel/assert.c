/*
 * picolibc's failure exits, assert() and abort(), end in hive_panic: the
 * line names the core (and, for assert, the expression, file, line and
 * function), and the whole system stops with status 1.
 *
 * picolibc's own versions print on stderr without the core and then go
 * abort -> raise -> kill, which a bare-metal image does not have: any image
 * that used assert() with assertions compiled in failed to link. These
 * definitions are linked as objects (hive_platform), so they win over
 * libc.a's and nothing reaches kill.
 */
#include <assert.h>
#include <stdlib.h>

#include "kernel/kernel.h"

void __assert_func(const char *file, int line, const char *func, const char *expr)
{
    hive_panic("assertion failed: %s (%s:%d, %s)", expr, file, line, func ? func : "?");
}

void abort(void)
{
    hive_panic("abort() called");
}
