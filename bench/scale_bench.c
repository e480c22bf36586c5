/* `make bench-scale` (issue 18): translation cost against model size. Four generated families,
 * the chain of N masses written with arrays and for-loops (tests/data/compile/ArrayChain.mo,
 * 2N states), the same chain built from Translational Mass and SpringDamper components
 * (tests/data/compile/ComponentChain.mo, relative states, index reduction), a chain whose
 * couplings are linear loops (tests/data/compile/LoopChain.mo: 2N states and, on IDA, 2N
 * algebraic unknowns) and one flat class of N parameter declarations (written by the bench),
 * flattened and compiled at N = 1000, 3000, 10000, ... up to a maximum per family. Each size runs in its
 * own process; per phase it prints the CPU time (the machine is shared: wall time mostly
 * measures the others) and the wall time, the process's peak resident memory (also per unit
 * of N: constant when memory is linear), and the growth exponent log(t2/t1)/log(N2/N1)
 * against the previous size (1 is linear, 2 quadratic). The
 * array and loop chains are also simulated to their stop time on CVODE and on IDA (up to
 * N = RUN_MAX): the CPU seconds of each run, their ratio and their growth exponents.
 * Usage: scale_bench SRCDIR [ARRAY_MAX [COMPONENT_MAX [RUN_MAX [WIDE_MAX]]]] (defaults
 * 100000, 10000, 10000 and 100000; the loop chain goes to RUN_MAX). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <stiction/stiction.h>

#include "compile/compile.h"
#include "front/front.h"
#include "clock.h"

typedef struct family {
  const char *label, *file, *class_name; /* file NULL: the wide class, written per size */
  int run_max; /* simulated on CVODE and IDA up to this size */
} family;

/* One class of n parameter declarations into path. */
static int write_wide_class(const char *path, int n) {
  FILE *f = fopen(path, "w");
  if (!f) return -1;
  fprintf(f, "model WideClass\n");
  for (int i = 0; i < n; i++) fprintf(f, "  parameter Real p%d = %d.0 \"a comment\";\n", i, i);
  fprintf(f, "end WideClass;\n");
  return fclose(f);
}

/* per size: CPU and wall seconds of flatten and compile, peak resident MB, CPU seconds of
 * the runs on CVODE and IDA (0: not run) */
typedef struct cost {
  double flat_cpu, flat_wall, comp_cpu, comp_wall, peak_mb, run_cvode, run_ida;
} cost;

