/* Option values and the event log of the simulation commands. */
#include "cli/sim_common.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

int st_cli_number(const char *text, double *out) {
  char *end;
  errno = 0;
  double v = strtod(text, &end);
  if (end == text || *end || errno == ERANGE || !isfinite(v)) return -1;
  *out = v;
  return 0;
}

int st_cli_solver(const char *text, stiction_solver *out) {
  if (!strcmp(text, "cvode") || !strcmp(text, "cvode-bdf")) *out = STICTION_SOLVER_CVODE_BDF;
  else if (!strcmp(text, "cvode-adams")) *out = STICTION_SOLVER_CVODE_ADAMS;
  else if (!strcmp(text, "ida")) *out = STICTION_SOLVER_IDA;
  else return -1;
  return 0;
}

void st_cli_report_run(const char *cmd, const char *name, const stiction_sim *sim, int rc,
                       const char *path, double start_time, int stats) {
  const stiction_stats *st = stiction_sim_stats(sim);
  int to_stdout = !strcmp(path, "-");
  FILE *info = to_stdout ? stderr : stdout;
  const char *where = to_stdout ? "standard output" : path;
  if (!rc)
    fprintf(info, "%s: t = %g .. %g s, %ld rows, %ld state and %ld time events -> %s\n", name,
            start_time, stiction_sim_time(sim), st->rows, st->state_events, st->time_events,
            where);
  else if (st->rows > 0)
    fprintf(stderr, "%s: %s: %s (stopped at t = %.17g; the %ld row%s before %s kept in %s)\n",
            cmd, name, stiction_sim_error(sim), stiction_sim_time(sim), st->rows,
            st->rows == 1 ? "" : "s", st->rows == 1 ? "is" : "are", where);
  else
    fprintf(stderr, "%s: %s: %s (stopped at t = %.17g before the first row; %s)\n", cmd, name,
            stiction_sim_error(sim), stiction_sim_time(sim),
            to_stdout ? "standard output got the header only" : "no result file written");
  if (stats) stiction_stats_print(st, info);
}

void st_cli_discard_empty(const char *path, int rc, const stiction_sim *sim) {
  if (rc && strcmp(path, "-") && stiction_sim_stats(sim)->rows == 0) remove(path);
}

int st_event_log_open(st_event_log *log, const char *path, const stiction_model *model) {
  log->model = model;
  log->failed = 0;
  log->file = fopen(path, "w");
  if (!log->file) return -1;
  fputs("time,kind,indicators,iterations,changed\n", log->file);
  return 0;
}

/* One CSV field, quoted when it holds a separator or a quote. */
static void csv_field(FILE *f, const char *text) {
  if (!strpbrk(text, ",\"\n\r")) {
    fputs(text, f);
    return;
  }
  fputc('"', f);
  for (const char *p = text; *p; p++) {
    if (*p == '"') fputc('"', f);
    fputc(*p, f);
  }
  fputc('"', f);
}

static const char *kind_name(stiction_event_kind kind) {
  static const char *const names[] = {"initial", "state", "time", "step"};
  return kind >= 0 && kind <= STICTION_EVENT_STEP ? names[kind] : "unknown";
}

static const char *indexed_name(const char *const *names, int k, int n, char *buf, size_t size,
                                char prefix) {
  if (names && k >= 0 && k < n) return names[k];
  snprintf(buf, size, "%c[%d]", prefix, k);
  return buf;
}

/* "name(+); name(-)" for the indicators that fired. */
static void fired_text(const st_event_log *log, const stiction_event_record *e, char *buf,
                       size_t size) {
  size_t n = 0;
  buf[0] = 0;
  for (int i = 0; i < e->n_fired && n < size; i++) {
    char idx[32];
    const char *name = indexed_name(log->model->indicator_names, e->fired[i],
                                    log->model->n_indicators, idx, sizeof idx, 'g');
    n += (size_t)snprintf(buf + n, size - n, "%s%s(%c)", i ? "; " : "", name,
                          e->fired_direction && e->fired_direction[i] < 0 ? '-' : '+');
  }
}

/* "name: before -> after; ..." for the discrete variables that changed. */
static void changed_text(const st_event_log *log, const stiction_event_record *e, char *buf,
                         size_t size) {
  size_t n = 0;
  buf[0] = 0;
  for (int i = 0; i < e->n_changed && n < size; i++) {
    int k = e->changed[i];
    char idx[32];
    const char *name = indexed_name(log->model->discrete_names, k, log->model->n_discrete, idx,
                                    sizeof idx, 'd');
    if (e->before && e->after)
      n += (size_t)snprintf(buf + n, size - n, "%s%s: %.17g -> %.17g", i ? "; " : "", name,
                            e->before[k], e->after[k]);
    else
      n += (size_t)snprintf(buf + n, size - n, "%s%s", i ? "; " : "", name);
  }
}

int st_event_log_write(void *user_data, const stiction_event_record *e) {
  st_event_log *log = user_data;
  char fired[1024], changed[2048];
  fired_text(log, e, fired, sizeof fired);
  changed_text(log, e, changed, sizeof changed);
  fprintf(log->file, "%.17g,%s,", e->time, kind_name(e->kind));
  csv_field(log->file, fired);
  fprintf(log->file, ",%d,", e->iterations);
  csv_field(log->file, changed);
  fputc('\n', log->file);
  if (ferror(log->file)) log->failed = 1;
  return 0;
}

int st_event_log_close(st_event_log *log) {
  if (!log->file) return 0;
  int rc = fclose(log->file) || log->failed ? -1 : 0;
  log->file = NULL;
  return rc;
}
