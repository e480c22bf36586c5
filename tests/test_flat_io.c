/* The flat model saved and loaded (front/flat_io.h): a loaded model is the same model (saved
 * again to the same bytes, printed alike, translated to the same program), and damaged,
 * truncated or foreign files are refused with a located error, never a crash. */
#include <check.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>

#include "compile/compile.h"
#include "front/flat_io.h"
#include "util/hash.h"
#define DATA "tests/data/compile"
#include "flatutil.h"

typedef struct flat_case {
  const char *file; /* under the source tree, NULL: a class of stiction's models/ */
  const char *cls;
} flat_case;

static const flat_case cases[] = {
  {"tests/data/compile/FrictionBlock.mo", "FrictionBlock"},
  {"tests/data/compile/Algorithm.mo", "Algorithm"},
  {"tests/data/compile/Functions.mo", "Functions"},
  {"tests/data/compile/FunctionsLoops.mo", "FunctionsLoops"},
  {"tests/data/compile/IndexDerivative.mo", "IndexDerivative"},
  {"tests/data/hybrid/WhenChain.mo", "WhenChain"},
  {"tests/data/hybrid/SampleAtStart.mo", "SampleAtStart"},
  {"tests/data/clocks/Counter.mo", "Counter"},
  {"tests/data/clocks/EventClock.mo", "EventClock"},
  {NULL, "Modelica.Mechanics.Rotational.Examples.CoupledClutches"},
};

static st_flat_model *flatten(st_diag *diag, st_front **fe, const flat_case *c) {
  *fe = st_front_new(diag);
  ck_assert_ptr_nonnull(*fe);
  st_front_add_default_paths(*fe);
  if (c->file) ck_assert_int_eq(st_front_load_file(*fe, st_test_src(c->file)), 0);
  st_flat_model *m = st_front_flatten(*fe, c->cls);
  ck_assert_msg(m != NULL, "%s: %s", c->cls, st_diag_first_error(diag));
  return m;
}

/* The translation log of m's program (or the first error when it does not translate). */
static char *translated(const st_flat_model *m) {
  st_diag *diag = st_diag_new(NULL);
  st_compiled *cm = st_compile(m, diag);
  char *text = NULL;
  size_t n = 0;
  FILE *f = open_memstream(&text, &n);
  if (cm) st_compiled_dump(cm, f);
  else fprintf(f, "error: %s\n", st_diag_first_error(diag));
  fclose(f);
  st_compiled_free(cm);
  st_diag_free(diag);
  return text;
}

START_TEST(round_trip) {
  const flat_case *c = &cases[_i];
  st_diag *diag = st_diag_new(NULL);
  st_front *fe;
  st_flat_model *m = flatten(diag, &fe, c);
  char *bytes = NULL, *again = NULL;
  size_t n = 0, n2 = 0;
  ck_assert_int_eq(st_flat_save(m, &bytes, &n), 0);
  st_flat_model *l = st_flat_load(bytes, n, "x.stflat", diag);
  ck_assert_msg(l != NULL, "%s: %s", c->cls, st_diag_first_error(diag));
  ck_assert_int_eq(st_flat_save(l, &again, &n2), 0);
  ck_assert_uint_eq(n, n2);
  ck_assert(memcmp(bytes, again, n) == 0);
  char *p1 = print_model(m), *p2 = print_model(l);
  ck_assert_str_eq(p1, p2);
  char *t1 = translated(m), *t2 = translated(l);
  ck_assert_msg(strncmp(t1, "error:", 6) != 0, "%s: %s", c->cls, t1);
  ck_assert_str_eq(t1, t2);
  free(p1);
  free(p2);
  free(t1);
  free(t2);
  free(bytes);
  free(again);
  st_flat_free(l);
  st_flat_free(m);
  st_front_free(fe);
  st_diag_free(diag);
}
END_TEST

/* FrictionBlock's flat model saved. */
static char *friction_bytes(size_t *n) {
  st_diag *diag = st_diag_new(NULL);
  st_front *fe;
  st_flat_model *m = flatten(diag, &fe, &cases[0]);
  char *bytes = NULL;
  ck_assert_int_eq(st_flat_save(m, &bytes, n), 0);
  st_flat_free(m);
  st_front_free(fe);
  st_diag_free(diag);
  return bytes;
}

/* Loads bytes expecting a refusal whose message names the file and a byte offset. */
static void refused(const void *bytes, size_t n, const char *what) {
  st_diag *diag = st_diag_new(NULL);
  st_diag_keep(diag);
  st_flat_model *m = st_flat_load(bytes, n, "bad.stflat", diag);
  ck_assert_msg(m == NULL, "%s: loaded", what);
  ck_assert_int_gt(st_diag_errors(diag), 0);
  st_loc loc;
  st_severity sev;
  const char *msg = st_diag_message(diag, 0, &sev, &loc);
  ck_assert_msg(msg && loc.file && !strcmp(loc.file, "bad.stflat"), "%s: no location", what);
  ck_assert_msg(strstr(msg, "byte ") == msg, "%s: %s", what, msg);
  st_diag_free(diag);
}

