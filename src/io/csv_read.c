/* Reading CSV result tables: stiction's own CSV and the MSL reference format (double-quoted
 * header names, LF or CRLF line ends, duplicated rows at events, first column "time", "Time"
 * or "t"). Blank lines are ignored; every other line must have exactly one value per column.
 * Format: doc/results.md. */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <stiction/stiction.h>

#include "io/scan.h"
#include "io/table_impl.h"

typedef struct cursor {
  const char *path;
  const char *p;    /* current position (text is NUL terminated) */
  int line;
  const char *line_start;
  char *msg;
  size_t size;
} cursor;

static int fail(cursor *c, int status, const char *reason, const char *at) {
  int col = (int)(at - c->line_start) + 1;
  snprintf(c->msg, c->size, "%s:%d:%d: %s", c->path, c->line, col, reason);
  return status;
}

static int at_eol(const char *p) { return *p == '\n' || *p == '\r' || *p == 0; }

static void next_line(cursor *c) {
  while (!at_eol(c->p)) c->p++;
  if (*c->p == '\r') c->p++;
  if (*c->p == '\n') c->p++;
  c->line++;
  c->line_start = c->p;
}

static int blank_line(const char *p) {
  while (*p == ' ' || *p == '\t') p++;
  return at_eol(p);
}

/* One header field, quoted ("a ""b""") or bare (surrounding blanks trimmed), copied into
 * buf (a scratch buffer at least as long as the rest of the text). */
static int header_field(cursor *c, char *buf, size_t *len) {
  const char *p = c->p;
  size_t n = 0;
  while (*p == ' ' || *p == '\t') p++;
  if (*p == '"') {
    const char *open = p++;
    for (;; p++) {
      if (*p == 0 || *p == '\n') return fail(c, STICTION_ERR_SYNTAX, "unterminated quoted name", open);
      if (*p == '"' && p[1] == '"') { buf[n++] = '"'; p++; continue; }
      if (*p == '"') { p++; break; }
      buf[n++] = *p;
    }
    while (*p == ' ' || *p == '\t') p++;
  } else {
    while (*p != ',' && !at_eol(p)) buf[n++] = *p++;
    while (n && (buf[n - 1] == ' ' || buf[n - 1] == '\t')) n--;
  }
  if (*p != ',' && !at_eol(p)) return fail(c, STICTION_ERR_SYNTAX, "expected ',' after name", p);
  c->p = p;
  *len = n;
  return 0;
}

static int count_fields(const char *p) {
  int n = 1, quoted = 0;
  for (; *p && *p != '\n' && (quoted || *p != '\r'); p++) {
    if (*p == '"') quoted = !quoted;
    else if (*p == ',' && !quoted) n++;
  }
  return n;
}

static int read_header(cursor *c, stiction_table **out, size_t textlen) {
  while (*c->p && blank_line(c->p)) next_line(c);
  if (!*c->p) return fail(c, STICTION_ERR_SYNTAX, "empty file: no header line", c->p);
  stiction_table *t = st_table_new(count_fields(c->p));
  char *buf = malloc(textlen + 1);
  if (!t || !buf) {
    free(buf);
    stiction_table_free(t);
    return fail(c, STICTION_ERR_NOMEM, "out of memory", c->p);
  }
  int rc = 0;
  for (int i = 0; i < t->cols && !rc; i++) {
    size_t n;
    rc = header_field(c, buf, &n);
    if (!rc && n == 0) rc = fail(c, STICTION_ERR_SYNTAX, "empty column name", c->p);
    if (!rc && st_table_set_name(t, i, buf, n)) rc = fail(c, STICTION_ERR_NOMEM, "out of memory", c->p);
    if (!rc && *c->p == ',') c->p++;
  }
  free(buf);
  /* The abscissa is the first column whatever its spelling (csv-compare accepts t/time/Time). */
  if (!rc && (!strcmp(t->names[0], "Time") || !strcmp(t->names[0], "t")))
    rc = st_table_set_name(t, 0, "time", 4) ? fail(c, STICTION_ERR_NOMEM, "out of memory", c->p) : 0;
  if (rc) { stiction_table_free(t); return rc; }
  next_line(c);
  *out = t;
  return 0;
}

static int read_value(cursor *c, double *v) {
  const char *p = c->p;
  while (*p == ' ' || *p == '\t') p++;
  int quoted = *p == '"';
  if (quoted) p++;
  char *end;
  *v = st_strtod(p, &end);
  if (end == p) return fail(c, STICTION_ERR_SYNTAX, "expected a number", p);
  p = end;
  if (quoted && *p++ != '"') return fail(c, STICTION_ERR_SYNTAX, "expected a number", c->p);
  while (*p == ' ' || *p == '\t') p++;
  if (*p != ',' && !at_eol(p)) return fail(c, STICTION_ERR_SYNTAX, "garbage after number", p);
  c->p = p;
  return 0;
}

static int read_row(cursor *c, stiction_table *t) {
  double *row = t->data + (size_t)t->rows * (size_t)t->cols;
  for (int i = 0; i < t->cols; i++) {
    int rc = read_value(c, &row[i]);
    if (rc) return rc;
    if (i + 1 < t->cols) {
      if (*c->p != ',') {
        char reason[96];
        snprintf(reason, sizeof reason, "expected %d values, found %d", t->cols, i + 1);
        return fail(c, STICTION_ERR_SYNTAX, reason, c->p);
      }
      c->p++;
    }
  }
  if (*c->p == ',') {
    char reason[96];
    snprintf(reason, sizeof reason, "expected %d values, found more", t->cols);
    return fail(c, STICTION_ERR_SYNTAX, reason, c->p);
  }
  t->rows++;
  next_line(c);
  return 0;
}

/* A NUL byte would end the text early and drop the rows after it without a word. */
static int check_no_nul(cursor *c, const char *text, size_t len) {
  const char *nul = memchr(text, 0, len);
  if (!nul) return 0;
  for (const char *p = text; p < nul; p++)
    if (*p == '\n') {
      c->line++;
      c->line_start = p + 1;
    }
  return fail(c, STICTION_ERR_SYNTAX, "NUL byte: not a text file", nul);
}

int st_table_read_csv(stiction_table **out, const char *path, const char *text, size_t len,
                      char *msg, size_t size) {
  cursor c = {path, text, 1, text, msg, size};
  stiction_table *t = NULL;
  int rc = check_no_nul(&c, text, len);
  if (!rc) rc = read_header(&c, &t, len);
  if (rc) return rc;
  long cap = 0;
  while (*c.p && !rc) {
    if (blank_line(c.p)) { next_line(&c); continue; }
    if (t->rows >= cap) {
      cap = cap ? 2 * cap : 1024;
      if (st_table_reserve(t, cap)) rc = fail(&c, STICTION_ERR_NOMEM, "out of memory", c.p);
    }
    if (!rc) rc = read_row(&c, t);
  }
  if (!rc && !t->data && st_table_reserve(t, 1)) rc = fail(&c, STICTION_ERR_NOMEM, "out of memory", c.p);
  if (rc) { stiction_table_free(t); return rc; }
  *out = t;
  return STICTION_OK;
}
