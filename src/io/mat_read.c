/* Reading MAT v4 results in the dsres layout (see mat_writer.c for the layout): ours, and
 * Dymola's or OpenModelica's, "binTrans" (per-variable data transposed) or "binNormal".
 * Variables may live in data_1 (constant: the value at the start is used for every row) or in
 * data_2, with a signed column index (negative: the negated column, for alias variables).
 * Only files in the host byte order are read. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <stiction/stiction.h>

#include "io/table_impl.h"

typedef struct matrix {
  int found;
  int32_t type, rows, cols;
  const unsigned char *data;
} matrix;

enum { M_ACLASS, M_NAME, M_DATAINFO, M_DATA1, M_DATA2, M_COUNT };
static const char *const matrix_names[M_COUNT] = {"Aclass", "name", "dataInfo", "data_1", "data_2"};

static const size_t elem_size[6] = {8, 4, 4, 2, 2, 1};

static int host_order(void) {
  const uint16_t probe = 1;
  return *(const unsigned char *)&probe == 0; /* M digit: 0 little, 1 big endian */
}

/* Element i of a numeric or text matrix, as a double. */
static double elem(const matrix *m, size_t i) {
  int p = (m->type / 10) % 10;
  const unsigned char *q = m->data + i * elem_size[p];
  switch (p) {
  case 0: { double v; memcpy(&v, q, 8); return v; }
  case 1: { float v; memcpy(&v, q, 4); return v; }
  case 2: { int32_t v; memcpy(&v, q, 4); return v; }
  case 3: { int16_t v; memcpy(&v, q, 2); return v; }
  case 4: { uint16_t v; memcpy(&v, q, 2); return v; }
  default: return *q;
  }
}

int st_table_looks_like_mat(const unsigned char *bytes, size_t len) {
  int32_t h[5];
  if (len < sizeof h + 7) return 0;
  memcpy(h, bytes, sizeof h);
  return h[0] >= 0 && h[0] < 5000 && h[3] == 0 && h[4] == 7 && !memcmp(bytes + 20, "Aclass", 7);
}

/* Walks the matrices up to data_2 (the last one in a dsres file: anything after it, such as
 * a row appended before the size patch of a killed run, is ignored). */
static int scan(const unsigned char *b, size_t len, matrix *m, const char *path, char *msg, size_t size) {
  size_t off = 0;
  while (off < len && !m[M_DATA2].found) {
    int32_t h[5];
    if (len - off < sizeof h) break;
    memcpy(h, b + off, sizeof h);
    int p = (h[0] / 10) % 10, order = h[0] / 1000;
    if (h[0] < 0 || order > 4 || (h[0] / 100) % 10 || p > 5 || h[0] % 10 > 2 || h[1] < 0 ||
        h[2] < 0 || h[4] < 1 || h[4] > 4096 || (size_t)h[4] > len - off - sizeof h) {
      snprintf(msg, size, "%s: corrupt MAT v4 matrix header at byte %zu", path, off);
      return STICTION_ERR_SYNTAX;
    }
    if (order != host_order()) {
      snprintf(msg, size, "%s: MAT file in foreign byte order is not supported", path);
      return STICTION_ERR_UNSUPPORTED;
    }
    if (h[3]) {
      snprintf(msg, size, "%s: complex matrix at byte %zu is not a result", path, off);
      return STICTION_ERR_SYNTAX;
    }
    const char *name = (const char *)b + off + sizeof h;
    size_t bytes = (size_t)h[1] * (size_t)h[2] * elem_size[p];
    off += sizeof h + (size_t)h[4];
    if (name[h[4] - 1] != 0 || bytes > len - off) {
      snprintf(msg, size, "%s: matrix '%.*s' is truncated", path, (int)h[4], name);
      return STICTION_ERR_SYNTAX;
    }
    for (int k = 0; k < M_COUNT; k++)
      if (!strcmp(name, matrix_names[k]))
        m[k] = (matrix){1, h[0], h[1], h[2], b + off};
    off += bytes;
  }
  for (int k = 0; k < M_COUNT; k++)
    if (!m[k].found && k != M_DATA1) {
      snprintf(msg, size, "%s: not a dsres result file: no matrix '%s'", path, matrix_names[k]);
      return STICTION_ERR_SYNTAX;
    }
  return STICTION_OK;
}

/* A character of a text matrix: a byte value 0..255 (a cast of any other double to char,
 * NaN included, is undefined behaviour). -1 when v is none. */
static int byte_of(double v) { return v >= 0 && v <= 255 ? (int)v : -1; }

/* Row r of a text matrix (a string of cols characters). */
static int aclass_row_is(const matrix *a, int r, const char *s) {
  size_t n = strlen(s);
  if (r >= a->rows || (size_t)a->cols < n) return 0;
  for (size_t c = 0; c < (size_t)a->cols; c++) {
    int ch = byte_of(elem(a, c * (size_t)a->rows + (size_t)r));
    if (c < n ? ch != (unsigned char)s[c] : (ch != ' ' && ch != 0)) return 0;
  }
  return 1;
}

/* Element (var, k) of a per-variable matrix, var-major if trans. In a binTrans file the
 * name and dataInfo matrices are var-major and the data matrices are not (and the reverse
 * in binNormal), so data matrices are read with !trans. */
