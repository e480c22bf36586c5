/* Base layer: arena, located diagnostics, status phrases. */
#include <check.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <stiction/stiction.h>

#include "util/arena.h"
#include "util/diag.h"
#include "testutil.h"

START_TEST(arena_allocates_zeroed_aligned_memory) {
  st_arena *a = st_arena_new();
  for (int i = 1; i < 5000; i += 37) {
    unsigned char *p = st_arena_alloc(a, (size_t)i);
    ck_assert_ptr_nonnull(p);
    ck_assert_uint_eq((uintptr_t)p % 16, 0);
    for (int k = 0; k < i; k++) ck_assert_uint_eq(p[k], 0);
    memset(p, 0xab, (size_t)i);
  }
  char *big = st_arena_alloc(a, 1 << 20); /* larger than a block */
  ck_assert_ptr_nonnull(big);
  ck_assert_str_eq(st_arena_printf(a, "%s:%d", "x", 42), "x:42");
  ck_assert_str_eq(st_arena_strndup(a, "abcdef", 3), "abc");
  ck_assert_str_eq(st_arena_concat(a, "A.B", ".", "C"), "A.B.C");
  ck_assert_str_eq(st_arena_concat(a, "", "der(", ""), "der(");
  /* printf text longer than its stack buffer takes the second pass */
  char longer[600];
  memset(longer, 'x', sizeof longer - 1);
  longer[sizeof longer - 1] = 0;
  char *p = st_arena_printf(a, "<%s>%d", longer, 7);
  ck_assert_uint_eq(strlen(p), sizeof longer + 2);
  ck_assert_int_eq(p[0], '<');
  ck_assert_str_eq(p + sizeof longer, ">7");
  /* an array grown item by item keeps its items: 16 first, doubling */
  int *items = NULL, cap = 0;
  for (int n = 0; n < 100; n++) {
    ck_assert_int_eq(st_arena_grow(a, (void **)&items, &cap, n, sizeof *items), 0);
    ck_assert_int_gt(cap, n);
    items[n] = 3 * n;
  }
  ck_assert_int_eq(cap, 128);
  for (int n = 0; n < 100; n++) ck_assert_int_eq(items[n], 3 * n);
  st_arena_free(a);
}
END_TEST

START_TEST(diag_quotes_line_with_caret) {
  char buf[1024] = {0};
  FILE *out = fmemopen(buf, sizeof buf, "w");
  st_diag *d = st_diag_new(out);
  st_diag_add_source(d, "m.mo", "model M\n  Real x = ;\nend M;\n");
  st_error(d, ((st_loc){"m.mo", 2, 12}), "unexpected '%s'", ";");
  st_warning(d, ((st_loc){"m.mo", 1, 1}), "just a warning");
  fclose(out);
  ck_assert_int_eq(st_diag_errors(d), 1);
  ck_assert_str_eq(st_diag_first_error(d), "unexpected ';'");
  ck_assert_ptr_nonnull(strstr(buf, "m.mo:2:12: error: unexpected ';'\n  Real x = ;\n           ^\n"));
  ck_assert_ptr_nonnull(strstr(buf, "m.mo:1:1: warning: just a warning"));
  st_diag_free(d);
}
END_TEST

/* A size computed with overflow wrapped when rounded up: a tiny block for a huge request. */
START_TEST(arena_refuses_sizes_that_overflow) {
  st_arena *a = st_arena_new();
  ck_assert_ptr_nonnull(st_arena_alloc(a, 10));
  ck_assert_int_eq(st_arena_failed(a), 0);
  ck_assert_ptr_null(st_arena_alloc(a, SIZE_MAX - 3));
  ck_assert_int_eq(st_arena_failed(a), 1);
  st_arena_free(a);
}
END_TEST

/* A long line is quoted as a window around the column, "..." where it is cut. */
START_TEST(diag_cuts_long_lines) {
  static char text[20000], buf[4096];
  memset(text, 'a', sizeof text - 1);
  text[9000] = 'X';
  FILE *out = fmemopen(buf, sizeof buf, "w");
  st_diag *d = st_diag_new(out);
  st_diag_add_source(d, "m.mo", text);
  st_error(d, ((st_loc){"m.mo", 1, 9001}), "here");
  fclose(out);
  ck_assert_msg(strlen(buf) < 400, "%zu bytes", strlen(buf));
  const char *quote = strchr(buf, '\n') + 1, *caret = strchr(quote, '\n') + 1;
  ck_assert_msg(!strncmp(quote, "...aaa", 6) && strstr(quote, "aaa...\n"), "%s", buf);
  ck_assert_int_eq(strchr(quote, 'X') - quote, strchr(caret, '^') - caret);
  st_diag_free(d);
}
END_TEST

/* A message with a path longer than any fixed buffer is kept and printed whole. */
START_TEST(diag_keeps_long_messages_whole) {
  char path[5001];
  memset(path, 'p', sizeof path - 1);
  path[sizeof path - 1] = '\0';
  char *text = st_format("cannot read %s: %s", path, "gone");
  ck_assert_uint_eq(strlen(text), strlen("cannot read : gone") + 5000);
  char *printed = NULL;
  size_t size = 0;
  FILE *out = open_memstream(&printed, &size);
  st_diag *d = st_diag_new(out);
  st_error(d, ((st_loc){path, 3, 4}), "%s", text);
  fclose(out);
  ck_assert_str_eq(st_diag_first_error(d), text);
  ck_assert_ptr_nonnull(strstr(printed, text));
  ck_assert_ptr_nonnull(strstr(printed, ":3:4: error: cannot read "));
  st_diag_free(d);
  free(printed);
  free(text);
}
END_TEST

START_TEST(every_status_has_a_phrase) {
  for (int s = 0; s >= STICTION_ERR_NOT_FOUND; s--)
    ck_assert_str_ne(stiction_strerror(s), "unknown status");
  ck_assert_str_eq(stiction_strerror(12345), "unknown status");
  ck_assert_str_eq(stiction_version(), "0.1.0");
}
END_TEST

int main(void) {
  Suite *s = suite_create("util");
  st_test_case(s, "base", 0, ST_TESTS(arena_allocates_zeroed_aligned_memory,
               diag_quotes_line_with_caret, arena_refuses_sizes_that_overflow,
               diag_cuts_long_lines, diag_keeps_long_messages_whole, every_status_has_a_phrase));
  return st_test_main(s);
}
