/* `stiction plot` behind the command line: resolves signal names, writes the selected
 * columns to a temporary data file and drives gnuplot through a pipe. The data rows keep the
 * file order and no blank line is written, so gnuplot's "with lines" joins the two rows of an
 * event (same time) by a vertical segment: a true step, not a slope. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <stiction/stiction.h>

#include "io/plot.h"
#include "util/outfile.h"

typedef struct panel_set {
  int npanels;
  int *count;     /* signals per panel */
  int *column;    /* table columns, panel after panel */
  int nsignals;
} panel_set;

/* What a plot writes to gnuplot: its script, given the data file and the image to write. */
typedef struct plot_script {
  void (*write)(FILE *g, const struct plot_script *ps, const char *data, const char *image);
  const st_plot_options *opt;
  const stiction_table *table;  /* result panels */
  const panel_set *panels;
  const st_plot_sweep *sweep;   /* a sweep summary */
} plot_script;

static int edit_distance(const char *a, const char *b) {
  size_t n = strlen(b);
  int *row = malloc((n + 1) * sizeof *row);
  if (!row) return 1 << 20;
  for (size_t j = 0; j <= n; j++) row[j] = (int)j;
  for (size_t i = 1; a[i - 1]; i++) {
    int diag = row[0];
    row[0] = (int)i;
    for (size_t j = 1; j <= n; j++) {
      int up = row[j], best = diag + (a[i - 1] != b[j - 1]);
      if (up + 1 < best) best = up + 1;
      if (row[j - 1] + 1 < best) best = row[j - 1] + 1;
      diag = up;
      row[j] = best;
    }
  }
  int d = row[n];
  free(row);
  return d;
}

void st_plot_close_names(const stiction_table *t, const char *name, char *buf, size_t size, int max) {
  int cols = stiction_table_columns(t), shown = 0;
  buf[0] = 0;
  /* Selection by increasing distance, at most max names: the table is small. */
  for (int d = 0; d <= (int)strlen(name) && shown < max; d++)
    for (int c = 1; c < cols && shown < max; c++) {
      if (edit_distance(name, stiction_table_name(t, c)) != d) continue;
      size_t len = strlen(buf);
      snprintf(buf + len, size - len, "%s%s", shown ? ", " : "", stiction_table_name(t, c));
      shown++;
    }
}

static int resolve(const stiction_table *t, const char *const *panels, int npanels, panel_set *ps,
                   char *msg, size_t size) {
  size_t cap = 0;
  for (int p = 0; p < npanels; p++) {
    cap++;
    for (const char *c = panels[p]; *c; c++) cap += *c == ',';
  }
  ps->count = calloc((size_t)npanels, sizeof *ps->count);
  ps->column = calloc(cap, sizeof *ps->column);
  ps->npanels = npanels;
  if (!ps->count || !ps->column) { snprintf(msg, size, "out of memory"); return STICTION_ERR_NOMEM; }
  for (int p = 0; p < npanels; p++) {
    const char *s = panels[p];
    while (1) {
      size_t len = strcspn(s, ",");
      char name[512];
      snprintf(name, sizeof name, "%.*s", (int)len, s);
      int c = len ? stiction_table_find(t, name) : -1;
      if (c < 1) {
        char close[400];
        st_plot_close_names(t, name, close, sizeof close, 5);
        snprintf(msg, size, "unknown signal '%s'%s%s", name, *close ? "; close names: " : "", close);
        return STICTION_ERR_NOT_FOUND;
      }
      ps->column[ps->nsignals++] = c;
      ps->count[p]++;
      if (!s[len]) break;
      s += len + 1;
    }
  }
  return STICTION_OK;
}

/* The signals in order, time first, full precision, no blank line. */
static int write_data(const plot_script *sc, FILE *f) {
  const stiction_table *t = sc->table;
  const panel_set *ps = sc->panels;
  const double *d = stiction_table_data(t);
  size_t cols = (size_t)stiction_table_columns(t);
  for (int r = 0; r < stiction_table_rows(t); r++) {
    const double *row = d + (size_t)r * cols;
    fprintf(f, "%.17g", row[0]);
    for (int k = 0; k < ps->nsignals; k++) fprintf(f, " %.17g", row[ps->column[k]]);
    fputc('\n', f);
  }
  return ferror(f) ? -1 : 0;
}