static double per_var(const matrix *m, int trans, int var, int k) {
  size_t i = trans ? (size_t)var * (size_t)m->rows + (size_t)k : (size_t)k * (size_t)m->rows + (size_t)var;
  return elem(m, i);
}

/* 0, STICTION_ERR_NOMEM, or STICTION_ERR_SYNTAX for a value that is no character. */
static int set_names(stiction_table *t, const matrix *nm, int trans, const char *path,
                     char *msg, size_t size) {
  int len = trans ? nm->rows : nm->cols;
  char *buf = malloc((size_t)len + 1);
  if (!buf) return STICTION_ERR_NOMEM;
  for (int v = 0; v < t->cols; v++) {
    int n = 0;
    for (int i = 0; i < len; i++) {
      double x = per_var(nm, trans, v, i);
      int ch = byte_of(x);
      if (ch < 0) {
        snprintf(msg, size, "%s: name of variable %d: character %d is %g, not a byte 0..255",
                 path, v + 1, i + 1, x);
        free(buf);
        return STICTION_ERR_SYNTAX;
      }
      buf[n++] = (char)(unsigned char)ch;
    }
    while (n && (buf[n - 1] == ' ' || buf[n - 1] == 0)) n--;
    if (st_table_set_name(t, v, buf, (size_t)n)) { free(buf); return STICTION_ERR_NOMEM; }
  }
  free(buf);
  return 0;
}

typedef struct layout {
  int trans, nvars, nrows;
  matrix *m;
} layout;

/* Fills column v of the table from its dataInfo entry. */
static int fill_column(stiction_table *t, const layout *L, int v, const char *path, char *msg, size_t size) {
  matrix *info = &L->m[M_DATAINFO];
  double which_d = per_var(info, L->trans, v, 0), idx_d = per_var(info, L->trans, v, 1);
  int which = which_d == 1 ? 1 : 2;
  const matrix *d = which == 1 ? &L->m[M_DATA1] : &L->m[M_DATA2];
  int dvars = L->trans ? d->rows : d->cols, dtimes = L->trans ? d->cols : d->rows;
  /* checked as doubles: a cast of an out-of-range double to int is undefined; data_1 is read
   * at its first time, which it must have (found by fuzz_mat: a data_1 of no times) */
  if (!(which_d >= 0 && which_d <= 2 && which_d == (int)which_d) || !d->found ||
      !(idx_d >= -dvars && idx_d <= dvars && idx_d == (int)idx_d) || idx_d == 0 ||
      (which == 1 && dtimes < 1)) {
    snprintf(msg, size, "%s: variable '%s' has an invalid dataInfo entry (%g, %g)", path,
             t->names[v], which_d, idx_d);
    return STICTION_ERR_SYNTAX;
  }
  int idx = (int)idx_d;
  double sign = idx < 0 ? -1 : 1;
  for (int r = 0; r < L->nrows; r++)
    t->data[(size_t)r * (size_t)t->cols + (size_t)v] = sign * per_var(d, !L->trans, abs(idx) - 1, which == 1 ? 0 : r);
  return STICTION_OK;
}

int st_table_read_mat(stiction_table **out, const char *path, const unsigned char *bytes,
                      size_t len, char *msg, size_t size) {
  matrix m[M_COUNT] = {{0}};
  int rc = scan(bytes, len, m, path, msg, size);
  if (rc) return rc;
  if (!aclass_row_is(&m[M_ACLASS], 0, "Atrajectory")) {
    snprintf(msg, size, "%s: not a dsres result file (Aclass is not 'Atrajectory')", path);
    return STICTION_ERR_SYNTAX;
  }
  int trans = !aclass_row_is(&m[M_ACLASS], 3, "binNormal");
  layout L = {trans, trans ? m[M_NAME].cols : m[M_NAME].rows, 0, m};
  L.nrows = trans ? m[M_DATA2].cols : m[M_DATA2].rows;
  if (L.nvars < 1 || (trans ? m[M_DATAINFO].cols : m[M_DATAINFO].rows) != L.nvars ||
      (trans ? m[M_DATAINFO].rows : m[M_DATAINFO].cols) < 2) {
    snprintf(msg, size, "%s: name and dataInfo sizes do not match", path);
    return STICTION_ERR_SYNTAX;
  }
  /* data_2 holds time at least; without a variable its row count costs no bytes of the file
   * and would size the table unchecked */
  if ((trans ? m[M_DATA2].rows : m[M_DATA2].cols) < 1) {
    snprintf(msg, size, "%s: data_2 holds no variables", path);
    return STICTION_ERR_SYNTAX;
  }
  stiction_table *t = st_table_new(L.nvars);
  rc = !t || st_table_reserve(t, L.nrows) ? STICTION_ERR_NOMEM
                                          : set_names(t, &m[M_NAME], trans, path, msg, size);
  if (rc) {
    stiction_table_free(t);
    if (rc == STICTION_ERR_NOMEM) snprintf(msg, size, "%s: out of memory", path);
    return rc;
  }
  t->rows = L.nrows;
  for (int v = 0; v < L.nvars && !rc; v++) rc = fill_column(t, &L, v, path, msg, size);
  if (rc) { stiction_table_free(t); return rc; }
  if (!strcmp(t->names[0], "Time")) st_table_set_name(t, 0, "time", 4);
  *out = t;
  return STICTION_OK;
}
