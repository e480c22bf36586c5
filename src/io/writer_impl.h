/* Internals shared by the result writers (include/stiction/results.h): one handle type, one
 * small table of format-specific functions, so that stiction_writer_* can dispatch. */
#ifndef ST_IO_WRITER_IMPL_H
#define ST_IO_WRITER_IMPL_H

#include <stdio.h>

#include <stiction/results.h>

typedef struct st_writer_ops {
  int (*begin)(stiction_writer *w, int ncols, const char *const *names);
  int (*row)(stiction_writer *w, const double *values);
  int (*finish)(stiction_writer *w); /* complete headers; the file is closed by the caller */
} st_writer_ops;

struct stiction_writer {
  FILE *file;
  const st_writer_ops *ops;
  int ncols;       /* 0 until begin() */
  long rows;       /* rows written so far */
  int failed;      /* a write failed: later calls report STICTION_ERR_IO */
  /* MAT only: file offsets of the fields patched as rows arrive. */
  long off_data1;  /* data_1 values (start time, end time) */
  long off_data2;  /* data_2 header, ncols field */
  double t_first;
};

extern const st_writer_ops st_csv_writer_ops;
extern const st_writer_ops st_mat_writer_ops;

/* Shortest decimal text that reads back to exactly x (at most 17 significant digits);
 * buf needs 32 bytes. "nan", "inf", "-inf" for non-finite values. */
void st_format_double(char *buf, size_t size, double x);

#endif
