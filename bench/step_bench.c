/* `make bench-step`: the overhead of stepping a model through include/stiction/modelica.h
 * against running it to the end. For each model, fastest of repeated runs (after one
 * compile, a new instance each run, no sink):
 *   run      stiction_instance_run with the output interval = the step;
 *   stepped  start, one stiction_instance_advance per step (and for a model with an input,
 *            the input set before each), finish;
 *   per step (stepped - run) / steps: what an embedding program (or a co-simulation master)
 *            pays per step beyond the integration itself: a stop of the integrator at every
 *            step, the evaluation at its end and, with an input, the event and restart its
 *            change is.
 * Usage: step_bench SRCDIR [SECONDS per measurement]. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include <stiction/stiction.h>

#include "clock.h"

typedef struct bench_case {
  const char *label;
  const char *file;   /* relative to SRCDIR, or NULL for a library class */
  const char *class_name;
  const char *input;  /* set before every step (a sine), or NULL */
  double stop, step;
} bench_case;

static const bench_case cases[] = {
    {"CoupledClutches, 1 ms steps", NULL,
     "Modelica.Mechanics.Rotational.Examples.CoupledClutches", NULL, 1.5, 1e-3},
    {"InputLag, 1 ms steps, input set each step", "tests/data/embed/InputLag.mo", "InputLag",
     "u", 1.0, 1e-3},
};

static double run_once(const stiction_program *prog, const bench_case *c, int stepped) {
  stiction_options opt;
  stiction_program_options(prog, &opt);
  opt.stop_time = c->stop;
  opt.interval = c->step;
  stiction_instance *in = stiction_instance_new(prog);
  double t0 = bench_now();
  int rc;
  if (!stepped) {
    rc = stiction_instance_run(in, &opt, NULL);
  } else {
    int n = (int)lround(c->stop / c->step);
    rc = stiction_instance_start(in, &opt, NULL);
    for (int k = 1; k <= n && !rc; k++) {
      if (c->input) rc = stiction_instance_set_by_name(in, c->input, sin(0.01 * k));
      if (!rc) rc = stiction_instance_advance(in, k == n ? c->stop : k * c->step);
    }
    if (!rc) rc = stiction_instance_finish(in);
  }
  double t = bench_now() - t0;
  stiction_instance_free(in);
  return rc ? -1 : t;
}

static double fastest(const stiction_program *prog, const bench_case *c, int stepped,
                      double seconds) {
  double best = INFINITY, start = bench_now();
  for (int i = 0; i < 3 || bench_now() - start < seconds; i++) {
    double t = run_once(prog, c, stepped);
    if (t < 0) return -1;
    if (t < best) best = t;
  }
  return best;
}

int main(int argc, char **argv) {
  if (argc < 2) {
    fprintf(stderr, "usage: step_bench SRCDIR [SECONDS]\n");
    return 2;
  }
  double seconds = argc > 2 ? atof(argv[2]) : 1.0;
  char models[4096], file[4096];
  snprintf(models, sizeof models, "%s/models", argv[1]);
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
    const bench_case *c = &cases[i];
    stiction_modelica *mo = stiction_modelica_new();
    stiction_program *prog = NULL;
    stiction_modelica_add_library_path(mo, models);
    if (c->file) snprintf(file, sizeof file, "%s/%s", argv[1], c->file);
    if ((c->file && stiction_modelica_load_file(mo, file)) ||
        stiction_modelica_compile(mo, c->class_name, NULL, 0, &prog)) {
      fprintf(stderr, "step_bench: %s does not compile\n", c->label);
      stiction_modelica_free(mo);
      return 1;
    }
    double run = c->input ? -1 : fastest(prog, c, 0, seconds);
    double stepped = fastest(prog, c, 1, seconds);
    int n = (int)lround(c->stop / c->step);
    printf("%s\n", c->label);
    if (run >= 0)
      printf("  run %.3f ms, stepped %.3f ms (%d steps): %.2f us per step\n", 1e3 * run,
             1e3 * stepped, n, 1e6 * (stepped - run) / n);
    else
      printf("  stepped %.3f ms (%d steps): %.2f us per step in all\n", 1e3 * stepped, n,
             1e6 * stepped / n);
    stiction_program_free(prog);
    stiction_modelica_free(mo);
  }
  return 0;
}
