/* The csv-compare "rectangle tube" rule (doc/results.md; our own
 * description in doc/results.md): does a result stay inside a tube around a reference?
 *
 * Typical use (the MSL example tests):
 *   st_compare_options opt;
 *   st_compare_options_init(&opt);
 *   st_compare_report rep;
 *   char msg[512];
 *   if (st_compare_files(result_csv, reference_csv, signals_txt, &opt, &rep, msg, sizeof msg))
 *     ... bad input: msg says why ...
 *   else if (rep.failed) ... st_compare_print(&rep, &opt, stdout, 0) ...
 *   st_compare_report_free(&rep);
 */
#ifndef ST_IO_COMPARE_H
#define ST_IO_COMPARE_H

#include <stddef.h>
#include <stdio.h>

#include <stiction/results.h>

/* The value floor epsilon of the half-height Y changed between csv-compare versions. */
typedef enum st_compare_compat {
  ST_COMPARE_2_1 = 0,   /* csv-compare >= 2.1: epsilon 1e-3 (default) */
  ST_COMPARE_2_0_3 = 1  /* csv-compare 2.0.x: epsilon 1e-12 (the stored MSL compare logs) */
} st_compare_compat;

typedef struct st_compare_options {
  double tolerance;          /* relative tube size, default 0.002 */
  st_compare_compat compat;
} st_compare_options;

void st_compare_options_init(st_compare_options *opt);
/* The epsilon of a compat setting. */
double st_compare_epsilon(st_compare_compat compat);

/* One reference signal's tube. t and r are the reference points in file order (time
 * non-decreasing, duplicates allowed), both copied. NULL when out of memory or n < 1. */
typedef struct st_tube st_tube;
st_tube *st_tube_new(const double *t, const double *r, size_t n, double tolerance, double epsilon);
void st_tube_free(st_tube *tube);
double st_tube_x(const st_tube *tube); /* half-width in time */
double st_tube_y(const st_tube *tube); /* half-height in value */
/* Lower and upper tube bounds at time t. Returns 0, or -1 if t is outside
 * [t_0 - X, t_{N-1} + X] where the tube is not defined (such samples are not checked). */
int st_tube_bounds(const st_tube *tube, double t, double *lower, double *upper);

typedef enum st_signal_status {
  ST_SIGNAL_PASS = 0,
  ST_SIGNAL_FAIL = 1,           /* a result sample lies outside the tube */
  ST_SIGNAL_NO_RESULT = 2,      /* not in the result file: counted as a failure */
  ST_SIGNAL_NO_REFERENCE = 3,   /* listed but not in the reference: warned about, skipped */
  ST_SIGNAL_SHORT = 4           /* the result does not span the reference's time range (a
                                 * simulation that stopped early): counted as a failure */
} st_signal_status;

typedef struct st_signal_report {
  char *name;                   /* owned by the report */
  st_signal_status status;
  double y;                     /* half-height of the tube */
  long checked;                 /* result samples inside the tube's time span */
  long outside;                 /* of those, samples outside the tube */
  /* The worst sample outside (status FAIL): where, its value, the band and by how much. */
  double worst_t, worst_value, worst_lower, worst_upper, worst_excess;
} st_signal_report;

typedef struct st_compare_report {
  int nsignals;
  st_signal_report *signals;
  int passed, failed, skipped;  /* failed includes NO_RESULT, skipped is NO_REFERENCE */
  double x;                     /* time half-width (the same for every signal) */
  /* The time spans of both files; the result must reach each end of the reference's to
   * within x, or every signal that passes the tube is ST_SIGNAL_SHORT. */
  double result_t0, result_t1, reference_t0, reference_t1;
} st_compare_report;

/* Compares the named signals (NULL: every reference column but the first). Time is the
 * first column of both tables. Returns STICTION_OK with *rep filled (free it with
 * st_compare_report_free) or an error status with a one-line reason in msg. */
int st_compare_tables(const stiction_table *result, const stiction_table *reference,
                      const char *const *signals, int nsignals, const st_compare_options *opt,
                      st_compare_report *rep, char *msg, size_t size);
void st_compare_report_free(st_compare_report *rep);

/* Reads a comparisonSignals.txt list: one name per line, blank lines and a first column
 * name (time/Time/t) ignored. *names is malloc'd (each name too); free with
 * st_compare_signals_free. */
int st_compare_read_signals(const char *path, char ***names, int *n, char *msg, size_t size);
void st_compare_signals_free(char **names, int n);

/* Reads both files (and the signal list if not NULL) and compares them. */
int st_compare_files(const char *result, const char *reference, const char *signals,
                     const st_compare_options *opt, st_compare_report *rep, char *msg, size_t size);

/* Prints one line per signal and a summary line (see doc/results.md). verbose adds the tube
 * size and the number of samples of every signal. */
void st_compare_print(const st_compare_report *rep, const st_compare_options *opt, FILE *out, int verbose);

#endif
