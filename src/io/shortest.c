/* The shortest decimal text of a double that reads back to the same bits, in one pass: the
 * Schubfach method (R. Giulietti, "The Schubfach way to render doubles", 2021), written here
 * from the paper's description and proofs.
 *
 * A positive finite double is v = c 2^q (c with its hidden bit). The reals that round to v
 * form its rounding interval R_v: half the spacing to each neighbour on either side, the ends
 * included iff c is even (ties go to even), and the lower half-spacing halved when c = 2^52
 * (the binade below is twice as dense). Take k = floor(log10(2^q)) (floor(log10(3/4 2^q)) in
 * that irregular case): then 10^k is at most the width of R_v, so of s 10^k and (s + 1) 10^k,
 * s = floor(v 10^-k), at least one lies in R_v; one digit less, the multiples of 10^(k+1)
 * around v are tried first. Everything is decided on 4 v 10^-k and the scaled ends of R_v,
 * computed from the integers 4c, 4c -+ 2 (or 4c - 1) times a 126-bit upper approximation of
 * 10^-k (pow10_table.c), rounded to odd (rop); the paper's section 9 proves that comparisons
 * on these approximations decide exactly as on the real numbers would.
 *
 * The same steps serve subnormals (q = -1074, the interval symmetric), where s can have as few
 * as one digit: one digit fewer is tried down to two (Java's toString, for which the paper
 * was written, wants two digits and stops at three).
 *
 * Why: the CSV writer formats tens of thousands of values per run; the search it replaced
 * formatted each value at 15, 16 and 17 digits and read each back (doc/results.md). */
#include "io/shortest.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#if defined(__SSE2__) && !defined(ST_SHORTEST_NO_SIMD)
#include <emmintrin.h>
#endif

/* Inlined whatever the compiler's estimate of the size: a call would cost more than these
 * small functions do. */
#if defined(__GNUC__)
#define ST_INLINE inline __attribute__((always_inline))
#else
#define ST_INLINE inline
#endif

#define ST_C_MIN ((uint64_t)1 << 52) /* the hidden bit */
#define ST_Q_MIN (-1074)             /* q of the subnormals and of the smallest binade */
#define ST_MASK63 (((uint64_t)1 << 63) - 1)

/* The high 64 bits of a b; *lo the low ones. */
static uint64_t mul_hi(uint64_t a, uint64_t b, uint64_t *lo) {
#ifdef __SIZEOF_INT128__
  unsigned __int128 p = (unsigned __int128)a * b;
  *lo = (uint64_t)p;
  return (uint64_t)(p >> 64);
#else
  uint64_t a0 = a & 0xffffffffu, a1 = a >> 32, b0 = b & 0xffffffffu, b1 = b >> 32;
  uint64_t p00 = a0 * b0, p01 = a0 * b1, p10 = a1 * b0, p11 = a1 * b1;
  uint64_t mid = (p00 >> 32) + (p01 & 0xffffffffu) + (p10 & 0xffffffffu);
  *lo = (mid << 32) | (p00 & 0xffffffffu);
  return p11 + (p01 >> 32) + (p10 >> 32) + (mid >> 32);
#endif
}

/* floor(g cp 2^-127) with the lowest bit set when the dropped fraction is not zero (round to
 * odd), g = g1 2^63 + g0: the paper's r_o' (section 9.8.3). cp < 2^63. */
static ST_INLINE uint64_t rop(const st_pow10_g *g, uint64_t cp) {
  uint64_t unused, y0;
  uint64_t x1 = mul_hi(g->g0, cp, &unused);
  uint64_t y1 = mul_hi(g->g1, cp, &y0);
  uint64_t z = (y0 >> 1) + x1;
  uint64_t vbp = y1 + (z >> 63);
  return vbp | (((z & ST_MASK63) + ST_MASK63) >> 63);
}

/* floor(x 2^-n) for negative x too (>> of a negative value is implementation-defined). */
static int floor_shift(int64_t x, int n) {
  return (int)(x >= 0 ? x >> n : -((-x - 1) >> n) - 1);
}

