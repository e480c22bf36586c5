/* Parameter sets and metrics of `stiction sweep` (sweep.h). */
#include "cli/sweep.h"

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>


/* A finite number filling the whole text. */
static int number(const char *text, double *out) {
  char *end;
  errno = 0;
  *out = strtod(text, &end);
  return end == text || *end || errno == ERANGE || !isfinite(*out) ? -1 : 0;
}

void st_sweep_sets_free(st_sweep_sets *s) {
  for (int k = 0; k < s->nparams; k++) free(s->names[k]);
  free(s->names);
  free(s->values);
  *s = (st_sweep_sets){0, NULL, 0, NULL};
}

static int fail(char *msg, size_t size, const char *fmt, const char *arg) {
  snprintf(msg, size, fmt, arg);
  return -1;
}

/* "NAME" of "NAME=..." into a new string; NULL when there is no '=' or no name. */
static char *name_of(const char *spec, const char **rest) {
  const char *eq = strchr(spec, '=');
  if (!eq || eq == spec) return NULL;
  size_t n = (size_t)(eq - spec);
  while (n > 0 && isspace((unsigned char)spec[n - 1])) n--;
  char *name = malloc(n + 1);
  if (!name) return NULL;
  memcpy(name, spec, n);
  name[n] = 0;
  *rest = eq + 1;
  return name;
}

static int add_name(st_sweep_sets *s, char *name) {
  for (int k = 0; k < s->nparams; k++)
    if (!strcmp(s->names[k], name)) return -1;
  char **names = realloc(s->names, sizeof *names * (size_t)(s->nparams + 1));
  if (!names) return -1;
  s->names = names;
  s->names[s->nparams++] = name;
  return 0;
}

/* The values of an axis: "a:step:b" or "v1,v2,...". */
static int axis_values(const char *text, double **out, size_t *n) {
  double a, step, b;
  char tail;
  *out = NULL;
  *n = 0;
  if (sscanf(text, "%lf:%lf:%lf%c", &a, &step, &b, &tail) == 3) {
    if (!isfinite(a) || !isfinite(step) || !isfinite(b) || step == 0 || (b - a) / step < 0)
      return -1;
    double count = floor((b - a) / step + 1e-9) + 1;
    if (count > 1e7) return -1;
    *n = (size_t)count;
    *out = malloc(sizeof **out * *n);
    if (!*out) return -1;
    for (size_t i = 0; i < *n; i++) (*out)[i] = a + (double)i * step;
    return 0;
  }
  size_t cap = 1;
  for (const char *p = text; *p; p++) cap += *p == ',';
  *out = malloc(sizeof **out * cap);
  if (!*out) return -1;
  for (const char *p = text;;) {
    size_t len = strcspn(p, ",");
    char buf[64];
    if (len == 0 || len >= sizeof buf) return -1;
    memcpy(buf, p, len);
    buf[len] = 0;
    if (number(buf, &(*out)[*n])) return -1;
    (*n)++;
    if (!p[len]) return 0;
    p += len + 1;
  }
}

int st_sweep_add_axis(st_sweep_sets *s, const char *spec, char *msg, size_t size) {
  const char *rest;
  char *name = name_of(spec, &rest);
  if (!name) return fail(msg, size, "--grid '%s': expected NAME=a:step:b or NAME=v1,v2,...", spec);
  double *vals;
  size_t nv;
  if (axis_values(rest, &vals, &nv) || nv == 0) {
    free(vals);
    free(name);
    return fail(msg, size, "--grid '%s': expected NAME=a:step:b (finite, step towards b) or "
                "NAME=v1,v2,... (finite numbers)", spec);
  }
  size_t old = s->nparams ? s->nruns : 1, np = (size_t)s->nparams + 1;
  double *values = old * nv <= 100000000 / np ? malloc(sizeof *values * old * nv * np) : NULL;
  if (!values || add_name(s, name)) {
    free(values);
    free(vals);
    free(name);
    return fail(msg, size, "--grid '%s': a parameter given twice, or too many runs", spec);
  }
  /* the new axis varies fastest: run (i, j) = old run i with value j */
  for (size_t i = 0; i < old; i++)
    for (size_t j = 0; j < nv; j++) {
      double *row = values + (i * nv + j) * np;
      if (np > 1) memcpy(row, s->values + i * (np - 1), sizeof *row * (np - 1));
      row[np - 1] = vals[j];
    }
  free(vals);
  free(s->values);
  s->values = values;
  s->nruns = old * nv;
  return 0;
}

