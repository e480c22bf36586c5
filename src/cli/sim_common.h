/* Helpers shared by the commands that run simulations (`stiction simulate`, and meant for
 * `stiction demo`): number and solver option values, and the event log CSV
 * (time,kind,indicators,iterations,changed). */
#ifndef ST_CLI_SIM_COMMON_H
#define ST_CLI_SIM_COMMON_H

#include <stdio.h>

#include <stiction/stiction.h>

/* Result rows reach the disk at least this often (seconds): a killed run loses at most this
 * much, and a short run does not pay a system call per row (doc/results.md). */
#define ST_CLI_FLUSH_INTERVAL 0.1

/* A finite number filling the whole text: 0, else -1. */
int st_cli_number(const char *text, double *out);
/* cvode | cvode-bdf | cvode-adams | ida: 0, else -1. */
int st_cli_solver(const char *text, stiction_solver *out);

/* The closing line of a run of `cmd` ("stiction demo") on model `name`: on success the span,
 * rows and events (stdout, or stderr when the rows go to standard output, path "-"), on
 * failure the error, where it stopped and what the result file holds; then the statistics
 * when `stats`. A run that failed before its first row leaves no result file: the CLI
 * removes it after closing the writer (st_cli_discard_empty), and the message says so. */
void st_cli_report_run(const char *cmd, const char *name, const stiction_sim *sim, int rc,
                       const char *path, double start_time, int stats);
/* After the writer is closed: removes path when the run failed (rc != 0) without a row, so
 * that a file on disk always holds results (a header alone, or an older file of the same
 * name, would pass for them). Standard output ("-") is left alone. */
void st_cli_discard_empty(const char *path, int rc, const stiction_sim *sim);

typedef struct st_event_log {
  FILE *file;
  const stiction_model *model;
  int failed;
} st_event_log;

/* Opens path and writes the header; 0, or -1 with errno. */
int st_event_log_open(st_event_log *log, const char *path, const stiction_model *model);
/* The listener for stiction_sim_set_event_listener(); user_data is the st_event_log. */
int st_event_log_write(void *user_data, const stiction_event_record *e);
/* 0, or -1 when a write failed. Safe when never opened. */
int st_event_log_close(st_event_log *log);

#endif