/* gnuplot reads one command per line: a newline (or any control character) inside a quoted
 * string would end it and start another, so such texts are refused, not escaped. */
static int has_control(const char *s) {
  for (; s && *s; s++)
    if ((unsigned char)*s < 0x20 || *s == 0x7f) return 1;
  return 0;
}

/* A gnuplot single-quoted string: only the quote itself needs escaping (doubled). */
static void put_quoted(FILE *f, const char *s) {
  fputc('\'', f);
  for (; *s; s++) {
    if (*s == '\'') fputc('\'', f);
    fputc(*s, f);
  }
  fputc('\'', f);
}

static int is_svg(const char *path) {
  size_t n = strlen(path);
  return n > 4 && !strcmp(path + n - 4, ".svg");
}

static void write_script(FILE *g, const plot_script *sc, const char *data, const char *image) {
  const stiction_table *t = sc->table;
  const panel_set *ps = sc->panels;
  const st_plot_options *opt = sc->opt;
  int h = 60 + 220 * ps->npanels;
  fprintf(g, "set terminal %s size 1000,%d noenhanced\n", is_svg(opt->output) ? "svg" : "pngcairo", h);
  fputs("set output ", g);
  put_quoted(g, image);
  /* Fixed left/right margins: the panels' time axes line up whatever the tick labels. */
  fprintf(g, "\nset lmargin at screen 0.09\nset rmargin at screen 0.80\nset grid\n"
             "set key outside right top noenhanced\nset autoscale xfix\n"
             "set offsets graph 0, graph 0, graph 0.05, graph 0.05\n");
  const double *d = stiction_table_data(t);
  int rows = stiction_table_rows(t), cols = stiction_table_columns(t);
  if (rows > 1 && d[0] < d[(size_t)(rows - 1) * (size_t)cols])
    fprintf(g, "set xrange [%.17g:%.17g]\n", d[0], d[(size_t)(rows - 1) * (size_t)cols]);
  fputs("set multiplot layout ", g);
  fprintf(g, "%d,1", ps->npanels);
  if (opt->title) { fputs(" title ", g); put_quoted(g, opt->title); fputs(" noenhanced", g); }
  fputc('\n', g);
  for (int p = 0, k = 0; p < ps->npanels; p++) {
    int last = p == ps->npanels - 1;
    fprintf(g, "set format x %s\nset xlabel %s\nplot ", last ? "'%g'" : "''", last ? "'time [s]'" : "''");
    for (int j = 0; j < ps->count[p]; j++, k++) {
      put_quoted(g, data);
      fprintf(g, " using 1:%d with lines lw 1.5 title ", k + 2);
      put_quoted(g, stiction_table_name(t, ps->column[k]));
      fputs(j + 1 < ps->count[p] ? ", " : "\n", g);
    }
  }
  fputs("unset multiplot\nset output\n", g);
}

/* The gnuplot program: an explicit path, or "gnuplot" found in PATH. */
static int find_gnuplot(const char *given, char *buf, size_t size) {
  if (given) { snprintf(buf, size, "%s", given); return access(buf, X_OK); }
  const char *path = getenv("PATH");
  for (const char *p = path ? path : ""; *p;) {
    size_t len = strcspn(p, ":");
    snprintf(buf, size, "%.*s/gnuplot", (int)len, p);
    if (len && access(buf, X_OK) == 0) return 0;
    p += len + (p[len] == ':');
  }
  return -1;
}

static int gnuplot_to(const char *prog, const plot_script *sc, const char *data,
                      const char *image, char *msg, size_t size);

/* gnuplot writes the image beside the output (util/outfile.h), which replaces the output only
 * when gnuplot succeeded: a failed plot leaves the previous image. */
static int run_gnuplot(const char *prog, const plot_script *sc, const char *data, char *msg,
                       size_t size) {
  const st_plot_options *opt = sc->opt;
  st_outfile image;
  if (st_outfile_open(&image, opt->output, "w")) {
    snprintf(msg, size, "cannot write %s: %s", opt->output, strerror(errno));
    return STICTION_ERR_IO;
  }
  const char *path = image.temp ? image.temp : opt->output;
  int rc = gnuplot_to(prog, sc, data, path, msg, size);
  if (rc) {
    st_outfile_abort(&image);
  } else if (st_outfile_commit(&image)) {
    snprintf(msg, size, "cannot write %s: %s", opt->output, strerror(errno));
    rc = STICTION_ERR_IO;
  }
  return rc;
}

