/*
 * The test harness shared by host tests and on-target images.
 *
 * A test file declares cases with HIVE_TEST(name) { ... } and checks with
 * CHECK(cond) / CHECK_EQ(a, b); a failed check records file:line and the case
 * goes on, so one run reports every failure. hive_test_main() runs every case
 * in link order, prints one line per case and ends with the summary line
 * "N passed, N failed" alone on a line (", N skipped" added when a case
 * skipped: HIVE_SKIP); its return value is the exit status.
 *
 * Cases live in the "hive_tests" section; the linker's __start_/__stop_
 * symbols find them, so adding a case never means editing a list.
 */
#ifndef HIVE_TESTS_HARNESS_H
#define HIVE_TESTS_HARNESS_H

#include <stdio.h>

struct hive_test {
    const char *name;
    void (*fn)(void);
};

/* Failures of the running case so far; bumped by CHECK from any core. */
void hive_test_fail(const char *file, int line, const char *what);
/* How many checks of the running case have failed so far: for a case whose
 * checks run in a child process (fork), which must carry them back in its
 * exit status - its count is its own. */
int hive_test_case_failures(void);
int hive_test_main(void);

/* The running case cannot check anything here (too few cores, no test line
 * on this board): it says why and returns. A skipped case is not a passed
 * one, and an image whose cases all skip fails (hive_test_main): so a test
 * registered at a core count where it checks nothing is seen, not counted
 * as a pass. */
void hive_test_skip(const char *why);
#define HIVE_SKIP(why)                                                         \
    do {                                                                       \
        hive_test_skip(why);                                                   \
        return;                                                                \
    } while (0)

#define HIVE_TEST(name)                                                        \
    static void name(void);                                                    \
    __attribute__((used, section("hive_tests"), aligned(sizeof(void *))))     \
    static const struct hive_test name##_case = {#name, name};                 \
    static void name(void)

#define CHECK(cond)                                                            \
    do {                                                                       \
        if (!(cond))                                                           \
            hive_test_fail(__FILE__, __LINE__, #cond);                         \
    } while (0)

#define CHECK_EQ(a, b)                                                         \
    do {                                                                       \
        unsigned long long va_ = (unsigned long long)(a);                      \
        unsigned long long vb_ = (unsigned long long)(b);                      \
        if (va_ != vb_) {                                                      \
            char msg_[160];                                                    \
            snprintf(msg_, sizeof msg_, "%s == %s (%llu != %llu)", #a, #b,     \
                     va_, vb_);                                                \
            hive_test_fail(__FILE__, __LINE__, msg_);                          \
        }                                                                      \
    } while (0)

#endif
