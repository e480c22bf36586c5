/* Comparing a result with a reference, signal by signal, with the csv-compare tube rule
 * (doc/results.md, the tube rule): every result sample (t_j, y_j) with t_j inside the
 * tube's time span must satisfy L(t_j) <= y_j <= U(t_j); samples outside the span are not
 * checked (csv-compare does not extrapolate). A non-finite result value is outside.
 *
 * Because of that last point a result that stops early -- a simulation that failed half way
 * -- would pass on the samples it has. A user comparing against a reference means the whole
 * run, so the result must also span the reference's time range to within the half-width X;
 * otherwise every signal that passes the tube fails as ST_SIGNAL_SHORT. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <stiction/stiction.h>

#include "io/compare.h"

void st_compare_options_init(st_compare_options *opt) {
  opt->tolerance = 0.002; /* csv-compare's default and the MSL regression setting */
  opt->compat = ST_COMPARE_2_1;
}

double st_compare_epsilon(st_compare_compat compat) {
  /* csv-compare 2.1.0 raised the floor of Y from 1e-12 to 1e-3 (csv-compare #66, #67). */
  return compat == ST_COMPARE_2_0_3 ? 1e-12 : 1e-3;
}

static int is_time_name(const char *s) {
  return !strcmp(s, "time") || !strcmp(s, "Time") || !strcmp(s, "t");
}

/* Reference time must be finite and non-decreasing (repeats mark events). */
static int check_time(const stiction_table *t, const char *what, char *msg, size_t size) {
  const double *d = stiction_table_data(t);
  int rows = stiction_table_rows(t), cols = stiction_table_columns(t);
  if (rows < 1) { snprintf(msg, size, "%s has no rows", what); return STICTION_ERR_SYNTAX; }
  for (int i = 0; i < rows; i++) {
    double ti = d[(size_t)i * (size_t)cols];
    if (!isfinite(ti) || (i && ti < d[(size_t)(i - 1) * (size_t)cols])) {
      snprintf(msg, size, "%s: time is not finite and non-decreasing at data row %d", what, i + 1);
      return STICTION_ERR_SYNTAX;
    }
  }
  return STICTION_OK;
}

static double *column(const stiction_table *t, int c) {
  int rows = stiction_table_rows(t), cols = stiction_table_columns(t);
  const double *d = stiction_table_data(t);
  double *v = malloc((size_t)(rows > 0 ? rows : 1) * sizeof *v);
  for (int i = 0; v && i < rows; i++) v[i] = d[(size_t)i * (size_t)cols + (size_t)c];
  return v;
}

static void check_sample(st_signal_report *s, const st_tube *tube, double t, double y) {
  double lo, hi;
  if (st_tube_bounds(tube, t, &lo, &hi)) return;
  s->checked++;
  double excess = isnan(y) ? INFINITY : y > hi ? y - hi : y < lo ? lo - y : 0;
  if (excess <= 0) return;
  s->outside++;
  if (s->outside == 1 || excess > s->worst_excess) {
    s->worst_t = t;
    s->worst_value = y;
    s->worst_lower = lo;
    s->worst_upper = hi;
    s->worst_excess = excess;
  }
}

static int compare_signal(st_signal_report *s, const stiction_table *res, int rc,
                          const stiction_table *ref, int fc, const st_compare_options *opt) {
  double *t = column(ref, 0), *r = column(ref, fc);
  st_tube *tube = t && r ? st_tube_new(t, r, (size_t)stiction_table_rows(ref), opt->tolerance,
                                       st_compare_epsilon(opt->compat)) : NULL;
  free(t);
  free(r);
  if (!tube) return STICTION_ERR_NOMEM;
  s->y = st_tube_y(tube);
  const double *d = stiction_table_data(res);
  size_t cols = (size_t)stiction_table_columns(res);
  for (int j = 0; j < stiction_table_rows(res); j++)
    check_sample(s, tube, d[(size_t)j * cols], d[(size_t)j * cols + (size_t)rc]);
  s->status = s->outside ? ST_SIGNAL_FAIL : ST_SIGNAL_PASS;
  st_tube_free(tube);
  return STICTION_OK;
}

static void time_span(const stiction_table *t, double *t0, double *t1) {
  const double *d = stiction_table_data(t);
  size_t cols = (size_t)stiction_table_columns(t), n = (size_t)stiction_table_rows(t);
  *t0 = d[0];
  *t1 = d[(n - 1) * cols];
}

/* X of the tube rule, from the reference's time span. */
static double time_halfwidth(double t0, double t1, double tol) {
  return tol * fmax(fmax(t1 - t0, fabs(t0)), 1e-12);
}

static int result_spans_reference(const st_compare_report *rep) {
  return rep->result_t0 <= rep->reference_t0 + rep->x && rep->result_t1 >= rep->reference_t1 - rep->x;
}

