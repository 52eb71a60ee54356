/*
 * An image started where hive cannot run (aarch64: EL3; riscv64: M-mode)
 * must not hang silently: the entry code prints one line saying where it
 * was entered and where hive runs, and stops with status 1 before main.
 * This main must never run; ctest expects failure plus that line.
 */
#include "harness.h"

int main(void) { return hive_test_main(); }

HIVE_TEST(main_never_runs_after_an_unsupported_entry)
{
    CHECK(!"main ran although the image was entered where hive cannot run");
}