static int gnuplot_to(const char *prog, const plot_script *sc, const char *data,
                      const char *image, char *msg, size_t size) {
  char cmd[4200];
  snprintf(cmd, sizeof cmd, "'%s'", prog); /* prog found by us: no quote in practice */
  if (strchr(prog, '\'')) { snprintf(msg, size, "bad gnuplot path '%s'", prog); return STICTION_ERR_IO; }
  FILE *g = popen(cmd, "w");
  if (!g) { snprintf(msg, size, "cannot run %s: %s", prog, strerror(errno)); return STICTION_ERR_IO; }
  sc->write(g, sc, data, image);
  int st = pclose(g);
  if (st != 0) {
    snprintf(msg, size, "gnuplot failed (exit status %d); see its messages above",
             WIFEXITED(st) ? WEXITSTATUS(st) : -1);
    return STICTION_ERR_IO;
  }
  struct stat sb;
  if (stat(image, &sb) || (S_ISREG(sb.st_mode) && sb.st_size == 0)) {
    snprintf(msg, size, "gnuplot did not write %s", sc->opt->output);
    return STICTION_ERR_IO;
  }
  return STICTION_OK;
}

static int check_output_name(const char *out, char *msg, size_t size) {
  size_t n = out ? strlen(out) : 0;
  if (n > 4 && (!strcmp(out + n - 4, ".png") || !strcmp(out + n - 4, ".svg"))) return 0;
  snprintf(msg, size, "output file must end in .png or .svg: '%s'", out ? out : "");
  return STICTION_ERR_ARG;
}

/* The data file in TMPDIR, written by write_data, then gnuplot on it. */
static int plot_with_data(const plot_script *sc, int (*write_rows)(const plot_script *, FILE *),
                          const char *prog, char *msg, size_t size) {
  const char *dir = getenv("TMPDIR");
  char data[4096];
  snprintf(data, sizeof data, "%s/stiction-plot-XXXXXX", dir && *dir ? dir : "/tmp");
  int fd = mkstemp(data);
  FILE *f = fd >= 0 ? fdopen(fd, "w") : NULL;
  if (!f) {
    if (fd >= 0) { close(fd); unlink(data); }
    snprintf(msg, size, "cannot create a temporary file in %s", dir && *dir ? dir : "/tmp");
    return STICTION_ERR_IO;
  }
  int bad = write_rows(sc, f) || has_control(data);
  if (fclose(f) || bad) {
    unlink(data);
    snprintf(msg, size, "cannot write the temporary file %s", data);
    return STICTION_ERR_IO;
  }
  int rc = run_gnuplot(prog, sc, data, msg, size);
  unlink(data);
  return rc;
}

static int check_texts(const stiction_table *t, const panel_set *ps, const st_plot_options *opt,
                       char *msg, size_t size) {
  const char *what = has_control(opt->output) ? "the output file name"
                     : has_control(opt->title) ? "the title" : NULL;
  for (int k = 0; !what && k < ps->nsignals; k++)
    if (has_control(stiction_table_name(t, ps->column[k]))) what = "a signal name";
  if (!what) return STICTION_OK;
  snprintf(msg, size, "%s contains a control character (newline, tab, ...), which gnuplot "
           "cannot take", what);
  return STICTION_ERR_ARG;
}

static int gnuplot_program(const st_plot_options *opt, char *prog, size_t n, char *msg,
                           size_t size) {
  if (!find_gnuplot(opt->gnuplot, prog, n)) return STICTION_OK;
  snprintf(msg, size, "gnuplot not found%s%s: install the Debian package gnuplot-nox",
           opt->gnuplot ? " at " : " in PATH", opt->gnuplot ? opt->gnuplot : "");
  return STICTION_ERR_IO;
}

int st_plot(const stiction_table *t, const char *const *panels, int npanels,
            const st_plot_options *opt, char *msg, size_t size) {
  panel_set ps = {0};
  char prog[4096];
  int rc = check_output_name(opt->output, msg, size);
  if (!rc && npanels < 1) { snprintf(msg, size, "no panel given"); rc = STICTION_ERR_ARG; }
  if (!rc) rc = resolve(t, panels, npanels, &ps, msg, size);
  if (!rc) rc = check_texts(t, &ps, opt, msg, size);
  if (!rc && stiction_table_rows(t) < 1) { snprintf(msg, size, "the result has no rows"); rc = STICTION_ERR_ARG; }
  if (!rc) rc = gnuplot_program(opt, prog, sizeof prog, msg, size);
  plot_script sc = {write_script, opt, t, &ps, NULL};
  if (!rc) rc = plot_with_data(&sc, write_data, prog, msg, size);
  free(ps.count);
  free(ps.column);
  return rc;
}