/* floor(log10(2^q)), floor(log10(3/4 2^q)), floor(log2(10^e)) by fixed-point products, exact
 * over the exponents of doubles (checked against exact rational arithmetic when written). */
static int flog10_pow2(int q) { return floor_shift((int64_t)q * 661971961083, 41); }
static int flog10_three_quarters_pow2(int q) {
  return floor_shift((int64_t)q * 661971961083 - 274743187321, 41);
}
static int flog2_pow10(int e) { return floor_shift((int64_t)e * 913124641741, 38); }

typedef struct decimal {
  uint64_t s; /* the value is s 10^e */
  int e;
} decimal;

/* The shortest decimal in R_v for v = c 2^q 10^dk (the paper's figure 7), closest to v among
 * the shortest, even digit on a tie. */
static ST_INLINE decimal to_decimal(int q, uint64_t c, int dk) {
  uint64_t out = c & 1; /* the ends of R_v belong to it */
  uint64_t cb = c << 2, cbr = cb + 2, cbl;
  int k;
  if (c != ST_C_MIN || q == ST_Q_MIN) {
    cbl = cb - 2;
    k = flog10_pow2(q);
  } else {
    cbl = cb - 1;
    k = flog10_three_quarters_pow2(q);
  }
  int h = q + flog2_pow10(-k) + 2; /* 1..4: 4 v 10^-k = vb */
  const st_pow10_g *g = &st_pow10_table[k - ST_POW10_KMIN];
  uint64_t vb = rop(g, cb << h), vbl = rop(g, cbl << h), vbr = rop(g, cbr << h);
  uint64_t s = vb >> 2;
  if (s >= 10) { /* one digit fewer: u' = 10 floor(s / 10), w' = u' + 10 */
    uint64_t sp10 = 10 * (s / 10), tp10 = sp10 + 10;
    int upin = vbl + out <= sp10 << 2, wpin = (tp10 << 2) + out <= vbr;
    if (upin != wpin) return (decimal){upin ? sp10 : tp10, k};
  }
  uint64_t t = s + 1;
  int uin = vbl + out <= s << 2, win = (t << 2) + out <= vbr;
  if (uin != win) return (decimal){uin ? s : t, k + dk};
  /* both in R_v: the closer one to v, whose scaled value is vb/4 against the midpoint */
  uint64_t mid = (s + t) << 1;
  int take_s = vb < mid || (vb == mid && (s & 1) == 0);
  return (decimal){take_s ? s : t, k + dk};
}

/* The number of leading zero bits of z != 0. */
static int clz64(uint64_t z) {
#if defined(__GNUC__)
  return __builtin_clzll(z);
#else
  int n = 0;
  for (; !(z >> 63); z <<= 1) n++;
  return n;
#endif
}

static const char digit_pairs[] =
    "0001020304050607080910111213141516171819"
    "2021222324252627282930313233343536373839"
    "4041424344454647484950515253545556575859"
    "6061626364656667686970717273747576777879"
    "8081828384858687888990919293949596979899";

#if defined(__SSE2__) && !defined(ST_SHORTEST_NO_SIMD)
/* The 16 digits of a 10^8 + b (a, b < 10^8) at d, all at once in the lanes of a 128-bit
 * SSE2 register (every x86-64; the scalar version below does the same in a 64-bit word, 8
 * digits at a time): a and b split into 4-digit halves (x / 10^4 = floor(x 3518437209 /
 * 2^45) for x < 2^32, 64-bit lanes), those into 2-digit halves (x / 100 = floor(x 5243 /
 * 2^19) for x < 10^4, 16-bit lanes), those into digits (x / 10 = floor(x 6554 / 2^16) for
 * x < 100, bytes), the first digit in the lowest byte -- about a third of the instructions
 * of a table lookup per digit pair. Returns a mask with bit i set when digit i is '0'. */
