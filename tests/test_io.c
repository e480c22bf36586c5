/* Result writers (CSV, MAT v4 dsres) and the table reader. Values written are compared with
 * the values handed to the sink; the MAT layout is checked with an independent reader
 * (scipy.io.loadmat) and the reader with a dsres file assembled byte by byte here. */
#include <check.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <stiction/stiction.h>
#include <stiction/results.h>

#include "io/scan.h"
#include "io/shortest.h"
#include "io/writer_impl.h"
#include "testutil.h"

static const char *const names3[3] = {"time", "J1.w", "odd,name"};
/* Rows as a simulation produces them: grid points and an event (two rows, same time). */
static const double rows3[5][3] = {
    {0, 10, 0.1}, {0.5, 1.0 / 3, -2e-300}, {0.7, 2, 1}, {0.7, 2, -1}, {1, 1e17, 12345.678}};

static char *tmp_path(const char *suffix) {
  static char buf[256];
  snprintf(buf, sizeof buf, "/tmp/stiction_test_io_%ld_%s", (long)getpid(), suffix);
  return buf;
}

static stiction_writer *write_rows(const char *path, int nrows, int close) {
  stiction_writer *w;
  ck_assert_int_eq(stiction_writer_open(&w, path, STICTION_FORMAT_AUTO), STICTION_OK);
  stiction_sink sink;
  stiction_writer_sink(w, &sink);
  ck_assert_int_eq(sink.begin(sink.user_data, 3, names3), 0);
  for (int r = 0; r < nrows; r++) ck_assert_int_eq(sink.row(sink.user_data, rows3[r]), 0);
  if (close) {
    ck_assert_int_eq(sink.end(sink.user_data, STICTION_OK), 0);
    ck_assert_int_eq(stiction_writer_close(w), STICTION_OK);
    return NULL;
  }
  return w;
}

/* Where an open writer's rows are until close puts them at their path (util/outfile.h). */
static const char *pending(const stiction_writer *w, const char *path) {
  return w->out.temp ? w->out.temp : path;
}

static void check_table(const char *path, int nrows) {
  char msg[256];
  stiction_table *t;
  ck_assert_msg(stiction_table_read(&t, path, msg, sizeof msg) == STICTION_OK, "%s", msg);
  ck_assert_int_eq(stiction_table_rows(t), nrows);
  ck_assert_int_eq(stiction_table_columns(t), 3);
  for (int c = 0; c < 3; c++) ck_assert_str_eq(stiction_table_name(t, c), names3[c]);
  ck_assert_int_eq(stiction_table_find(t, "odd,name"), 2);
  ck_assert_int_eq(stiction_table_find(t, "nope"), -1);
  const double *d = stiction_table_data(t);
  for (int r = 0; r < nrows; r++)
    for (int c = 0; c < 3; c++) ck_assert(d[r * 3 + c] == rows3[r][c]); /* bit exact */
  stiction_table_free(t);
}

static char *read_text(const char *path) {
  FILE *f = fopen(path, "rb");
  ck_assert_ptr_nonnull(f);
  static char buf[4096];
  size_t n = fread(buf, 1, sizeof buf - 1, f);
  buf[n] = 0;
  fclose(f);
  return buf;
}

START_TEST(csv_writer_text_and_round_trip) {
  const char *path = tmp_path("a.csv");
  write_rows(path, 5, 1);
  /* Every value with the shortest exact digits (those of Python's repr(x), an independent
   * implementation) in the layout of "%.17g", names quoted only when needed, the event row
   * kept twice. */
  ck_assert_str_eq(read_text(path), "time,J1.w,\"odd,name\"\n"
                                    "0,10,0.1\n"
                                    "0.5,0.3333333333333333,-2e-300\n"
                                    "0.7,2,1\n0.7,2,-1\n"
                                    "1,1e+17,12345.678\n");
  check_table(path, 5);
  unlink(path);
}
END_TEST

/* The reference for the shortest text: the fewest digits p whose correctly rounded "%.*e"
 * (the C library's digits) strtod reads back to x, laid out as "%.17g" lays out digits. On
 * a power of two the rounding interval is lopsided (the binade below is denser) and a
 * shorter decimal can lie above x while printf's p-digit rounding lies below, outside the
 * interval: there this reference can be one digit longer than the shortest. */
