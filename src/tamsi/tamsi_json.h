/* JSON form of one TAMSI step (doc/tamsi.md "Problem file"): parsing with json-c, strict
 * checks of keys, types and sizes, and the JSON form of a solution. */
#ifndef ST_FRICTION_TAMSI_JSON_H
#define ST_FRICTION_TAMSI_JSON_H

#include <stdbool.h>
#include <stddef.h>

#include <json-c/json.h>

#include <stiction/tamsi.h>

/* One step's data, owned (every array is malloc'd; free with st_tamsi_problem_free). */
typedef struct st_tamsi_problem {
  int nv, nc;
  bool two_way;
  double dt;
  double *M, *Jn, *Jt;     /* row-major nv x nv, nc x nv, 2nc x nv */
  double *p_star, *v_guess; /* nv */
  double *mu, *fn;         /* nc; fn one-way only */
  double *fn0, *k, *d;     /* nc; two-way only (fn0 = k x0 when x0 was given) */
  stiction_tamsi_params par;
} st_tamsi_problem;

/* Parses the text of a problem file. On error returns a negative stiction_status and writes
 * one line "FILE[:LINE:COL]: error: ..." (no newline) into err; *p is then empty. */
int st_tamsi_problem_parse(const char *text, size_t len, const char *file, st_tamsi_problem *p,
                           char *err, size_t errlen);
void st_tamsi_problem_free(st_tamsi_problem *p);

/* Creates a solver for p, sets its parameters and data (which p must outlive) and solves.
 * Returns the solver (caller frees) and the result code in *result, or NULL with a message. */
stiction_tamsi *st_tamsi_problem_solve(const st_tamsi_problem *p, int *result, char *err,
                                       size_t errlen);

/* The solution as a JSON object (caller puts it): result, v, vn, vt, fn, ft, tau_f, tau,
 * iterations, vt_residual, residuals, alphas. Non-finite numbers become null. */
json_object *st_tamsi_solution_json(const stiction_tamsi *s, int result);

#endif
