#include "harness.h"

#include <stdatomic.h>

extern const struct hive_test __start_hive_tests[];
extern const struct hive_test __stop_hive_tests[];

static atomic_int case_failures;

void hive_test_fail(const char *file, int line, const char *what)
{
    /* relaxed: a counter read only after the case has returned (and, for
     * multi-core cases, after the case itself joined its cores). */
    atomic_fetch_add_explicit(&case_failures, 1, memory_order_relaxed);
    printf("  check failed: %s:%d: %s\n", file, line, what);
}

int hive_test_main(void)
{
    int passed = 0, failed = 0;
    for (const struct hive_test *t = __start_hive_tests; t < __stop_hive_tests; t++) {
        atomic_store(&case_failures, 0);
        t->fn();
        if (atomic_load(&case_failures) == 0) {
            printf("ok   %s\n", t->name);
            passed++;
        } else {
            printf("FAIL %s\n", t->name);
            failed++;
        }
    }
    printf("%d passed, %d failed\n", passed, failed);
    fflush(stdout);
    return failed == 0 && passed > 0 ? 0 : 1;
}