/* One CSV line into fields (no quoting: names and numbers). Returns the count. */
static int split(char *line, char **fields, int max) {
  int n = 0;
  for (char *p = line; n < max;) {
    fields[n++] = p;
    char *c = strchr(p, ',');
    if (!c) break;
    *c = 0;
    p = c + 1;
  }
  for (int i = 0; i < n; i++) {
    char *f = fields[i], *e = f + strlen(f);
    while (*f && isspace((unsigned char)*f)) f++;
    while (e > f && isspace((unsigned char)e[-1])) *--e = 0;
    fields[i] = f;
  }
  return n;
}

int st_sweep_read_table(st_sweep_sets *s, const char *path, char *msg, size_t size) {
  FILE *f = fopen(path, "r");
  if (!f) {
    snprintf(msg, size, "--table %s: %s", path, strerror(errno));
    return -1;
  }
  enum { MAXF = 256 };
  char line[8192], *fields[MAXF];
  int rc = -1, lineno = 0, np = 0;
  size_t cap = 0;
  while (fgets(line, sizeof line, f)) {
    lineno++;
    line[strcspn(line, "\r\n")] = 0;
    if (!line[0]) continue;
    int n = split(line, fields, MAXF);
    if (!np) { /* the header */
      for (int k = 0; k < n; k++) {
        char *name = strdup(fields[k]);
        if (!name || !name[0] || add_name(s, name)) {
          free(name);
          snprintf(msg, size, "%s:%d: empty or repeated parameter name", path, lineno);
          goto done;
        }
      }
      np = n;
      continue;
    }
    if (n != np) {
      snprintf(msg, size, "%s:%d: %d values for %d parameters", path, lineno, n, np);
      goto done;
    }
    if (s->nruns == cap) {
      cap = cap ? 2 * cap : 64;
      double *v = realloc(s->values, sizeof *v * cap * (size_t)np);
      if (!v) goto done;
      s->values = v;
    }
    for (int k = 0; k < n; k++)
      if (number(fields[k], &s->values[s->nruns * (size_t)np + (size_t)k])) {
        snprintf(msg, size, "%s:%d: '%s' is not a finite number", path, lineno, fields[k]);
        goto done;
      }
    s->nruns++;
  }
  if (!np || !s->nruns) snprintf(msg, size, "%s: no header and rows of values", path);
  else rc = 0;
done:
  fclose(f);
  return rc;
}

/* splitmix64: one draw from (seed, run, parameter, draw), nothing shared between runs. */
static uint64_t mix(uint64_t x) {
  x += 0x9e3779b97f4a7c15ull;
  x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ull;
  x = (x ^ (x >> 27)) * 0x94d049bb133111ebull;
  return x ^ (x >> 31);
}

static double uniform01(uint64_t seed, size_t run, int k, int draw) {
  uint64_t x = mix(mix(mix(seed) ^ (uint64_t)run) ^ ((uint64_t)k << 8 | (uint64_t)draw));
  return ((double)(x >> 11) + 0.5) * 0x1.0p-53; /* in (0, 1) */
}

int st_sweep_random(st_sweep_sets *s, const char *const *specs, int nspecs, size_t n,
                    uint64_t seed, char *msg, size_t size) {
  if (n == 0 || n > 10000000) return fail(msg, size, "-n %s: expected 1 to 10^7 runs", "");
  enum { NORMAL, UNIFORM };
  int *kind = malloc(sizeof *kind * (size_t)nspecs);
  double *p1 = malloc(sizeof *p1 * (size_t)nspecs), *p2 = malloc(sizeof *p2 * (size_t)nspecs);
  int rc = kind && p1 && p2 ? 0 : -1;
  for (int k = 0; !rc && k < nspecs; k++) {
    const char *rest;
    char *name = name_of(specs[k], &rest);
    char tail;
    if (name && sscanf(rest, " normal ( %lf , %lf )%c", &p1[k], &p2[k], &tail) == 2)
      kind[k] = NORMAL;
    else if (name && sscanf(rest, " uniform ( %lf , %lf )%c", &p1[k], &p2[k], &tail) == 2)
      kind[k] = UNIFORM;
    else
      rc = -1;
    if (!rc && (!isfinite(p1[k]) || !isfinite(p2[k]) || (kind[k] == NORMAL && p2[k] < 0)))
      rc = -1;
    if (rc || add_name(s, name)) {
      free(name);
      rc = fail(msg, size, "--random '%s': expected NAME=normal(mu,sigma) or "
                "NAME=uniform(a,b), each name once", specs[k]);
    }
  }
  if (!rc && !(s->values = malloc(sizeof *s->values * n * (size_t)nspecs))) rc = -1;
  for (size_t r = 0; !rc && r < n; r++)
    for (int k = 0; k < nspecs; k++) {
      double u = uniform01(seed, r, k, 0), v;
      if (kind[k] == UNIFORM) {
        v = p1[k] + (p2[k] - p1[k]) * u;
      } else { /* Box-Muller */
        double u2 = uniform01(seed, r, k, 1);
        v = p1[k] + p2[k] * sqrt(-2 * log(u)) * cos(2 * M_PI * u2);
      }
      s->values[r * (size_t)nspecs + (size_t)k] = v;
    }
  if (!rc) s->nruns = n;
  free(kind);
  free(p1);
  free(p2);
  return rc;
}

