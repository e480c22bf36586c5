/* CSV result writer: header "time,name,...", one line per output row; when rows reach the
 * disk is the writer's flush policy (writer.c).
 * Format: doc/results.md. */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <stiction/stiction.h>

#include "io/shortest.h"
#include "io/writer_impl.h"

/* A name needs quotes if a CSV reader would otherwise split or trim it (RFC 4180). */
static int needs_quotes(const char *s) {
  if (!*s) return 1;
  if (s[0] == ' ' || s[strlen(s) - 1] == ' ') return 1;
  return strpbrk(s, ",\"\r\n") != NULL;
}

static void put_name(FILE *f, const char *s) {
  if (!needs_quotes(s)) { fputs(s, f); return; }
  fputc('"', f);
  for (; *s; s++) {
    if (*s == '"') fputc('"', f);
    fputc(*s, f);
  }
  fputc('"', f);
}

/* Formatting is most of the cost of a CSV row, and most values of a row were
 * formatted before: a column that did not change since the previous row (parameters,
 * locked clutches, discrete modes: 46 % of CoupledClutches' values), or a value equal to an
 * earlier column of the same row (connected flanges, aliases: another 32 %). Equal bits give
 * equal text, so those fields are copied instead of formatted. The previous row's text is
 * kept (two line buffers), and the fields of the current row are found through a small
 * open-addressing table keyed by the bits, valid for one row (stamp). */
typedef struct st_csv_slot {
  uint64_t bits;
  long stamp;      /* row number the entry belongs to */
  int off, len;    /* the field in the current line */
} st_csv_slot;

/* The previous row's field of one column; off < 0: not reusable (time, non-finite). */
typedef struct st_csv_col {
  uint64_t bits;
  int off, len;
} st_csv_col;

typedef struct st_csv_cache {
  char *prev;          /* the previous row's text */
  st_csv_col *col;     /* ncols */
  st_csv_slot *table;  /* mask + 1 entries */
  unsigned mask;
} st_csv_cache;

static void cache_free(st_csv_cache *c) {
  if (!c) return;
  free(c->prev);
  free(c->col);
  free(c->table);
  free(c);
}

static st_csv_cache *cache_new(int ncols) {
  st_csv_cache *c = calloc(1, sizeof *c);
  if (!c) return NULL;
  unsigned size = 16;
  while (size < 2u * (unsigned)ncols) size *= 2;
  c->mask = size - 1;
  c->prev = calloc(1, (size_t)ncols * (ST_CSV_FIELD + 1) + ST_CSV_SLACK);
  c->col = calloc((size_t)ncols, sizeof *c->col);
  c->table = calloc(size, sizeof *c->table);
  for (unsigned i = 0; c->table && i < size; i++) c->table[i].stamp = -1;
  for (int i = 0; c->col && i < ncols; i++) c->col[i].off = -1; /* no previous row yet */
  if (c->prev && c->col && c->table) return c;
  cache_free(c);
  return NULL;
}

void st_csv_cache_free(stiction_writer *w) {
  cache_free(w->cache);
  w->cache = NULL;
}

static int csv_begin(stiction_writer *w, int ncols, const char *const *names) {
  /* one field is at most 24 characters ("-2.2250738585072014e-308"), plus the separator */
  w->line = calloc(1, (size_t)ncols * (ST_CSV_FIELD + 1) + ST_CSV_SLACK);
  w->cache = cache_new(ncols);
  if (!w->line || !w->cache) return STICTION_ERR_NOMEM;
  for (int i = 0; i < ncols; i++) {
    if (i) fputc(',', w->file);
    put_name(w->file, names[i] ? names[i] : "");
  }
  fputc('\n', w->file);
  return fflush(w->file) || ferror(w->file) ? STICTION_ERR_IO : STICTION_OK;
}

static uint64_t bits_of(double x) {
  uint64_t u;
  memcpy(&u, &x, sizeof u);
  return u;
}

/* A fixed-size copy (inlined, no call): a field is at most 24 characters and starts at most
 * 25 * i bytes into a buffer of 33 * ncols, so 32 bytes always fit; what is copied beyond the
 * field is overwritten by the separator and the next fields. Through a temporary, as the
 * source may be an earlier field of the same line. */
static void copy_field(char *dst, const char *src) {
  char tmp[ST_CSV_FIELD];
  memcpy(tmp, src, sizeof tmp);
  memcpy(dst, tmp, sizeof tmp);
}

/* The text of x at p (shortest.c), copied when the same bits were formatted in the previous
 * row's column (col) or earlier in this row; returns the length. */
static int field(st_csv_cache *c, const st_csv_col *col, const char *line, char *p, uint64_t u,
                 double x, long row) {
  if (col->off >= 0 && col->bits == u) {
    copy_field(p, c->prev + col->off);
    return col->len;
  }
  unsigned h = (unsigned)((u * 0x9E3779B97F4A7C15ull) >> 40) & c->mask;
  while (c->table[h].stamp == row && c->table[h].bits != u) h = (h + 1) & c->mask;
  st_csv_slot *s = &c->table[h];
  if (s->stamp == row) {
    copy_field(p, line + s->off);
    return s->len;
  }
  int len = st_format_shortest(p, x);
  *s = (st_csv_slot){u, row, (int)(p - line), len};
  return len;
}

/* Every value gets the shortest text that reads back to the same double, so grid times read
 * as written (0.0005) and parameters as given (0.1); see doc/results.md. The line is
 * assembled in memory and handed to stdio in one piece. */
static int csv_row(stiction_writer *w, const double *values) {
  st_csv_cache *c = w->cache;
  char *line = w->line, *p = line;
  p += st_format_shortest(p, values[0]);
  for (int i = 1; i < w->ncols; i++) {
    st_csv_col *col = &c->col[i];
    uint64_t u = bits_of(values[i]);
    *p++ = ',';
    int off = (int)(p - line);
    if ((u >> 52 & 0x7ff) == 0x7ff) { /* nan, inf: written, not reused */
      p += st_format_shortest(p, values[i]);
      *col = (st_csv_col){u, -1, 0};
      continue;
    }
    int len = field(c, col, line, p, u, values[i], w->rows);
    *col = (st_csv_col){u, off, len};
    p += len;
  }
  *p++ = '\n';
  size_t len = (size_t)(p - line);
  w->line = c->prev; /* this row becomes the previous one */
  c->prev = line;
  return fwrite(line, 1, len, w->file) == len ? STICTION_OK : STICTION_ERR_IO;
}

static int csv_finish(stiction_writer *w) {
  return fflush(w->file) ? STICTION_ERR_IO : STICTION_OK;
}

const st_writer_ops st_csv_writer_ops = {csv_begin, csv_row, csv_finish, NULL};