static void shortest_reference(char *buf, size_t size, double x) {
  if (isnan(x) || isinf(x)) {
    snprintf(buf, size, isnan(x) ? "nan" : x > 0 ? "inf" : "-inf");
    return;
  }
  char e[40];
  int p = 1;
  for (; p < 17; p++) {
    snprintf(e, sizeof e, "%.*e", p - 1, x);
    if (strtod(e, NULL) == x) break;
  }
  snprintf(e, sizeof e, "%.*e", p - 1, x);
  int X = atoi(strchr(e, 'e') + 1);
  if (X < -4 || X >= 17) {
    snprintf(buf, size, "%s", e);
  } else if (X < p - 1) {
    snprintf(buf, size, "%.*f", p - 1 - X, x);
  } else { /* an integer: the p digits, then zeros (not the exact digits "%.0f" prints) */
    size_t n = 0;
    for (const char *c = e; *c != 'e' && n + 1 < size; c++)
      if (*c != '.') buf[n++] = *c;
    for (int z = p - 1; z < X && n + 1 < size; z++) buf[n++] = '0';
    buf[n] = 0;
  }
}

/* The CSV writer copies the text of a value formatted before (same column in the previous
 * row, or an earlier column of the same row, or its negation) instead of formatting it again
 * (csv_writer.c). Rows drawn from a small pool of values, so that every kind of repeat occurs
 * often, next to signed zeros, NaNs of both signs, infinities and a subnormal, and columns
 * that are aliases or negations of others for a while: every field must be exactly the
 * shortest reference text. */
static double pool_value(unsigned *seed) {
  static const double pool[] = {0.0, -0.0, 1.0 / 3, -1.0 / 3, 1e-310, 2.5, -2.5, NAN, -NAN,
                                INFINITY, -INFINITY, 123456.789, -7e-5, 7e-5, 1e300};
  *seed = *seed * 1103515245u + 12345u;
  return pool[(*seed >> 16) % (sizeof pool / sizeof pool[0])];
}

START_TEST(csv_repeated_values_same_text) {
  enum { NROWS = 200, NCOLS = 13 };
  const char *path = tmp_path("rep.csv");
  static const char *const names[NCOLS] = {"time", "a", "b", "c", "d", "e", "f", "g", "h",
                                           "i", "j", "k", "l"};
  stiction_writer *w;
  ck_assert_int_eq(stiction_writer_open(&w, path, STICTION_FORMAT_CSV), STICTION_OK);
  stiction_sink sink;
  stiction_writer_sink(w, &sink);
  ck_assert_int_eq(sink.begin(sink.user_data, NCOLS, names), 0);
  static char expect[NROWS * NCOLS * 32 + 64];
  size_t len = (size_t)snprintf(expect, sizeof expect, "time,a,b,c,d,e,f,g,h,i,j,k,l\n");
  unsigned seed = 7;
  double row[NCOLS];
  for (int r = 0; r < NROWS; r++) {
    row[0] = 0.25 * r;
    for (int c = 1; c < 9; c++)
      row[c] = (r % 3 && c % 2) ? row[c] : pool_value(&seed); /* odd columns often held */
    /* aliases (the writer's hints): a negation (-NaN and NaN are both "nan"), a copy, one
     * that holds for a while and breaks, one equal to time in every other row */
    row[9] = -row[2];
    row[10] = row[3];
    row[11] = r % 5 ? -row[4] : pool_value(&seed);
    row[12] = r % 2 ? row[0] : -row[0];
    for (int c = 0; c < NCOLS; c++) {
      char field[64];
      shortest_reference(field, sizeof field, row[c]);
      len += (size_t)snprintf(expect + len, sizeof expect - len, "%s%c", field,
                              c + 1 < NCOLS ? ',' : '\n');
    }
    ck_assert_int_eq(sink.row(sink.user_data, row), 0);
  }
  ck_assert_int_eq(sink.end(sink.user_data, STICTION_OK), 0);
  ck_assert_int_eq(stiction_writer_close(w), STICTION_OK);
  FILE *f = fopen(path, "rb");
  ck_assert_ptr_nonnull(f);
  static char got[sizeof expect];
  size_t n = fread(got, 1, sizeof got - 1, f);
  got[n] = 0;
  fclose(f);
  unlink(path);
  ck_assert_uint_eq(n, len);
  ck_assert_str_eq(got, expect);
}
END_TEST

