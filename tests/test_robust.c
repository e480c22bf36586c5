/* Bad models found by semantic mutation fuzzing (tests/fuzz_models.py) must fail cleanly:
 * exit status 1, a located error, and no sanitizer report (under --enable-sanitizers a
 * memory or UB error in the compiler would print one and change the exit status). Each
 * file in tests/data/robust is one distinct root cause. */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "testutil.h"

static void expect_located(const char *file, const char *needle) {
  char args[4096];
  snprintf(args, sizeof args, "simulate '%.3000s%.200s' -o robust_out.csv",
           st_test_src("tests/data/robust/"), file);
  char *out = NULL;
  int rc = st_test_run(&out, args);
  ck_assert_ptr_nonnull(out);
  ck_assert_msg(rc == 1, "exit %d for %s:\n%s", rc, file, out);
  ck_assert_msg(strstr(out, needle) != NULL, "missing '%s' in:\n%s", needle, out);
  ck_assert_msg(strstr(out, "Sanitizer") == NULL && strstr(out, "runtime error:") == NULL,
                "sanitizer report for %s:\n%s", file, out);
  free(out);
  remove("robust_out.csv");
}

/* st_compiled_free freed start_prog entries past its end (nslots had grown) */
START_TEST(index_reduction_failure_frees_cleanly) {
  expect_located("IndexReductionFails.mo",
                 "IndexReductionFails.mo:8:7: error: index reduction: cannot differentiate");
}
END_TEST

/* index.c: memcpy from NULL for an equation without unknowns */
START_TEST(equation_without_unknowns_in_index_reduction) {
  expect_located("DerOfConstant.mo", "DerOfConstant.mo:2:7: error: the model is structurally "
                 "singular");
}
END_TEST

/* structure.c: memcpy to a NULL adjacency list when no equation has an unknown */
START_TEST(no_equation_has_an_unknown) {
  expect_located("StringState.mo", "StringState.mo:3:7: error: the model is over-determined");
}
END_TEST


int main(void) {
  Suite *s = suite_create("robust");
  st_test_case(s, "mutants", 120, ST_TESTS(index_reduction_failure_frees_cleanly,
               equation_without_unknowns_in_index_reduction, no_equation_has_an_unknown));
  return st_test_main(s);
}