START_TEST(truncated_refused) {
  size_t n;
  char *bytes = friction_bytes(&n);
  for (size_t k = 0; k < n; k++) {
    char *cut = malloc(k ? k : 1); /* its own block: a read past k is a sanitizer error */
    memcpy(cut, bytes, k);
    refused(cut, k, "truncated");
    free(cut);
  }
  free(bytes);
}
END_TEST

START_TEST(bit_flips_refused) {
  size_t n;
  char *bytes = friction_bytes(&n);
  for (size_t k = 0; k < n; k++) {
    int bit = (int)(k * 5 % 8);
    bytes[k] ^= (char)(1 << bit);
    refused(bytes, n, "flipped");
    bytes[k] ^= (char)(1 << bit);
  }
  free(bytes);
}
END_TEST

/* Flips behind a check sum made to match (a file written to look valid): the loader's own
 * checks of counts, indices, kinds and arities keep it inside the bytes; it loads or refuses,
 * and what it loads is a model it can save again. */
START_TEST(flips_with_matching_sum_survive) {
  size_t n;
  char *bytes = friction_bytes(&n);
  int loads = 0, refusals = 0;
  for (size_t k = 40; k < n; k++) {
    unsigned char old = (unsigned char)bytes[k];
    bytes[k] = (char)(old ^ (1u << (k % 8)));
    if (k % 3 == 0) bytes[k] = (char)0xff;
    st_hash h;
    st_hash_init(&h);
    st_hash_add(&h, bytes + 40, n - 40);
    memcpy(bytes + 32, &h.a, 8);
    st_diag *diag = st_diag_new(NULL);
    st_flat_model *m = st_flat_load(bytes, n, "forged.stflat", diag);
    if (m) {
      char *again = NULL;
      size_t n2 = 0;
      ck_assert_int_eq(st_flat_save(m, &again, &n2), 0);
      free(again);
      loads++;
    } else {
      ck_assert_int_gt(st_diag_errors(diag), 0);
      refusals++;
    }
    st_flat_free(m);
    st_diag_free(diag);
    bytes[k] = (char)old;
  }
  ck_assert_int_gt(refusals, 0);
  ck_assert_int_gt(loads, 0); /* a changed line number or value is still a model */
  free(bytes);
}
END_TEST

static void header_field(char *bytes, size_t at, uint32_t value) { memcpy(bytes + at, &value, 4); }

static void refused_with(const char *bytes, size_t n, const char *expect) {
  st_diag *diag = st_diag_new(NULL);
  st_diag_keep(diag);
  ck_assert_ptr_null(st_flat_load(bytes, n, "foreign.stflat", diag));
  st_loc loc;
  st_severity sev;
  const char *msg = st_diag_message(diag, 0, &sev, &loc);
  ck_assert_msg(msg && strstr(msg, expect), "%s", msg ? msg : "(no message)");
  st_diag_free(diag);
}

START_TEST(foreign_files_refused) {
  size_t n;
  char *bytes = friction_bytes(&n);
  char *copy = malloc(n);
  memcpy(copy, bytes, n);
  header_field(copy, 12, 0x04030201u);
  refused_with(copy, n, "other byte order");
  memcpy(copy, bytes, n);
  header_field(copy, 8, ST_FLAT_FORMAT + 1);
  refused_with(copy, n, "format");
  memcpy(copy, bytes, n);
  copy[17] = 4; /* a 4-byte double */
  refused_with(copy, n, "4-byte double");
  memcpy(copy, bytes, n);
  copy[0] = 'X';
  refused_with(copy, n, "not a flat model");
  refused_with("hello", 5, "too short");
  refused_with(bytes, 0, "too short");
  free(copy);
  free(bytes);
}
END_TEST

/* A file whose sum matches but whose equation lacks a side the compiler reads (what a forged
 * file could hold) is refused, not handed to the compiler. */
START_TEST(missing_parts_refused) {
  st_diag *diag = st_diag_new(NULL);
  st_front *fe;
  st_flat_model *m = flatten(diag, &fe, &cases[0]);
  ck_assert_int_gt(m->equations.n, 0);
  st_feq *q = m->equations.items[0];
  ck_assert_int_eq(q->kind, FE_EQUAL);
  st_fexpr *lhs = q->lhs;
  q->lhs = NULL;
  char *bytes = NULL;
  size_t n = 0;
  ck_assert_int_eq(st_flat_save(m, &bytes, &n), 0);
  q->lhs = lhs;
  refused_with(bytes, n, "without the parts of its kind");
  free(bytes);
  st_flat_free(m);
  st_front_free(fe);
  st_diag_free(diag);
}
END_TEST

