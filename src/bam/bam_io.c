/* JSON readers for BAM parameter files (doc/bam.md §3.1) and processed logs (§5.2), on json-c.
 * Errors become one line "FILE: reason" in the caller's buffer; nothing is printed here. */
#include <errno.h>
#include <json-c/json.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <stiction/bam.h>
#include <stiction/stiction.h>

#include "bam/bam_fit.h"
#include "util/outfile.h"

static int fail(char *errbuf, size_t errlen, int status, const char *path, const char *fmt, ...) {
  if (errbuf && errlen) {
    char msg[512];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    snprintf(errbuf, errlen, "%s: %s", path, msg);
  }
  return status;
}

/* Reads the whole file as JSON; *root is NULL and errbuf explains on failure. */
static int load_json(const char *path, json_object **root, char *errbuf, size_t errlen) {
  FILE *f = fopen(path, "rb");
  if (!f) return fail(errbuf, errlen, STICTION_ERR_IO, path, "%s", strerror(errno));
  json_tokener *tok = json_tokener_new();
  char buf[65536];
  size_t n;
  enum json_tokener_error jerr = json_tokener_continue;
  *root = NULL;
  while (!*root && (n = fread(buf, 1, sizeof buf, f)) > 0) {
    *root = json_tokener_parse_ex(tok, buf, (int)n);
    jerr = json_tokener_get_error(tok);
    if (jerr != json_tokener_continue && jerr != json_tokener_success) break;
  }
  int line_err = ferror(f) ? errno : 0;
  fclose(f);
  if (!*root && jerr == json_tokener_continue) *root = json_tokener_parse_ex(tok, "", 1);
  if (!*root) jerr = json_tokener_get_error(tok);
  json_tokener_free(tok);
  if (line_err) return fail(errbuf, errlen, STICTION_ERR_IO, path, "%s", strerror(line_err));
  if (!*root)
    return fail(errbuf, errlen, STICTION_ERR_SYNTAX, path, "invalid JSON (%s)",
                json_tokener_error_desc(jerr == json_tokener_continue
                                            ? json_tokener_error_parse_eof : jerr));
  if (!json_object_is_type(*root, json_type_object)) {
    json_object_put(*root);
    *root = NULL;
    return fail(errbuf, errlen, STICTION_ERR_SYNTAX, path, "top level is not a JSON object");
  }
  return STICTION_OK;
}

/* A numeric member: 1 if present and numeric, 0 if absent, -1 if present with another type. */
static int get_number(json_object *obj, const char *key, double *out) {
  json_object *v;
  if (!json_object_object_get_ex(obj, key, &v) || json_object_is_type(v, json_type_null))
    return 0;
  if (json_object_is_type(v, json_type_double) || json_object_is_type(v, json_type_int) ||
      json_object_is_type(v, json_type_boolean)) {
    *out = json_object_get_double(v);
    return 1;
  }
  return -1;
}

static const char *get_string(json_object *obj, const char *key) {
  json_object *v;
  if (!json_object_object_get_ex(obj, key, &v) || !json_object_is_type(v, json_type_string))
    return NULL;
  return json_object_get_string(v);
}

typedef struct param_key {
  const char *key;
  size_t offset;
} param_key;

#define PK(name, field) {name, offsetof(stiction_bam_params, field)}
static const param_key param_keys[] = {
  PK("kt", kt), PK("R", R), PK("armature", armature), PK("q_offset", q_offset),
  PK("current_limit", current_limit), PK("friction_base", Kc), PK("friction_viscous", Kv),
  PK("friction_stribeck", Kcs), PK("dtheta_stribeck", ws), PK("alpha", alpha),
  PK("load_friction_base", Kl), PK("load_friction_stribeck", Kls),
  PK("load_friction_motor", Km), PK("load_friction_external", Ke),
  PK("load_friction_motor_stribeck", Kms), PK("load_friction_external_stribeck", Kes),
  PK("load_friction_motor_quad", Kmq), PK("load_friction_external_quad", Keq),
};
#undef PK

double *st_bam_param_field(stiction_bam_params *p, const char *key) {
  for (size_t i = 0; key && i < sizeof param_keys / sizeof param_keys[0]; i++)
    if (!strcmp(key, param_keys[i].key)) return (double *)((char *)p + param_keys[i].offset);
  return NULL;
}