START_TEST(non_finite_values_round_trip) {
  const char *path = tmp_path("nf.csv");
  stiction_writer *w;
  ck_assert_int_eq(stiction_writer_open(&w, path, STICTION_FORMAT_CSV), STICTION_OK);
  stiction_sink sink;
  stiction_writer_sink(w, &sink);
  const double row[3] = {0.25, NAN, -INFINITY};
  ck_assert_int_eq(sink.begin(sink.user_data, 3, names3), 0);
  ck_assert_int_eq(sink.row(sink.user_data, row), 0);
  ck_assert_int_eq(stiction_writer_close(w), STICTION_OK);
  ck_assert_str_eq(read_text(path), "time,J1.w,\"odd,name\"\n0.25,nan,-inf\n");
  char msg[256];
  stiction_table *t;
  ck_assert_msg(stiction_table_read(&t, path, msg, sizeof msg) == 0, "%s", msg);
  ck_assert(isnan(stiction_table_data(t)[1]));
  ck_assert(isinf(stiction_table_data(t)[2]) && stiction_table_data(t)[2] < 0);
  stiction_table_free(t);
  unlink(path);
}
END_TEST

START_TEST(csv_rows_on_disk_before_close) {
  const char *path = tmp_path("b.csv");
  stiction_writer *w = write_rows(path, 3, 0);
  check_table(pending(w, path), 3); /* a run that dies now keeps these rows, beside path */
  ck_assert_int_ne(access(path, F_OK), 0); /* and path is not touched before close */
  ck_assert_int_eq(stiction_writer_close(w), STICTION_OK);
  unlink(path);
}
END_TEST

/* An existing result file is replaced, not truncated (util/outfile.h): a second hard link
 * still shows the old contents, the path the new ones; through a symbolic link its target is
 * replaced and the link stays; a device (/dev/null) still opens. */
START_TEST(existing_result_replaced_links_written_through) {
  char path[256], link2[256], sym[256];
  snprintf(path, sizeof path, "%s", tmp_path("r.csv"));
  snprintf(link2, sizeof link2, "%s", tmp_path("r2.csv"));
  snprintf(sym, sizeof sym, "%s", tmp_path("rs.csv"));
  FILE *f = fopen(path, "w");
  ck_assert_ptr_nonnull(f);
  fputs("old\n", f);
  fclose(f);
  unlink(link2);
  ck_assert_int_eq(link(path, link2), 0);
  write_rows(path, 3, 1);
  check_table(path, 3);
  ck_assert_str_eq(read_text(link2), "old\n");
  unlink(sym);
  ck_assert_int_eq(symlink(link2, sym), 0);
  write_rows(sym, 2, 1);
  check_table(link2, 2); /* through the link, into its target */
  struct stat sb;
  ck_assert_int_eq(lstat(sym, &sb), 0);
  ck_assert(S_ISLNK(sb.st_mode));
  /* (some sandboxes make /dev/null a plain file; only a real device is tried) */
  if (stat("/dev/null", &sb) == 0 && S_ISCHR(sb.st_mode)) {
    stiction_writer *w;
    ck_assert_int_eq(stiction_writer_open(&w, "/dev/null", STICTION_FORMAT_CSV), STICTION_OK);
    ck_assert_int_eq(stiction_writer_close(w), STICTION_OK);
    ck_assert_int_eq(stat("/dev/null", &sb), 0);
    ck_assert(S_ISCHR(sb.st_mode));
  }
  unlink(sym);
  unlink(link2);
  unlink(path);
}
END_TEST

START_TEST(mat_round_trip_and_readable_while_open) {
  const char *path = tmp_path("c.mat");
  stiction_writer *w = write_rows(path, 2, 0);
  check_table(pending(w, path), 2); /* sizes are patched as rows arrive */
  stiction_sink sink;
  stiction_writer_sink(w, &sink);
  for (int r = 2; r < 5; r++) ck_assert_int_eq(sink.row(sink.user_data, rows3[r]), 0);
  check_table(pending(w, path), 5);
  ck_assert_int_eq(stiction_writer_close(w), STICTION_OK);
  check_table(path, 5);
  unlink(path);
}
END_TEST

/* With a flush interval rows may wait in memory, but sink.end() puts them all on disk and
 * the MAT header then counts them (the file is complete before close). */
