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

/* Formatting is most of the cost of a CSV row, and most values of a row were formatted
 * before: a column that did not change since the previous row (parameters, locked clutches,
 * discrete modes: 45 % of CoupledClutches' values), or a value equal to an earlier column of
 * the same row (connected flanges, aliases: another 33 %), or its negation (the two sides of
 * a torque: 2 %). Equal bits give equal text, and the text of -x is that of x with a '-'
 * (except for NaN, always "nan"), so those fields are copied instead of formatted. Checked
 * in order of cost: the column's previous field (the previous row's text is kept: two line
 * buffers); the column it was equal to last time (its hint: aliases stay aliases); only then
 * a small open-addressing table of the row's formatted fields keyed by the bits without the
 * sign, valid for one row (stamp), which finds new aliases. */
typedef struct st_csv_slot {
  uint64_t key;    /* |value| bits */
  long stamp;      /* row number the entry belongs to */
  int col;         /* the column that was formatted */
} st_csv_slot;

/* One column. Until the column is written in a row: its value and field in the previous
 * line; after: in the current one. */
typedef struct st_csv_col {
  uint64_t bits;
  int off, len;
  int hint;        /* an earlier column equal to this one (or its negation) the last time */
  int solo;        /* table lookups in a row that found no earlier column (capped) */
} st_csv_col;

/* A column whose value matched no earlier column ST_SOLO times running (a state, a value of
 * its own) is looked up in the table only every ST_SOLO_PERIOD rows: the lookup and entry
 * cost about a tenth of a formatting and nearly always find nothing for it. (Its value may
 * then be formatted twice in a row; the text is the same.) */
#define ST_SOLO 4
#define ST_SOLO_PERIOD 64

typedef struct st_csv_cache {
  char *prev;          /* the previous row's text */
  st_csv_col *col;     /* ncols */
  st_csv_slot *table;  /* mask + 1 entries */
  unsigned mask;
} st_csv_cache;

#define ST_SIGN_BIT ((uint64_t)1 << 63)
/* A quiet NaN: before the first row every column "held" it, with the text "nan" (which any
 * NaN has), so the first row needs no special case. */
#define ST_NAN_BITS ((uint64_t)0x7ff8 << 48)

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
  if (c->prev) memcpy(c->prev, "nan", 3);
  for (int i = 0; c->col && i < ncols; i++) c->col[i] = (st_csv_col){ST_NAN_BITS, 0, 3, 0, 0};
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

static int is_nan(uint64_t u) { return (u & ~ST_SIGN_BIT) > (uint64_t)0x7ff << 52; }

/* Fixed-size copies (inlined, no call): a field is at most 24 characters and starts at most
 * 25 * i bytes into a buffer of 33 * ncols + 64, so 32 bytes (33 after a '-') always fit;
 * what is copied beyond the field is overwritten by the separator and the next fields. From
 * the previous line (another buffer) a plain copy; from an earlier field of the same line
 * the 32 bytes may overlap the destination, so all are read before any is written. */
static void copy_from_prev(char *dst, const char *src) { memcpy(dst, src, ST_CSV_FIELD); }

static void copy_field(char *dst, const char *src) {
  char tmp[ST_CSV_FIELD]; /* not memmove: that is a call */
  memcpy(tmp, src, sizeof tmp);
  memcpy(dst, tmp, sizeof tmp);
}

/* The text of -y from the text of y (len characters at src), y not NaN; returns its length. */
static int copy_negated(char *p, const char *src, int len) {
  if (src[0] == '-') {
    copy_field(p, src + 1);
    return len - 1;
  }
  p[0] = '-';
  copy_field(p + 1, src);
  return len + 1;
}

/* Column i (value x, bits u) is neither its previous field nor its hint's (nor the
 * negation): the text of an earlier column of this row with the same magnitude, which
 * becomes the hint, or else formatted (shortest.c) and entered in the table. Returns the
 * length. */
static int table_field(st_csv_cache *c, int i, const char *line, char *p, uint64_t u, double x,
                       long row) {
  st_csv_col *ci = &c->col[i];
  uint64_t key = u & ~ST_SIGN_BIT;
  unsigned slot = (unsigned)((key * 0x9E3779B97F4A7C15ull) >> 40) & c->mask;
  while (c->table[slot].stamp == row && c->table[slot].key != key) slot = (slot + 1) & c->mask;
  st_csv_slot *s = &c->table[slot];
  if (s->stamp == row && (c->col[s->col].bits == u || !is_nan(u))) {
    const st_csv_col *src = &c->col[s->col];
    ci->hint = s->col;
    ci->solo = 0;
    if (src->bits == u) {
      copy_field(p, line + src->off);
      return src->len;
    }
    return copy_negated(p, line + src->off, src->len);
  }
  if (s->stamp != row) *s = (st_csv_slot){key, row, i}; /* else NaNs of different signs */
  ci->solo += ci->solo < ST_SOLO;
  return st_format_shortest(p, x);
}

/* The field of column i (value x, bits u) when it is not its previous one; col is c->col. */
static int new_field(st_csv_cache *c, const st_csv_col *col, int i, const char *line, char *p,
                     uint64_t u, double x, long row) {
  const st_csv_col *ci = &col[i], *h = &col[ci->hint];
  if (u == h->bits) { /* equal to its hint (an alias) */
    copy_field(p, line + h->off);
    return h->len;
  }
  if (u == (h->bits ^ ST_SIGN_BIT) && !is_nan(u)) return copy_negated(p, line + h->off, h->len);
  if (ci->solo >= ST_SOLO && row % ST_SOLO_PERIOD) return st_format_shortest(p, x);
  return table_field(c, i, line, p, u, x, row);
}

/* Every value gets the shortest text that reads back to the same double, so grid times read
 * as written (0.0005) and parameters as given (0.1); see doc/results.md. The line is
 * assembled in memory and handed to stdio in one piece. The loop keeps what it needs in
 * locals: a store through char * could change any struct field, so the compiler would
 * reload those after every character written. */
static int csv_row(stiction_writer *w, const double *values) {
  st_csv_cache *c = w->cache;
  st_csv_col *col = c->col;
  char *line = w->line, *p = line;
  const char *prev = c->prev;
  const int ncols = w->ncols;
  const long row = w->rows;
  int len0 = st_format_shortest(p, values[0]);
  col[0] = (st_csv_col){bits_of(values[0]), 0, len0, 0, 0};
  p += len0;
  for (int i = 1; i < ncols; i++) {
    st_csv_col *ci = &col[i];
    uint64_t u = bits_of(values[i]);
    int off = ci->off, len = ci->len; /* read before the stores to the line */
    *p++ = ',';
    if (u == ci->bits) {
      copy_from_prev(p, prev + off); /* unchanged since the previous row */
    } else {
      len = new_field(c, col, i, line, p, u, values[i], row);
      ci->len = len;
      ci->bits = u;
    }
    ci->off = (int)(p - line);
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
