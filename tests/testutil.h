/* Helpers common to the Check tests: where the reference data, the sources and the built
 * command are (set by `make check`, see AM_TESTS_ENVIRONMENT), and running the command. */
#ifndef ST_TESTS_TESTUTIL_H
#define ST_TESTS_TESTUTIL_H

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

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

/* Runs `stiction ARGS` through the shell, capturing stdout+stderr into *output (malloc'd,
 * caller frees; may be NULL). Returns the exit status, or -1 if it could not run. */
static inline int st_test_run(char **output, const char *args) {
  const char *bin = getenv("STICTION_BIN");
  char cmd[8192];
  int len_cmd = snprintf(cmd, sizeof cmd, "'%s' %s 2>&1", bin ? bin : "./stiction", args);
  if (len_cmd < 0 || (size_t)len_cmd >= sizeof cmd) return -1; /* never run a cut command */
  FILE *p = popen(cmd, "r");
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

#endif
