/*
 * Compiler attributes of the public API.
 *
 * HIVE_MUST_CHECK marks a call whose result the caller must look at: an
 * error code that says the work was not done (hive_spawn, hive_join,
 * hive_run...), or a value needed later (hive_spin_lock's interrupt state).
 * GCC and clang warn when such a result is dropped; hive's own tree builds
 * with -Werror, so there a dropped result does not compile. A cast to void
 * does not silence GCC: check the result, and say what a failure means.
 */
#ifndef HIVE_ATTRIBUTES_H
#define HIVE_ATTRIBUTES_H

#if defined(__GNUC__) || defined(__clang__)
#define HIVE_MUST_CHECK __attribute__((__warn_unused_result__))
#else
#define HIVE_MUST_CHECK
#endif

#endif
