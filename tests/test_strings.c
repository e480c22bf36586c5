/* String values (Modelica 3.6 section 3.7.4.9) in function bodies, in the arguments of C
 * functions and in assert messages; models in tests/data/strings/Strings.mo:
 *   - a String input defaulted to "" and a concatenation reach C as their texts (a number in
 *     the pointer's place made C open a file with a garbage name);
 *   - String() with significantDigits, minimumLength, leftJustified and format, compared with
 *     the expected text by C and by String relations; a constant one folded while flattening;
 *   - the message of a failed assert built from the values then: in a function body (compiled
 *     or walked) and among a model's equations. */
#include <check.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "testutil.h"
#include "simtable.h"
#include "util/strfmt.h"

#define STRINGS "tests/data/strings/Strings.mo"

START_TEST(texts_reach_c) {
  static table t;
  run_ok(STRINGS, "Strings.DefaultText", "", &t);
  ck_assert_int_gt(t.nrows, 2);
  /* "at " + "xy", and the default fileName "" */
  for (int i = 0; i < t.nrows; i++) ck_assert_double_eq(t.v[i][col(&t, "k")], 5);
}
END_TEST

/* A String output written by C through its `const char **` (read as a number before). */
START_TEST(text_from_c) {
  static table t;
  run_ok(STRINGS, "Strings.OutputText", "", &t);
  for (int i = 0; i < t.nrows; i++) ck_assert_double_eq(t.v[i][col(&t, "ok")], 1);
}
END_TEST

/* String arrays: a default {",", "=", ";"} filled in by the model's call, elements compared,
 * built and assigned, fill("  ", 2), and passed to C as their texts: k = 10 i + 6 + 4 - 10
 * for the position i of the key (";" until t = 0.5, then "="). */
START_TEST(text_arrays) {
  static table t;
  run_ok(STRINGS, "Strings.TextArrays", "", &t);
  int ct = col(&t, "time");
  for (int i = 0; i < t.nrows; i++) {
    double tm = t.v[i][ct];
    int after = tm > 0.5 || (tm == 0.5 && !(i + 1 < t.nrows && t.v[i + 1][ct] == tm));
    ck_assert_msg(t.v[i][col(&t, "k")] == (after ? 20 : 30), "k(%g) = %g", tm,
                  t.v[i][col(&t, "k")]);
  }
}
END_TEST

/* "data" + ".txt" and "data": 8 + 100 * 4; a function's String result passed on in an
 * equation is refused at the argument (it reached C as "" before). */
START_TEST(texts_in_equations) {
  static table t;
  run_ok(STRINGS, "Strings.ParameterText", "", &t);
  for (int i = 0; i < t.nrows; i++) ck_assert_double_eq(t.v[i][col(&t, "n")], 408);
  char *out = NULL;
  ck_assert_int_eq(simulate(STRINGS, "Strings.PassedOn", &t, &out), 1);
  ck_assert_msg(out && strstr(out, "Strings.mo:") &&
                    strstr(out, ": error: argument 1 of 'Strings.lengths': a String made while "
                                "the model runs"),
                "%s", out ? out : "");
  free(out);
}
END_TEST

START_TEST(string_conversion) {
  static table t;
  run_ok(STRINGS, "Strings.Formats", "", &t);
  /* 1 from C's strcmp, 1 more from the String relations of the body */
  for (int i = 0; i < t.nrows; i++) ck_assert_double_eq(t.v[i][col(&t, "eq")], 2);
  char *out = NULL;
  int st = st_test_runf(&out, "flatten '%s' Strings.Formats", st_test_src(STRINGS));
  ck_assert_msg(st == 0 && out && strstr(out, "String folded = \"1.57  \";"), "%s", out ? out : "");
  free(out);
}
END_TEST

START_TEST(formatter) {
  char b[64];
  st_strfmt s = st_strfmt_default(ST_SF_REAL);
  ck_assert_int_eq(st_strfmt_write(b, sizeof b, 1.0 / 3, &s), 8);
  ck_assert_str_eq(b, "0.333333");
  s.minimum_length = 10;
  s.left_justified = 0;
  ck_assert_int_eq(st_strfmt_write(b, sizeof b, -2.5, &s), 10);
  ck_assert_str_eq(b, "      -2.5");
  s.format = "-6.1e";
  s.minimum_length = 0;
  st_strfmt_write(b, sizeof b, 1234.5, &s);
  ck_assert_str_eq(b, "1.2e+03");
  /* cut to the buffer, the whole length returned */
  ck_assert_int_eq(st_strfmt_write(b, 4, 1234.5, &s), 7);
  ck_assert_str_eq(b, "1.2");
  /* only printf's conversions of numbers, without '%' or length modifiers */
  const char *bad[] = {"s", "%d", "ld", "8.2fx", "n"};
  for (int i = 0; i < 5; i++) {
    s.format = bad[i];
    ck_assert_msg(st_strfmt_write(b, sizeof b, 1, &s) == -1, "%s accepted", bad[i]);
  }
  st_strfmt i = st_strfmt_default(ST_SF_INTEGER);
  i.format = "05d";
  st_strfmt_write(b, sizeof b, 42, &i);
  ck_assert_str_eq(b, "00042");
  st_strfmt z = st_strfmt_default(ST_SF_BOOLEAN);
  st_strfmt_write(b, sizeof b, 0, &z);
  ck_assert_str_eq(b, "false");
}
END_TEST

START_TEST(assert_messages_from_values) {
  static table t;
  char *out = NULL;
  ck_assert_int_eq(simulate(STRINGS, "Strings.FunctionMessage", &t, &out), 1);
  ck_assert_msg(out && strstr(out, "Strings.mo:128:5 failed: x (= 0.5) is too large"), "%s",
                out ? out : "");
  free(out);
  out = NULL;
  ck_assert_int_eq(simulate(STRINGS, "Strings.ModelMessage", &t, &out), 1);
  ck_assert_msg(out && strstr(out, "Strings.mo:140:5: error: assertion failed at time "
                                   "0.25000000010000001: x (= 0.25) <= L (= 0.25,   2)"),
                "%s", out ? out : "");
  free(out);
}
END_TEST

static Suite *suite(void) {
  Suite *s = suite_create("strings");
  st_test_case(s, "strings", 0, ST_TESTS(texts_reach_c, text_from_c, text_arrays, texts_in_equations,
                                          string_conversion, formatter,
                                          assert_messages_from_values));
  return s;
}

int main(void) {
  st_test_cache_home("strings"); /* the C code's objects: in the test's own directory */
  int rc = st_test_main(suite());
  st_test_cache_remove();
  return rc;
}
