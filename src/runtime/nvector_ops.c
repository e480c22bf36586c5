/* Vector kernels for SUNDIALS' serial N_Vector, installed into its operation table.
 *
 * Why: Debian's libsundials (6.4.1) is compiled without optimization; its serial kernels keep
 * every loop variable in memory, ~25 instructions per element (Vaxpy_Serial: ~200 per call for
 * eight states). CVODE's own bookkeeping cannot be changed, but SUNDIALS reaches every vector
 * operation through the vector's `ops` table, and the table is ours to fill (SUNDIALS user
 * guide, "Description of the NVECTOR modules": an implementation may provide its own
 * operations). Clones copy the table, so CVODE's and IDA's work vectors inherit it.
 *
 * Results stay bit-identical to the library's kernels: each operation evaluates the same
 * floating-point expression per element with the same special cases (a linear sum with
 * a == b is c (x + y), not a x + b y, and so on); test_nvector compares every operation with
 * the library's on arrays with aliasing, signed zeros and special coefficients. The fused and
 * vector-array operations stay unset: SUNDIALS then composes them from the operations below,
 * as it did before. */
#include <math.h>

#include <nvector/nvector_serial.h>

#include "runtime/runtime.h"

static sunindextype len(N_Vector v) { return NV_LENGTH_S(v); }
static sunrealtype *dat(N_Vector v) { return NV_DATA_S(v); }

/* y <- y + a x (the library's in-place case of a linear sum) */
static void axpy(sunrealtype a, N_Vector x, N_Vector y) {
  sunindextype n = len(x);
  const sunrealtype *xd = dat(x);
  sunrealtype *yd = dat(y);
  if (a == 1.0)
    for (sunindextype i = 0; i < n; i++) yd[i] += xd[i];
  else if (a == -1.0)
    for (sunindextype i = 0; i < n; i++) yd[i] -= xd[i];
  else
    for (sunindextype i = 0; i < n; i++) yd[i] += a * xd[i];
}

/* z <- c u + v, with the sign of v given by s (+1 or -1): the "one coefficient is +-1"
 * cases of a linear sum, u carrying the other coefficient. */
static void lin(sunrealtype c, N_Vector u, int s, N_Vector v, N_Vector z) {
  sunindextype n = len(u);
  const sunrealtype *ud = dat(u), *vd = dat(v);
  sunrealtype *zd = dat(z);
  if (s > 0)
    for (sunindextype i = 0; i < n; i++) zd[i] = c * ud[i] + vd[i];
  else
    for (sunindextype i = 0; i < n; i++) zd[i] = c * ud[i] - vd[i];
}

/* z <- a x + b y, dispatched on the coefficients in the library's order. */
static void linear_sum(sunrealtype a, N_Vector x, sunrealtype b, N_Vector y, N_Vector z) {
  if (b == 1.0 && z == y) { axpy(a, x, y); return; }
  if (a == 1.0 && z == x) { axpy(b, y, x); return; }
  sunindextype n = len(x);
  const sunrealtype *xd = dat(x), *yd = dat(y);
  sunrealtype *zd = dat(z);
  if (a == 1.0 && b == 1.0) {
    for (sunindextype i = 0; i < n; i++) zd[i] = xd[i] + yd[i];
  } else if (a == 1.0 && b == -1.0) {
    for (sunindextype i = 0; i < n; i++) zd[i] = xd[i] - yd[i];
  } else if (a == -1.0 && b == 1.0) {
    for (sunindextype i = 0; i < n; i++) zd[i] = yd[i] - xd[i];
  } else if (a == 1.0) {
    lin(b, y, 1, x, z);
  } else if (b == 1.0) {
    lin(a, x, 1, y, z);
  } else if (a == -1.0) {
    lin(b, y, -1, x, z);
  } else if (b == -1.0) {
    lin(a, x, -1, y, z);
  } else if (a == b) {
    for (sunindextype i = 0; i < n; i++) zd[i] = a * (xd[i] + yd[i]);
  } else if (a == -b) {
    for (sunindextype i = 0; i < n; i++) zd[i] = a * (xd[i] - yd[i]);
  } else {
    for (sunindextype i = 0; i < n; i++) zd[i] = a * xd[i] + b * yd[i];
  }
}

static void constant(sunrealtype c, N_Vector z) {
  sunindextype n = len(z);
  sunrealtype *zd = dat(z);
  for (sunindextype i = 0; i < n; i++) zd[i] = c;
}

