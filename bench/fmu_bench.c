/* `make bench-fmu`: the cost of running a model as an FMU (Co-Simulation, 1 ms steps)
 * against running it with stiction directly, next to bench-step. For each model, fastest of
 * repeated runs:
 *   run         stiction_instance_run with the output interval = the step (one compile,
 *               a new instance each run, no sink), what `stiction simulate` spends in the run;
 *   fmu         fmi2SetupExperiment .. fmi2DoStep every step .. fmi2Terminate on an instance
 *               made beforehand (fmi2Instantiate, which loads and compiles the saved flat
 *               model, is timed apart);
 *   per step    (fmu - run) / steps, and the ratio fmu / run.
 * The FMUs come from the stiction command (`stiction fmu`), are unpacked in /tmp and their
 * library is opened with dlopen, as an importer does.
 * Usage: fmu_bench SRCDIR STICTION [SECONDS per measurement]. */
#include <dlfcn.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <stiction/stiction.h>

#include "clock.h"
#include "fmi/fmi2_abi.h"
#include "fmi/zip.h"
#include "front/libpath.h"

typedef struct bench_case {
  const char *label, *file, *class_name, *id;
  double stop, step;
} bench_case;

static const bench_case cases[] = {
    {"CoupledClutches, 1 ms steps", NULL, "Modelica.Mechanics.Rotational.Examples.CoupledClutches",
     "CoupledClutches", 1.5, 1e-3},
    {"FrictionBlock, 1 ms steps", "tests/data/compile/FrictionBlock.mo", "FrictionBlock",
     "FrictionBlock", 10, 1e-3},
};

typedef struct fmi2_lib {
#define FIELD(name, ret, args) ret(*name) args;
  ST_FMI2_FUNCTIONS(FIELD)
#undef FIELD
} fmi2_lib;

static void quiet(fmi2ComponentEnvironment e, fmi2String n, fmi2Status s, fmi2String c,
                  fmi2String m, ...) {
  if (s >= fmi2Error) fprintf(stderr, "fmu_bench: %s\n", m);
}

static const fmi2CallbackFunctions callbacks = {quiet, calloc, free, NULL, NULL};

static double run_direct(const stiction_program *prog, const bench_case *c) {
  stiction_options opt;
  stiction_program_options(prog, &opt);
  opt.stop_time = c->stop;
  opt.interval = c->step;
  stiction_instance *in = stiction_instance_new(prog);
  double t0 = bench_now();
  int rc = stiction_instance_run(in, &opt, NULL);
  double t = bench_now() - t0;
  stiction_instance_free(in);
  return rc ? -1 : t;
}

static double run_fmu(const fmi2_lib *f, fmi2Component comp, const bench_case *c) {
  int n = (int)lround(c->stop / c->step);
  double t0 = bench_now();
  int bad = f->fmi2SetupExperiment(comp, 0, 0, 0, 1, c->stop) ||
            f->fmi2EnterInitializationMode(comp) || f->fmi2ExitInitializationMode(comp);
  for (int k = 0; k < n && !bad; k++) bad = f->fmi2DoStep(comp, k * c->step, c->step, 1) != fmi2OK;
  if (!bad) bad = f->fmi2Terminate(comp);
  double t = bench_now() - t0;
  return bad ? -1 : t;
}

/* Exports and unpacks the case's FMU, opens its library: the GUID and resource URI in guid
 * and uri. */
