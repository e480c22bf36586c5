/* `stiction plot RESULT PANEL... -o FILE.png|FILE.svg`: stacked gnuplot panels of result
 * signals over a shared time axis (src/io/plot.h, doc/results.md). */
#include <errno.h>
#include <getopt.h>
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <stiction/stiction.h>

#include "cli/commands.h"
#include "io/plot.h"
#include "util/outfile.h"

static void usage(FILE *out) {
  fputs("Usage: stiction plot RESULT PANEL... -o FILE.png|FILE.svg [--title TITLE]\n"
        "   or: stiction plot SUMMARY.csv --sweep METRIC --x PARAM [--y PARAM] -o FILE.png\n"
        "Plot signals of a result file (CSV or MAT) with gnuplot. Each PANEL is a comma-\n"
        "separated list of signal names drawn in one panel; panels are stacked with a shared\n"
        "time axis. Events (two rows with the same time) are drawn as vertical steps.\n"
        "Example: stiction plot out.csv J1.w,J2.w clutch1.mode,clutch2.mode -o clutches.png\n\n"
        "A sweep summary (stiction sweep, doc/sweep.md): METRIC (a column, e.g.\n"
        "'stick_fraction(friction)') against the parameter --x, or a map over --x and --y.\n\n"
        "  -o, --output FILE   the image to write (.png or .svg)\n"
        "      --sweep METRIC  plot a sweep summary's column METRIC\n"
        "      --x PARAM, --y PARAM   the summary's parameter columns (--y: a map)\n"
        "  -t, --title TITLE   a title above the panels\n"
        "  -h, --help          display this help and exit\n\n"
        "gnuplot (Debian package gnuplot-nox) is run from PATH, or from $STICTION_GNUPLOT.\n", out);
}

static int bad_usage(const char *what, const char *arg) {
  fprintf(stderr, "stiction plot: %s%s%s%s\nTry 'stiction plot --help'.\n", what,
          arg ? " '" : "", arg ? arg : "", arg ? "'" : "");
  return 2;
}

/* One CSV field of a summary line into buf (quotes removed); returns the rest or NULL. */
static const char *csv_field(const char *p, char *buf, size_t size) {
  size_t n = 0;
  int quoted = *p == '"';
  if (quoted) p++;
  for (; *p && (quoted || (*p != ',' && *p != '\n' && *p != '\r')); p++) {
    if (quoted && *p == '"') {
      if (p[1] != '"') { quoted = 0; continue; }
      p++;
    }
    if (n + 1 < size) buf[n++] = *p;
  }
  buf[n] = 0;
  return *p == ',' ? p + 1 : NULL;
}

/* The columns names[0..2] (names[1] may be NULL) of a sweep summary; a failed run's empty or
 * NaN field is NaN. Returns 0, or -1 with a located message. */
static int read_summary(const char *path, const char *const names[3], double *cols[3],
                        size_t *n, char *msg, size_t size) {
  FILE *f = fopen(path, "r");
  if (!f) { snprintf(msg, size, "%s: %s", path, strerror(errno)); return -1; }
  char line[1 << 16], field[4096];
  int idx[3] = {-1, -1, -1}, rc = -1, lineno = 1;
  size_t cap = 0;
  *n = 0;
  if (!fgets(line, sizeof line, f)) { snprintf(msg, size, "%s: empty file", path); goto done; }
  int c = 0;
  for (const char *p = line; p; c++) {
    p = csv_field(p, field, sizeof field);
    for (int k = 0; k < 3; k++)
      if (names[k] && idx[k] < 0 && !strcmp(field, names[k])) idx[k] = c;
  }
  for (int k = 0; k < 3; k++)
    if (names[k] && idx[k] < 0) {
      snprintf(msg, size, "%s:1: no column '%s' in the summary", path, names[k]);
      goto done;
    }
  while (fgets(line, sizeof line, f)) {
    lineno++;
    if (line[0] == '\n' || line[0] == '\r') continue;
    if (*n == cap) {
      cap = cap ? 2 * cap : 256;
      for (int k = 0; k < 3; k++) {
        double *v = realloc(cols[k], sizeof *v * cap);
        if (!v) { snprintf(msg, size, "out of memory"); goto done; }
        cols[k] = v;
      }
    }
    int col = 0, seen = 0;
    for (const char *p = line; p; col++) {
      p = csv_field(p, field, sizeof field);
      for (int k = 0; k < 3; k++) {
        if (!names[k] || idx[k] != col) continue;
        char *end;
        double v = strtod(field, &end);
        if (!*field || strcmp(field, "NaN") == 0) v = NAN;
        else if (*end) {
          snprintf(msg, size, "%s:%d: '%s' in column '%s' is not a number", path, lineno,
                   field, names[k]);
          goto done;
        }
        cols[k][*n] = v;
        seen++;
      }
    }
    if (seen != (names[1] ? 3 : 2)) {
      snprintf(msg, size, "%s:%d: fewer fields than the header", path, lineno);
      goto done;
    }
    (*n)++;
  }
  rc = 0;
done:
  fclose(f);
  return rc;
}

