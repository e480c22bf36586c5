/* Plotting result signals with gnuplot (`stiction plot`, doc/results.md): panels stacked
 * vertically over one shared time axis, rows drawn in file order so that the two rows of an
 * event (same time) give a vertical step. */
#ifndef ST_IO_PLOT_H
#define ST_IO_PLOT_H

#include <stddef.h>

#include <stiction/results.h>

typedef struct st_plot_options {
  const char *output;   /* FILE.png or FILE.svg */
  const char *title;    /* NULL: none */
  const char *gnuplot;  /* the program; NULL: "gnuplot" searched in PATH */
} st_plot_options;

/* panels[i] is a comma-separated list of signal names of table. Returns STICTION_OK, or
 * STICTION_ERR_NOT_FOUND (unknown signal; msg lists close names), STICTION_ERR_ARG (bad
 * output name), STICTION_ERR_IO (gnuplot missing or failed, temp file), with a one-line msg. */
int st_plot(const stiction_table *table, const char *const *panels, int npanels,
            const st_plot_options *opt, char *msg, size_t size);

/* A sweep summary's columns (doc/sweep.md): n runs, a metric z against the parameter x, or
 * over x and y (y NULL for one parameter). Failed runs are NaN. */
typedef struct st_plot_sweep {
  size_t n;
  const double *x, *y, *z;
  const char *x_name, *y_name, *z_name;
} st_plot_sweep;

/* One parameter: z against x with lines and points; two: a map (gnuplot `with image`, one
 * cell per run, the colour bar the metric). The same returns as st_plot(). */
int st_plot_sweep_summary(const st_plot_sweep *d, const st_plot_options *opt, char *msg,
                          size_t size);

/* Up to max names of table closest to name (edit distance), joined by ", " into buf. */
void st_plot_close_names(const stiction_table *table, const char *name, char *buf, size_t size, int max);

#endif