static void batched_rows_on_disk_after_end(const char *suffix) {
  const char *path = tmp_path(suffix);
  stiction_writer *w;
  ck_assert_int_eq(stiction_writer_open(&w, path, STICTION_FORMAT_AUTO), STICTION_OK);
  stiction_writer_set_flush_interval(w, 1e6);
  stiction_sink sink;
  stiction_writer_sink(w, &sink);
  ck_assert_int_eq(sink.begin(sink.user_data, 3, names3), 0);
  for (int r = 0; r < 5; r++) ck_assert_int_eq(sink.row(sink.user_data, rows3[r]), 0);
  ck_assert_int_eq(sink.end(sink.user_data, STICTION_OK), 0);
  check_table(pending(w, path), 5);
  ck_assert_int_eq(stiction_writer_close(w), STICTION_OK);
  check_table(path, 5);
  unlink(path);
}

START_TEST(flush_interval_keeps_every_row) {
  batched_rows_on_disk_after_end("i.csv");
  batched_rows_on_disk_after_end("i.mat");
}
END_TEST

/* A run killed after a row reached the disk but before the size patch leaves bytes after
 * data_2 that its header does not count: the reader keeps the counted rows. */
static uint64_t xorshift(uint64_t *s) {
  *s ^= *s << 13;
  *s ^= *s >> 7;
  *s ^= *s << 17;
  return *s;
}

static double from_bits(uint64_t u) {
  double x;
  memcpy(&x, &u, sizeof x);
  return x;
}

/* st_format_shortest (shortest.c) against the reference: the same text on grid times
 * (k * interval, start + k * interval), event-like times, values of everyday size, random
 * bit patterns (every exponent, subnormals) and the neighbours of every power of two; on the
 * powers of two themselves, where the reference may be a digit longer, text that reads back
 * exactly and is no longer. */
static void check_shortest(double x) {
  char got[ST_SHORTEST_MAX + 8], want[64];
  int n = st_format_shortest(got, x);
  shortest_reference(want, sizeof want, x);
  ck_assert_msg(n == (int)strlen(got), "%a: length %d of '%s'", x, n, got);
  ck_assert_msg(!strcmp(got, want), "%a: '%s', expected '%s'", x, got, want);
}

static void check_power_of_two(double x) {
  char got[ST_SHORTEST_MAX + 8], want[64];
  int n = st_format_shortest(got, x);
  shortest_reference(want, sizeof want, x);
  ck_assert_msg(strtod(got, NULL) == x && n <= (int)strlen(want), "%a: '%s' vs '%s'", x, got,
                want);
}

START_TEST(shortest_text_matches_reference) {
  static const double intervals[] = {0.001, 0.005, 0.01, 0.1, 1e-4, 0.3, 2.5e-7};
  static const double edge[] = {0.0, 1.0, 0.1, 0.5, 2.5, 1e-5, 1e-4, 9.9999999999999995e-5,
                                1e16, 1e17, 99999999999999990.0, 123456789012345680.0,
                                5e-324, 1e-323, 2.2250738585072009e-308,
                                2.2250738585072014e-308, 1.7976931348623157e308,
                                0.30000000000000004, 1.0 / 3, 2.0 / 3, 12345.678, 1e22, 1e23,
                                9007199254740991.0, 9007199254740993.0, 4.35, 0.97, 2e-300};
  for (size_t i = 0; i < sizeof edge / sizeof edge[0]; i++) {
    check_shortest(edge[i]);
    check_shortest(-edge[i]);
  }
  uint64_t seed = 12345;
  for (size_t i = 0; i < sizeof intervals / sizeof intervals[0]; i++)
    for (int k = 0; k < 3000; k++) {
      check_shortest(k * intervals[i]);
      check_shortest(0.7 + k * intervals[i]);
      check_shortest(-k * intervals[i] * 1e5);
      check_shortest(ldexp((double)(xorshift(&seed) >> 11), -53) * pow(10, k % 50 - 25));
      check_shortest(from_bits(xorshift(&seed) & ~(UINT64_C(0x7ff) << 52))); /* subnormal */
    }
  for (int i = 0; i < 100000; i++) {
    double x = from_bits(xorshift(&seed));
    if (!isnan(x)) check_shortest(x);
  }
  for (int e = -1074; e <= 1023; e++) {
    double x = ldexp(1.0, e);
    check_power_of_two(x);
    check_shortest(nextafter(x, 0));
    check_shortest(nextafter(x, INFINITY));
  }
  /* powers of two where the shortest text is a digit shorter than printf's rounding; the
   * expected texts are Python's repr() */
  char got[ST_SHORTEST_MAX];
  st_format_shortest(got, ldexp(1.0, -1017));
  ck_assert_str_eq(got, "7.120236347223045e-307");
  st_format_shortest(got, ldexp(1.0, 976));
  ck_assert_str_eq(got, "6.386688990511104e+293");
}
END_TEST