static void prod(N_Vector x, N_Vector y, N_Vector z) {
  sunindextype n = len(x);
  const sunrealtype *xd = dat(x), *yd = dat(y);
  sunrealtype *zd = dat(z);
  for (sunindextype i = 0; i < n; i++) zd[i] = xd[i] * yd[i];
}

static void divide(N_Vector x, N_Vector y, N_Vector z) {
  sunindextype n = len(x);
  const sunrealtype *xd = dat(x), *yd = dat(y);
  sunrealtype *zd = dat(z);
  for (sunindextype i = 0; i < n; i++) zd[i] = xd[i] / yd[i];
}

static void scale(sunrealtype c, N_Vector x, N_Vector z) {
  sunindextype n = len(x);
  const sunrealtype *xd = dat(x);
  sunrealtype *zd = dat(z);
  if (z == x)
    for (sunindextype i = 0; i < n; i++) zd[i] *= c;
  else if (c == 1.0)
    for (sunindextype i = 0; i < n; i++) zd[i] = xd[i];
  else if (c == -1.0)
    for (sunindextype i = 0; i < n; i++) zd[i] = -xd[i];
  else
    for (sunindextype i = 0; i < n; i++) zd[i] = c * xd[i];
}

static void absolute(N_Vector x, N_Vector z) {
  sunindextype n = len(x);
  const sunrealtype *xd = dat(x);
  sunrealtype *zd = dat(z);
  for (sunindextype i = 0; i < n; i++) zd[i] = fabs(xd[i]);
}

static void inverse(N_Vector x, N_Vector z) {
  sunindextype n = len(x);
  const sunrealtype *xd = dat(x);
  sunrealtype *zd = dat(z);
  for (sunindextype i = 0; i < n; i++) zd[i] = 1.0 / xd[i];
}

static void add_const(N_Vector x, sunrealtype b, N_Vector z) {
  sunindextype n = len(x);
  const sunrealtype *xd = dat(x);
  sunrealtype *zd = dat(z);
  for (sunindextype i = 0; i < n; i++) zd[i] = xd[i] + b;
}

static sunrealtype dot(N_Vector x, N_Vector y) {
  sunindextype n = len(x);
  const sunrealtype *xd = dat(x), *yd = dat(y);
  sunrealtype sum = 0.0;
  for (sunindextype i = 0; i < n; i++) sum += xd[i] * yd[i];
  return sum;
}

static sunrealtype max_norm(N_Vector x) {
  sunindextype n = len(x);
  const sunrealtype *xd = dat(x);
  sunrealtype m = 0.0;
  for (sunindextype i = 0; i < n; i++)
    if (fabs(xd[i]) > m) m = fabs(xd[i]);
  return m;
}

/* sum of (x_i w_i)^2, in index order like the library */
static sunrealtype wsqr_sum(N_Vector x, N_Vector w) {
  sunindextype n = len(x);
  const sunrealtype *xd = dat(x), *wd = dat(w);
  sunrealtype sum = 0.0;
  for (sunindextype i = 0; i < n; i++) {
    sunrealtype p = xd[i] * wd[i];
    sum += p * p;
  }
  return sum;
}

static sunrealtype wsqr_sum_mask(N_Vector x, N_Vector w, N_Vector id) {
  sunindextype n = len(x);
  const sunrealtype *xd = dat(x), *wd = dat(w), *idd = dat(id);
  sunrealtype sum = 0.0;
  for (sunindextype i = 0; i < n; i++) {
    if (!(idd[i] > 0.0)) continue;
    sunrealtype p = xd[i] * wd[i];
    sum += p * p;
  }
  return sum;
}

static sunrealtype wrms_norm(N_Vector x, N_Vector w) {
  return sqrt(wsqr_sum(x, w) / (sunrealtype)len(x));
}

static sunrealtype wrms_norm_mask(N_Vector x, N_Vector w, N_Vector id) {
  return sqrt(wsqr_sum_mask(x, w, id) / (sunrealtype)len(x));
}

static sunrealtype min_element(N_Vector x) {
  sunindextype n = len(x);
  const sunrealtype *xd = dat(x);
  sunrealtype m = xd[0];
  for (sunindextype i = 1; i < n; i++)
    if (xd[i] < m) m = xd[i];
  return m;
}

static sunrealtype wl2_norm(N_Vector x, N_Vector w) { return sqrt(wsqr_sum(x, w)); }

