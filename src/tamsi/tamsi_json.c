/* TAMSI problem files (JSON, read with json-c in strict mode) and solutions as JSON.
 * Every malformed or inconsistent input ends in one located message, never in a crash. */
#include <limits.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <stiction/stiction.h>

#include "tamsi/tamsi_json.h"

typedef struct parse_ctx {
  const char *text, *file;
  size_t len;
  char *err;
  size_t errlen;
} parse_ctx;

/* Line and column (from 1) of byte offset off. */
static void line_col(const char *text, size_t off, int *line, int *col) {
  *line = 1;
  *col = 1;
  for (size_t i = 0; i < off && text[i]; i++) {
    if (text[i] == '\n') {
      ++*line;
      *col = 1;
    } else {
      ++*col;
    }
  }
}

/* json-c keeps no positions, so a message about a key points at the key's first
 * occurrence as a member name ("key" followed by ':'), or at no position if absent. The
 * text is c->len bytes, not NUL-terminated, and the key may be empty. */
static bool find_key(const parse_ctx *c, const char *key, size_t *off) {
  size_t klen = strlen(key), len = c->len;
  for (size_t i = 0; i + klen + 2 <= len; i++) {
    const char *p = c->text + i;
    if (p[0] != '"' || memcmp(p + 1, key, klen) != 0 || p[klen + 1] != '"') continue;
    size_t j = i + klen + 2;
    while (j < len && (c->text[j] == ' ' || c->text[j] == '\t' || c->text[j] == '\n' ||
                       c->text[j] == '\r'))
      j++;
    if (j < len && c->text[j] == ':') {
      *off = i;
      return true;
    }
  }
  return false;
}

