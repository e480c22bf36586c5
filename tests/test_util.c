/* Base layer: arena, located diagnostics, status phrases, sparse vectors. */
#include <check.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <stiction/stiction.h>

#include "util/arena.h"
#include "util/diag.h"
#include "util/sparsevec.h"
#include "testutil.h"

START_TEST(arena_allocates_zeroed_aligned_memory) {
  st_arena *a = st_arena_new();
  for (int i = 1; i < 5000; i += 37) {
    unsigned char *p = st_arena_alloc(a, (size_t)i);
    ck_assert_ptr_nonnull(p);
    ck_assert_uint_eq((uintptr_t)p % 8, 0);
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

/* Sizes are rounded to 8, not 16: three 56-byte nodes (an st_fexpr) take 168 bytes, and
 * they sit next to each other in the block. */
START_TEST(arena_packs_small_allocations_at_8_bytes) {
  st_arena *a = st_arena_new();
  char *p[3];
  for (int i = 0; i < 3; i++) p[i] = st_arena_alloc(a, 56);
  ck_assert_ptr_nonnull(p[2]);
  ck_assert_uint_eq(st_arena_used(a), 168);
  ck_assert_ptr_eq(p[1], p[0] + 56);
  ck_assert_ptr_eq(p[2], p[1] + 56);
  ck_assert_ptr_nonnull(st_arena_alloc(a, 1));
  ck_assert_uint_eq(st_arena_used(a), 176);
  st_arena_free(a);
}
END_TEST

/* A large arena (a flattener's scratch of 10^5 components) grows by ever larger blocks; its
 * memory is zeroed and 8-byte aligned all the way and counted exactly, as in small blocks. */
START_TEST(arena_grows_large_zeroed) {
  st_arena *a = st_arena_new();
  const size_t piece = 1000, total = (size_t)48 << 20;
  for (size_t k = 0; k < total / piece; k++) {
    unsigned char *p = st_arena_alloc(a, piece);
    ck_assert_ptr_nonnull(p);
    ck_assert_uint_eq((uintptr_t)p % 8, 0);
    ck_assert_uint_eq(p[0] | p[piece / 2] | p[piece - 1], 0);
    memset(p, 0x5a, piece);
  }
  ck_assert_uint_eq(st_arena_used(a), total / piece * 1000);
  st_arena_free(a);
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

/* Sparse vectors against a dense copy: entries pushed, added (axpy with cancellations),
 * removed at random positions, across the length where the position index starts and
 * through its growths; every index is found at its position, every absent one is not,
 * and each index axpy reports new is one the dense copy did not hold. */
enum { SV_DIM = 1000 };
typedef struct sv_seen { const double *dense; int news, wrong; } sv_seen;
static void sv_added(void *ctx, int i) {
  sv_seen *s = ctx;
  s->news++;
  s->wrong += s->dense[i] != 0;
}
static void sv_check(const st_svec *v, const double *dense) {
  int held = 0;
  for (int i = 0; i < SV_DIM; i++) {
    int at = st_svec_find(v, i);
    if (dense[i] == 0) {
      ck_assert_int_eq(at, -1);
      continue;
    }
    held++;
    ck_assert_int_ge(at, 0);
    ck_assert_int_eq(v->idx[at], i);
    ck_assert_double_eq(v->val[at], dense[i]);
    ck_assert_double_eq(st_svec_get(v, i), dense[i]);
  }
  ck_assert_int_eq(held, v->n);
}
START_TEST(sparse_vector_against_dense) {
  static double dense[SV_DIM];
  memset(dense, 0, sizeof dense);
  st_svec v = {0}, w = {0};
  unsigned seed = 12345;
  for (int round = 0; round < 200; round++) {
    seed = seed * 1103515245u + 12345u;
    int op = (int)(seed >> 16) % 4;
    if (op <= 1) { /* grow: push up to 25 new indices */
      for (int k = 0; k < 25; k++) {
        seed = seed * 1103515245u + 12345u;
        int i = (int)(seed >> 8) % SV_DIM;
        if (dense[i] != 0) continue;
        dense[i] = 1 + k;
        ck_assert_int_eq(st_svec_push(&v, i, dense[i]), 0);
      }
    } else if (op == 2 && v.n > 0) { /* drop some entries at random positions */
      for (int k = 0; k < 10 && v.n > 0; k++) {
        seed = seed * 1103515245u + 12345u;
        int at = (int)(seed >> 8) % v.n;
        dense[v.idx[at]] = 0;
        st_svec_remove(&v, at);
      }
    } else { /* v += f w with w cancelling some of v's entries and adding new ones */
      st_svec_clear(&w);
      double f = 0.5;
      for (int k = 0; k < v.n && w.n < 8; k += 3) /* cancel every third entry */
        ck_assert_int_eq(st_svec_push(&w, v.idx[k], -v.val[k] / f), 0);
      for (int k = 0; k < 6; k++) {
        seed = seed * 1103515245u + 12345u;
        int i = (int)(seed >> 8) % SV_DIM;
        if (st_svec_find(&w, i) < 0) ck_assert_int_eq(st_svec_push(&w, i, 2.0), 0);
      }
      double before[SV_DIM];
      memcpy(before, dense, sizeof before);
      for (int k = 0; k < w.n; k++) {
        double sum = dense[w.idx[k]] + f * w.val[k];
        dense[w.idx[k]] = fabs(sum) <= 1e-10 * fmax(fabs(dense[w.idx[k]]), fabs(f * w.val[k])) ? 0 : sum;
      }
      int news = 0;
      for (int k = 0; k < w.n; k++) news += before[w.idx[k]] == 0;
      sv_seen seen = {before, 0, 0};
      ck_assert_int_eq(st_svec_axpy(&v, f, &w, sv_added, &seen), 0);
      ck_assert_int_eq(seen.wrong, 0);
      ck_assert_int_eq(seen.news, news);
    }
    sv_check(&v, dense);
  }
  ck_assert_int_gt(v.tcap, 0); /* the vector grew long enough to be indexed */
  st_svec_clear(&v);
  ck_assert_int_eq(st_svec_find(&v, 0), -1);
  st_svec_free(&v);
  st_svec_free(&w);
}
END_TEST

ST_TEST_MAIN("util", "base", 0,
             arena_allocates_zeroed_aligned_memory, diag_quotes_line_with_caret,
             arena_refuses_sizes_that_overflow, arena_packs_small_allocations_at_8_bytes,
             arena_grows_large_zeroed, diag_cuts_long_lines, diag_keeps_long_messages_whole,
             every_status_has_a_phrase, sparse_vector_against_dense)