/* ---- a sweep summary: a metric over one parameter, or a map over two ---------------------- */

/* x z (one parameter) or x y z, sorted by y then x, a blank line between y values: the scan
 * lines that gnuplot's pm3d and image styles take. Failed runs (NaN) are gaps. */
static int write_sweep_data(const plot_script *sc, FILE *f) {
  const st_plot_sweep *d = sc->sweep;
  size_t n = d->n, *order = malloc(sizeof *order * (n ? n : 1));
  if (!order) return -1;
  for (size_t i = 0; i < n; i++) order[i] = i;
  /* insertion sort by (y, x): summaries are small and often nearly sorted */
  for (size_t i = 1; i < n; i++)
    for (size_t j = i; j > 0; j--) {
      size_t a = order[j - 1], b = order[j];
      double ya = d->y ? d->y[a] : 0, yb = d->y ? d->y[b] : 0;
      if (ya < yb || (ya == yb && d->x[a] <= d->x[b])) break;
      order[j - 1] = b;
      order[j] = a;
    }
  for (size_t i = 0; i < n; i++) {
    size_t k = order[i];
    if (d->y && i > 0 && d->y[k] != d->y[order[i - 1]]) fputc('\n', f);
    fprintf(f, "%.17g", d->x[k]);
    if (d->y) fprintf(f, " %.17g", d->y[k]);
    fprintf(f, " %.17g\n", d->z[k]);
  }
  free(order);
  return ferror(f) ? -1 : 0;
}

static void write_sweep_script(FILE *g, const plot_script *sc, const char *data,
                               const char *image) {
  const st_plot_sweep *d = sc->sweep;
  const st_plot_options *opt = sc->opt;
  fprintf(g, "set terminal %s size 900,700 noenhanced\nset output ",
          is_svg(opt->output) ? "svg" : "pngcairo");
  put_quoted(g, image);
  fputs("\nset xlabel ", g);
  put_quoted(g, d->x_name);
  if (opt->title) { fputs("\nset title ", g); put_quoted(g, opt->title); }
  if (d->y) { /* a map: one cell per run, colour = the metric */
    fputs("\nset ylabel ", g);
    put_quoted(g, d->y_name);
    fputs("\nset cblabel ", g);
    put_quoted(g, d->z_name);
    fputs("\nset autoscale xfix\nset autoscale yfix\nset view map\n"
          "plot ", g);
    put_quoted(g, data);
    fputs(" using 1:2:3 with image notitle\n", g);
  } else { /* a diagram: the metric against the parameter */
    fputs("\nset ylabel ", g);
    put_quoted(g, d->z_name);
    fputs("\nset grid\nplot ", g);
    put_quoted(g, data);
    fputs(" using 1:2 with linespoints pt 7 ps 0.6 notitle\n", g);
  }
  fputs("set output\n", g);
}

int st_plot_sweep_summary(const st_plot_sweep *d, const st_plot_options *opt, char *msg,
                          size_t size) {
  char prog[4096];
  int rc = check_output_name(opt->output, msg, size);
  const char *what = has_control(opt->output) ? "the output file name"
                     : has_control(opt->title) ? "the title"
                     : has_control(d->x_name) || has_control(d->y_name) ||
                       has_control(d->z_name) ? "a column name" : NULL;
  if (!rc && what) {
    snprintf(msg, size, "%s contains a control character (newline, tab, ...), which gnuplot "
             "cannot take", what);
    rc = STICTION_ERR_ARG;
  }
  if (!rc && d->n < 1) { snprintf(msg, size, "the summary has no runs"); rc = STICTION_ERR_ARG; }
  if (!rc) rc = gnuplot_program(opt, prog, sizeof prog, msg, size);
  plot_script sc = {write_sweep_script, opt, NULL, NULL, d};
  if (!rc) rc = plot_with_data(&sc, write_sweep_data, prog, msg, size);
  return rc;
}
