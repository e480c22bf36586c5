/* The shortest decimal text that reads back to the same double (shortest.c). */
#ifndef ST_IO_SHORTEST_H
#define ST_IO_SHORTEST_H

#include <stdint.h>

/* g(k) of the Schubfach conversion, g1 2^63 + g0 (pow10_table.c, generated). */
typedef struct st_pow10_g {
  uint64_t g1, g0;
} st_pow10_g;

#define ST_POW10_KMIN (-324)
#define ST_POW10_KMAX 292
extern const st_pow10_g st_pow10_table[ST_POW10_KMAX - ST_POW10_KMIN + 1];

/* Writes the fewest significant digits that strtod reads back to exactly x (the closest such
 * decimal to x) in printf's "%.17g" layout: fixed notation when the decimal exponent X of the
 * first digit is -4 <= X < 17, else d.ddde+XX; "-0" for negative zero, "nan", "inf", "-inf".
 * The text is at most 24 characters, but it is assembled with copies of fixed size: buf
 * needs ST_SHORTEST_MAX bytes of room, all of which may be written. Returns the length
 * (without the terminating 0). */
#define ST_SHORTEST_MAX 64
int st_format_shortest(char *buf, double x);

#endif