static json_object *params_json(const stiction_bam_params *p, const char *const *keys,
                                size_t nkeys) {
  json_object *root = json_object_new_object();
  stiction_bam_params copy = *p;
  for (size_t i = 0; i < nkeys; i++) {
    double *v = st_bam_param_field(&copy, keys[i]);
    if (v) json_object_object_add(root, keys[i], json_object_new_double(*v));
  }
  json_object_object_add(root, "model", json_object_new_string(stiction_bam_model_name(p->model)));
  json_object_object_add(root, "actuator",
                         json_object_new_string(stiction_bam_actuator_name(p->actuator)));
  return root;
}

/* Through util/outfile: a temporary file beside path, renamed over it once complete, so a
 * reader never sees half a file and a failed write leaves the previous one. json-c prints
 * doubles so that they read back exactly. */
int st_bam_params_write(const char *path, const stiction_bam_params *p,
                        const char *const *keys, size_t nkeys, char *errbuf, size_t errlen) {
  st_outfile out;
  if (st_outfile_open(&out, path, "w"))
    return fail(errbuf, errlen, STICTION_ERR_IO, path, "cannot write (%s)", strerror(errno));
  json_object *root = params_json(p, keys, nkeys);
  int bad = fputs(json_object_to_json_string_ext(root, JSON_C_TO_STRING_PRETTY), out.file) < 0 ||
            fputc('\n', out.file) == EOF;
  json_object_put(root);
  int e = errno;
  if (bad) st_outfile_abort(&out);
  else if (st_outfile_commit(&out)) bad = 1, e = errno;
  return bad ? fail(errbuf, errlen, STICTION_ERR_IO, path, "cannot write (%s)", strerror(e))
             : STICTION_OK;
}

static int read_param_values(json_object *root, stiction_bam_params *p, const char *path,
                             char *errbuf, size_t errlen) {
  for (size_t i = 0; i < sizeof param_keys / sizeof param_keys[0]; i++) {
    double *field = (double *)((char *)p + param_keys[i].offset);
    if (get_number(root, param_keys[i].key, field) < 0)
      return fail(errbuf, errlen, STICTION_ERR_SYNTAX, path, "\"%s\" is not a number",
                  param_keys[i].key);
  }
  if (!(p->R > 0) || !(p->armature > 0))
    return fail(errbuf, errlen, STICTION_ERR_ARG, path, "\"R\" and \"armature\" must be > 0");
  if (p->model != STICTION_BAM_M1 && p->model != STICTION_BAM_M3 &&
      (!(p->ws > 0) || !(p->alpha > 0)))
    return fail(errbuf, errlen, STICTION_ERR_ARG, path,
                "\"dtheta_stribeck\" and \"alpha\" must be > 0");
  return STICTION_OK;
}

int stiction_bam_params_read(const char *path, stiction_bam_params *p, char *errbuf,
                             size_t errlen) {
  json_object *root;
  if (!path || !p) return STICTION_ERR_ARG;
  int st = load_json(path, &root, errbuf, errlen);
  if (st) return st;
  const char *ms = get_string(root, "model"), *as = get_string(root, "actuator");
  stiction_bam_model m = ms ? stiction_bam_model_from_name(ms) : 0;
  stiction_bam_actuator a = as ? stiction_bam_actuator_from_name(as) : 0;
  if (!m)
    st = fail(errbuf, errlen, STICTION_ERR_SYNTAX, path, "\"model\" must be \"m1\"..\"m6\"%s%s",
              ms ? ", not " : "", ms ? ms : "");
  else if (!a)
    st = fail(errbuf, errlen, STICTION_ERR_SYNTAX, path, "unknown \"actuator\" %s",
              as ? as : "(missing)");
  else {
    stiction_bam_params_default(p, m, a);
    st = read_param_values(root, p, path, errbuf, errlen);
  }
  json_object_put(root);
  return st;
}

void stiction_bam_log_free(stiction_bam_log *log) {
  if (!log) return;
  free(log->position);
  free(log->speed);
  free(log->goal);
  free(log->enable);
  free(log);
}