static int plot_sweep(const char *path, const char *metric, const char *x, const char *y,
                      const st_plot_options *opt) {
  const char *names[3] = {x, y, metric};
  double *cols[3] = {NULL, NULL, NULL};
  size_t n = 0;
  char msg[ST_MSG_MAX];
  int rc = read_summary(path, names, cols, &n, msg, sizeof msg) ? 2 : 0;
  if (!rc) {
    st_plot_sweep d = {n, cols[0], y ? cols[1] : NULL, cols[2], x, y, metric};
    int prc = st_plot_sweep_summary(&d, opt, msg, sizeof msg);
    rc = prc == 0 ? 0 : prc == STICTION_ERR_ARG ? 2 : 1;
  }
  for (int k = 0; k < 3; k++) free(cols[k]);
  if (rc) {
    fprintf(stderr, "stiction plot: %s\n", msg);
    return rc;
  }
  printf("%s\n", opt->output);
  return 0;
}

int st_cmd_plot(int argc, char **argv) {
  enum { OPT_SWEEP = 256, OPT_X, OPT_Y };
  const char *sweep = NULL, *x = NULL, *y = NULL;
  static const struct option longs[] = {{"output", required_argument, NULL, 'o'},
                                        {"sweep", required_argument, NULL, OPT_SWEEP},
                                        {"x", required_argument, NULL, OPT_X},
                                        {"y", required_argument, NULL, OPT_Y},
                                        {"title", required_argument, NULL, 't'},
                                        {"help", no_argument, NULL, 'h'},
                                        {NULL, 0, NULL, 0}};
  st_plot_options opt = {NULL, NULL, getenv("STICTION_GNUPLOT")};
  int c;
  opterr = 0;
  optind = 1;
  while ((c = getopt_long(argc, argv, ":o:t:h", longs, NULL)) != -1) {
    switch (c) {
    case 'o': opt.output = optarg; break;
    case 't': opt.title = optarg; break;
    case 'h': usage(stdout); return 0;
    case OPT_SWEEP: sweep = optarg; break;
    case OPT_X: x = optarg; break;
    case OPT_Y: y = optarg; break;
    case ':': return bad_usage("option needs an argument:", argv[optind - 1]);
    default: return bad_usage("unrecognized option", argv[optind - 1]);
    }
  }
  if (opt.gnuplot && !*opt.gnuplot) opt.gnuplot = NULL;
  /* gnuplot may exit before it has read the script (a bad terminal, a missing font): the
   * write then fails with EPIPE and the failure is reported, instead of SIGPIPE ending the
   * command with nothing said */
  signal(SIGPIPE, SIG_IGN);
  if (sweep || x || y) {
    if (!sweep || !x) return bad_usage("a sweep plot takes --sweep METRIC and --x PARAM", NULL);
    if (argc - optind != 1) return bad_usage("expected one SUMMARY.csv with --sweep", NULL);
    if (!opt.output) return bad_usage("missing -o FILE.png|FILE.svg", NULL);
    if (st_same_file(opt.output, argv[optind]))
      return bad_usage("-o names the summary being plotted:", opt.output);
    return plot_sweep(argv[optind], sweep, x, y, &opt);
  }
  if (argc - optind < 2) return bad_usage("expected a RESULT file and at least one PANEL", NULL);
  if (!opt.output) return bad_usage("missing -o FILE.png|FILE.svg", NULL);
  if (st_same_file(opt.output, argv[optind]))
    return bad_usage("-o names the result file being plotted:", opt.output);
  char msg[ST_MSG_MAX];
  stiction_table *t;
  if (stiction_table_read(&t, argv[optind], msg, sizeof msg)) {
    fprintf(stderr, "stiction plot: %s\n", msg);
    return 2;
  }
  int rc = st_plot(t, (const char *const *)argv + optind + 1, argc - optind - 1, &opt, msg, sizeof msg);
  stiction_table_free(t);
  if (rc) {
    fprintf(stderr, "stiction plot: %s\n", msg);
    return rc == STICTION_ERR_NOT_FOUND || rc == STICTION_ERR_ARG ? 2 : 1;
  }
  printf("%s\n", opt.output);
  return 0;
}