static int fail(parse_ctx *c, const char *key, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

static int fail(parse_ctx *c, const char *key, const char *fmt, ...) {
  char msg[256];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(msg, sizeof msg, fmt, ap);
  va_end(ap);
  size_t off;
  if (key && find_key(c, key, &off)) {
    int line, col;
    line_col(c->text, off, &line, &col);
    snprintf(c->err, c->errlen, "%s:%d:%d: error: %s", c->file, line, col, msg);
  } else {
    snprintf(c->err, c->errlen, "%s: error: %s", c->file, msg);
  }
  return STICTION_ERR_SYNTAX;
}

static bool is_number(json_object *o) {
  return json_object_is_type(o, json_type_double) || json_object_is_type(o, json_type_int);
}

static const char *type_name(json_object *o) {
  return o ? json_type_to_name(json_object_get_type(o)) : "null";
}

static int get_number(parse_ctx *c, json_object *obj, const char *key, bool required,
                      double *out) {
  json_object *o;
  if (!json_object_object_get_ex(obj, key, &o))
    return required ? fail(c, NULL, "missing key '%s'", key) : STICTION_OK;
  if (!is_number(o)) return fail(c, key, "'%s' must be a number, got %s", key, type_name(o));
  *out = json_object_get_double(o);
  if (!isfinite(*out)) return fail(c, key, "'%s' must be finite", key);
  return STICTION_OK;
}

static int get_int(parse_ctx *c, json_object *obj, const char *key, int lo, int *out) {
  json_object *o;
  if (!json_object_object_get_ex(obj, key, &o)) return fail(c, NULL, "missing key '%s'", key);
  if (!json_object_is_type(o, json_type_int))
    return fail(c, key, "'%s' must be an integer, got %s", key, type_name(o));
  int64_t v = json_object_get_int64(o);
  if (v < lo || v > 1000000) return fail(c, key, "'%s' must be in [%d, 1000000]", key, lo);
  *out = (int)v;
  return STICTION_OK;
}

/* Fills dst (n entries) from the JSON array a; `what` names it in messages. */
static int fill_row(parse_ctx *c, const char *key, const char *what, json_object *a, int n,
                    double *dst) {
  if (!json_object_is_type(a, json_type_array))
    return fail(c, key, "%s must be an array, got %s", what, type_name(a));
  int len = (int)json_object_array_length(a);
  if (len != n) return fail(c, key, "%s must have %d entries, got %d", what, n, len);
  for (int i = 0; i < n; i++) {
    json_object *e = json_object_array_get_idx(a, (size_t)i);
    if (!is_number(e))
      return fail(c, key, "%s[%d] must be a number, got %s", what, i, type_name(e));
    dst[i] = json_object_get_double(e);
    if (!isfinite(dst[i])) return fail(c, key, "%s[%d] must be finite", what, i);
  }
  return STICTION_OK;
}

static int get_vector(parse_ctx *c, json_object *obj, const char *key, int n, double **out) {
  json_object *a;
  if (!json_object_object_get_ex(obj, key, &a)) return fail(c, NULL, "missing key '%s'", key);
  if (json_object_is_type(a, json_type_array) && (int)json_object_array_length(a) != n)
    return fail(c, key, "'%s' must have %d entries, got %d", key, n,
                (int)json_object_array_length(a));
  *out = calloc(n > 0 ? (size_t)n : 1, sizeof **out);
  if (!*out) return fail(c, NULL, "out of memory");
  char what[64];
  snprintf(what, sizeof what, "'%s'", key);
  return fill_row(c, key, what, a, n, *out);
}

/* A rows x cols matrix given as an array of rows. */
static int get_matrix(parse_ctx *c, json_object *obj, const char *key, int rows, int cols,
                      double **out) {
  json_object *a;
  if (!json_object_object_get_ex(obj, key, &a)) return fail(c, NULL, "missing key '%s'", key);
  if (!json_object_is_type(a, json_type_array))
    return fail(c, key, "'%s' must be an array of rows, got %s", key, type_name(a));
  int len = (int)json_object_array_length(a);
  if (len != rows)
    return fail(c, key, "'%s' must have %d rows (%d x %d), got %d", key, rows, rows, cols, len);
  *out = calloc(rows > 0 && cols > 0 ? (size_t)rows * (size_t)cols : 1, sizeof **out);
  if (!*out) return fail(c, NULL, "out of memory");
  for (int i = 0; i < rows; i++) {
    char what[64];
    snprintf(what, sizeof what, "row %d of '%s'", i, key);
    int rc = fill_row(c, key, what, json_object_array_get_idx(a, (size_t)i), cols,
                      *out + (size_t)i * (size_t)cols);
    if (rc) return rc;
  }
  return STICTION_OK;
}

static int check_keys(parse_ctx *c, json_object *obj, const char *const *known,
                      const char *where) {
  json_object_object_foreach(obj, key, val) {
    (void)val;
    bool ok = false;
    for (const char *const *k = known; *k && !ok; k++) ok = !strcmp(*k, key);
    if (!ok) return fail(c, key, "unknown key '%s'%s", key, where);
  }
  return STICTION_OK;
}

static int get_params(parse_ctx *c, json_object *root, stiction_tamsi_params *par) {
  *par = stiction_tamsi_default_params();
  json_object *o;
  if (!json_object_object_get_ex(root, "parameters", &o)) return STICTION_OK;
  if (!json_object_is_type(o, json_type_object))
    return fail(c, "parameters", "'parameters' must be an object, got %s", type_name(o));
  static const char *const known[] = {"stiction_tolerance", "relative_tolerance", "theta_max",
                                      "max_iterations", NULL};
  int rc = check_keys(c, o, known, " in 'parameters'");
  if (!rc) rc = get_number(c, o, "stiction_tolerance", false, &par->stiction_tolerance);
  if (!rc) rc = get_number(c, o, "relative_tolerance", false, &par->relative_tolerance);
  if (!rc) rc = get_number(c, o, "theta_max", false, &par->theta_max);
  if (!rc && json_object_object_get_ex(o, "max_iterations", NULL))
    rc = get_int(c, o, "max_iterations", 1, &par->max_iterations);
  if (rc) return rc;
  if (!(par->stiction_tolerance > 0))
    return fail(c, "stiction_tolerance", "'stiction_tolerance' must be > 0");
  if (!(par->relative_tolerance > 0 && par->relative_tolerance < 1))
    return fail(c, "relative_tolerance", "'relative_tolerance' must be in (0, 1)");
  if (!(par->theta_max > 0 && par->theta_max <= M_PI))
    return fail(c, "theta_max", "'theta_max' must be in (0, pi]");
  return STICTION_OK;
}

/* Two-way data: exactly one of fn0 and x0, with stiffness and dissipation. */
static int get_two_way(parse_ctx *c, json_object *root, st_tamsi_problem *p) {
  bool has_fn0 = json_object_object_get_ex(root, "fn0", NULL);
  bool has_x0 = json_object_object_get_ex(root, "x0", NULL);
  if (has_fn0 && has_x0) return fail(c, "x0", "give either 'fn0' or 'x0', not both");
  if (!has_fn0 && !has_x0) return fail(c, NULL, "two-way coupling needs 'fn0' or 'x0'");
  int rc = get_vector(c, root, "stiffness", p->nc, &p->k);
  if (!rc) rc = get_vector(c, root, "dissipation", p->nc, &p->d);
  if (!rc) rc = get_vector(c, root, has_fn0 ? "fn0" : "x0", p->nc, &p->fn0);
  if (rc) return rc;
  for (int i = 0; i < p->nc; i++) {
    if (p->k[i] < 0) return fail(c, "stiffness", "'stiffness'[%d] must be >= 0", i);
    if (p->d[i] < 0) return fail(c, "dissipation", "'dissipation'[%d] must be >= 0", i);
    if (has_x0) p->fn0[i] *= p->k[i]; /* fn0 = k x0 */
  }
  return STICTION_OK;
}

/* The coupling is decided by the keys present: 'fn' (one-way) or 'stiffness', 'dissipation'
 * and 'fn0'/'x0' (two-way); mixing them is an error. */
static int get_coupling(parse_ctx *c, json_object *root, st_tamsi_problem *p) {
  static const char *const two_way_keys[] = {"fn0", "x0", "stiffness", "dissipation"};
  const char *two = NULL;
  for (size_t i = 0; i < 4 && !two; i++)
    if (json_object_object_get_ex(root, two_way_keys[i], NULL)) two = two_way_keys[i];
  bool has_fn = json_object_object_get_ex(root, "fn", NULL);
  if (has_fn && two)
    return fail(c, two, "'fn' (one-way coupling) cannot be combined with '%s' (two-way)", two);
  if (!has_fn && !two)
    return fail(c, NULL, "missing 'fn' (one-way) or 'fn0'/'x0', 'stiffness', 'dissipation' "
                         "(two-way)");
  p->two_way = two != NULL;
  if (p->two_way) return get_two_way(c, root, p);
  int rc = get_vector(c, root, "fn", p->nc, &p->fn);
  for (int i = 0; !rc && i < p->nc; i++)
    if (p->fn[i] < 0) rc = fail(c, "fn", "'fn'[%d] must be >= 0", i);
  return rc;
}

static int get_contact_count(parse_ctx *c, json_object *root, int *nc) {
  json_object *mu;
  if (!json_object_object_get_ex(root, "mu", &mu)) return fail(c, NULL, "missing key 'mu'");
  if (!json_object_is_type(mu, json_type_array))
    return fail(c, "mu", "'mu' must be an array (one friction coefficient per contact), got %s",
                type_name(mu));
  *nc = (int)json_object_array_length(mu);
  return STICTION_OK;
}

static int get_problem(parse_ctx *c, json_object *root, st_tamsi_problem *p) {
  if (!json_object_is_type(root, json_type_object))
    return fail(c, NULL, "the problem must be a JSON object, got %s", type_name(root));
  static const char *const known[] = {"nv", "M", "Jn", "Jt", "p_star", "dt", "v_guess", "mu",
                                      "fn", "fn0", "x0", "stiffness", "dissipation",
                                      "parameters", NULL};
  int rc = check_keys(c, root, known, "");
  if (!rc) rc = get_int(c, root, "nv", 0, &p->nv);
  if (!rc) rc = get_contact_count(c, root, &p->nc);
  if (rc) return rc;
  int nv = p->nv, nc = p->nc;
  if (!rc) rc = get_vector(c, root, "mu", nc, &p->mu);
  if (!rc) rc = get_matrix(c, root, "M", nv, nv, &p->M);
  if (!rc) rc = get_matrix(c, root, "Jn", nc, nv, &p->Jn);
  if (!rc) rc = get_matrix(c, root, "Jt", 2 * nc, nv, &p->Jt);
  if (!rc) rc = get_vector(c, root, "p_star", nv, &p->p_star);
  if (!rc) rc = get_vector(c, root, "v_guess", nv, &p->v_guess);
  if (!rc) rc = get_number(c, root, "dt", true, &p->dt);
  if (!rc && !(p->dt > 0)) rc = fail(c, "dt", "'dt' must be > 0");
  for (int i = 0; !rc && i < nc; i++)
    if (p->mu[i] < 0) rc = fail(c, "mu", "'mu'[%d] must be >= 0", i);
  if (!rc) rc = get_coupling(c, root, p);
  if (!rc) rc = get_params(c, root, &p->par);
  return rc;
}

/* Parses text as one JSON value (strict RFC 8259: no NaN, no comments) with nothing but
 * white space after it. */
static json_object *parse_json(parse_ctx *c) {
  json_tokener *tok = json_tokener_new();
  if (!tok) {
    fail(c, NULL, "out of memory");
    return NULL;
  }
  json_tokener_set_flags(tok, JSON_TOKENER_STRICT);
  json_object *root = json_tokener_parse_ex(tok, c->text, (int)c->len);
  enum json_tokener_error e = json_tokener_get_error(tok);
  size_t end = json_tokener_get_parse_end(tok);
  json_tokener_free(tok);
  const char *why = NULL;
  if (e == json_tokener_continue) why = "unexpected end of input";
  else if (e != json_tokener_success) why = json_tokener_error_desc(e);
  else {
    while (end < c->len && strchr(" \t\r\n", c->text[end])) end++;
    if (end < c->len) why = "unexpected text after the JSON value";
  }
  if (!why) return root;
  json_object_put(root);
  int line, col;
  line_col(c->text, end < c->len ? end : c->len, &line, &col);
  snprintf(c->err, c->errlen, "%s:%d:%d: error: invalid JSON: %s", c->file, line, col, why);
  return NULL;
}

int st_tamsi_problem_parse(const char *text, size_t len, const char *file, st_tamsi_problem *p,
                           char *err, size_t errlen) {
  memset(p, 0, sizeof *p);
  parse_ctx c = {text, file, len, err, errlen};
  if (errlen) err[0] = 0;
  if (len > INT_MAX) { /* json-c takes an int length */
    fail(&c, NULL, "the file is larger than %d bytes", INT_MAX);
    return STICTION_ERR_SYNTAX;
  }
  if (memchr(text, 0, len)) {
    fail(&c, NULL, "the file contains a NUL byte; not a JSON text");
    return STICTION_ERR_SYNTAX;
  }
  json_object *root = parse_json(&c);
  if (!root) return STICTION_ERR_SYNTAX;
  int rc = get_problem(&c, root, p);
  json_object_put(root);
  if (rc) st_tamsi_problem_free(p);
  return rc;
}

void st_tamsi_problem_free(st_tamsi_problem *p) {
  if (!p) return;
  double *arrays[] = {p->M, p->Jn, p->Jt, p->p_star, p->v_guess, p->mu, p->fn, p->fn0, p->k, p->d};
  for (size_t i = 0; i < sizeof arrays / sizeof arrays[0]; i++) free(arrays[i]);
  memset(p, 0, sizeof *p);
}

stiction_tamsi *st_tamsi_problem_solve(const st_tamsi_problem *p, int *result, char *err,
                                       size_t errlen) {
  stiction_tamsi *s;
  int rc = stiction_tamsi_create(p->nv, &s);
  if (rc) {
    snprintf(err, errlen, "cannot create the solver: %s", stiction_strerror(rc));
    return NULL;
  }
  int nv = p->nv, nc = p->nc;
  stiction_tamsi_mat M = {nv, nv, p->M}, Jn = {nc, nv, p->Jn}, Jt = {2 * nc, nv, p->Jt};
  stiction_tamsi_vec ps = {nv, p->p_star}, mu = {nc, p->mu};
  rc = stiction_tamsi_set_params(s, &p->par);
  if (!rc && p->two_way)
    rc = stiction_tamsi_set_two_way(s, M, Jn, Jt, ps, (stiction_tamsi_vec){nc, p->fn0},
                                    (stiction_tamsi_vec){nc, p->k},
                                    (stiction_tamsi_vec){nc, p->d}, mu);
  else if (!rc)
    rc = stiction_tamsi_set_one_way(s, M, Jn, Jt, ps, (stiction_tamsi_vec){nc, p->fn}, mu);
  if (!rc) rc = stiction_tamsi_solve(s, p->dt, p->v_guess);
  if (rc < 0) {
    snprintf(err, errlen, "%s", *stiction_tamsi_error(s) ? stiction_tamsi_error(s)
                                                         : stiction_strerror(rc));
    stiction_tamsi_free(s);
    return NULL;
  }
  *result = rc;
  return s;
}

static json_object *number(double x) {
  return isfinite(x) ? json_object_new_double(x) : NULL;
}

static json_object *array(const double *x, int n) {
  json_object *a = json_object_new_array();
  for (int i = 0; a && x && i < n; i++) json_object_array_add(a, number(x[i]));
  return a;
}

json_object *st_tamsi_solution_json(const stiction_tamsi *s, int result) {
  int nv = stiction_tamsi_nv(s), nc = stiction_tamsi_nc(s), it = stiction_tamsi_iterations(s);
  json_object *o = json_object_new_object();
  if (!o) return NULL;
  json_object_object_add(o, "result", json_object_new_string(stiction_tamsi_result_name(result)));
  json_object_object_add(o, "v", array(stiction_tamsi_v(s), nv));
  json_object_object_add(o, "vn", array(stiction_tamsi_vn(s), nc));
  json_object_object_add(o, "vt", array(stiction_tamsi_vt(s), 2 * nc));
  json_object_object_add(o, "fn", array(stiction_tamsi_fn(s), nc));
  json_object_object_add(o, "ft", array(stiction_tamsi_ft(s), 2 * nc));
  json_object_object_add(o, "tau_f", array(stiction_tamsi_tau_f(s), nv));
  json_object_object_add(o, "tau", array(stiction_tamsi_tau(s), nv));
  json_object_object_add(o, "iterations", json_object_new_int(it));
  json_object_object_add(o, "vt_residual", number(stiction_tamsi_vt_residual(s)));
  json_object_object_add(o, "residuals", array(stiction_tamsi_residuals(s), it));
  json_object_object_add(o, "alphas", array(stiction_tamsi_alphas(s), it));
  return o;
}
