#include "harness.h"

#include <stdatomic.h>

extern const struct hive_test __start_hive_tests[];
extern const struct hive_test __stop_hive_tests[];

static atomic_int case_failures;
static const char *case_skipped; /* why, or NULL: set by the case's own core */

void hive_test_fail(const char *file, int line, const char *what)
{
    /* relaxed: a counter read only after the case has returned (and, for
     * multi-core cases, after the case itself joined its cores). */
    atomic_fetch_add_explicit(&case_failures, 1, memory_order_relaxed);
    printf("  check failed: %s:%d: %s\n", file, line, what);
}

int hive_test_case_failures(void)
{
    /* relaxed: as in hive_test_fail; the caller reads it after the checks
     * it counts have returned. */
    return atomic_load_explicit(&case_failures, memory_order_relaxed);
}

void hive_test_skip(const char *why)
{
    case_skipped = why;
}

int hive_test_main(void)
{
    int passed = 0, failed = 0, skipped = 0;
    for (const struct hive_test *t = __start_hive_tests; t < __stop_hive_tests; t++) {
        atomic_store(&case_failures, 0);
        case_skipped = NULL;
        t->fn();
        if (atomic_load(&case_failures) != 0) {
            printf("FAIL %s\n", t->name);
            failed++;
        } else if (case_skipped) {
            printf("skip %s: %s\n", t->name, case_skipped);
            skipped++;
        } else {
            printf("ok   %s\n", t->name);
            passed++;
        }
    }
    if (skipped)
        printf("%d passed, %d failed, %d skipped\n", passed, failed, skipped);
    else
        printf("%d passed, %d failed\n", passed, failed);
    fflush(stdout);
    /* Nothing passed (every case skipped, or none exists) proves nothing. */
    return failed == 0 && passed > 0 ? 0 : 1;
}
