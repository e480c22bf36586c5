/* CSV result writer: header "time,name,...", one line per output row; when rows reach the
 * disk is the writer's flush policy (writer.c).
 * Format: doc/results.md. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <stiction/stiction.h>

#include "io/writer_impl.h"

void st_format_double(char *buf, size_t size, double x) {
  if (isnan(x)) { snprintf(buf, size, "nan"); return; }
  if (isinf(x)) { snprintf(buf, size, x > 0 ? "inf" : "-inf"); return; }
  /* The fewest digits that read back bit-exactly: short text for round grid times (0.001,
   * not 0.0010000000000000000208), full precision for everything else. */
  for (int digits = 15; digits <= 17; digits++) {
    st_format_g(buf, size, x, digits);
    if (digits == 17 || strtod(buf, NULL) == x) return;
  }
}

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

static int csv_begin(stiction_writer *w, int ncols, const char *const *names) {
  /* one field is at most 24 characters ("-2.2250738585072014e-308"), plus the separator */
  w->line = malloc((size_t)ncols * (ST_CSV_FIELD + 1));
  if (!w->line) return STICTION_ERR_NOMEM;
  for (int i = 0; i < ncols; i++) {
    if (i) fputc(',', w->file);
    put_name(w->file, names[i] ? names[i] : "");
  }
  fputc('\n', w->file);
  return fflush(w->file) || ferror(w->file) ? STICTION_ERR_IO : STICTION_OK;
}

/* Time gets the shortest exact text, so grid times read as written (0.0005); the other
 * columns get 17 significant digits, exact and cheaper than searching for the shortest form
 * (see doc/results.md). The line is assembled in memory and handed to stdio in one piece. */
static int csv_row(stiction_writer *w, const double *values) {
  char *p = w->line;
  for (int i = 0; i < w->ncols; i++) {
    if (i == 0 || !isfinite(values[i])) {
      st_format_double(p, ST_CSV_FIELD, values[i]);
      p += strlen(p);
    } else {
      p += st_format_g(p, ST_CSV_FIELD, values[i], 17);
    }
    *p++ = i + 1 < w->ncols ? ',' : '\n';
  }
  size_t len = (size_t)(p - w->line);
  return fwrite(w->line, 1, len, w->file) == len ? STICTION_OK : STICTION_ERR_IO;
}

static int csv_finish(stiction_writer *w) {
  return fflush(w->file) ? STICTION_ERR_IO : STICTION_OK;
}

const st_writer_ops st_csv_writer_ops = {csv_begin, csv_row, csv_finish, NULL};