void st_period_init(st_period *p, double level) {
  *p = (st_period){level, 0, 0, 0, 0, 0, 0, NAN, NAN, NAN, NAN};
}

void st_period_add(st_period *p, double t, double x) {
  x -= p->level;
  if (p->rows > 0 && t == p->tprev) { /* an event: the time written twice */
    if (p->pending > 0) {
      if (p->events++ == 0) p->event_first = t;
      p->event_last = t;
      p->pending--;
    }
  } else if (p->rows > 0 && p->xprev < 0.0 && x >= 0.0) {
    double tc = t - (t - p->tprev) * x / (x - p->xprev);
    if (p->crossings++ == 0) p->cross_first = tc;
    p->cross_last = tc;
    p->pending++;
  }
  p->tprev = t;
  p->xprev = x;
  p->rows++;
}

double st_period_crossings(const st_period *p) {
  return p->crossings >= 2 ? (p->cross_last - p->cross_first) / (p->crossings - 1) : NAN;
}

double st_period_events(const st_period *p) {
  return p->events >= 2 ? (p->event_last - p->event_first) / (p->events - 1) : NAN;
}

static const char *const kind_names[] = {"final", "min", "max", "mean", "period",
                                         "stick_fraction", "transitions", "dissipated"};
enum { NKINDS = sizeof kind_names / sizeof *kind_names };

int st_sweep_parse_metric(const char *text, st_sweep_metric *m, char *msg, size_t size) {
  const char *open = strchr(text, '('), *close = strrchr(text, ')');
  if (open && close && close > open + 1 && !close[1])
    for (int k = 0; k < NKINDS; k++) {
      size_t n = strlen(kind_names[k]);
      if ((size_t)(open - text) != n || strncmp(text, kind_names[k], n)) continue;
      m->text = text;
      m->kind = (st_sweep_kind)k;
      m->signal = strndup(open + 1, (size_t)(close - open - 1));
      return m->signal ? 0 : -1;
    }
  return fail(msg, size, "--metric '%s': expected final(x), min(x), max(x), mean(x), period(x), "
              "stick_fraction(e), transitions(e) or dissipated(e)", text);
}

int st_sweep_meter_init(st_sweep_meter *m, const st_sweep_metric *metrics, int n) {
  memset(m, 0, sizeof *m);
  m->metrics = metrics;
  m->nmetrics = n;
  size_t k = (size_t)(n > 0 ? n : 1);
  m->column = malloc(sizeof *m->column * k);
  m->column2 = malloc(sizeof *m->column2 * k);
  m->value = malloc(sizeof *m->value * k);
  m->prev = malloc(sizeof *m->prev * k);
  m->series = calloc(k, sizeof *m->series);
  m->nseries = calloc(k, sizeof *m->nseries);
  m->capseries = calloc(k, sizeof *m->capseries);
  return m->column && m->column2 && m->value && m->prev && m->series && m->nseries &&
         m->capseries ? 0 : -1;
}

void st_sweep_meter_free(st_sweep_meter *m) {
  free(m->column);
  free(m->column2);
  free(m->value);
  free(m->prev);
  for (int k = 0; m->series && k < m->nmetrics; k++) free(m->series[k]);
  free(m->series);
  free(m->nseries);
  free(m->capseries);
}

static void series_push(st_sweep_meter *m, int k, double t, double x) {
  if (m->nseries[k] == m->capseries[k]) {
    size_t cap = m->capseries[k] ? 2 * m->capseries[k] : 1024;
    double *s = realloc(m->series[k], sizeof *s * 2 * cap);
    if (!s) { m->value[k] = INFINITY; return; } /* reported as "no period" at the end */
    m->series[k] = s;
    m->capseries[k] = cap;
  }
  m->series[k][2 * m->nseries[k]] = t;
  m->series[k][2 * m->nseries[k]++ + 1] = x;
}

/* period(x): st_period on the crossings of the middle of x's range, so that a limit cycle
 * about any offset is measured. */
static double series_period(const st_sweep_meter *m, int k) {
  const double *s = m->series[k];
  double lo = INFINITY, hi = -INFINITY;
  for (size_t i = 0; i < m->nseries[k]; i++) {
    if (s[2 * i + 1] < lo) lo = s[2 * i + 1];
    if (s[2 * i + 1] > hi) hi = s[2 * i + 1];
  }
  st_period p;
  st_period_init(&p, 0.5 * (lo + hi));
  for (size_t i = 0; i < m->nseries[k]; i++) st_period_add(&p, s[2 * i], s[2 * i + 1]);
  double e = st_period_events(&p);
  return isnan(e) ? st_period_crossings(&p) : e;
}

