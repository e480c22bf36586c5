/* README "Embedding": only <stiction/stiction.h>, linked against the installed libstiction;
 * usage: embed_example MODELS_DIR InputLag.mo (tests/data/embed); exit 0 when all holds. */
#include <math.h>
#include <pthread.h>
#include <stdio.h>
#include <stiction/stiction.h>

typedef struct { const stiction_program *prog; double J, w; } job;
static void *run(void *a) { /* one instance with its own J1.J, run to the end */
  job *j = a;
  stiction_instance *in = stiction_instance_new(j->prog);
  if (j->J) stiction_instance_set_by_name(in, "J1.J", j->J);
  if (stiction_instance_run(in, NULL, NULL) || stiction_instance_get_by_name(in, "J4.w", &j->w))
    j->w = NAN;
  stiction_instance_free(in);
  return NULL;
}

int main(int argc, char **argv) {
  stiction_modelica *mo = stiction_modelica_new();
  stiction_program *cc, *lag;
  stiction_modelica_add_library_path(mo, argv[1]);
  if (stiction_modelica_compile(mo, "Modelica.Mechanics.Rotational.Examples.CoupledClutches",
                                NULL, 0, &cc) || stiction_modelica_load_file(mo, argv[2]) ||
      stiction_modelica_compile(mo, "InputLag", NULL, 0, &lag))
    return 1;
  job a = {cc, 0, 0}, b = {cc, 2, 0}, alone = {cc, 2, 0};
  pthread_t t;
  pthread_create(&t, NULL, run, &b); /* J1.J = 2 in another thread, at the same time */
  run(&a);
  pthread_join(t, NULL);
  run(&alone);
  stiction_instance *in = stiction_instance_new(lag);
  double x, exact = 0, err = 0;
  stiction_instance_start(in, NULL, NULL);
  for (int k = 1; k <= 1000; k++) { /* 1000 steps of 1 ms, the input set before each */
    double u = sin(0.01 * k);
    stiction_instance_set_by_name(in, "u", u);
    stiction_instance_advance(in, k * 1e-3);
    stiction_instance_get_by_name(in, "x", &x);
    exact = u + (exact - u) * exp(-1e-3 / 0.05); /* 0.05 x' = u - x, u held over the step */
    err = fmax(err, fabs(x - exact));
  }
  stiction_instance_finish(in);
  printf("J4.w(end) = %.10g, with J1.J = 2: %.10g; stepped lag off by %.1e\n", a.w, b.w, err);
  stiction_instance_free(in);
  stiction_program_free(lag);
  stiction_program_free(cc);
  stiction_modelica_free(mo);
  return b.w == alone.w && b.w != a.w && err < 1e-4 ? 0 : 1;
}
