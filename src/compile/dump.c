/* The translation log (--dump): state selection, BLT blocks with their solution method,
 * mixed systems, relations and time events. */
#include "compile/model_impl.h"

static const char *block_kind(const st_block *b) {
  switch (b->kind) {
  case BK_ASSIGN: return "assignment";
  case BK_SOLVE:
    if (st_block_uses_klu(b)) return b->linear ? "linear system (KLU)" : "nonlinear system (Newton, KLU)";
    return b->linear ? "linear system (LU)" : "nonlinear system (Newton)";
  case BK_DISCRETE: return "discrete";
  case BK_ALGORITHM: return "algorithm section";
  default: return b->linear ? "mixed system (fixed point; real part linear)"
                            : "mixed system (fixed point; real part nonlinear)";
  }
}

static void dump_loc(FILE *out, st_loc l) {
  if (l.file) fprintf(out, " at %s:%d:%d", l.file, l.line, l.col);
}

static void dump_block(const st_compiled *cm, const st_block *b, int k, FILE *out) {
  fprintf(out, "  block %d: %s, %d unknown%s:", k + 1, block_kind(b), b->n + b->nd,
          b->n + b->nd == 1 ? "" : "s");
  for (int i = 0; i < b->n; i++) fprintf(out, " %s", cm->p.slots[b->slots[i]].name);
  for (int i = 0; i < b->nd; i++) fprintf(out, " %s", cm->p.slots[b->dslots[i]].name);
  fputc('\n', out);
  if (b->kind == BK_MIXED && b->compared) {
    fprintf(out, "    compared (metric of a singular real part):");
    for (int i = 0; i < b->n; i++)
      if (b->compared[i]) fprintf(out, " %s", cm->p.slots[b->slots[i]].name);
    fputc('\n', out);
  }
  if (b->ntear) {
    fprintf(out, "    torn: Newton over %d tear variable%s:", b->ntear, b->ntear == 1 ? "" : "s");
    for (int t = 0; t < b->ntear; t++) fprintf(out, " %s", cm->p.slots[b->slots[b->tear[t]]].name);
    fprintf(out, "; %d assigned in sequence\n", b->nseq);
  }
  if (b->n + b->nd > 1)
    for (int i = 0; i < b->n + b->nd; i++) {
      const st_ceq *q = &cm->p.eqs[i < b->n ? b->eqs[i] : b->deqs[i - b->n]];
      fprintf(out, "    equation");
      dump_loc(out, q->loc);
      fputc('\n', out);
    }
}

void st_compiled_dump(const st_compiled *cm, FILE *out) {
  st_compile_info info;
  st_compiled_info(cm, &info);
  fprintf(out, "Translation of %s\n", cm->p.flat->name ? cm->p.flat->name : "?");
  fprintf(out, "  %d states, %d algebraic, %d discrete, %d parameters, %d aliases eliminated, "
          "%d equations differentiated\n", info.n_states, info.n_algebraic, info.n_discrete,
          info.n_parameters, info.n_aliases, info.n_differentiated);
  fprintf(out, "  alias elimination: %d alias variables, %d variables bound to parameter "
          "expressions\n", info.n_aliases, info.n_constants);
  fprintf(out, "Selected states:");
  for (int i = 0; i < cm->p.nstates; i++) fprintf(out, " %s", cm->p.state_names[i]);
  for (int k = 0; k < cm->p.ndyn; k++) {
    const st_dynset *ds = &cm->p.dyn[k];
    fprintf(out, "\nDynamic state set %d: %d of the %d candidates as states (%d equations",
            k + 1, ds->nstate, ds->ncand, ds->neq);
    if (ds->nfix) fprintf(out, ", %d fixed dumm%s", ds->nfix, ds->nfix == 1 ? "y" : "ies");
    fputs("):", out);
    for (int i = 0; i < ds->ncand; i++) fprintf(out, " %s", cm->p.slots[ds->var[i]].name);
  }
  fprintf(out, "\nBLT blocks (%d: %d assignments, %d linear, %d nonlinear, %d mixed, %d discrete):\n",
          info.n_blocks, info.n_assign, info.n_linear, info.n_nonlinear, info.n_mixed,
          info.n_discrete_blocks);
  for (int k = 0; k < cm->nblocks; k++) dump_block(cm, &cm->blocks[k], k, out);
  fprintf(out, "Relations (%d state-event indicators, %d time events):\n", info.n_indicators,
          info.n_time_relations);
  for (int k = 0; k < cm->p.nrels; k++) {
    fprintf(out, "  relation %d: %s", k, cm->rels[k].time_only ? "time event" : "indicator");
    dump_loc(out, cm->rels[k].loc);
    fputc('\n', out);
  }
  fprintf(out, "When-equations: %d, asserts: %d, samples: %d, initial equations: %d\n",
          cm->p.nwhens, cm->nasserts, cm->p.nsamples, cm->p.ninit);
  if (cm->fcalls) {
    fprintf(out, "Functions (per argument shapes; not compiled: their calls fail with the reason):\n");
    st_fcalls_dump(cm->fcalls, out);
  }
}