static ST_INLINE unsigned put16(char *d, uint32_t a, uint32_t b) {
  __m128i x = _mm_set_epi64x(b, a);
  __m128i q = _mm_srli_epi64(_mm_mul_epu32(x, _mm_set1_epi32((int)3518437209u)), 45);
  __m128i r = _mm_sub_epi32(x, _mm_mul_epu32(q, _mm_set1_epi32(10000)));
  x = _mm_or_si128(q, _mm_slli_epi64(r, 32));     /* 32-bit lanes < 10^4, first digits first */
  q = _mm_srli_epi16(_mm_mulhi_epu16(x, _mm_set1_epi32(5243)), 3);
  r = _mm_sub_epi16(x, _mm_mullo_epi16(q, _mm_set1_epi32(100)));
  x = _mm_or_si128(q, _mm_slli_epi32(r, 16));     /* 16-bit lanes < 100 */
  q = _mm_mulhi_epu16(x, _mm_set1_epi16(6554));
  r = _mm_sub_epi16(x, _mm_mullo_epi16(q, _mm_set1_epi16(10)));
  x = _mm_add_epi8(_mm_or_si128(q, _mm_slli_epi16(r, 8)), _mm_set1_epi8('0'));
  _mm_storeu_si128((__m128i *)(void *)d, x);
  return (unsigned)_mm_movemask_epi8(_mm_cmpeq_epi8(x, _mm_set1_epi8('0')));
}
#else
/* Eight '0' characters in one word. */
#define ST_ZEROS8 UINT64_C(0x3030303030303030)

/* The 8 digits of v < 10^8 (leading zeros included) as characters in one word, the first
 * digit in the lowest byte, so that storing the word little-endian writes them in order.
 * All digits at once, in lanes of one 64-bit integer: v splits into two 4-digit lanes of 32
 * bits, each into two 2-digit lanes of 16 bits, each into two digits of 8 bits. A lane is
 * divided by multiplying with a scaled reciprocal and keeping the integer part: floor(a 10486
 * / 2^20) = floor(a / 100) for a < 10^4, floor(b 103 / 2^10) = floor(b / 10) for b < 100
 * (both checked exhaustively when written, and by test_io through st_format_shortest); the
 * products stay below the next lane, so one multiply serves all lanes. Per digit pair this is
 * about half the instructions of a table lookup per pair. */
static ST_INLINE uint64_t ascii8(uint32_t v) {
  uint64_t hi4 = v / 10000u, x = hi4 | (uint64_t)(v - 10000u * (uint32_t)hi4) << 32;
  uint64_t h = (x * 10486u >> 20) & UINT64_C(0x0000007f0000007f);
  x = h | (x - 100u * h) << 16;
  uint64_t t = (x * 103u >> 10) & UINT64_C(0x000f000f000f000f);
  x = t | (x - 10u * t) << 8;
  return x + ST_ZEROS8;
}

/* Stores the characters of an ascii8 word at d, first digit first, whatever the byte order. */
static void store8(char *d, uint64_t w) {
#if defined(__BYTE_ORDER__) && defined(__ORDER_BIG_ENDIAN__) && \
    __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
  w = __builtin_bswap64(w);
#endif
  memcpy(d, &w, sizeof w);
}

/* put16 without SIMD: two ascii8 words. */
static unsigned zero_mask8(uint64_t w) {
  unsigned m = 0;
  for (int i = 0; i < 8; i++) m |= (unsigned)(((w >> 8 * i) & 0xff) == '0') << i;
  return m;
}

static ST_INLINE unsigned put16(char *d, uint32_t a, uint32_t b) {
  uint64_t wa = ascii8(a), wb = ascii8(b);
  store8(d, wa);
  store8(d + 8, wb);
  return zero_mask8(wa) | zero_mask8(wb) << 8;
}
#endif

/* The number of trailing zero bits of z != 0. */
static int ctz32(unsigned z) {
#if defined(__GNUC__)
  return __builtin_ctz(z);
#else
  int n = 0;
  for (; !(z & 1); z >>= 1) n++;
  return n;
#endif
}

/* The digits of s (0 < s < 10^18) right-aligned to end at d + 24, leading zeros from d + 6
 * on; *n = their number and returns the number of '0' digits at its end
 * (fewer than *n). Both from put16's mask: the run of set bits at its top is the trailing
 * zeros, the run at its bottom the leading ones of the last 16 digits. */
