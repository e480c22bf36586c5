/* `stiction plot RESULT PANEL... -o FILE.png|FILE.svg`: stacked gnuplot panels of result
 * signals over a shared time axis (src/io/plot.h, doc/results.md). */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <stiction/stiction.h>

#include "cli/commands.h"
#include "io/plot.h"
#include "util/outfile.h"

static void usage(FILE *out) {
  fputs("Usage: stiction plot RESULT PANEL... -o FILE.png|FILE.svg [--title TITLE]\n"
        "Plot signals of a result file (CSV or MAT) with gnuplot. Each PANEL is a comma-\n"
        "separated list of signal names drawn in one panel; panels are stacked with a shared\n"
        "time axis. Events (two rows with the same time) are drawn as vertical steps.\n"
        "Example: stiction plot out.csv J1.w,J2.w clutch1.mode,clutch2.mode -o clutches.png\n\n"
        "  -o, --output FILE   the image to write (.png or .svg)\n"
        "  -t, --title TITLE   a title above the panels\n"
        "  -h, --help          display this help and exit\n\n"
        "gnuplot (Debian package gnuplot-nox) is run from PATH, or from $STICTION_GNUPLOT.\n", out);
}

static int bad_usage(const char *what, const char *arg) {
  fprintf(stderr, "stiction plot: %s%s%s%s\nTry 'stiction plot --help'.\n", what,
          arg ? " '" : "", arg ? arg : "", arg ? "'" : "");
  return 2;
}

int st_cmd_plot(int argc, char **argv) {
  static const struct option longs[] = {{"output", required_argument, NULL, 'o'},
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
    case ':': return bad_usage("option needs an argument:", argv[optind - 1]);
    default: return bad_usage("unrecognized option", argv[optind - 1]);
    }
  }
  if (argc - optind < 2) return bad_usage("expected a RESULT file and at least one PANEL", NULL);
  if (!opt.output) return bad_usage("missing -o FILE.png|FILE.svg", NULL);
  if (opt.gnuplot && !*opt.gnuplot) opt.gnuplot = NULL;
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
