/* Diagnostics: located messages ("file:line:col: error: ...") collected per run, printed
 * with the source line and a caret, as C compilers do. No global state: each front-end or
 * compiler run owns its st_diag. */
#ifndef ST_DIAG_H
#define ST_DIAG_H

#include <limits.h>
#include <stdarg.h>
#include <stdio.h>

/* A position in a source file. file is borrowed (interned by the loader); line and col
 * count from 1; line 0 means "no location". */
typedef struct st_loc {
  const char *file;
  int line, col;
} st_loc;

typedef enum st_severity { ST_NOTE, ST_WARNING, ST_ERROR } st_severity;

typedef struct st_diag st_diag;

/* out: where messages are printed as they arrive (NULL: keep them only). */
st_diag *st_diag_new(FILE *out);
void st_diag_free(st_diag *d);

/* Registers the text of a file so that messages can quote the offending line. The text is
 * borrowed and must outlive d. */
void st_diag_add_source(st_diag *d, const char *file, const char *text);

/* The files registered so far (the sources a run has read): for refusing to write over one. */
int st_diag_source_count(const st_diag *d);
const char *st_diag_source_file(const st_diag *d, int i);

void st_diag_report(st_diag *d, st_severity sev, st_loc loc, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));
#define st_error(d, loc, ...) st_diag_report((d), ST_ERROR, (loc), __VA_ARGS__)
#define st_warning(d, loc, ...) st_diag_report((d), ST_WARNING, (loc), __VA_ARGS__)
#define st_note(d, loc, ...) st_diag_report((d), ST_NOTE, (loc), __VA_ARGS__)

/* Room for a message of an API that fills a caller's buffer (char *msg, size_t size): two
 * paths of any length the system accepts and the text around them. */
#define ST_MSG_MAX (2 * PATH_MAX + 1024)

/* printf into a new malloc'd string (NULL when out of memory), so that a message with long
 * paths in it is never cut. */
char *st_vformat(const char *fmt, va_list ap);
char *st_format(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

int st_diag_errors(const st_diag *d);
/* The first error message (without location), or "" — for API callers without a stream. */
const char *st_diag_first_error(const st_diag *d);

#endif