/* m saved as it is now must be refused by the loader with a message containing expect. */
static void saved_refused(const st_flat_model *m, const char *expect) {
  char *bytes = NULL;
  size_t n = 0;
  ck_assert_int_eq(st_flat_save(m, &bytes, &n), 0);
  refused_with(bytes, n, expect);
  free(bytes);
}

/* The first assignment to an element (x[i] := ...) in list and its branches, or NULL. */
static st_fstmt *element_assignment(const st_fstmt_list *list) {
  for (int i = 0; i < list->n; i++) {
    st_fstmt *s = list->items[i];
    if (s->kind == FS_ASSIGN && s->target && s->target->kind == FX_INDEX) return s;
    for (int b = 0; s->branches && b < (s->kind == FS_IF ? s->nconds + 1 : 1); b++) {
      st_fstmt *found = element_assignment(&s->branches[b]);
      if (found) return found;
    }
  }
  return NULL;
}

/* A subscript without subscripts (the fuzzer's find: the compiler read args[0] of an index
 * with no arguments) is refused by the loader. */
START_TEST(index_without_subscripts_refused) {
  st_diag *diag = st_diag_new(NULL);
  st_front *fe;
  st_flat_model *m = flatten(diag, &fe, &cases[3]);
  st_fstmt *s = NULL;
  for (int f = 0; !s && f < m->nfunctions; f++) s = element_assignment(&m->functions[f].body);
  ck_assert_ptr_nonnull(s);
  int nargs = s->target->nargs;
  for (int keep = 0; keep < 2; keep++) {
    s->target->nargs = keep;
    saved_refused(m, "wrong number of arguments");
  }
  s->target->nargs = nargs;
  st_flat_free(m);
  st_front_free(fe);
  st_diag_free(diag);
}
END_TEST

/* The first call in e, or NULL. */
static st_fexpr *first_call(st_fexpr *e) {
  if (!e || e->kind == FX_CALL) return e;
  for (int i = 0; i < e->nargs; i++) {
    st_fexpr *found = first_call(e->args[i]);
    if (found) return found;
  }
  return NULL;
}

/* A call standing for an element of an array output far beyond any int (the fuzzer's second
 * find: the compiler converted it to int) is refused by the loader. */
START_TEST(call_element_out_of_range_refused) {
  st_diag *diag = st_diag_new(NULL);
  st_front *fe;
  st_flat_model *m = flatten(diag, &fe, &cases[2]);
  st_fexpr *call = NULL;
  for (int i = 0; !call && i < m->equations.n; i++) call = first_call(m->equations.items[i]->rhs);
  ck_assert_ptr_nonnull(call);
  double value = call->value, bad[] = {1e154, -1, 2.5, NAN};
  for (int k = 0; k < 4; k++) {
    call->value = bad[k];
    saved_refused(m, "output element out of range");
  }
  call->value = value;
  st_flat_free(m);
  st_front_free(fe);
  st_diag_free(diag);
}
END_TEST

/* A header for payload as st_flat_save writes it (format, marks, length, sum): a new block
 * of exactly 40 + n bytes. */
static char *with_header(const void *payload, size_t n) {
  char *bytes = malloc(40 + n);
  uint32_t format = ST_FLAT_FORMAT, mark = 0x01020304u;
  unsigned char sizes[8] = {sizeof(int), sizeof(double)};
  uint64_t len = n;
  st_hash h;
  st_hash_init(&h);
  st_hash_add(&h, payload, n);
  memcpy(bytes, "STFLAT\r\n", 8);
  memcpy(bytes + 8, &format, 4);
  memcpy(bytes + 12, &mark, 4);
  memcpy(bytes + 16, sizes, 8);
  memcpy(bytes + 24, &len, 8);
  memcpy(bytes + 32, &h.a, 8);
  memcpy(bytes + 40, payload, n);
  return bytes;
}

/* Saved models the flat_io fuzzer found: each is refused by the loader or loads, and
 * compiling it either yields a program or stops with located errors, never both and never
 * a crash. Their headers are written again for their payloads, as the fuzzer's harness sets length and sum; CI checks
 * these under ASan and UBSan. */
