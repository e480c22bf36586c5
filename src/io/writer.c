/* Result writers: the format-independent part (open, sink adapter, close). The formats are in
 * csv_writer.c and mat_writer.c. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include <stiction/stiction.h>

#include "io/writer_impl.h"

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
  /* "w+b": the MAT writer seeks back to patch sizes; binary mode for the MAT bytes. */
  w->file = fopen(path, format == STICTION_FORMAT_MAT ? "w+b" : "w");
  if (!w->file) {
    int e = errno;
    free(w);
    errno = e;
    return STICTION_ERR_IO;
  }
  w->ops = format == STICTION_FORMAT_MAT ? &st_mat_writer_ops : &st_csv_writer_ops;
  *out = w;
  return STICTION_OK;
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
  if (rc) w->failed = 1;
  else w->rows++;
  return rc;
}

static int sink_end(void *user_data, int status) {
  (void)status; /* rows already on disk stay valid whatever the run's outcome */
  stiction_writer *w = user_data;
  return w->failed ? STICTION_ERR_IO : (fflush(w->file) ? STICTION_ERR_IO : 0);
}

void stiction_writer_sink(stiction_writer *w, stiction_sink *sink) {
  if (!sink) return;
  sink->begin = sink_begin;
  sink->row = sink_row;
  sink->end = sink_end;
  sink->user_data = w;
}

int stiction_writer_close(stiction_writer *w) {
  if (!w) return STICTION_OK;
  int rc = w->failed ? STICTION_ERR_IO : STICTION_OK;
  if (!w->failed && w->ops->finish(w)) rc = STICTION_ERR_IO;
  if (fclose(w->file)) rc = STICTION_ERR_IO;
  free(w);
  return rc;
}
