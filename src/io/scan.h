/* Reading decimal numbers quickly and whatever the locale (scan.c). */
#ifndef ST_IO_SCAN_H
#define ST_IO_SCAN_H

/* The value of the decimal number at s, "[+-]digits[.digits][(e|E)[+-]digits]", when one
 * correctly rounded operation gives it: at most 19 significant digits whose integer is below
 * 2^53, times or divided by a power of ten up to 10^22 (both exact doubles; Clinger's fast
 * path), so the result is the one strtod gives. Returns 1 with *out and *end (just past the
 * number, where strtod would leave it); 0 when the text needs the general routine (more
 * digits, a larger exponent, leading blanks, inf, nan, hexadecimal, no number at all). */
int st_scan_decimal(const char *s, const char **end, double *out);

/* strtod with the decimal point '.' in every locale for the numbers st_scan_decimal takes,
 * strtod itself for the others. */
double st_strtod(const char *s, char **end);

#endif
