/* The text of Modelica's String() conversion (Modelica 3.6 section 3.7.4.9), for every
 * evaluator that builds one: the front end folding a constant, the function evaluator, a failed
 * assert's message. */
#ifndef ST_UTIL_STRFMT_H
#define ST_UTIL_STRFMT_H

#include <stddef.h>

typedef enum st_strfmt_kind { ST_SF_REAL, ST_SF_INTEGER, ST_SF_BOOLEAN } st_strfmt_kind;

typedef struct st_strfmt {
  st_strfmt_kind kind;
  int significant_digits; /* Real without format: 6 by default */
  int minimum_length;     /* padded with blanks to this length */
  int left_justified;     /* blanks after the text (1, the default) or before it */
  const char *format;     /* printf's conversion without '%' ("8.3f", "-5d"), or NULL */
} st_strfmt;

/* The defaults of String(x) for a value of this kind. */
st_strfmt st_strfmt_default(st_strfmt_kind kind);

/* Writes String(x, spec) into out (at most cap bytes with the terminating NUL, cut when
 * longer) and returns the length of the whole text, as snprintf does; -1 for a format the
 * specification does not allow (only flags, width, precision and one conversion: f e E g G
 * for a Real, d i o x X u c for an Integer). */
int st_strfmt_write(char *out, size_t cap, double x, const st_strfmt *spec);

#endif
