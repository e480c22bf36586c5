/* Internals shared by the result writers (include/stiction/results.h): one handle type, one
 * small table of format-specific functions, so that stiction_writer_* can dispatch. */
#ifndef ST_IO_WRITER_IMPL_H
#define ST_IO_WRITER_IMPL_H

#include <stdio.h>

#include <stiction/results.h>

#include "util/outfile.h"

typedef struct st_writer_ops {
  int (*begin)(stiction_writer *w, int ncols, const char *const *names);
  int (*row)(stiction_writer *w, const double *values);
  int (*finish)(stiction_writer *w); /* complete headers; the file is closed by the caller */
  /* After the rows up to w->rows_flushed reached the disk (MAT: patch the header sizes);
   * may be NULL. 0 or -1. */
  int (*after_flush)(stiction_writer *w);
} st_writer_ops;

struct stiction_writer {
  st_outfile out;  /* the file being written and where it goes at close */
  FILE *file;      /* out.file */
  const st_writer_ops *ops;
  int ncols;       /* 0 until begin() */
  long rows;       /* rows written so far */
  int failed;      /* a write failed: later calls report STICTION_ERR_IO */
  int run_failed;  /* the sink's end() reported a failed run */
  int keep_partial; /* stiction_writer_keep_partial() */
  /* MAT only: file offsets of the fields patched as rows arrive. */
  long off_data1;  /* data_1 values (start time, end time) */
  long off_data2;  /* data_2 header, ncols field */
  double t_first, t_last;
  long rows_patched;  /* rows announced in the header */
  char *line;      /* CSV only: one row's text, ncols * (ST_CSV_FIELD + 1) + ST_CSV_SLACK bytes */
  struct st_csv_cache *cache; /* CSV only: texts of values already formatted (csv_writer.c) */
  /* When rows reach the disk (stiction_writer_set_flush_interval): 0 = after every row. */
  double flush_interval;
  double last_flush;   /* monotonic seconds of the last flush */
  long rows_flushed;   /* rows known to be on disk (MAT patches its header with this) */
  char *stdio_buf;     /* the stream's buffer (ST_WRITER_BUFFER bytes) or NULL: stdio's own */
};

/* Bytes of the stream buffer: a write() per this many bytes between flushes. */
#define ST_WRITER_BUFFER (64 * 1024)

/* Room for one formatted CSV field: at most 24 characters, but copied 32 bytes at a time
 * (csv_writer.c copy_field). */
#define ST_CSV_FIELD 32
/* Room after the last field of a line: st_format_shortest writes up to ST_SHORTEST_MAX
 * (64) bytes at the field's start. */
#define ST_CSV_SLACK 64


extern const st_writer_ops st_csv_writer_ops;
extern const st_writer_ops st_mat_writer_ops;

/* Frees the CSV writer's cache of formatted values (csv_writer.c); NULL-safe. */
void st_csv_cache_free(stiction_writer *w);

#endif
