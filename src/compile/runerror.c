/* Run-time errors of a compiled model, located in the user's text (doc/compiler.md,
 * "Run-time errors"). The runtime sees only the vector a callback returned (derivatives(),
 * outputs(), indicators()) and can name a state or an output; the compiled model knows which
 * equation produced the value, so it reports that one, as "file:line:col: error: ...". */
#include <math.h>

#include "compile/model_impl.h"

/* "NaN", "+Inf" or "-Inf" (the words the message promises, not printf's "nan"/"inf"). */
static const char *nonfinite_word(double v) {
  if (isnan(v)) return "NaN";
  return v > 0 ? "+Inf" : "-Inf";
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

/* The first relation whose indicator expression is not finite (a - b of `a > b`). */
static int first_nonfinite_relation(st_compiled *cm, double *value) {
  for (int k = 0; k < cm->nrels; k++) {
    if (cm->rels[k].indicator < 0) continue;
    double v = st_vm_eval(&cm->vm, &cm->rels[k].ind);
    if (isfinite(v)) continue;
    *value = v;
    return k;
  }
  return -1;
}

/* Reports the origin of a non-finite value; what: the callback's vector, for the fallback. */
static void report_nonfinite(st_compiled *cm, const char *what) {
  int pos, k = first_nonfinite_block(cm, &pos);
  double t = cm->vm.time;
  if (k >= 0) {
    const st_block *b = &cm->blocks[k];
    int s = pos < b->n ? b->slots[pos] : b->dslots[pos - b->n];
    int q = pos < b->n ? b->eqs[pos] : b->deqs[pos - b->n];
    st_fail(cm, cm->eqs[q].loc, "the equation for %s evaluated to %s at t = %.17g",
            cm->slots[s].name, nonfinite_word(cm->x[s]), t);
    return;
  }
  double v = 0;
  int r = first_nonfinite_relation(cm, &v);
  if (r >= 0) {
    st_fail(cm, cm->rels[r].loc, "this relation evaluated to %s at t = %.17g",
            nonfinite_word(v), t);
    return;
  }
  st_fail(cm, cm->flat->loc, "%s of %s evaluated to NaN or Inf at t = %.17g", what,
          cm->flat->name ? cm->flat->name : "the model", t);
}

int st_check_finite_results(st_compiled *cm, const double *v, int n, const char *what) {
  /* v*0 is 0 for every finite v and NaN for NaN and +-Inf: one test on the hot path, exact
   * (a plain sum could overflow to Inf without any entry being infinite) */
  double s = 0;
  for (int i = 0; i < n; i++) s += v[i] * 0.0;
  if (s == 0) return 0;
  report_nonfinite(cm, what);
  return -1;
}

void st_report_eval_failure(st_compiled *cm) {
  st_fail(cm, cm->error_loc, "%s", cm->error[0] ? cm->error : "evaluation failed");
}