static int read_log_header(json_object *root, stiction_bam_log *log, const char *path,
                           char *errbuf, size_t errlen) {
  static const char *required[] = {"mass", "length", "kp", "vin", "dt"};
  double *dst[] = {&log->mass, &log->length, &log->kp, &log->vin, &log->dt};
  for (int i = 0; i < 5; i++) {
    int r = get_number(root, required[i], dst[i]);
    if (r <= 0)
      return fail(errbuf, errlen, STICTION_ERR_SYNTAX, path, "\"%s\" %s%s", required[i],
                  r < 0 ? "is not a number" : "is missing",
                  !strcmp(required[i], "dt") && !r ? " (not a processed log?)" : "");
  }
  log->arm_mass = 0.0;
  if (get_number(root, "arm_mass", &log->arm_mass) < 0 ||
      (log->arm_mass == 0.0 && get_number(root, "arm-mass", &log->arm_mass) < 0))
    return fail(errbuf, errlen, STICTION_ERR_SYNTAX, path, "\"arm_mass\" is not a number");
  log->damping = -1.0;
  if (get_number(root, "damping", &log->damping) < 0)
    return fail(errbuf, errlen, STICTION_ERR_SYNTAX, path, "\"damping\" is not a number");
  if (!(log->dt > 0))
    return fail(errbuf, errlen, STICTION_ERR_ARG, path, "\"dt\" must be > 0");
  const char *traj = get_string(root, "trajectory");
  snprintf(log->trajectory, sizeof log->trajectory, "%s", traj ? traj : "");
  return STICTION_OK;
}

static int read_log_entry(json_object *e, stiction_bam_log *log, size_t k, const char *path,
                          char *errbuf, size_t errlen) {
  double en = 0.0;
  log->speed[k] = 0.0;
  if (!json_object_is_type(e, json_type_object) || get_number(e, "position", &log->position[k]) <= 0 ||
      get_number(e, "goal_position", &log->goal[k]) <= 0 ||
      get_number(e, "torque_enable", &en) <= 0 || get_number(e, "speed", &log->speed[k]) < 0)
    return fail(errbuf, errlen, STICTION_ERR_SYNTAX, path,
                "entry %zu lacks a numeric position, goal_position or torque_enable", k);
  log->enable[k] = en != 0.0;
  return STICTION_OK;
}

static int read_log_entries(json_object *root, stiction_bam_log *log, const char *path,
                            char *errbuf, size_t errlen) {
  json_object *arr;
  if (!json_object_object_get_ex(root, "entries", &arr) ||
      !json_object_is_type(arr, json_type_array) || json_object_array_length(arr) == 0)
    return fail(errbuf, errlen, STICTION_ERR_SYNTAX, path, "no \"entries\" array (or empty)");
  size_t n = json_object_array_length(arr);
  log->position = malloc(n * sizeof(double));
  log->speed = malloc(n * sizeof(double));
  log->goal = malloc(n * sizeof(double));
  log->enable = malloc(n);
  if (!log->position || !log->speed || !log->goal || !log->enable)
    return fail(errbuf, errlen, STICTION_ERR_NOMEM, path, "out of memory");
  log->n = n;
  for (size_t k = 0; k < n; k++) {
    int st = read_log_entry(json_object_array_get_idx(arr, k), log, k, path, errbuf, errlen);
    if (st) return st;
  }
  return STICTION_OK;
}

int stiction_bam_log_read(const char *path, stiction_bam_log **out, char *errbuf,
                          size_t errlen) {
  json_object *root;
  if (!path || !out) return STICTION_ERR_ARG;
  *out = NULL;
  int st = load_json(path, &root, errbuf, errlen);
  if (st) return st;
  stiction_bam_log *log = calloc(1, sizeof *log);
  if (!log) st = fail(errbuf, errlen, STICTION_ERR_NOMEM, path, "out of memory");
  if (!st) st = read_log_header(root, log, path, errbuf, errlen);
  if (!st) st = read_log_entries(root, log, path, errbuf, errlen);
  json_object_put(root);
  if (st) stiction_bam_log_free(log);
  else *out = log;
  return st;
}