static const struct {
  const char *file;
  int compiles; /* 1: a program, 0: located errors, -1: the loader refuses it */
} fuzz_finds[] = {
    /* a constant binding the compiler cannot emit: what alias.c had emitted of it is freed
     * (a leak LeakSanitizer reported) */
    {"ConstantEmitFails.stflat", 0},
    /* an algorithm section that reads no variable: its reads list is empty and NULL (a
     * memcpy from NULL UBSan reported) */
    {"AlgorithmReadsNothing.stflat", 1},
    /* over 10^5 call sites (each had room for 512 argument shapes: a 3.3 GB array of
     * sites, libFuzzer's out-of-memory; now the shapes there are, in one pool) */
    {"ManyCallSites.stflat", 0},
    /* smooth() without arguments (the compiler read its last one: args[-1]); refused */
    {"SmoothWithoutArguments.stflat", -1},
    /* a state slot without a derivative slot (zeros.c wrote slots[-1]) */
    {"StateWithoutDerivative.stflat", 0},
    /* a function local declared with 10^8 elements: the structural-zero analysis of calls
     * (zero_calls.c) allocated it (1.8 GB, libFuzzer's out-of-memory); now not followed */
    {"LocalOfHugeSize.stflat", 0},
    /* a local whose dimensions multiply beyond int (zero_calls.c declared_size; UBSan) */
    {"LocalSizeOverflow.stflat", 0},
    /* a function with a derivative annotation but no derivative flags for its inputs
     * (index.c read has_derivative[i] of NULL; UBSan); refused */
    {"DerivativeWithoutFlags.stflat", -1},
};

#if defined(__has_feature)
#if __has_feature(address_sanitizer)
#define UNDER_ASAN 1
#endif
#endif
#if defined(__SANITIZE_ADDRESS__)
#define UNDER_ASAN 1
#endif

START_TEST(fuzz_find_compiles_or_fails_cleanly) {
#ifndef UNDER_ASAN /* its shadow memory is address space too */
  struct rlimit room = {1UL << 31, 1UL << 31}; /* 2 GB: the 3.3 GB array of sites fails */
  ck_assert_int_eq(setrlimit(RLIMIT_AS, &room), 0);
#endif
  char path[256];
  snprintf(path, sizeof path, "tests/data/io/%s", fuzz_finds[_i].file);
  FILE *f = fopen(st_test_src(path), "rb");
  ck_assert_ptr_nonnull(f);
  static unsigned char bytes[1 << 16];
  size_t n = fread(bytes, 1, sizeof bytes, f);
  fclose(f);
  ck_assert_uint_gt(n, 40);
  ck_assert_uint_lt(n, sizeof bytes); /* all of it */
  char *sealed = with_header(bytes + 40, n - 40);
  st_diag *diag = st_diag_new(NULL);
  st_diag_keep(diag);
  st_flat_model *m = st_flat_load(sealed, n, fuzz_finds[_i].file, diag);
  ck_assert_int_eq(m == NULL, fuzz_finds[_i].compiles < 0);
  st_program *prog = m ? st_compile_program(m, diag) : NULL;
  ck_assert_int_eq(prog != NULL, st_diag_errors(diag) == 0);
  ck_assert_int_eq(prog != NULL, fuzz_finds[_i].compiles == 1);
  for (int k = 0; k < st_diag_count(diag); k++) { /* none for want of memory */
    st_severity sev;
    st_loc at;
    const char *text = st_diag_message(diag, k, &sev, &at);
    ck_assert_msg(!strstr(text, "out of memory"), "%s: %s", fuzz_finds[_i].file, text);
  }
  st_program_free(prog);
  st_flat_free(m);
  st_diag_free(diag);
  free(sealed);
}
END_TEST

/* A string whose length reaches past the end by the bytes of its own count (the fuzzer's
 * first find: the room was measured before the count was read). */
START_TEST(string_past_the_end_refused) {
  int payload[6] = {1, 20, 0, 0, 0, 0}; /* one string of 20 bytes, 16 left after its length */
  char *bytes = with_header(payload, sizeof payload);
  refused_with(bytes, 40 + sizeof payload, "a string length out of range");
  free(bytes);
}
END_TEST

int main(void) {
  Suite *s = suite_create("flat_io");
  TCase *tc = st_test_case(s, "flat_io", 120, NULL, 0);
  tcase_add_loop_test(tc, round_trip, 0, (int)(sizeof cases / sizeof cases[0]));
  tcase_add_test(tc, truncated_refused);
  tcase_add_test(tc, bit_flips_refused);
  tcase_add_test(tc, flips_with_matching_sum_survive);
  tcase_add_test(tc, foreign_files_refused);
  tcase_add_test(tc, missing_parts_refused);
  tcase_add_test(tc, index_without_subscripts_refused);
  tcase_add_test(tc, call_element_out_of_range_refused);
  tcase_add_test(tc, string_past_the_end_refused);
  tcase_add_loop_test(tc, fuzz_find_compiles_or_fails_cleanly, 0,
                      (int)(sizeof fuzz_finds / sizeof fuzz_finds[0]));
  return st_test_main(s);
}
