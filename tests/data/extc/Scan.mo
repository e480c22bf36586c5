// strtod_l in the "C" locale, as the MSL's text tables read their numbers: every loaded object
// reads those it can with stiction's fast path and leaves the rest to the C library (tests/
// test_extc.c strtod_l_in_objects). The values and the end of each number are strtod's.
package Scan
  function extc_parse "the number in s, or -1 when text is left after it"
    input String s;
    output Real y;
  external "C" y = extc_parse(s) annotation(Include = "
#define _GNU_SOURCE
#include <locale.h>
#include <stdlib.h>
double extc_parse(const char *s) {
  locale_t c = newlocale(LC_NUMERIC_MASK, \"C\", (locale_t)0);
  char *end;
  double x = strtod_l(s, &end, c);
  freelocale(c);
  return *end ? -1 : x;
}");
  end extc_parse;

  model Use
    Real a = extc_parse("0.841470985") "the fast path";
    Real b = extc_parse("-2.5e-3");
    Real c = extc_parse("1e23") "left to the C library";
    Real d = extc_parse("123456789012345678901");
    Real e = extc_parse("1.5x") "text after the number";
  end Use;
end Scan;
