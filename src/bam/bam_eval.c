/* BAM MAE evaluation (doc/bam.md §4): per-log MAE of closed-loop rollouts, mean and population
 * standard deviation (ddof = 0, as BAM) over logs; JSON and CSV writers. */
#include <dirent.h>
#include <errno.h>
#include <json-c/json.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include <stiction/stiction.h>

#include "bam/bam_eval.h"
#include "util/outfile.h"

static int fail(char *errbuf, size_t errlen, int st, const char *fmt, ...) {
  if (errbuf && errlen) {
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(errbuf, errlen, fmt, ap);
    va_end(ap);
  }
  return st;
}

typedef struct strvec {
  char **v;
  size_t n, cap;
} strvec;

static int push(strvec *s, const char *a, const char *b) {
  if (s->n == s->cap) {
    size_t cap = s->cap ? 2 * s->cap : 16;
    char **nv = realloc(s->v, cap * sizeof *nv);
    if (!nv) return STICTION_ERR_NOMEM;
    s->v = nv;
    s->cap = cap;
  }
  size_t len = strlen(a) + (b ? strlen(b) + 1 : 0) + 1;
  char *p = malloc(len);
  if (!p) return STICTION_ERR_NOMEM;
  snprintf(p, len, b ? "%s/%s" : "%s", a, b ? b : "");
  s->v[s->n++] = p;
  return STICTION_OK;
}

static int cmp_str(const void *a, const void *b) {
  return strcmp(*(char *const *)a, *(char *const *)b);
}

static int ends_with_json(const char *name) {
  size_t n = strlen(name);
  return n > 5 && !strcmp(name + n - 5, ".json");
}

/* Appends DIR/NAME for every NAME.json in dir, sorted by name. */
static int expand_dir(const char *dir, strvec *out, char *errbuf, size_t errlen) {
  DIR *d = opendir(dir);
  if (!d) return fail(errbuf, errlen, STICTION_ERR_IO, "%s: %s", dir, strerror(errno));
  size_t first = out->n;
  struct dirent *e;
  int st = STICTION_OK;
  while (!st && (e = readdir(d)))
    if (ends_with_json(e->d_name)) st = push(out, dir, e->d_name);
  closedir(d);
  if (st) return fail(errbuf, errlen, st, "out of memory");
  if (out->n == first)
    return fail(errbuf, errlen, STICTION_ERR_NOT_FOUND, "%s: no *.json files", dir);
  qsort(out->v + first, out->n - first, sizeof *out->v, cmp_str);
  return STICTION_OK;
}

int st_bam_expand_json(const char *const *args, size_t nargs, char ***paths, size_t *n,
                       char *errbuf, size_t errlen) {
  strvec out = {0};
  int st = STICTION_OK;
  for (size_t i = 0; !st && i < nargs; i++) {
    struct stat sb;
    if (stat(args[i], &sb) != 0)
      st = fail(errbuf, errlen, STICTION_ERR_IO, "%s: %s", args[i], strerror(errno));
    else if (S_ISDIR(sb.st_mode))
      st = expand_dir(args[i], &out, errbuf, errlen);
    else if (push(&out, args[i], NULL))
      st = fail(errbuf, errlen, STICTION_ERR_NOMEM, "out of memory");
  }
  if (st) {
    st_bam_paths_free(out.v, out.n);
    return st;
  }
  *paths = out.v;
  *n = out.n;
  return STICTION_OK;
}

void st_bam_paths_free(char **paths, size_t n) {
  for (size_t i = 0; paths && i < n; i++) free(paths[i]);
  free(paths);
}

static const char *base_name(const char *path) {
  const char *s = strrchr(path, '/');
  return s ? s + 1 : path;
}

/* "DIR/FILE" with only the last directory component, as BAM's branch results are keyed. */
static char *dir_file_key(const char *path) {
  const char *b = base_name(path);
  const char *d = b;
  if (b > path) {
    d = b - 1;
    while (d > path && d[-1] != '/') d--;
  }
  return strdup(d);
}

