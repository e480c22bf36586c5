/* Printing a comparison report: one line per signal, then a summary (doc/results.md). */
#include <stdio.h>

#include "io/compare.h"

static void print_signal(const st_compare_report *rep, const st_signal_report *s, FILE *out,
                         int verbose) {
  switch (s->status) {
  case ST_SIGNAL_PASS:
    fprintf(out, "pass %s", s->name);
    if (verbose) fprintf(out, " (%ld samples, Y = %.3g)", s->checked, s->y);
    fputc('\n', out);
    break;
  case ST_SIGNAL_FAIL:
    fprintf(out, "FAIL %s: %ld of %ld samples outside the tube; worst at t = %.9g: "
            "value %.9g not in [%.9g, %.9g] (off by %.3g; Y = %.3g)\n",
            s->name, s->outside, s->checked, s->worst_t, s->worst_value, s->worst_lower,
            s->worst_upper, s->worst_excess, s->y);
    break;
  case ST_SIGNAL_NO_RESULT:
    fprintf(out, "FAIL %s: not in the result file\n", s->name);
    break;
  case ST_SIGNAL_SHORT:
    fprintf(out, "FAIL %s: the result covers t = %.9g .. %.9g, the reference %.9g .. %.9g\n",
            s->name, rep->result_t0, rep->result_t1, rep->reference_t0, rep->reference_t1);
    break;
  case ST_SIGNAL_NO_REFERENCE:
    fprintf(out, "skip %s: not in the reference file (warning)\n", s->name);
    break;
  }
}

void st_compare_print(const st_compare_report *rep, const st_compare_options *opt, FILE *out, int verbose) {
  for (int i = 0; i < rep->nsignals; i++) print_signal(rep, &rep->signals[i], out, verbose);
  int missing = 0, short_ = 0;
  for (int i = 0; i < rep->nsignals; i++) {
    missing += rep->signals[i].status == ST_SIGNAL_NO_RESULT;
    short_ += rep->signals[i].status == ST_SIGNAL_SHORT;
  }
  fprintf(out, "%s: %d of %d signals pass", rep->failed ? "FAILED" : "PASSED", rep->passed,
          rep->passed + rep->failed);
  if (rep->failed)
    fprintf(out, " (%d outside the tube, %d missing from the result", rep->failed - missing - short_,
            missing);
  if (short_)
    fprintf(out, ", %d cut short: the result covers t = %.9g .. %.9g, the reference %.9g .. %.9g",
            short_, rep->result_t0, rep->result_t1, rep->reference_t0, rep->reference_t1);
  if (rep->failed) fputc(')', out);
  if (rep->skipped) fprintf(out, ", %d skipped (not in the reference)", rep->skipped);
  fprintf(out, "; tolerance %g, X = %.3g s, epsilon %g (csv-compare %s)\n", opt->tolerance, rep->x,
          st_compare_epsilon(opt->compat), opt->compat == ST_COMPARE_2_0_3 ? "2.0.3" : "2.1");
}
