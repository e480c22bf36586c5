/* Base layer: arena, located diagnostics, status phrases. */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <stiction/stiction.h>

#include "util/arena.h"
#include "util/diag.h"

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
  TCase *tc = tcase_create("base");
  tcase_add_test(tc, arena_allocates_zeroed_aligned_memory);
  tcase_add_test(tc, diag_quotes_line_with_caret);
  tcase_add_test(tc, diag_keeps_long_messages_whole);
  tcase_add_test(tc, every_status_has_a_phrase);
  suite_add_tcase(s, tc);
  SRunner *sr = srunner_create(s);
  srunner_run_all(sr, CK_NORMAL);
  int failed = srunner_ntests_failed(sr);
  srunner_free(sr);
  return failed ? 1 : 0;
}
