/* Run-time errors of a compiled model, located in the user's text (doc/compiler.md,
 * "Run-time errors"). The runtime sees only the vector a callback returned (derivatives(),
 * outputs(), indicators()) and can name a state or an output; the compiled model knows which
 * equation produced the value, so it reports that one, as "file:line:col: error: ...". */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "compile/model_impl.h"
#include "util/finite.h"

/* "NaN", "+Inf" or "-Inf" (the words the message promises, not printf's "nan"/"inf"). */
static const char *nonfinite_word(double v) {
  if (isnan(v)) return "NaN";
  return v > 0 ? "+Inf" : "-Inf";
}

/* The representative that alias slot s stands for. */
static int representative(const st_compiled *cm, int s) {
  while (cm->p.slots[s].kind == K_ALIAS) s = cm->p.slots[s].alias_of;
  return s;
}

/* "v", or "v (also a, b)" when alias elimination merged a and b into v: the user may know the
 * variable by the name the equation uses. */
static void describe(const st_compiled *cm, int s, char *buf, size_t size) {
  size_t len = (size_t)snprintf(buf, size, "%s", cm->p.slots[s].name);
  int n = 0;
  for (int a = 0; a < cm->p.nslots && len + 8 < size; a++) {
    if (cm->p.slots[a].kind != K_ALIAS || !cm->p.slots[a].name || representative(cm, a) != s)
      continue;
    len += (size_t)snprintf(buf + len, size - len, "%s%s", n++ ? ", " : " (also ",
                            cm->p.slots[a].name);
  }
  if (n && len + 1 < size) snprintf(buf + len, size - len, ")");
}

/* Parameters and variables computed from them (K_CONST, alias.c) come before every block:
 * the first non-finite one, or -1. */
static int nonfinite_parameter(const st_compiled *cm) {
  for (int s = 0; s < cm->p.nslots; s++)
    if (cm->p.slots[s].kind == K_PARAM && !isfinite(cm->x[s])) return s;
  for (int k = 0; k < cm->p.nconsts; k++)
    if (!isfinite(cm->x[cm->p.const_slot[k]])) return cm->p.const_slot[k];
  return -1;
}

/* Blocks run in BLT order and every block reads only the states, parameters and the unknowns
 * of earlier blocks, so the first block holding a non-finite unknown is where the NaN or Inf
 * was born (an earlier non-finite unknown would have been found first). Returns the block
 * index and the position of that unknown in it (real unknowns first, then discrete ones), or
 * -1 when every unknown is finite. */
static int first_nonfinite_block(const st_compiled *cm, int *pos) {
  for (int k = 0; k < cm->nblocks; k++) {
    const st_block *b = &cm->blocks[k];
    for (int i = 0; i < b->n + b->nd; i++) {
      int s = i < b->n ? b->slots[i] : b->dslots[i - b->n];
      if (isfinite(cm->x[s])) continue;
      *pos = i;
      return k;
    }
  }
  return -1;
}

/* In the DAE form (dae.c) IDA holds the unknowns of the algebraic blocks and the blocks give
 * residuals: the first non-finite residual, as a block index and the equation's position. */
static int first_nonfinite_residual(const st_compiled *cm, int *pos) {
  if (!cm->dae) return -1;
  for (int k = 0; k < cm->nblocks; k++) {
    const st_block *b = &cm->blocks[k];
    if (b->dae_off < 0) continue;
    for (int i = 0; i < b->n; i++) {
      if (isfinite(cm->dae_r[b->dae_off + i])) continue;
      *pos = i;
      return k;
    }
  }
  return -1;
}

/* The first relation whose indicator expression is not finite (a - b of `a > b`). */
static int first_nonfinite_relation(st_compiled *cm, double *value) {
  for (int k = 0; k < cm->p.nrels; k++) {
    if (cm->rels[k].indicator < 0) continue;
    double v = st_vm_eval(&cm->vm, &cm->rels[k].ind);
    if (isfinite(v)) continue;
    *value = v;
    return k;
  }
  return -1;
}