/* The column of the first of `fields` recorded as "element.field" (or the signal itself
 * when fields is NULL); -1 when none is. */
static int find_column(int ncols, const char *const *names, const char *signal,
                       const char *const *fields) {
  char name[512];
  for (int f = 0; !fields || fields[f]; f++) {
    snprintf(name, sizeof name, fields ? "%s.%s" : "%s", signal, fields ? fields[f] : "");
    for (int c = 1; c < ncols; c++)
      if (!strcmp(names[c], name)) return c;
    if (!fields) break;
  }
  return -1;
}

/* The variables a friction metric reads: the Stiction elements' and the MSL elements' names. */
static const char *const mode_fields[] = {"mode", NULL};
static const char *const speed_fields[] = {"v_rel", "w_rel", "v_relfric", "w_relfric", NULL};
static const char *const force_fields[] = {"F", "f", "tau", NULL};

int st_sweep_meter_begin(st_sweep_meter *m, int ncols, const char *const *names) {
  for (int k = 0; k < m->nmetrics; k++) {
    const st_sweep_metric *mt = &m->metrics[k];
    const char *const *fields = NULL, *need = "";
    if (mt->kind == ST_METRIC_STICK_FRACTION || mt->kind == ST_METRIC_TRANSITIONS)
      fields = mode_fields, need = ".mode";
    else if (mt->kind == ST_METRIC_DISSIPATED)
      fields = speed_fields, need = ".v_rel (or w_rel)";
    m->column[k] = find_column(ncols, names, mt->signal, fields);
    m->column2[k] = mt->kind == ST_METRIC_DISSIPATED
                        ? find_column(ncols, names, mt->signal, force_fields) : 0;
    if (m->column2[k] < 0) need = ".F (or f, tau)";
    if (m->column[k] < 0 || m->column2[k] < 0) {
      snprintf(m->missing, sizeof m->missing, "no recorded variable '%s%s' (%s)", mt->signal,
               need, mt->text);
      return -1;
    }
    m->value[k] = mt->kind == ST_METRIC_STICK_FRACTION || mt->kind == ST_METRIC_TRANSITIONS ||
                  mt->kind == ST_METRIC_DISSIPATED ? 0 : NAN;
    m->nseries[k] = 0;
  }
  m->rows = 0;
  return 0;
}

void st_sweep_meter_row(st_sweep_meter *m, const double *row) {
  double t = row[0], dt = m->rows ? t - m->tprev : 0;
  for (int k = 0; k < m->nmetrics; k++) {
    double v = row[m->column[k]], *acc = &m->value[k], prev = m->prev[k];
    int first = m->rows == 0;
    switch (m->metrics[k].kind) {
    case ST_METRIC_FINAL: *acc = v; break;
    case ST_METRIC_MIN: if (first || v < *acc) *acc = v; break;
    case ST_METRIC_MAX: if (first || v > *acc) *acc = v; break;
    case ST_METRIC_MEAN: /* the integral so far; divided by the span at the end */
      *acc = first ? 0 : *acc + 0.5 * dt * (v + prev);
      break;
    case ST_METRIC_PERIOD: series_push(m, k, t, v); break;
    case ST_METRIC_STICK_FRACTION: /* the mode of a row holds until the next row */
      if (!first && prev == 0) *acc += dt;
      break;
    case ST_METRIC_TRANSITIONS:
      if (!first && (prev == 0) != (v == 0)) *acc += 1;
      break;
    case ST_METRIC_DISSIPATED: /* the integral of force x relative speed */
      v *= row[m->column2[k]];
      if (!first) *acc += 0.5 * dt * (v + prev);
      break;
    }
    m->prev[k] = v;
  }
  if (m->rows == 0) m->t0 = t;
  m->tprev = t;
  m->rows++;
}

void st_sweep_meter_finish(st_sweep_meter *m) {
  double span = m->tprev - m->t0;
  for (int k = 0; k < m->nmetrics; k++) {
    double *v = &m->value[k];
    if (!m->rows) {
      *v = NAN;
      continue;
    }
    switch (m->metrics[k].kind) {
    case ST_METRIC_MEAN: *v = span > 0 ? *v / span : m->prev[k]; break;
    case ST_METRIC_STICK_FRACTION: *v = span > 0 ? *v / span : m->prev[k] == 0; break;
    case ST_METRIC_DISSIPATED: *v = fabs(*v); break; /* either sign convention of the force */
    case ST_METRIC_PERIOD: *v = isinf(*v) ? NAN : series_period(m, k); break;
    default: break;
    }
  }
}