static double cpu_now(void) {
  struct timespec ts;
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
  return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

/* CPU seconds of simulating cm to its stop time on solver (IDA: the DAE form); < 0 on
 * failure. */
static double run_cpu(st_compiled *cm, stiction_solver solver, double stop_time) {
  if (st_compiled_set_dae(cm, solver == STICTION_SOLVER_IDA) < 0) return -1;
  stiction_options opt;
  stiction_options_init(&opt);
  opt.solver = solver;
  opt.stop_time = stop_time;
  double c0 = cpu_now();
  stiction_sim *sim = stiction_sim_new(st_compiled_model(cm), st_compiled_data(cm), &opt);
  int rc = sim ? stiction_sim_run(sim) : -1;
  if (rc) fprintf(stderr, "scale_bench: %s\n", sim ? stiction_sim_error(sim) : "no simulation");
  stiction_sim_free(sim);
  return rc ? -1 : cpu_now() - c0;
}

/* In the child: flatten and compile the family at size n; the four times into c. */
static int translate(const family *f, const char *srcdir, int n, cost *c) {
  char path[4096], mod[32], dir[] = "/tmp/scale_bench_XXXXXX";
  if (f->file) {
    snprintf(path, sizeof path, "%s/%s", srcdir, f->file);
  } else { /* the process exits right after: the file goes now, once loaded */
    if (!mkdtemp(dir)) return -1;
    snprintf(path, sizeof path, "%s/WideClass.mo", dir);
    if (write_wide_class(path, n)) return -1;
  }
  snprintf(mod, sizeof mod, "N = %d", n);
  const char *mods[] = {mod};
  st_diag *diag = st_diag_new(stderr);
  st_front *fe = diag ? st_front_new(diag) : NULL;
  int loaded = fe && !st_front_add_default_paths(fe) && !st_front_load_file(fe, path);
  if (!f->file) {
    remove(path);
    rmdir(dir);
  }
  if (!loaded) return -1;
  double w0 = bench_now(), c0 = cpu_now();
  st_flat_model *flat = st_front_flatten_modified(fe, f->class_name, mods, f->file ? 1 : 0,
                                                  "scale_bench");
  double w1 = bench_now(), c1 = cpu_now();
  st_compiled *cm = flat ? st_compile(flat, diag) : NULL;
  c->flat_wall = w1 - w0;
  c->flat_cpu = c1 - c0;
  c->comp_wall = bench_now() - w1;
  c->comp_cpu = cpu_now() - c1;
  if (cm && n <= f->run_max) {
    double stop = flat->experiment.has_stop ? flat->experiment.stop_time : 1;
    c->run_cvode = run_cpu(cm, STICTION_SOLVER_CVODE_BDF, stop);
    c->run_ida = run_cpu(cm, STICTION_SOLVER_IDA, stop);
    if (c->run_cvode < 0 || c->run_ida < 0) return -1;
  }
  return cm ? 0 : -1; /* the process exits: nothing is freed */
}

/* One size in its own process, so that its peak memory is its own. */
static int measure(const family *f, const char *srcdir, int n, cost *c) {
  int fd[2];
  if (pipe(fd)) return -1;
  fflush(stdout);
  pid_t pid = fork();
  if (pid < 0) return -1;
  if (pid == 0) {
    close(fd[0]);
    cost mine = {0};
    int rc = translate(f, srcdir, n, &mine);
    if (rc == 0 && write(fd[1], &mine, sizeof mine) != (ssize_t)sizeof mine) rc = -1;
    _exit(rc ? 1 : 0);
  }
  close(fd[1]);
  ssize_t got = read(fd[0], c, sizeof *c);
  close(fd[0]);
  int status = 0;
  struct rusage ru;
  if (wait4(pid, &status, 0, &ru) < 0 || !WIFEXITED(status) || WEXITSTATUS(status) ||
      got != (ssize_t)sizeof *c)
    return -1;
  c->peak_mb = (double)ru.ru_maxrss / 1024.0;
  return 0;
}

static double exponent(double a, double b, int na, int nb) {
  return a > 0 && b > 0 ? log(b / a) / log((double)nb / na) : NAN;
}

static void run_family(const family *f, const char *srcdir, int max) {
  printf("\n%s\n%8s %10s %10s %10s %10s %9s %9s   growth exponents: flatten compile memory\n",
         f->label, "N", "flat cpu", "flat wall", "comp cpu", "comp wall", "peak MB", "KB per N");
  if (f->run_max)
    printf("%8s %10s %10s %10s   growth exponents: CVODE IDA (runs in the same process: "
           "peak MB above includes them)\n", "", "CVODE cpu", "IDA cpu", "IDA/CVODE");
  cost prev = {0};
  int nprev = 0;
  static const int sizes[] = {1000, 3000, 10000, 30000, 100000, 300000, 1000000};
  for (size_t k = 0; k < sizeof sizes / sizeof *sizes && sizes[k] <= max; k++) {
    int n = sizes[k];
    cost c;
    if (measure(f, srcdir, n, &c)) {
      printf("%8d failed (see the messages above)\n", n);
      return;
    }
    printf("%8d %10.3f %10.3f %10.3f %10.3f %9.0f %9.1f", n, c.flat_cpu, c.flat_wall,
           c.comp_cpu, c.comp_wall, c.peak_mb, 1024.0 * c.peak_mb / n);
    if (nprev)
      printf("   %5.2f %5.2f %5.2f", exponent(prev.flat_cpu, c.flat_cpu, nprev, n),
             exponent(prev.comp_cpu, c.comp_cpu, nprev, n),
             exponent(prev.peak_mb, c.peak_mb, nprev, n));
    printf("\n");
    if (c.run_cvode > 0) {
      printf("%8s %10.3f %10.3f %10.2f", "", c.run_cvode, c.run_ida, c.run_ida / c.run_cvode);
      if (prev.run_cvode > 0)
        printf("   %5.2f %5.2f", exponent(prev.run_cvode, c.run_cvode, nprev, n),
               exponent(prev.run_ida, c.run_ida, nprev, n));
      printf("\n");
    }
    prev = c;
    nprev = n;
  }
}

int main(int argc, char **argv) {
  if (argc < 2) {
    fprintf(stderr, "usage: scale_bench SRCDIR [ARRAY_MAX [COMPONENT_MAX [RUN_MAX [WIDE_MAX]]]]\n");
    return 2;
  }
  int array_max = argc > 2 ? atoi(argv[2]) : 100000;
  int comp_max = argc > 3 ? atoi(argv[3]) : 10000;
  int run_max = argc > 4 ? atoi(argv[4]) : 10000;
  int wide_max = argc > 5 ? atoi(argv[5]) : 100000;
  const family array = {"array chain (2N states, for-loops)", "tests/data/compile/ArrayChain.mo",
                        "ArrayChain", run_max};
  const family comp = {"component chain (N Mass + N-1 SpringDamper)",
                       "tests/data/compile/ComponentChain.mo", "ComponentChain", 0};
  printf("translation cost: flatten and compile, CPU and wall seconds, peak resident MB\n");
  const family loop = {"loop chain (2N states; 2N algebraic unknowns on IDA)",
                       "tests/data/compile/LoopChain.mo", "LoopChain", run_max};
  const family wide = {"wide class (N parameters in one class)", NULL, "WideClass", 0};
  run_family(&array, argv[1], array_max);
  run_family(&comp, argv[1], comp_max);
  run_family(&loop, argv[1], run_max);
  run_family(&wide, argv[1], wide_max);
  return 0;
}