static int fill_keys(st_bam_eval *ev, char *const *paths, const stiction_bam_params *ps) {
  int repeated = 0;
  for (size_t i = 0; i < ev->nsets; i++)
    for (size_t j = 0; j < i; j++)
      if (ps[i].model == ps[j].model) repeated = 1;
  for (size_t i = 0; i < ev->nsets; i++) {
    ev->set_keys[i] = repeated ? dir_file_key(paths[i])
                               : strdup(stiction_bam_model_name(ps[i].model));
    if (!ev->set_keys[i]) return STICTION_ERR_NOMEM;
  }
  return STICTION_OK;
}

/* Mean and population std (ddof = 0, as BAM) of m[k] over the logs not skipped. */
static void mean_std(const double *m, size_t n, const unsigned char *skip, double *mean,
                     double *std) {
  double sum = 0.0, ss = 0.0;
  size_t cnt = 0;
  for (size_t k = 0; k < n; k++)
    if (!skip || !skip[k]) sum += m[k], cnt++;
  *mean = cnt ? sum / (double)cnt : NAN;
  for (size_t k = 0; k < n; k++)
    if (!skip || !skip[k]) ss += (m[k] - *mean) * (m[k] - *mean);
  *std = cnt ? sqrt(ss / (double)cnt) : NAN;
}

static void aggregate(st_bam_eval *ev) {
  ev->nlogs_x = 0;
  for (size_t k = 0; k < ev->nlogs; k++) ev->nlogs_x += !ev->excluded[k];
  for (size_t i = 0; i < ev->nsets; i++) {
    const double *m = ev->mae + i * ev->nlogs;
    mean_std(m, ev->nlogs, NULL, &ev->mean[i], &ev->std[i]);
    mean_std(m, ev->nlogs, ev->excluded, &ev->mean_x[i], &ev->std_x[i]);
  }
}

static int alloc_eval(st_bam_eval *ev, size_t nsets, size_t nlogs) {
  *ev = (st_bam_eval){nsets, nlogs, calloc(nsets, sizeof(char *)),
                      calloc(nlogs, sizeof(char *)), calloc(nsets * nlogs, sizeof(double)),
                      calloc(nsets, sizeof(double)), calloc(nsets, sizeof(double)),
                      calloc(nlogs, 1), 0, calloc(nsets, sizeof(double)),
                      calloc(nsets, sizeof(double))};
  if (!ev->set_keys || !ev->log_names || !ev->mae || !ev->mean || !ev->std || !ev->excluded ||
      !ev->mean_x || !ev->std_x)
    return STICTION_ERR_NOMEM;
  return STICTION_OK;
}

/* Rolls every parameter set out on one log (read once). */
static int eval_log(st_bam_eval *ev, size_t k, const char *path, const stiction_bam_params *ps,
                    char *const *ppaths, char *errbuf, size_t errlen) {
  stiction_bam_log *log;
  int st = stiction_bam_log_read(path, &log, errbuf, errlen);
  if (st) return st;
  ev->log_names[k] = strdup(base_name(path));
  ev->excluded[k] = !strcmp(log->trajectory, "up_and_down");
  for (size_t i = 0; !st && i < ev->nsets; i++) {
    st = stiction_bam_mae(&ps[i], log, &ev->mae[i * ev->nlogs + k]);
    if (st)
      fail(errbuf, errlen, st, "%s: actuator '%s' is not simulated (%s)", ppaths[i],
           stiction_bam_actuator_name(ps[i].actuator), stiction_strerror(st));
  }
  stiction_bam_log_free(log);
  if (!st && !ev->log_names[k]) st = fail(errbuf, errlen, STICTION_ERR_NOMEM, "out of memory");
  return st;
}

