/* Result tables in memory: construction, accessors, and stiction_table_read(), which loads a
 * file and hands it to the CSV or MAT reader according to its content. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <stiction/stiction.h>

#include "io/table_impl.h"

stiction_table *st_table_new(int cols) {
  stiction_table *t = calloc(1, sizeof *t);
  if (!t) return NULL;
  t->cols = cols;
  t->names = calloc((size_t)(cols > 0 ? cols : 1), sizeof *t->names);
  if (!t->names) { free(t); return NULL; }
  return t;
}

int st_table_set_name(stiction_table *t, int col, const char *name, size_t len) {
  char *s = malloc(len + 1);
  if (!s) return -1;
  memcpy(s, name, len);
  s[len] = 0;
  free(t->names[col]);
  t->names[col] = s;
  return 0;
}

int st_table_reserve(stiction_table *t, long rows) {
  size_t n = (size_t)(rows > 0 ? rows : 1) * (size_t)(t->cols > 0 ? t->cols : 1);
  double *d = realloc(t->data, n * sizeof *d);
  if (!d) return -1;
  t->data = d;
  return 0;
}

void stiction_table_free(stiction_table *t) {
  if (!t) return;
  for (int i = 0; i < t->cols; i++) free(t->names[i]);
  free(t->names);
  free(t->data);
  free(t);
}

int stiction_table_rows(const stiction_table *t) { return t ? t->rows : 0; }
int stiction_table_columns(const stiction_table *t) { return t ? t->cols : 0; }
const double *stiction_table_data(const stiction_table *t) { return t ? t->data : NULL; }

const char *stiction_table_name(const stiction_table *t, int column) {
  if (!t || column < 0 || column >= t->cols) return NULL;
  return t->names[column];
}

int stiction_table_find(const stiction_table *t, const char *name) {
  if (!t || !name) return -1;
  for (int i = 0; i < t->cols; i++)
    if (t->names[i] && !strcmp(t->names[i], name)) return i;
  return -1;
}

/* The whole file, NUL terminated (CSV parsing relies on it). */
static int slurp(const char *path, char **text, size_t *len, char *msg, size_t size) {
  FILE *f = fopen(path, "rb");
  if (!f) {
    snprintf(msg, size, "%s: cannot open: %s", path, strerror(errno));
    return STICTION_ERR_IO;
  }
  size_t cap = 1 << 16, n = 0, got;
  char *buf = malloc(cap);
  while (buf && (got = fread(buf + n, 1, cap - n - 1, f)) > 0) {
    n += got;
    if (cap - n < 2) {
      char *nb = realloc(buf, cap *= 2);
      if (!nb) { free(buf); buf = NULL; }
      else buf = nb;
    }
  }
  int err = ferror(f);
  fclose(f);
  if (!buf) { snprintf(msg, size, "%s: out of memory", path); return STICTION_ERR_NOMEM; }
  if (err) {
    free(buf);
    snprintf(msg, size, "%s: read error", path);
    return STICTION_ERR_IO;
  }
  buf[n] = 0;
  *text = buf;
  *len = n;
  return STICTION_OK;
}

int stiction_table_read(stiction_table **out, const char *path, char *message, size_t size) {
  char dummy[8];
  if (!message || !size) { message = dummy; size = sizeof dummy; }
  message[0] = 0;
  if (!out || !path) {
    snprintf(message, size, "invalid argument");
    return STICTION_ERR_ARG;
  }
  *out = NULL;
  char *text;
  size_t len;
  int rc = slurp(path, &text, &len, message, size);
  if (rc) return rc;
  if (st_table_looks_like_mat((const unsigned char *)text, len))
    rc = st_table_read_mat(out, path, (const unsigned char *)text, len, message, size);
  else
    rc = st_table_read_csv(out, path, text, len, message, size);
  free(text);
  return rc;
}
