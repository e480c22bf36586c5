/* MAT v4 result writer in the Dymola/OpenModelica "dsres" layout (doc/results.md):
 *
 *   Aclass      char 4 x 11   "Atrajectory", "1.1", "", "binTrans"
 *   name        char L x n    transposed: column k is the k-th variable name, blank padded
 *   description char L x n    transposed, same layout (we have no descriptions: blanks)
 *   dataInfo    int32 4 x n   column k = [matrix, signed column, 0 (interpolate), -1]
 *   data_1      double 1 x 2  start and end time
 *   data_2      double n x m  column j = output row j (time in row 1)
 *
 * "binTrans" means that the per-variable data is stored transposed, so every output row is
 * one contiguous column of data_2: rows are appended as they arrive and only the column count
 * m (and the end time in data_1) are patched afterwards, in place, with pwrite, each time
 * rows have been flushed (writer.c decides when). The patch follows the flushed data, so a file cut short at any point is still a readable result.
 * MAT v4 matrices are column major; type code = 1000*M + 10*P + T with M the byte order
 * (0 little endian, 1 big endian), P the element type (0 double, 2 int32, 5 uint8) and T 0
 * numeric, 1 text. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <stiction/stiction.h>

#include "io/writer_impl.h"

enum { P_DOUBLE = 0, P_INT32 = 2, P_UINT8 = 5 };

static int32_t type_code(int precision, int text) {
  const uint16_t probe = 1;
  int big_endian = *(const unsigned char *)&probe == 0;
  return (int32_t)(big_endian * 1000 + precision * 10 + text);
}

static int put_header(FILE *f, int32_t type, int32_t rows, int32_t cols, const char *name) {
  int32_t h[5] = {type, rows, cols, 0, (int32_t)strlen(name) + 1};
  if (fwrite(h, sizeof h, 1, f) != 1) return -1;
  return fwrite(name, strlen(name) + 1, 1, f) == 1 ? 0 : -1;
}

/* A text matrix whose k-th string is stored contiguously (transposed: L rows x n columns
 * when transposed, n rows x L columns otherwise), padded with blanks as MATLAB does. */
static int put_strings(FILE *f, const char *name, int n, const char *const *s, int transposed) {
  size_t len = 1;
  for (int k = 0; k < n; k++)
    if (strlen(s[k]) > len) len = strlen(s[k]);
  int32_t type = type_code(P_UINT8, 1);
  if (put_header(f, type, transposed ? (int32_t)len : n, transposed ? n : (int32_t)len, name))
    return -1;
  for (size_t a = 0; a < (transposed ? (size_t)n : len); a++)
    for (size_t b = 0; b < (transposed ? len : (size_t)n); b++) {
      const char *str = s[transposed ? a : b];
      size_t i = transposed ? b : a;
      if (fputc(i < strlen(str) ? str[i] : ' ', f) == EOF) return -1;
    }
  return 0;
}

static int put_data_info(FILE *f, int n) {
  if (put_header(f, type_code(P_INT32, 0), 4, n, "dataInfo")) return -1;
  for (int k = 0; k < n; k++) {
    /* Time is the abscissa (matrix 0 by the dsres convention), column 1 of data_2. */
    int32_t info[4] = {k == 0 ? 0 : 2, k + 1, 0, -1};
    if (fwrite(info, sizeof info, 1, f) != 1) return -1;
  }
  return 0;
}

static int mat_begin(stiction_writer *w, int ncols, const char *const *names) {
  FILE *f = w->file;
  static const char *const aclass[4] = {"Atrajectory", "1.1", "", "binTrans"};
  const char **blank = calloc((size_t)ncols, sizeof *blank);
  if (!blank) return STICTION_ERR_NOMEM;
  for (int k = 0; k < ncols; k++) blank[k] = "";
  int bad = put_strings(f, "Aclass", 4, aclass, 0) ||
            put_strings(f, "name", ncols, names, 1) ||
            put_strings(f, "description", ncols, blank, 1) || put_data_info(f, ncols) ||
            put_header(f, type_code(P_DOUBLE, 0), 1, 2, "data_1");
  free(blank);
  double span[2] = {0, 0};
  if (bad || (w->off_data1 = ftell(f)) < 0 || fwrite(span, sizeof span, 1, f) != 1)
    return STICTION_ERR_IO;
  long start = ftell(f);
  if (start < 0 || put_header(f, type_code(P_DOUBLE, 0), ncols, 0, "data_2"))
    return STICTION_ERR_IO;
  w->off_data2 = start + 2 * (long)sizeof(int32_t); /* the ncols field */
  return fflush(f) ? STICTION_ERR_IO : STICTION_OK;
}

static int patch(stiction_writer *w, const void *bytes, size_t n, long offset) {
  return pwrite(fileno(w->file), bytes, n, (off_t)offset) == (ssize_t)n ? 0 : -1;
}

static int mat_row(stiction_writer *w, const double *values) {
  if (fwrite(values, sizeof *values, (size_t)w->ncols, w->file) != (size_t)w->ncols)
    return STICTION_ERR_IO;
  if (w->rows == 0) w->t_first = values[0];
  w->t_last = values[0];
  return STICTION_OK;
}

/* The header announces only rows that are on disk: patched after each flush. */
static int mat_after_flush(stiction_writer *w) {
  if (w->rows_flushed == w->rows_patched) return STICTION_OK;
  int32_t m = (int32_t)w->rows_flushed;
  double span[2] = {w->t_first, w->t_last};
  if (patch(w, span, sizeof span, w->off_data1) || patch(w, &m, sizeof m, w->off_data2))
    return STICTION_ERR_IO;
  w->rows_patched = w->rows_flushed;
  return STICTION_OK;
}

static int mat_finish(stiction_writer *w) {
  return fflush(w->file) ? STICTION_ERR_IO : STICTION_OK;
}

const st_writer_ops st_mat_writer_ops = {mat_begin, mat_row, mat_finish, mat_after_flush};
