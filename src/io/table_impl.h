/* Internals of the result table (include/stiction/results.h): the struct, shared by the CSV
 * and MAT readers, and helpers to build one. */
#ifndef ST_IO_TABLE_IMPL_H
#define ST_IO_TABLE_IMPL_H

#include <stddef.h>

#include <stiction/results.h>

struct stiction_table {
  int rows, cols;
  char **names;  /* cols strings, each malloc'd */
  double *data;  /* rows * cols, row major */
};

/* An empty table with cols columns (names NULL until set); NULL when out of memory. */
stiction_table *st_table_new(int cols);
/* Sets the name of a column (copied). Returns 0, or -1 when out of memory. */
int st_table_set_name(stiction_table *t, int col, const char *name, size_t len);
/* Makes room for rows rows. Returns 0, or -1 when out of memory. */
int st_table_reserve(stiction_table *t, long rows);

/* Readers: fill *out from a whole file held in memory (len bytes; the CSV reader's text also
 * has a NUL at text[len], and a NUL before it is an error). On failure return an error status
 * and write a one-line message "path:line: reason" (or "path: reason") into msg. */
int st_table_read_csv(stiction_table **out, const char *path, const char *text, size_t len,
                      char *msg, size_t size);
int st_table_read_mat(stiction_table **out, const char *path, const unsigned char *bytes,
                      size_t len, char *msg, size_t size);
/* Whether bytes start like a MAT v4 file (a plausible header naming "Aclass"). */
int st_table_looks_like_mat(const unsigned char *bytes, size_t len);

#endif
