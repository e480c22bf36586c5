/* `stiction compare RESULT REFERENCE`: the csv-compare tube rule (src/io/compare.h,
 * doc/results.md). Exit status: 0 all signals pass, 1 a signal fails (or is missing from the
 * result), 2 bad input or usage. */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <stiction/stiction.h>

#include "cli/commands.h"
#include "io/compare.h"

static void usage(FILE *out) {
  fputs("Usage: stiction compare [OPTION]... RESULT REFERENCE.csv\n"
        "Check that every signal of RESULT (CSV or MAT) stays inside the csv-compare tube\n"
        "around REFERENCE (the MSL regression rule).\n\n"
        "  -s, --signals FILE     compare the signals listed in FILE (one per line); default:\n"
        "                         msl-v4.1.0/comparisonSignals.txt beside REFERENCE if present,\n"
        "                         else every column of REFERENCE\n"
        "  -t, --tolerance TOL    relative tube size (default 0.002)\n"
        "      --compat VERSION   csv-compare version whose value floor to use: 2.1 (default,\n"
        "                         epsilon 1e-3) or 2.0.3 (epsilon 1e-12)\n"
        "  -v, --verbose          also print tube sizes and sample counts\n"
        "  -h, --help             display this help and exit\n\n"
        "Exit status: 0 all signals pass, 1 some signal fails or is missing from RESULT,\n"
        "2 bad input.\n", out);
}

static int bad_usage(const char *what, const char *arg) {
  fprintf(stderr, "stiction compare: %s%s%s%s\nTry 'stiction compare --help'.\n", what,
          arg ? " '" : "", arg ? arg : "", arg ? "'" : "");
  return 2;
}

/* The MSL 4.1.0 signal list stored next to a reference (reference/msl/<class>/). */
static char *default_signals(const char *reference) {
  const char *slash = strrchr(reference, '/');
  size_t dir = slash ? (size_t)(slash - reference) + 1 : 0;
  const char *rel = "msl-v4.1.0/comparisonSignals.txt";
  char *path = malloc(dir + strlen(rel) + 1);
  if (!path) return NULL;
  memcpy(path, reference, dir);
  strcpy(path + dir, rel);
  if (access(path, R_OK) == 0) return path;
  free(path);
  return NULL;
}

typedef struct args {
  const char *signals;
  st_compare_options opt;
  int verbose;
} args;

static int parse(int argc, char **argv, args *a) {
  static const struct option longs[] = {
      {"signals", required_argument, NULL, 's'}, {"tolerance", required_argument, NULL, 't'},
      {"compat", required_argument, NULL, 'c'},  {"verbose", no_argument, NULL, 'v'},
      {"help", no_argument, NULL, 'h'},          {NULL, 0, NULL, 0}};
  int c;
  opterr = 0;
  optind = 1;
  while ((c = getopt_long(argc, argv, ":s:t:vh", longs, NULL)) != -1) {
    char *end;
    switch (c) {
    case 's': a->signals = optarg; break;
    case 't':
      a->opt.tolerance = strtod(optarg, &end);
      if (*end || end == optarg || !(a->opt.tolerance > 0 && a->opt.tolerance < 1))
        return bad_usage("tolerance must be a number in (0, 1):", optarg);
      break;
    case 'c':
      if (!strcmp(optarg, "2.1")) a->opt.compat = ST_COMPARE_2_1;
      else if (!strcmp(optarg, "2.0.3")) a->opt.compat = ST_COMPARE_2_0_3;
      else return bad_usage("--compat must be 2.1 or 2.0.3, not", optarg);
      break;
    case 'v': a->verbose = 1; break;
    case 'h': usage(stdout); exit(0);
    case ':': return bad_usage("option needs an argument:", argv[optind - 1]);
    default: return bad_usage("unrecognized option", argv[optind - 1]);
    }
  }
  if (argc - optind != 2) return bad_usage("expected RESULT and REFERENCE files", NULL);
  return 0;
}

int st_cmd_compare(int argc, char **argv) {
  args a = {0};
  st_compare_options_init(&a.opt);
  int rc = parse(argc, argv, &a);
  if (rc) return rc;
  const char *result = argv[optind], *reference = argv[optind + 1];
  char *auto_signals = a.signals ? NULL : default_signals(reference);
  if (auto_signals) printf("signals from %s\n", auto_signals);
  st_compare_report rep;
  char msg[ST_MSG_MAX];
  rc = st_compare_files(result, reference, a.signals ? a.signals : auto_signals, &a.opt, &rep,
                        msg, sizeof msg);
  free(auto_signals);
  if (rc) {
    fprintf(stderr, "stiction compare: %s\n", msg);
    return 2;
  }
  st_compare_print(&rep, &a.opt, stdout, a.verbose);
  rc = rep.failed ? 1 : 0;
  st_compare_report_free(&rep);
  return rc;
}