static ST_INLINE int put_digits24(char *d, uint64_t s, int *n) {
  uint64_t hi = s / 100000000u;
  uint32_t top = (uint32_t)(hi / 100000000u); /* < 100 */
  memcpy(d + 6, digit_pairs + 2 * top, 2);
  unsigned zeros = put16(d + 8, (uint32_t)(hi - 100000000u * top), (uint32_t)(s - 100000000u * hi));
  *n = top >= 10 ? 18 : top ? 17 : 16 - ctz32(~zeros); /* top = 0: not all 16 are '0' */
  if (zeros != 0xffffu) return clz64(~(uint64_t)zeros << 48);
  return 16 + (top % 10 == 0);
}

static char *put_exponent(char *p, int x) {
  *p++ = 'e';
  *p++ = x < 0 ? '-' : '+';
  if (x < 0) x = -x;
  if (x >= 100) *p++ = (char)('0' + x / 100);
  memcpy(p, digit_pairs + 2 * (x % 100), 2);
  return p + 2;
}

/* s 10^e (0 < s < 10^18) at p in the "%.17g" layout (C11 7.21.6.1) with the digits of s:
 * exponent X of the first digit; fixed notation when -4 <= X < 17, else d.ddde+XX. Only
 * copies of fixed size (a few vector moves; a copy of variable length is a loop or a call),
 * so p needs ST_SHORTEST_MAX bytes of room; returns the end. */
static ST_INLINE char *layout(char *p, uint64_t s, int e) {
  char buf[48];
  int n;
  int tz = put_digits24(buf, s, &n);
  const char *d = buf + 24 - n;
  int x = e + n - 1;
  n -= tz; /* the significant digits */
  if (x < -4 || x >= 17) {
    p[0] = d[0];
    p[1] = '.';
    memcpy(p + 2, d + 1, 16);
    return put_exponent(p + (n > 1 ? n + 1 : 1), x);
  }
  if (x < 0) {
    memcpy(p, "0.000000", 8);
    memcpy(p + 1 - x, d, 24);
    return p + 1 - x + n;
  }
  memcpy(p, d, 24);
  if (n <= x + 1) { /* an integer: the zeros after its digits */
    memset(p + n, '0', 17);
    return p + x + 1;
  }
  p[x + 1] = '.';
  memcpy(p + x + 2, d + x + 1, 16);
  return p + n + 1;
}

/* Zero, subnormals, infinities and NaN (bq = 0 or 0x7ff), rare in results: out of the common
 * path. p is buf or, for a negative value, buf + 1 after the '-'. */
static int format_special(char *buf, char *p, double x, int bq, uint64_t t) {
  if (bq == 0x7ff) return snprintf(buf, ST_SHORTEST_MAX, t ? "nan" : x > 0 ? "inf" : "-inf");
  if (t == 0) {
    *p++ = '0';
  } else {
    decimal d = to_decimal(ST_Q_MIN, t, 0);
    p = layout(p, d.s, d.e);
  }
  *p = 0;
  return (int)(p - buf);
}

int st_format_shortest(char *buf, double x) {
  uint64_t bits;
  memcpy(&bits, &x, sizeof bits);
  uint64_t t = bits & (ST_C_MIN - 1);
  int bq = (int)(bits >> 52) & 0x7ff;
  buf[0] = '-';
  char *p = buf + (bits >> 63); /* the '-' stays for a negative value only */
  if ((unsigned)(bq - 1) >= 0x7feu) return format_special(buf, p, x, bq, t);
  int q = bq - 1075;
  uint64_t c = ST_C_MIN | t;
  /* an integer below 2^53 is its own shortest text (the spacing is at most 1 there): q in
   * [-52, -1] and the low -q bits of c zero */
  decimal d;
  if ((unsigned)(q + 52) < 52u && (c << (q + 64)) == 0) d = (decimal){c >> -q, 0};
  else d = to_decimal(q, c, 0);
  p = layout(p, d.s, d.e);
  *p = 0;
  return (int)(p - buf);
}