static void *open_fmu(const char *srcdir, const char *stiction, const bench_case *c, fmi2_lib *f,
                      char *guid, char *uri) {
  char dir[512], cmd[4096], path[1024], *err = NULL;
  snprintf(dir, sizeof dir, "/tmp/stiction_fmu_bench_%ld_%s", (long)getpid(), c->id);
  if (c->file)
    snprintf(cmd, sizeof cmd, "'%s' fmu '%s/%s' -o '%s.fmu' >/dev/null", stiction, srcdir, c->file, dir);
  else
    snprintf(cmd, sizeof cmd, "'%s' fmu %s -o '%s.fmu' >/dev/null", stiction, c->class_name, dir);
  snprintf(path, sizeof path, "%s.fmu", dir);
  if (system(cmd) || st_zip_extract(path, dir, &err)) {
    fprintf(stderr, "fmu_bench: %s: %s\n", c->label, err ? err : "stiction fmu failed");
    return NULL;
  }
  remove(path);
  snprintf(path, sizeof path, "%s/modelDescription.xml", dir);
  char *xml = st_read_file(path, NULL), *g = xml ? strstr(xml, "guid=\"") : NULL;
  if (g) snprintf(guid, 64, "%.38s", g + 6);
  free(xml);
  snprintf(uri, 600, "file://%s/resources", dir);
  snprintf(path, sizeof path, "%s/binaries/linux64/%s.so", dir, c->id);
  void *h = g ? dlopen(path, RTLD_NOW | RTLD_LOCAL) : NULL;
#define LOOKUP(name, ret, args) *(void **)&f->name = h ? dlsym(h, #name) : NULL;
  ST_FMI2_FUNCTIONS(LOOKUP)
#undef LOOKUP
  return h;
}

static int bench(const char *srcdir, const char *stiction, const bench_case *c, double seconds) {
  char models[4096], file[4096], guid[64] = "", uri[600];
  snprintf(models, sizeof models, "%s/models", srcdir);
  stiction_modelica *mo = stiction_modelica_new();
  stiction_program *prog = NULL;
  stiction_modelica_add_library_path(mo, models);
  if (c->file) snprintf(file, sizeof file, "%s/%s", srcdir, c->file);
  fmi2_lib f;
  void *h = NULL;
  if ((c->file && stiction_modelica_load_file(mo, file)) ||
      stiction_modelica_compile(mo, c->class_name, NULL, 0, &prog) ||
      !(h = open_fmu(srcdir, stiction, c, &f, guid, uri))) {
    fprintf(stderr, "fmu_bench: %s cannot be set up\n", c->label);
    stiction_program_free(prog);
    stiction_modelica_free(mo);
    return 1;
  }
  double run = INFINITY, fmu = INFINITY, inst = INFINITY, start = bench_now();
  for (int i = 0; i < 3 || bench_now() - start < seconds; i++) {
    double t0 = bench_now();
    fmi2Component comp = f.fmi2Instantiate("bench", fmi2CoSimulation, guid, uri, &callbacks, 0, 0);
    double ti = bench_now() - t0;
    double tf = comp ? run_fmu(&f, comp, c) : -1;
    double tr = run_direct(prog, c);
    if (comp) f.fmi2FreeInstance(comp);
    if (tf < 0 || tr < 0) {
      fprintf(stderr, "fmu_bench: %s: a run failed\n", c->label);
      return 1;
    }
    inst = fmin(inst, ti);
    fmu = fmin(fmu, tf);
    run = fmin(run, tr);
  }
  int n = (int)lround(c->stop / c->step);
  printf("%s\n  run %.3f ms, FMU CS %.3f ms (%d steps): %.2f us per step, ratio %.2f; "
         "fmi2Instantiate (load and compile) %.3f ms\n",
         c->label, 1e3 * run, 1e3 * fmu, n, 1e6 * (fmu - run) / n, fmu / run, 1e3 * inst);
  dlclose(h);
  stiction_program_free(prog);
  stiction_modelica_free(mo);
  char cmd[600];
  snprintf(cmd, sizeof cmd, "rm -rf /tmp/stiction_fmu_bench_%ld_%s", (long)getpid(), c->id);
  return system(cmd) ? 1 : 0;
}

int main(int argc, char **argv) {
  if (argc < 3) {
    fprintf(stderr, "usage: fmu_bench SRCDIR STICTION [SECONDS]\n");
    return 2;
  }
  double seconds = argc > 3 ? atof(argv[3]) : 1.0;
  int rc = 0;
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++)
    rc |= bench(argv[1], argv[2], &cases[i], seconds);
  return rc;
}