int st_bam_evaluate(char *const *param_paths, size_t nparams, char *const *log_paths,
                    size_t nlogs, st_bam_eval *ev, char *errbuf, size_t errlen) {
  if (!nparams || !nlogs) return fail(errbuf, errlen, STICTION_ERR_ARG, "no parameters or logs");
  stiction_bam_params *ps = calloc(nparams, sizeof *ps);
  int st = ps ? alloc_eval(ev, nparams, nlogs) : STICTION_ERR_NOMEM;
  if (st) fail(errbuf, errlen, st, "out of memory");
  for (size_t i = 0; !st && i < nparams; i++)
    st = stiction_bam_params_read(param_paths[i], &ps[i], errbuf, errlen);
  if (!st && fill_keys(ev, param_paths, ps)) st = fail(errbuf, errlen, STICTION_ERR_NOMEM, "out of memory");
  for (size_t k = 0; !st && k < nlogs; k++)
    st = eval_log(ev, k, log_paths[k], ps, param_paths, errbuf, errlen);
  free(ps);
  if (!st) aggregate(ev);
  return st;
}

void st_bam_eval_free(st_bam_eval *ev) {
  st_bam_paths_free(ev->set_keys, ev->set_keys ? ev->nsets : 0);
  st_bam_paths_free(ev->log_names, ev->log_names ? ev->nlogs : 0);
  free(ev->mae);
  free(ev->mean);
  free(ev->std);
  free(ev->excluded);
  free(ev->mean_x);
  free(ev->std_x);
  *ev = (st_bam_eval){0};
}

static json_object *eval_json(const st_bam_eval *ev) {
  json_object *root = json_object_new_object(), *results = json_object_new_object();
  json_object *order = json_object_new_array();
  for (size_t k = 0; k < ev->nlogs; k++)
    json_object_array_add(order, json_object_new_string(ev->log_names[k]));
  for (size_t i = 0; i < ev->nsets; i++) {
    json_object *set = json_object_new_object(), *per = json_object_new_object();
    json_object_object_add(set, "mean", json_object_new_double(ev->mean[i]));
    json_object_object_add(set, "std", json_object_new_double(ev->std[i]));
    if (ev->nlogs_x < ev->nlogs && ev->nlogs_x > 0) {
      json_object_object_add(set, "mean_without_up_and_down", json_object_new_double(ev->mean_x[i]));
      json_object_object_add(set, "std_without_up_and_down", json_object_new_double(ev->std_x[i]));
    }
    for (size_t k = 0; k < ev->nlogs; k++)
      json_object_object_add(per, ev->log_names[k],
                             json_object_new_double(ev->mae[i * ev->nlogs + k]));
    json_object_object_add(set, "per_log", per);
    json_object_object_add(results, ev->set_keys[i], set);
  }
  json_object_object_add(root, "units", json_object_new_string("rad"));
  json_object_object_add(root, "log_order", order);
  json_object_object_add(root, "results", results);
  return root;
}

int st_bam_eval_write_json(const st_bam_eval *ev, const char *path, char *errbuf,
                           size_t errlen) {
  json_object *root = eval_json(ev);
  /* json-c prints doubles with 17 significant digits: values round-trip exactly */
  st_outfile out;
  int r = st_outfile_open(&out, path, "w");
  if (!r) {
    fputs(json_object_to_json_string_ext(root, JSON_C_TO_STRING_PRETTY), out.file);
    if (ferror(out.file)) st_outfile_abort(&out), r = -1;
    else r = st_outfile_commit(&out);
  }
  json_object_put(root);
  if (r < 0) return fail(errbuf, errlen, STICTION_ERR_IO, "%s: cannot write", path);
  return STICTION_OK;
}

void st_bam_write_rollout_csv(FILE *out, const stiction_bam_log *log,
                              const stiction_bam_step_info *info) {
  fputs("t,goal_position,log_position,sim_q,sim_dq,volts,torque_enable,tau_m,tau_e,"
        "frictionloss,damping,tau_fm_budget,tau_stop\n", out);
  for (size_t k = 0; k < log->n; k++) {
    const stiction_bam_step_info *s = &info[k];
    fprintf(out, "%.17g,%.17g,%.17g,%.17g,%.17g,%.17g,%d,%.17g,%.17g,%.17g,%.17g,%.17g,%.17g\n",
            (double)k * log->dt, log->goal[k], log->position[k], s->q, s->omega, s->volts,
            log->enable[k], s->tau_m, s->tau_e, s->frictionloss, s->damping, s->budget,
            s->tau_stop);
  }
}