/* The paths of st_format_shortest (shortest.c) on the values that choose between them and
 * stress them: integers below 2^53 (their own digits) with every 4-digit group value at every
 * position of the 16-digit conversion; integers beyond 2^53 and halves n + 0.5 (exact
 * products: the tests for an end of the interval and for ties); powers of two (the lopsided
 * interval); -0, subnormals (as few as one digit), and the boundaries of fixed notation
 * (1e16/1e17, 1e-4/1e-5) with their neighbours. */
START_TEST(shortest_fast_paths) {
  for (int a = 0; a < 10000; a++) {
    double n = (a % 9000) * 1e12 + a * 1e8 + (9999 - a) * 1e4 + (a * 37 % 10000);
    check_shortest(n);
    check_shortest(-n / 1024);
    check_shortest(ldexp(1.0, 53) + 2.0 * a);
    check_shortest(ldexp(1.0, 56) + 16.0 * a * 7919);
    check_shortest(1e17 + 16.0 * a);
    check_shortest(ldexp((double)a * 9973 + 1, 10 + a % 40)); /* integers up to ~2^76 */
    check_shortest(ldexp(1.0, 50) + a + 0.5);
    check_shortest(a + 0.5);
    check_shortest(a * 0.001);
  }
  static const double edge[] = {-0.0, 5e-324, 2.5e-320, 2.2250738585072009e-308, 1e16,
                                9999999999999998.0, 1e17, 99999999999999984.0, 1e-4, 1e-5,
                                9.999999999999999e-5, 1.0000000000000001e-4, 0.5e-4,
                                18014398509481984.0, 9007199254740992.0, 4503599627370495.5};
  for (size_t i = 0; i < sizeof edge / sizeof edge[0]; i++)
    for (int j = -3; j <= 3; j++) { /* the value and its neighbours */
      double x = edge[i];
      for (int k = 0; k < j; k++) x = nextafter(x, INFINITY);
      for (int k = 0; k > j; k--) x = nextafter(x, -INFINITY);
      check_shortest(x);
    }
  char got[ST_SHORTEST_MAX];
  st_format_shortest(got, -0.0);
  ck_assert_str_eq(got, "-0");
  st_format_shortest(got, 1e16); /* "%.17g" layout: fixed up to exponent 16 */
  ck_assert_str_eq(got, "10000000000000000");
  st_format_shortest(got, 1e17);
  ck_assert_str_eq(got, "1e+17");
  st_format_shortest(got, 1e-5);
  ck_assert_str_eq(got, "1e-05");
  st_format_shortest(got, 0.0001);
  ck_assert_str_eq(got, "0.0001");
  st_format_shortest(got, 123456789012345680.0);
  ck_assert_str_eq(got, "1.2345678901234568e+17");
  st_format_shortest(got, 9007199254740993.0); /* 2^53 + 1 is 2^53 */
  ck_assert_str_eq(got, "9007199254740992");
}
END_TEST

/* Millions of random bit patterns read back bit-exactly (strtod gives the value "%.17g"
 * does), with at most 17 significant digits and room to spare in a CSV field. */
START_TEST(shortest_text_round_trips) {
  uint64_t seed = 0x9E3779B97F4A7C15u;
  for (int i = 0; i < 2000000; i++) {
    uint64_t bits = xorshift(&seed);
    double x = from_bits(bits);
    if (isnan(x)) continue;
    char got[ST_SHORTEST_MAX];
    int n = st_format_shortest(got, x);
    double back = strtod(got, NULL);
    ck_assert_msg(memcmp(&back, &x, sizeof x) == 0 && n <= 24, "%a: '%s'", x, got);
  }
}
END_TEST

/* st_scan_decimal (scan.c) gives strtod's double and end on every text it takes: table-like
 * numbers of random digits, point and exponent; and it leaves to strtod what its fast path
 * cannot decide (so st_strtod still agrees). */