static int fill_report(st_compare_report *rep, const stiction_table *res, const stiction_table *ref,
                       const char *const *signals, const st_compare_options *opt) {
  int spans = result_spans_reference(rep);
  for (int i = 0; i < rep->nsignals; i++) {
    st_signal_report *s = &rep->signals[i];
    const char *name = signals ? signals[i] : stiction_table_name(ref, i + 1);
    if (!(s->name = strdup(name))) return STICTION_ERR_NOMEM;
    int fc = stiction_table_find(ref, name), rc = stiction_table_find(res, name);
    if (fc < 1) { s->status = ST_SIGNAL_NO_REFERENCE; rep->skipped++; continue; }
    if (rc < 1) { s->status = ST_SIGNAL_NO_RESULT; rep->failed++; continue; }
    int st = compare_signal(s, res, rc, ref, fc, opt);
    if (st) return st;
    if (!spans && s->status == ST_SIGNAL_PASS) s->status = ST_SIGNAL_SHORT; /* else FAIL says more */
    if (s->status == ST_SIGNAL_PASS) rep->passed++;
    else rep->failed++;
  }
  return STICTION_OK;
}

int st_compare_tables(const stiction_table *result, const stiction_table *reference,
                      const char *const *signals, int nsignals, const st_compare_options *opt,
                      st_compare_report *rep, char *msg, size_t size) {
  memset(rep, 0, sizeof *rep);
  if (!(opt->tolerance > 0) || !isfinite(opt->tolerance)) {
    snprintf(msg, size, "tolerance must be a positive number");
    return STICTION_ERR_ARG;
  }
  int st = check_time(reference, "reference", msg, size);
  if (!st) st = check_time(result, "result", msg, size);
  if (st) return st;
  rep->nsignals = signals ? nsignals : stiction_table_columns(reference) - 1;
  rep->signals = calloc((size_t)(rep->nsignals > 0 ? rep->nsignals : 1), sizeof *rep->signals);
  if (!rep->signals) { snprintf(msg, size, "out of memory"); return STICTION_ERR_NOMEM; }
  time_span(result, &rep->result_t0, &rep->result_t1);
  time_span(reference, &rep->reference_t0, &rep->reference_t1); /* non-decreasing (checked) */
  rep->x = time_halfwidth(rep->reference_t0, rep->reference_t1, opt->tolerance);
  st = fill_report(rep, result, reference, signals, opt);
  if (st) {
    st_compare_report_free(rep);
    snprintf(msg, size, "out of memory");
  }
  return st;
}

void st_compare_report_free(st_compare_report *rep) {
  if (!rep) return;
  for (int i = 0; i < rep->nsignals && rep->signals; i++) free(rep->signals[i].name);
  free(rep->signals);
  memset(rep, 0, sizeof *rep);
}

void st_compare_signals_free(char **names, int n) {
  for (int i = 0; names && i < n; i++) free(names[i]);
  free(names);
}

static char *trimmed(char *s) {
  while (*s == ' ' || *s == '\t') s++;
  size_t n = strlen(s);
  while (n && strchr(" \t\r\n", s[n - 1])) s[--n] = 0;
  return s;
}

int st_compare_read_signals(const char *path, char ***names, int *n, char *msg, size_t size) {
  *names = NULL;
  *n = 0;
  FILE *f = fopen(path, "r");
  if (!f) { snprintf(msg, size, "%s: cannot open signal list", path); return STICTION_ERR_IO; }
  char line[4096];
  int cap = 0, first = 1, st = STICTION_OK;
  while (!st && fgets(line, sizeof line, f)) {
    char *s = trimmed(line);
    if (!*s) continue;
    int skip = first && is_time_name(s); /* the lists start with the abscissa */
    first = 0;
    if (skip) continue;
    if (*n == cap) {
      cap = cap ? 2 * cap : 32;
      char **nn = realloc(*names, (size_t)cap * sizeof *nn);
      if (!nn) { st = STICTION_ERR_NOMEM; break; }
      *names = nn;
    }
    if (!((*names)[*n] = strdup(s))) st = STICTION_ERR_NOMEM;
    else (*n)++;
  }
  fclose(f);
  if (st) {
    st_compare_signals_free(*names, *n);
    *names = NULL;
    *n = 0;
    snprintf(msg, size, "%s: out of memory", path);
  }
  return st;
}

int st_compare_files(const char *result, const char *reference, const char *signals,
                     const st_compare_options *opt, st_compare_report *rep, char *msg, size_t size) {
  memset(rep, 0, sizeof *rep);
  stiction_table *res = NULL, *ref = NULL;
  char **names = NULL;
  int n = 0;
  int st = stiction_table_read(&ref, reference, msg, size);
  if (!st) st = stiction_table_read(&res, result, msg, size);
  if (!st && signals) st = st_compare_read_signals(signals, &names, &n, msg, size);
  if (!st) st = st_compare_tables(res, ref, signals ? (const char *const *)names : NULL, n, opt, rep, msg, size);
  st_compare_signals_free(names, n);
  stiction_table_free(res);
  stiction_table_free(ref);
  return st;
}