static sunrealtype l1_norm(N_Vector x) {
  sunindextype n = len(x);
  const sunrealtype *xd = dat(x);
  sunrealtype sum = 0.0;
  for (sunindextype i = 0; i < n; i++) sum += fabs(xd[i]);
  return sum;
}

static void compare(sunrealtype c, N_Vector x, N_Vector z) {
  sunindextype n = len(x);
  const sunrealtype *xd = dat(x);
  sunrealtype *zd = dat(z);
  for (sunindextype i = 0; i < n; i++) zd[i] = fabs(xd[i]) >= c ? 1.0 : 0.0;
}

/* z <- 1/x where x != 0; false if some x_i is 0 (those z_i are left alone) */
static sunbooleantype inv_test(N_Vector x, N_Vector z) {
  sunindextype n = len(x);
  const sunrealtype *xd = dat(x);
  sunrealtype *zd = dat(z);
  sunbooleantype ok = SUNTRUE;
  for (sunindextype i = 0; i < n; i++) {
    if (xd[i] == 0.0) ok = SUNFALSE;
    else zd[i] = 1.0 / xd[i];
  }
  return ok;
}

/* m_i <- 1 where x_i breaks constraint c_i (|c| = 2: strict sign, |c| = 1: weak sign) */
static sunbooleantype constr_mask(N_Vector c, N_Vector x, N_Vector m) {
  sunindextype n = len(x);
  const sunrealtype *cd = dat(c), *xd = dat(x);
  sunrealtype *md = dat(m);
  sunbooleantype ok = SUNTRUE;
  for (sunindextype i = 0; i < n; i++) {
    md[i] = 0.0;
    if (cd[i] == 0.0) continue;
    double p = xd[i] * cd[i];
    if ((fabs(cd[i]) > 1.5 && p <= 0.0) || (fabs(cd[i]) > 0.5 && p < 0.0)) {
      md[i] = 1.0;
      ok = SUNFALSE;
    }
  }
  return ok;
}

/* min over d_i != 0 of n_i / d_i; the largest real when every d_i is 0 */
static sunrealtype min_quotient(N_Vector num, N_Vector den) {
  sunindextype n = len(num);
  const sunrealtype *nd = dat(num), *dd = dat(den);
  sunrealtype m = SUN_BIG_REAL;
  int first = 1;
  for (sunindextype i = 0; i < n; i++) {
    if (dd[i] == 0.0) continue;
    sunrealtype q = nd[i] / dd[i];
    m = first ? q : (m < q ? m : q); /* NaN propagates as in the library's SUNMIN */
    first = 0;
  }
  return m;
}

/* Each operation is replaced only where the library provides one, so an operation this
 * build's SUNDIALS leaves unset stays unset. */
#define ST_SET(field, fn) \
  if (ops->field) ops->field = fn

void st_nvector_use_fast_ops(N_Vector v) {
  if (!v || !v->ops || N_VGetVectorID(v) != SUNDIALS_NVEC_SERIAL) return;
  N_Vector_Ops ops = v->ops;
  ST_SET(nvlinearsum, linear_sum);
  ST_SET(nvconst, constant);
  ST_SET(nvprod, prod);
  ST_SET(nvdiv, divide);
  ST_SET(nvscale, scale);
  ST_SET(nvabs, absolute);
  ST_SET(nvinv, inverse);
  ST_SET(nvaddconst, add_const);
  ST_SET(nvdotprod, dot);
  ST_SET(nvmaxnorm, max_norm);
  ST_SET(nvwrmsnorm, wrms_norm);
  ST_SET(nvwrmsnormmask, wrms_norm_mask);
  ST_SET(nvmin, min_element);
  ST_SET(nvwl2norm, wl2_norm);
  ST_SET(nvl1norm, l1_norm);
  ST_SET(nvcompare, compare);
  ST_SET(nvinvtest, inv_test);
  ST_SET(nvconstrmask, constr_mask);
  ST_SET(nvminquotient, min_quotient);
  ST_SET(nvdotprodlocal, dot);
  ST_SET(nvmaxnormlocal, max_norm);
  ST_SET(nvminlocal, min_element);
  ST_SET(nvl1normlocal, l1_norm);
  ST_SET(nvinvtestlocal, inv_test);
  ST_SET(nvconstrmasklocal, constr_mask);
  ST_SET(nvminquotientlocal, min_quotient);
  ST_SET(nvwsqrsumlocal, wsqr_sum);
  ST_SET(nvwsqrsummasklocal, wsqr_sum_mask);
}