/* Why the last compiled function call failed (a failed assert, a subscript out of range, a
 * recursion past the depth bound), "" when it did not: a failed call returns NaN, so the
 * equation that called it is where the NaN is found. */
static const char *call_failure(const st_compiled *cm) {
  return cm->fcalls ? st_fcalls_failure(cm->fcalls) : "";
}

/* Reports the origin of a non-finite value; what: the callback's vector, for the fallback. */
static void report_nonfinite(st_compiled *cm, const char *what) {
  char name[256];
  double t = cm->vm.time;
  int p = nonfinite_parameter(cm);
  if (p >= 0) {
    describe(cm, p, name, sizeof name);
    const char *why = call_failure(cm);
    st_fail(cm, cm->p.slots[p].loc, cm->p.slots[p].kind == K_PARAM
            ? "parameter %s evaluated to %s%s%s%s" : "%s, set by a parameter expression, is %s%s%s%s",
            name, nonfinite_word(cm->x[p]), why[0] ? " (" : "", why, why[0] ? ")" : "");
    return;
  }
  int pos, k = first_nonfinite_block(cm, &pos);
  if (k >= 0) {
    const st_block *b = &cm->blocks[k];
    int s = pos < b->n ? b->slots[pos] : b->dslots[pos - b->n];
    int q = pos < b->n ? b->eqs[pos] : b->deqs[pos - b->n];
    describe(cm, s, name, sizeof name);
    st_fail(cm, cm->p.eqs[q].loc, "the equation for %s evaluated to %s at t = %.17g%s%s%s", name,
            nonfinite_word(cm->x[s]), t, call_failure(cm)[0] ? " (" : "", call_failure(cm),
            call_failure(cm)[0] ? ")" : "");
    return;
  }
  int r = first_nonfinite_residual(cm, &pos);
  if (r >= 0) {
    const st_block *b = &cm->blocks[r];
    describe(cm, b->slots[pos], name, sizeof name);
    st_fail(cm, cm->p.eqs[b->eqs[pos]].loc, "the residual of this equation (of the system for "
            "%s) evaluated to %s at t = %.17g", name, nonfinite_word(cm->dae_r[b->dae_off + pos]),
            t);
    return;
  }
  double v = 0;
  r = first_nonfinite_relation(cm, &v);
  if (r >= 0) {
    st_fail(cm, cm->rels[r].loc, "this relation evaluated to %s at t = %.17g",
            nonfinite_word(v), t);
    return;
  }
  st_fail(cm, cm->p.flat->loc, "%s of %s evaluated to NaN or Inf at t = %.17g", what,
          cm->p.flat->name ? cm->p.flat->name : "the model", t);
}

int st_check_finite_results(st_compiled *cm, const double *v, int n, const char *what) {
  return st_check_finite_summed(cm, v, n, st_sum_is_finite(v, n), what);
}

/* A finite sum proves every entry finite (one addition each on the hot path); a sum that is
 * not finite may be an overflow of finite entries, so only an entry that is itself NaN or Inf
 * is reported (util/finite.h). */
int st_check_finite_summed(st_compiled *cm, const double *v, int n, int sum_finite,
                           const char *what) {
  if (sum_finite || st_first_nonfinite(v, n) < 0) {
    /* a failed call whose NaN did not reach the results (an untaken branch) is no news,
     * unless the NaN sits in an unknown these results do not hold (checked only then) */
    if (cm->fcalls && call_failure(cm)[0]) {
      int pos;
      st_fcalls_clear_failure(cm->fcalls, nonfinite_parameter(cm) >= 0 ||
                                              first_nonfinite_block(cm, &pos) >= 0);
    }
    return 0;
  }
  report_nonfinite(cm, what);
  return -1;
}

int st_check_failed_parameters(st_compiled *cm) {
  if (!cm->fcalls || !call_failure(cm)[0] || nonfinite_parameter(cm) < 0) return 0;
  report_nonfinite(cm, "the parameters");
  return -1;
}

void st_report_eval_failure(st_compiled *cm) {
  st_fail(cm, cm->error_loc, "%s", cm->error ? cm->error : "evaluation failed");
}
