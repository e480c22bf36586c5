/* String() of a number or Boolean (strfmt.h). */
#include "util/strfmt.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

st_strfmt st_strfmt_default(st_strfmt_kind kind) {
  st_strfmt s = {kind, 6, 0, 1, NULL};
  return s;
}

/* "[flags][width][.precision]conversion" of printf, nothing else (no '%', no length
 * modifier): the conversion character, or 0 when fmt is not of that form. */
static char conversion(const char *fmt) {
  const char *p = fmt + strspn(fmt, "-+ #0");
  p += strspn(p, "0123456789");
  if (*p == '.') p += 1 + strspn(p + 1, "0123456789");
  return p[0] && !p[1] && strchr("feEgGdioxXuc", p[0]) ? p[0] : 0;
}

/* The text without padding. */
static int bare(char *out, size_t cap, double x, const st_strfmt *s) {
  if (s->format && *s->format) {
    char c = conversion(s->format), spec[64];
    if (!c || strlen(s->format) > sizeof spec - 3) return -1;
    int real = strchr("feEgG", c) != NULL;
    if (!real && !(fabs(x) < 2147483648.0)) return -1;
    snprintf(spec, sizeof spec, "%%%s", s->format);
    if (real) return snprintf(out, cap, spec, x);
    if (strchr("oxXu", c)) return snprintf(out, cap, spec, (unsigned)(long)x);
    return snprintf(out, cap, spec, (int)x);
  }
  switch (s->kind) {
  case ST_SF_BOOLEAN: return snprintf(out, cap, "%s", x != 0 ? "true" : "false");
  case ST_SF_INTEGER:
    if (!(fabs(x) < 9.2e18)) return -1;
    return snprintf(out, cap, "%lld", (long long)x);
  default: {
    int d = s->significant_digits < 1 ? 1 : s->significant_digits > 40 ? 40 : s->significant_digits;
    return snprintf(out, cap, "%.*g", d, x);
  }
  }
}

int st_strfmt_write(char *out, size_t cap, double x, const st_strfmt *spec) {
  char text[1024];
  int n = bare(text, sizeof text, x, spec);
  if (n < 0 || (size_t)n >= sizeof text) return -1;
  int width = spec->minimum_length > 0 && spec->minimum_length < 100000 ? spec->minimum_length : 0;
  return snprintf(out, cap, spec->left_justified ? "%-*s" : "%*s", width, text);
}
