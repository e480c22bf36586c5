/* Helpers shared by the commands that run simulations (`stiction simulate`, `stiction demo`,
 * meant for `stiction study` too): one parser of the run options they share, number and
 * solver option values, the closing message of a run, and the event log CSV
 * (time,kind,indicators,iterations,changed). */
#ifndef ST_CLI_SIM_COMMON_H
#define ST_CLI_SIM_COMMON_H

#include <getopt.h>
#include <stdio.h>

#include <stiction/stiction.h>

#include "util/outfile.h"

/* Result rows reach the disk at least this often (seconds): a killed run loses at most this
 * much, and a short run does not pay a system call per row (doc/results.md). */
#define ST_CLI_FLUSH_INTERVAL 0.1

enum { ST_CLI_EXIT_RUN = 1, ST_CLI_EXIT_USAGE = 2 };

/* The run options a command accepts, as bits of st_cli_parser.common. */
enum {
  ST_RUN_OUTPUT = 1 << 0,   /* -o, --output FILE; --keep-partial */
  ST_RUN_PARAM = 1 << 1,    /* -p, --param NAME=VALUE (repeatable) */
  ST_RUN_LIB = 1 << 2,      /* -L DIR (repeatable) */
  ST_RUN_START = 1 << 3,    /* --start-time T (finite) */
  ST_RUN_STOP = 1 << 4,     /* --stop-time T (finite) */
  ST_RUN_TOL = 1 << 5,      /* --tolerance R (> 0) */
  ST_RUN_INTERVAL = 1 << 6, /* --interval DT (> 0) */
  ST_RUN_SOLVER = 1 << 7,   /* --solver cvode|cvode-adams|ida */
  ST_RUN_EVENTS = 1 << 8,   /* --events FILE */
  ST_RUN_STATS = 1 << 9,    /* --stats */
  ST_RUN_MAX_STEP = 1 << 10 /* --max-step H|inf (> 0) */
};
#define ST_RUN_MAX_LIST 128

/* Their values; the have_ flags say which were given. */
typedef struct st_run_args {
  const char *output, *events;
  int stats;
  int keep_partial; /* --keep-partial (with ST_RUN_OUTPUT) */
  int have_start, have_stop, have_tol, have_interval, have_solver, have_max_step;
  double start_time, stop_time, rtol, interval, max_step;
  stiction_solver solver;
  const char *params[ST_RUN_MAX_LIST], *libs[ST_RUN_MAX_LIST];
  int n_params, n_libs;
} st_run_args;

/* A command's options: the shared ones it accepts and its own. The command's long options
 * use values from 256 to 999 or short option letters other than o, p, L, h. */
typedef struct st_cli_parser {
  const char *cmd;                  /* "stiction simulate", for messages */
  unsigned common;                  /* ST_RUN_* bits */
  const struct option *longs;       /* its own long options, {NULL} terminated; may be NULL */
  const char *shorts;               /* its own short options ("e:l:"); may be NULL */
  int (*option)(void *ctx, int c, const char *arg); /* one of its own: 0 or ST_CLI_EXIT_USAGE */
  void *ctx;
  void (*usage)(FILE *out);         /* --help */
} st_cli_parser;

/* getopt_long over the shared and the command's options, from argv[1]; the positional
 * arguments start at optind afterwards. Returns 0, ST_CLI_EXIT_USAGE (the reason printed with
 * the --help hint), or -1 after printing --help. */
int st_cli_parse(const st_cli_parser *p, int argc, char **argv, st_run_args *run);
/* "CMD: <fmt, arg>" and the --help hint on stderr; returns ST_CLI_EXIT_USAGE. */
int st_cli_bad_usage(const char *cmd, const char *fmt, const char *arg);
/* The values given in run over those already in opt (defaults, the experiment annotation). */
void st_cli_apply_run(const st_run_args *run, stiction_options *opt);

/* One CSV field, quoted (quotes doubled) when it holds a separator, a quote or a line break. */
void st_cli_csv_field(FILE *f, const char *text);

/* A finite number filling the whole text: 0, else -1. */
int st_cli_number(const char *text, double *out);
/* cvode | cvode-bdf | cvode-adams | ida: 0, else -1. */
int st_cli_solver(const char *text, stiction_solver *out);

/* The closing line of a run of `cmd` ("stiction demo") on model `name`: on success the span,
 * rows and events (stdout, or stderr when the rows go to standard output, path "-"), on
 * failure the error, where it stopped and what is at path now: the rows computed before the
 * failure with --keep-partial, else the previous file as it was (or none); then the
 * statistics with --stats. */
void st_cli_report_run(const char *cmd, const char *name, const stiction_sim *sim, int rc,
                       const char *path, double start_time, const st_run_args *run);

typedef struct st_event_log st_event_log;

/* Refuses (ST_CLI_EXIT_USAGE, with the reason) a result path or event log that names one of
 * the inputs, or the two naming one file; 0 otherwise. inputs may hold NULLs. */
int st_cli_check_outputs(const char *cmd, const st_run_args *run, const char *output,
                         const char *const *inputs, int ninputs);

/* Opens the result writer at path ("-": CSV to standard output) with the CLI's flush policy
 * and run->keep_partial, and the event log when run->events; 0 or ST_CLI_EXIT_RUN (said why,
 * nothing left open). */
int st_cli_open_outputs(const char *cmd, const st_run_args *run, const char *path,
                        const stiction_model *model, stiction_writer **w, st_event_log *log);
/* Closes both: a file is put in place when the run ended well, or failed with
 * --keep-partial; else the previous one stays. 0 or ST_CLI_EXIT_RUN (a write failed). */
int st_cli_close_outputs(const char *cmd, const st_run_args *run, const char *path,
                         stiction_writer *w, st_event_log *log, int run_failed);

struct st_event_log {
  st_outfile out;
  const stiction_model *model;
  int failed;
};

/* Opens path and writes the header; 0, or -1 with errno. */
int st_event_log_open(st_event_log *log, const char *path, const stiction_model *model);
/* The listener for stiction_sim_set_event_listener(); user_data is the st_event_log. */
int st_event_log_write(void *user_data, const stiction_event_record *e);
/* Puts the log in place when keep (else the previous file stays); 0, or -1 when a write
 * failed. Safe when never opened. */
int st_event_log_close(st_event_log *log, int keep);

#endif
