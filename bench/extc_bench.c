/* `make bench-extc`: a CombiTimeTable of 10^5 rows read from a text file by the MSL's own C
 * code (ModelicaStandardTables, compiled by stiction from the library's C-Sources; doc/
 * external-c.md), integrated over the table's range, three ways:
 *   first    `stiction simulate` with an empty cache: translation, the C compiler, the run;
 *   cached   the same command again: the compiled object is loaded from the cache;
 *   no C     the same model with a Sine source in place of the table (no external code).
 * The targets (issue 16): cached well under a second, and no slower than "no C" plus the
 * table's own work (reading 10^5 rows). Times are the fastest of REPEATS (the first run:
 * once), wall and CPU (wait4: the command and the processes it waited for, the compiler).
 * Usage: extc_bench STICTION MSL_DIR (the genuine MSL 4.0.0, e.g. ~/msl/4.0.0; without it the
 * bench says so and exits 0). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "clock.h"

enum { ROWS = 100000, REPEATS = 3 };

static int write_table(const char *path) {
  FILE *f = fopen(path, "w");
  if (!f) return -1;
  fprintf(f, "#1\ndouble tab1(%d,2)\n", ROWS);
  for (int i = 0; i < ROWS; i++) fprintf(f, "%.6f %.9g\n", i * 1e-4, sin(i * 1e-3));
  return fclose(f);
}

static int write_model(const char *path, const char *table, int use_table) {
  FILE *f = fopen(path, "w");
  if (!f) return -1;
  fprintf(f, "model TableBench\n");
  if (use_table)
    fprintf(f, "  Modelica.Blocks.Sources.CombiTimeTable src(tableOnFile = true, tableName = "
               "\"tab1\", fileName = \"%s\", columns = {2}, timeEvents = "
               "Modelica.Blocks.Types.TimeEvents.NoTimeEvents);\n", table);
  else
    fprintf(f, "  Modelica.Blocks.Sources.Sine src(f = 10 / (2 * 3.14159265358979));\n");
  fprintf(f, "  Real x(start = 0, fixed = true);\nequation\n  der(x) = src.y%s;\n"
             "  annotation(experiment(StopTime = 9.9999));\nend TableBench;\n",
          use_table ? "[1]" : "");
  return fclose(f);
}

static double best(char **argv, double *cpu) {
  double w = INFINITY, c = INFINITY;
  for (int r = 0; r < REPEATS; r++) {
    double cc, t = bench_time_process_cpu(argv, &cc);
    if (t < 0) return -1;
    if (t < w) w = t;
    if (cc < c) c = cc;
  }
  *cpu = c;
  return w;
}

int main(int argc, char **argv) {
  if (argc < 3) {
    fprintf(stderr, "usage: extc_bench STICTION MSL_DIR\n");
    return 2;
  }
  char probe[4096];
  snprintf(probe, sizeof probe, "%s/Modelica/Resources/C-Sources/ModelicaStandardTables.c", argv[2]);
  if (access(probe, R_OK)) {
    printf("extc bench: no MSL at %s (ModelicaStandardTables.c): skipped\n", argv[2]);
    return 0;
  }
  char dir[] = "/tmp/stiction_extc_bench_XXXXXX";
  if (!mkdtemp(dir)) return 1;
  char table[4200], model[4200], plain[4200], out[4200], cache[4200], cmd[9000];
  snprintf(table, sizeof table, "%s/table.txt", dir);
  snprintf(model, sizeof model, "%s/TableBench.mo", dir);
  snprintf(plain, sizeof plain, "%s/plain/TableBench.mo", dir);
  snprintf(out, sizeof out, "%s/out.csv", dir);
  snprintf(cache, sizeof cache, "%s/cache", dir);
  snprintf(cmd, sizeof cmd, "%s/plain", dir);
  mkdir(cmd, 0700);
  if (write_table(table) || write_model(model, table, 1) || write_model(plain, table, 0)) {
    fprintf(stderr, "extc bench: cannot write to %s\n", dir);
    return 1;
  }
  setenv("XDG_CACHE_HOME", cache, 1);
  char *run_table[] = {argv[1], "simulate", "-L", argv[2], model, "-o", out, NULL};
  char *run_plain[] = {argv[1], "simulate", "-L", argv[2], plain, "-o", out, NULL};
  double c_first, t_first = bench_time_process_cpu(run_table, &c_first);
  double c_cached, t_cached = best(run_table, &c_cached);
  double c_plain, t_plain = best(run_plain, &c_plain);
  if (t_first < 0 || t_cached < 0 || t_plain < 0) {
    fprintf(stderr, "extc bench: a run failed (the model and table are left in %s)\n", dir);
    return 1;
  }
  printf("CombiTimeTable, %d rows from a file, translate and run to t = 9.9999 s:\n", ROWS);
  printf("  first (C compiler, empty cache)  wall %7.3f s  cpu %7.3f s (the compiler's included)\n",
         t_first, c_first);
  printf("  cached                           wall %7.3f s  cpu %7.3f s\n", t_cached, c_cached);
  printf("  no external code (Sine)          wall %7.3f s  cpu %7.3f s\n", t_plain, c_plain);
  printf("  cached / no C: wall %.2f, cpu %.2f\n", t_cached / t_plain, c_cached / c_plain);
  snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
  if (system(cmd)) fprintf(stderr, "extc bench: could not remove %s\n", dir);
  return 0;
}