static void same_as_strtod(const char *text, int taken) {
  const char *end;
  char *want_end, *got_end;
  double x, want = strtod(text, &want_end);
  int rc = st_scan_decimal(text, &end, &x);
  ck_assert_msg(rc == taken, "'%s': taken %d", text, rc);
  if (rc)
    ck_assert_msg(memcmp(&x, &want, sizeof x) == 0 && end == want_end, "'%s': %a (end +%d), "
                  "strtod %a (end +%d)", text, x, (int)(end - text), want, (int)(want_end - text));
  double y = st_strtod(text, &got_end);
  ck_assert_msg(memcmp(&y, &want, sizeof y) == 0 && got_end == want_end, "st_strtod '%s'", text);
}

START_TEST(decimal_scan_matches_strtod) {
  static const char *const taken[] = {"0", "-0", "+1.5", "0.841470985", "9.9999e-5", "1e22",
      "0.0000000000000000000001", "1234567890123456", "1.e3", ".5", "5.", "2e", "3e+",
      "7E-3x", "1,2", "4.25 ", "1e-22", "9007199254740992", "0e999"};
  static const char *const left[] = {"", "-", ".", "e5", " 1", "inf", "nan", "0x10",
      "1e23", "1e-23", "123456789012345678", "12345678901234567890", "9007199254740993", "1e00001"};
  for (size_t i = 0; i < sizeof taken / sizeof *taken; i++) same_as_strtod(taken[i], 1);
  for (size_t i = 0; i < sizeof left / sizeof *left; i++) same_as_strtod(left[i], 0);
  uint64_t seed = 0x2545F4914F6CDD1Du;
  for (int i = 0; i < 300000; i++) {
    uint64_t r = xorshift(&seed);
    char text[64];
    int digits = 1 + (int)(r % 17), point = (int)((r >> 8) % (digits + 1)), k = 0;
    if (r >> 20 & 1) text[k++] = '-';
    for (int d = 0; d < digits; d++) {
      if (d == point && d) text[k++] = '.';
      text[k++] = (char)('0' + (xorshift(&seed) % 10));
    }
    if (r >> 21 & 1) k += snprintf(text + k, sizeof text - (size_t)k, "e%d", (int)((r >> 24) % 61) - 30);
    text[k] = 0;
    const char *end;
    double x;
    if (st_scan_decimal(text, &end, &x)) same_as_strtod(text, 1);
    else same_as_strtod(text, 0);
  }
}
END_TEST

START_TEST(mat_trailing_unpatched_row_is_ignored) {
  const char *path = tmp_path("g.mat");
  write_rows(path, 2, 1);
  FILE *f = fopen(path, "ab");
  fwrite(rows3[2], sizeof rows3[2], 1, f);
  fwrite(rows3[3], 1, 7, f); /* and half of another */
  fclose(f);
  check_table(path, 2);
  unlink(path);
}
END_TEST

/* scipy.io.loadmat is an independent MAT v4 reader: it must find the dsres matrices with the
 * expected shapes, names and values. */
START_TEST(mat_read_by_scipy) {
  const char *py = getenv("PYTHON_SCIPY");
  char cmd[8192];
  snprintf(cmd, sizeof cmd, "'%s' -c 'import scipy.io' >/dev/null 2>&1", py ? py : "");
  if (!py || !*py || system(cmd) != 0) {
    printf("SKIP mat_read_by_scipy: no python3 with scipy (set PYTHON_SCIPY)\n");
    return;
  }
  const char *path = tmp_path("d.mat");
  write_rows(path, 5, 1);
  const char *script = st_test_src("tests/data/io/check_dsres.py");
  snprintf(cmd, sizeof cmd, "'%s' '%s' '%s' 2>&1", py, script, path);
  FILE *p = popen(cmd, "r");
  ck_assert_ptr_nonnull(p);
  char out[4096] = {0};
  size_t n = fread(out, 1, sizeof out - 1, p);
  out[n] = 0;
  int st = pclose(p);
  ck_assert_msg(st == 0, "scipy check failed: %s", out);
  ck_assert_ptr_nonnull(strstr(out, "ok 3 variables 5 rows"));
  unlink(path);
}
END_TEST

/* A MAT v4 matrix written by hand (little or big endian host order alike). */
static void put_matrix(FILE *f, int32_t type, int32_t rows, int32_t cols, const char *name,
                       const void *data, size_t bytes) {
  int32_t h[5] = {type, rows, cols, 0, (int32_t)strlen(name) + 1};
  const uint16_t probe = 1;
  if (*(const unsigned char *)&probe == 0) h[0] += 1000;
  fwrite(h, sizeof h, 1, f);
  fwrite(name, strlen(name) + 1, 1, f);
  fwrite(data, bytes, 1, f);
}

