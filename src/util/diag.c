#include "util/diag.h"

#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

typedef struct source {
  const char *file, *text;
} source;

struct st_diag {
  FILE *out;
  int errors;
  char *first_error; /* malloc'd; NULL until the first error */
  source *sources;
  int nsources, capsources;
};

st_diag *st_diag_new(FILE *out) {
  st_diag *d = calloc(1, sizeof *d);
  if (d) d->out = out;
  return d;
}

void st_diag_free(st_diag *d) {
  if (!d) return;
  free(d->first_error);
  free(d->sources);
  free(d);
}

void st_diag_add_source(st_diag *d, const char *file, const char *text) {
  if (d->nsources == d->capsources) {
    int cap = d->capsources ? 2 * d->capsources : 8;
    source *s = realloc(d->sources, (size_t)cap * sizeof *s);
    if (!s) return; /* quoting is a nicety; the message itself still prints */
    d->sources = s;
    d->capsources = cap;
  }
  d->sources[d->nsources++] = (source){file, text};
}

static const char *find_line(const st_diag *d, st_loc loc, size_t *len) {
  for (int i = d->nsources - 1; i >= 0; i--) {
    if (strcmp(d->sources[i].file, loc.file) != 0) continue;
    const char *p = d->sources[i].text;
    for (int line = 1; line < loc.line && p; line++) {
      p = strchr(p, '\n');
      if (p) p++;
    }
    if (!p) return NULL;
    *len = strcspn(p, "\r\n");
    return p;
  }
  return NULL;
}

/* Prints the source line and a caret under the column; tabs are kept so the caret lines up
 * in a terminal. */
static void quote_source(const st_diag *d, st_loc loc) {
  size_t len;
  const char *line = loc.file ? find_line(d, loc, &len) : NULL;
  if (!line) return;
  fprintf(d->out, "%.*s\n", (int)len, line);
  for (int i = 1; i < loc.col && (size_t)(i - 1) < len; i++)
    fputc(line[i - 1] == '\t' ? '\t' : ' ', d->out);
  fputs("^\n", d->out);
}

static const char *severity_name(st_severity sev) {
  return sev == ST_ERROR ? "error" : sev == ST_WARNING ? "warning" : "note";
}

char *st_vformat(const char *fmt, va_list ap) {
  va_list again;
  va_copy(again, ap);
  int n = vsnprintf(NULL, 0, fmt, ap);
  char *s = n >= 0 ? malloc((size_t)n + 1) : NULL;
  if (s) vsnprintf(s, (size_t)n + 1, fmt, again);
  va_end(again);
  return s;
}

char *st_format(const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  char *s = st_vformat(fmt, ap);
  va_end(ap);
  return s;
}

void st_diag_report(st_diag *d, st_severity sev, st_loc loc, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  char *text = st_vformat(fmt, ap);
  va_end(ap);
  const char *msg = text ? text : "out of memory for a message";
  if (sev == ST_ERROR && d->errors++ == 0) d->first_error = text ? strdup(text) : NULL;
  if (!d->out) {
    free(text);
    return;
  }
  if (loc.file && loc.line > 0)
    fprintf(d->out, "%s:%d:%d: %s: %s\n", loc.file, loc.line, loc.col, severity_name(sev), msg);
  else if (loc.file)
    fprintf(d->out, "%s: %s: %s\n", loc.file, severity_name(sev), msg);
  else
    fprintf(d->out, "stiction: %s: %s\n", severity_name(sev), msg);
  if (loc.line > 0) quote_source(d, loc);
  free(text);
}

int st_diag_errors(const st_diag *d) { return d->errors; }

const char *st_diag_first_error(const st_diag *d) { return d->first_error ? d->first_error : ""; }

int st_diag_source_count(const st_diag *d) { return d ? d->nsources : 0; }

const char *st_diag_source_file(const st_diag *d, int i) {
  return d && i >= 0 && i < d->nsources ? d->sources[i].file : NULL;
}
