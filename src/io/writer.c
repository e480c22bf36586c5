/* Result writers: the format-independent part (open, sink adapter, close). The formats are in
 * csv_writer.c and mat_writer.c. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <stiction/stiction.h>

#include "io/writer_impl.h"
#include "util/outfile.h"

static int has_suffix(const char *s, const char *suffix) {
  size_t n = strlen(s), m = strlen(suffix);
  if (n < m) return 0;
  for (size_t i = 0; i < m; i++) {
    char c = s[n - m + i];
    if (c >= 'A' && c <= 'Z') c = (char)(c - 'A' + 'a');
    if (c != suffix[i]) return 0;
  }
  return 1;
}

int stiction_writer_open(stiction_writer **out, const char *path, stiction_result_format format) {
  if (!out || !path) return STICTION_ERR_ARG;
  *out = NULL;
  if (format == STICTION_FORMAT_AUTO)
    format = has_suffix(path, ".mat") ? STICTION_FORMAT_MAT : STICTION_FORMAT_CSV;
  if (format != STICTION_FORMAT_CSV && format != STICTION_FORMAT_MAT) return STICTION_ERR_ARG;
  stiction_writer *w = calloc(1, sizeof *w);
  if (!w) return STICTION_ERR_NOMEM;
  /* "w+b": the MAT writer seeks back to patch sizes; binary mode for the MAT bytes. Written
   * beside the path and put in place at close (util/outfile.h). */
  if (st_outfile_open(&w->out, path, format == STICTION_FORMAT_MAT ? "w+b" : "w")) {
    int e = errno;
    free(w);
    errno = e;
    return STICTION_ERR_IO;
  }
  /* A larger buffer than stdio's 4 KiB: a write() per 4 KiB was 530 system calls for
   * CoupledClutches' 2 MB; when rows reach the disk stays the flush policy's decision
   * (row_policy). Without it the stream keeps stdio's own buffer. */
  w->file = w->out.file;
  w->stdio_buf = malloc(ST_WRITER_BUFFER);
  if (w->stdio_buf && setvbuf(w->file, w->stdio_buf, _IOFBF, ST_WRITER_BUFFER)) {
    free(w->stdio_buf);
    w->stdio_buf = NULL;
  }
  w->ops = format == STICTION_FORMAT_MAT ? &st_mat_writer_ops : &st_csv_writer_ops;
  *out = w;
  return STICTION_OK;
}

static double monotonic_seconds(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

/* Puts every row written so far on disk, then lets the format describe them (MAT sizes). */
static int flush_rows(stiction_writer *w) {
  if (fflush(w->file) || ferror(w->file)) return STICTION_ERR_IO;
  w->rows_flushed = w->rows;
  w->last_flush = w->flush_interval > 0 ? monotonic_seconds() : 0;
  return w->ops->after_flush && w->ops->after_flush(w) ? STICTION_ERR_IO : STICTION_OK;
}

/* Flushing costs a system call per row (and two more for MAT's header patch), a large part
 * of a short simulation's process time; with an interval, rows are batched but never held
 * back longer than that. */
static int row_policy(stiction_writer *w) {
  if (w->flush_interval > 0 && monotonic_seconds() - w->last_flush < w->flush_interval)
    return STICTION_OK;
  return flush_rows(w);
}

void stiction_writer_set_flush_interval(stiction_writer *w, double seconds) {
  if (!w) return;
  w->flush_interval = seconds > 0 ? seconds : 0;
  w->last_flush = w->flush_interval > 0 ? monotonic_seconds() : 0;
}

static int sink_begin(void *user_data, int ncols, const char *const *names) {
  stiction_writer *w = user_data;
  if (w->failed) return STICTION_ERR_IO;
  if (w->ncols) return STICTION_ERR_STATE; /* one table per file */
  if (ncols < 1 || !names) return STICTION_ERR_ARG;
  for (int i = 0; i < ncols; i++)
    if (!names[i]) return STICTION_ERR_ARG;
  int rc = w->ops->begin(w, ncols, names);
  if (rc) w->failed = 1;
  else w->ncols = ncols;
  return rc;
}

static int sink_row(void *user_data, const double *values) {
  stiction_writer *w = user_data;
  if (w->failed) return STICTION_ERR_IO;
  if (!w->ncols) return STICTION_ERR_STATE;
  int rc = w->ops->row(w, values);
  if (!rc) {
    w->rows++;
    rc = row_policy(w);
  }
  if (rc) w->failed = 1;
  return rc;
}

static int sink_end(void *user_data, int status) {
  stiction_writer *w = user_data;
  if (status) w->run_failed = 1;
  if (w->failed) return STICTION_ERR_IO;
  int rc = flush_rows(w);
  if (rc) w->failed = 1;
  return rc;
}

void stiction_writer_sink(stiction_writer *w, stiction_sink *sink) {
  if (!sink) return;
  sink->size = sizeof *sink;
  sink->begin = sink_begin;
  sink->row = sink_row;
  sink->end = sink_end;
  sink->user_data = w;
}

void stiction_writer_keep_partial(stiction_writer *w, int keep) {
  if (w) w->keep_partial = keep != 0;
}

/* The file is put in place when it is complete: a run that ended well, or the rows of a
 * failed run when they were asked for. Otherwise the previous file stays. */
int stiction_writer_close(stiction_writer *w) {
  if (!w) return STICTION_OK;
  int rc = w->failed ? STICTION_ERR_IO : STICTION_OK;
  int keep = !w->failed && (!w->run_failed || (w->keep_partial && w->rows > 0));
  if (keep && (flush_rows(w) || w->ops->finish(w))) rc = STICTION_ERR_IO, keep = 0;
  if (keep) {
    if (st_outfile_commit(&w->out)) rc = STICTION_ERR_IO;
  } else {
    st_outfile_abort(&w->out);
  }
  free(w->stdio_buf); /* only after fclose, which flushes through it */
  st_csv_cache_free(w);
  free(w->line);
  free(w);
  return rc;
}