/* binNormal layout (variables in rows of name/dataInfo, in columns of data), a parameter in
 * data_1 and a negated alias, as Dymola writes them. */
START_TEST(mat_reader_dsres_normal_with_data1_and_alias) {
  const char *path = tmp_path("e.mat");
  FILE *f = fopen(path, "wb");
  /* Aclass: 4 x 11 chars, column major. */
  const char *ac[4] = {"Atrajectory", "1.1        ", "           ", "binNormal  "};
  char acm[44];
  for (int c = 0; c < 11; c++)
    for (int r = 0; r < 4; r++) acm[c * 4 + r] = ac[r][c];
  put_matrix(f, 51, 4, 11, "Aclass", acm, 44);
  const char *nm[4] = {"Time", "k   ", "x   ", "y   "}; /* y = -x */
  char nmm[16];
  for (int c = 0; c < 4; c++)
    for (int r = 0; r < 4; r++) nmm[c * 4 + r] = nm[r][c];
  put_matrix(f, 51, 4, 4, "name", nmm, 16);
  put_matrix(f, 51, 4, 1, "description", "    ", 4);
  int32_t info[4 * 4] = {0, 1, 2, 2, /* matrix */ 1, 2, 2, -2, /* column */ 0, 0, 0, 0, -1, 0, 0, 0};
  put_matrix(f, 20, 4, 4, "dataInfo", info, sizeof info);
  double d1[2 * 2] = {0, 2, 7.5, 7.5}; /* rows: time 0 / 2; columns: time, k */
  put_matrix(f, 0, 2, 2, "data_1", d1, sizeof d1);
  double d2[3 * 2] = {0, 1, 2, 3, 4, 5}; /* 3 rows (time), 2 columns: time, x */
  put_matrix(f, 0, 3, 2, "data_2", d2, sizeof d2);
  fclose(f);
  char msg[256];
  stiction_table *t;
  ck_assert_msg(stiction_table_read(&t, path, msg, sizeof msg) == STICTION_OK, "%s", msg);
  ck_assert_int_eq(stiction_table_rows(t), 3);
  ck_assert_int_eq(stiction_table_columns(t), 4);
  ck_assert_str_eq(stiction_table_name(t, 0), "time");
  ck_assert_str_eq(stiction_table_name(t, 3), "y");
  const double *d = stiction_table_data(t);
  const double want[3][4] = {{0, 7.5, 3, -3}, {1, 7.5, 4, -4}, {2, 7.5, 5, -5}};
  for (int r = 0; r < 3; r++)
    for (int c = 0; c < 4; c++) ck_assert_double_eq(d[r * 4 + c], want[r][c]);
  stiction_table_free(t);
  unlink(path);
}
END_TEST

START_TEST(reads_msl_reference_csv) {
  const char *path =
      st_test_ref("msl/Modelica.Mechanics.Rotational.Examples.CoupledClutches/CoupledClutches.csv");
  char msg[256];
  stiction_table *t;
  ck_assert_msg(stiction_table_read(&t, path, msg, sizeof msg) == STICTION_OK, "%s", msg);
  ck_assert_int_eq(stiction_table_columns(t), 18);
  ck_assert_int_eq(stiction_table_rows(t), 3021); /* 3022 lines minus the header */
  ck_assert_str_eq(stiction_table_name(t, 0), "time");
  ck_assert_str_eq(stiction_table_name(t, 17), "clutch3.startForward");
  const double *d = stiction_table_data(t);
  ck_assert(d[18 * 1 + 0] == 0.00050000000000000001);
  ck_assert(d[18 * 1 + 2] == 9.9950392691175143);
  int dup = 0;
  for (int r = 1; r < 3021; r++) {
    ck_assert(d[r * 18] >= d[(r - 1) * 18]); /* file order kept */
    dup += d[r * 18] == d[(r - 1) * 18];
  }
  ck_assert_int_ge(dup, 11); /* 11 events (7.1) and the final time, each two rows */
  stiction_table_free(t);
}
END_TEST

