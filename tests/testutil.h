/* Helpers common to the Check tests: where the reference data, the sources and the built
 * command are (set by `make check`, see AM_TESTS_ENVIRONMENT), and running the command. */
#ifndef ST_TESTS_TESTUTIL_H
#define ST_TESTS_TESTUTIL_H

#include <check.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* A path under tests/reference (MSL and BAM reference data, tests/reference/README.md),
 * e.g. st_test_ref("msl"). */
static inline const char *st_test_ref(const char *rel) {
  static char buf[4096];
  const char *root = getenv("STICTION_SRCDIR");
  snprintf(buf, sizeof buf, "%s/tests/reference/%s", root ? root : ".", rel);
  return buf;
}

/* A path under the source tree (tests/data, models). */
static inline const char *st_test_src(const char *rel) {
  static char buf[4096];
  const char *root = getenv("STICTION_SRCDIR");
  snprintf(buf, sizeof buf, "%s/%s", root ? root : ".", rel);
  return buf;
}

/* A path in /tmp for this test process: /tmp/stiction_test_TAG_PID_NAME. The last 8 results
 * stay valid (rotating buffers). */
static inline char *st_test_tmp(const char *tag, const char *name) {
  static char buf[8][4096];
  static int k;
  char *b = buf[k++ % 8];
  snprintf(b, sizeof buf[0], "/tmp/stiction_test_%s_%ld_%s", tag, (long)getpid(), name);
  return b;
}

/* Runs `stiction ARGS` through the shell, capturing stdout+stderr into *output (malloc'd,
 * caller frees; may be NULL). Returns the exit status, or -1 if it could not run. The
 * command line is as long as it needs to be: paths are never cut. */
static inline int st_test_run(char **output, const char *args) {
  const char *bin = getenv("STICTION_BIN");
  if (!bin) bin = "./stiction";
  size_t size = strlen(bin) + strlen(args) + 16;
  char *cmd = malloc(size);
  if (!cmd) return -1;
  snprintf(cmd, size, "'%s' %s 2>&1", bin, args);
  FILE *p = popen(cmd, "r");
  free(cmd);
  if (!p) return -1;
  size_t cap = 4096, len = 0;
  char *buf = malloc(cap);
  size_t n;
  while (buf && (n = fread(buf + len, 1, cap - len - 1, p)) > 0) {
    len += n;
    if (cap - len < 2) {
      char *nb = realloc(buf, cap *= 2);
      if (!nb) { free(buf); buf = NULL; }
      else buf = nb;
    }
  }
  if (buf) buf[len] = 0;
  int st = pclose(p);
  if (output) *output = buf; else free(buf);
  return st == -1 ? -1 : (st >> 8) & 0xff;
}

/* st_test_run with the arguments formatted printf-style. */
static inline int st_test_runf(char **output, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
static inline int st_test_runf(char **output, const char *fmt, ...) {
  va_list ap, again;
  va_start(ap, fmt);
  va_copy(again, ap);
  int n = vsnprintf(NULL, 0, fmt, ap);
  va_end(ap);
  char *args = n >= 0 ? malloc((size_t)n + 1) : NULL;
  if (args) vsnprintf(args, (size_t)n + 1, fmt, again);
  va_end(again);
  int st = args ? st_test_run(output, args) : -1;
  free(args);
  return st;
}

/* The tests of a case as an array and its length: ST_TESTS(first, second, ...). */
#define ST_TESTS(...)                                                                              \
  (const TTest *const[]){__VA_ARGS__}, sizeof((const TTest *const[]){__VA_ARGS__}) / sizeof(const TTest *)

/* Adds a test case named name with the n tests to s; timeout in seconds, 0 for Check's
 * default. Returns the case for loop tests and fixtures. */
static inline TCase *st_test_case(Suite *s, const char *name, double timeout,
                                  const TTest *const *tests, size_t n) {
  TCase *tc = tcase_create(name);
  if (timeout > 0) tcase_set_timeout(tc, timeout);
  for (size_t i = 0; i < n; i++) tcase_add_test(tc, tests[i]);
  suite_add_tcase(s, tc);
  return tc;
}

/* Runs `stiction ARGS` and checks its exit status and that its output contains each of the
 * strings: st_test_expect(STATUS, ARGS, "wanted", ...). */
#define st_test_expect(status, ...) st_test_expect_list((status), (const char *const[]){__VA_ARGS__, NULL})
static inline void st_test_expect_list(int status, const char *const *list) {
  char *out = NULL;
  int st = st_test_run(&out, list[0]);
  ck_assert_msg(st == status, "stiction %s: exit status %d, expected %d\n%s", list[0], st, status,
                out ? out : "");
  for (int i = 1; list[i]; i++)
    ck_assert_msg(out && strstr(out, list[i]), "stiction %s: no '%s' in\n%s", list[0], list[i],
                  out ? out : "");
  free(out);
}

/* Writes text to dir/name (a file a test makes in its own temp dir). */
static inline void st_test_write(const char *dir, const char *name, const char *text) {
  char path[4400];
  snprintf(path, sizeof path, "%s/%s", dir, name);
  FILE *f = fopen(path, "w");
  ck_assert_ptr_nonnull(f);
  fputs(text, f);
  ck_assert_int_eq(fclose(f), 0);
}

/* Points XDG_CACHE_HOME at a directory of this test process, so that C code a model brings
 * (src/compile/extlib.c) is compiled and cached there, never in the user's cache. The
 * directory (st_test_tmp(tag, "cache")) is removed by st_test_cache_remove(). */
static inline const char *st_test_cache_home(const char *tag) {
  static char dir[4096];
  snprintf(dir, sizeof dir, "%s", st_test_tmp(tag, "cache"));
  setenv("XDG_CACHE_HOME", dir, 1);
  return dir;
}

static inline void st_test_cache_remove(void) {
  const char *dir = getenv("XDG_CACHE_HOME");
  char cmd[4200];
  if (!dir || strncmp(dir, "/tmp/stiction_test_", 19) || strchr(dir, '\'')) return;
  snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
  if (system(cmd)) fprintf(stderr, "could not remove %s\n", dir);
}

/* Runs every test of s and gives main's exit status. */
static inline int st_test_main(Suite *s) {
  SRunner *sr = srunner_create(s);
  srunner_run_all(sr, CK_NORMAL);
  int failed = srunner_ntests_failed(sr);
  srunner_free(sr);
  return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}

/* main() of a test program of one suite and one case: ST_TEST_MAIN("suite", "case", timeout,
 * first, second, ...). */
#define ST_TEST_MAIN(suite, name, timeout, ...)                                                  \
  int main(void) {                                                                             \
    Suite *s = suite_create(suite);                                                            \
    st_test_case(s, name, timeout, ST_TESTS(__VA_ARGS__));                                     \
    return st_test_main(s);                                                                    \
  }

#endif