START_TEST(reads_crlf_quoted_and_Time) {
  char msg[256];
  stiction_table *t;
  ck_assert_msg(stiction_table_read(&t, st_test_src("tests/data/io/crlf_quoted.csv"), msg, sizeof msg) == 0, "%s", msg);
  ck_assert_int_eq(stiction_table_rows(t), 3);
  ck_assert_str_eq(stiction_table_name(t, 0), "time");
  ck_assert_str_eq(stiction_table_name(t, 1), "a b");
  ck_assert_str_eq(stiction_table_name(t, 2), "c,d");
  ck_assert_double_eq(stiction_table_data(t)[8], 6);
  stiction_table_free(t);
}
END_TEST

static void expect_error(const char *rel, const char *want) {
  char msg[512];
  stiction_table *t = (stiction_table *)&msg; /* must be reset to NULL */
  const char *path = st_test_src(rel);
  char copy[4096];
  snprintf(copy, sizeof copy, "%s", path);
  int rc = stiction_table_read(&t, copy, msg, sizeof msg);
  ck_assert_int_ne(rc, STICTION_OK);
  ck_assert_ptr_null(t);
  ck_assert_msg(strstr(msg, want) != NULL, "message '%s' lacks '%s'", msg, want);
  ck_assert_ptr_nonnull(strstr(msg, copy));
}

START_TEST(malformed_input_gives_located_errors) {
  expect_error("tests/data/io/short_row.csv", "short_row.csv:3:");
  expect_error("tests/data/io/short_row.csv", "expected 3 values, found 2");
  expect_error("tests/data/io/not_a_number.csv", "not_a_number.csv:3:5: expected a number");
  expect_error("tests/data/io/does_not_exist.csv", "cannot open");
  expect_error("tests/data/io/truncated.mat", "truncated");
  /* a NUL byte ended the text: the rows after it were dropped without a word */
  expect_error("tests/data/io/nul_byte.csv", "nul_byte.csv:3:1: NUL byte");
  /* found by fuzz_mat: a data_2 of 0 variables x 2^30 rows (no bytes) made the reader ask for
   * 40 GB before any entry was checked */
  expect_error("tests/data/io/data2_no_variables.mat", "data_2 holds no variables");
  /* found by fuzz_mat (30 min run): variables in a data_1 of no times were read past the
   * file's bytes */
  expect_error("tests/data/io/data1_no_times.mat", "invalid dataInfo entry");
}
END_TEST

START_TEST(writer_rejects_bad_use) {
  stiction_writer *w;
  ck_assert_int_eq(stiction_writer_open(&w, "/nonexistent-dir/x.csv", STICTION_FORMAT_AUTO), STICTION_ERR_IO);
  ck_assert_ptr_null(w);
  ck_assert_int_eq(stiction_writer_close(NULL), STICTION_OK);
  const char *path = tmp_path("f.csv");
  ck_assert_int_eq(stiction_writer_open(&w, path, STICTION_FORMAT_CSV), STICTION_OK);
  stiction_sink sink;
  stiction_writer_sink(w, &sink);
  ck_assert_int_ne(sink.row(sink.user_data, rows3[0]), 0); /* row before begin */
  const char *bad[2] = {"time", NULL};
  ck_assert_int_eq(sink.begin(sink.user_data, 2, bad), STICTION_ERR_ARG);
  ck_assert_int_eq(sink.begin(sink.user_data, 3, names3), 0);
  ck_assert_int_eq(sink.begin(sink.user_data, 3, names3), STICTION_ERR_STATE); /* once */
  ck_assert_int_eq(stiction_writer_close(w), STICTION_OK); /* misuse did not spoil the file */
  ck_assert_str_eq(read_text(path), "time,J1.w,\"odd,name\"\n");
  unlink(path);
}
END_TEST

ST_TEST_MAIN("io", "files", 0,
             csv_writer_text_and_round_trip, csv_rows_on_disk_before_close,
             existing_result_replaced_links_written_through, non_finite_values_round_trip,
             csv_repeated_values_same_text, shortest_text_matches_reference,
             shortest_text_round_trips, shortest_fast_paths, decimal_scan_matches_strtod,
             mat_round_trip_and_readable_while_open, mat_read_by_scipy,
             flush_interval_keeps_every_row, mat_trailing_unpatched_row_is_ignored,
             mat_reader_dsres_normal_with_data1_and_alias, reads_msl_reference_csv,
             reads_crlf_quoted_and_Time, malformed_input_gives_located_errors,
             writer_rejects_bad_use)
