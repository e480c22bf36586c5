/* The function machine (src/func/func_compile.c, func_vm.c): every function of the test
 * models and of the library in models/ compiles, its tangent pass leaves the values as the
 * value pass has them, and its forward-mode tangent matches a central difference on a spread
 * of inputs; loops, break, early return, nested calls, array locals, slices and a tuple have
 * closed forms; recursion past the depth bound is a located run-time error. */
#include <check.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "compile/func_calls.h"
#include "func/func_compile.h"
#include "func/func_vm_impl.h"
#include "front/front.h"
#include "simtable.h"
#include "testutil.h"

typedef struct loaded {
  st_diag *diag;
  st_front *fe;
  st_flat_model *flat;
} loaded;

static void load(loaded *l, const char *file, const char *cls) {
  memset(l, 0, sizeof *l);
  l->diag = st_diag_new(stderr);
  l->fe = st_front_new(l->diag);
  ck_assert_int_eq(st_front_add_library_path(l->fe, st_test_src("models")), 0);
  ck_assert_int_eq(st_front_load_file(l->fe, st_test_src(file)), 0);
  l->flat = st_front_flatten(l->fe, cls);
  ck_assert_msg(l->flat != NULL, "%s: %s does not flatten", file, cls);
}

static void unload(loaded *l) {
  st_flat_free(l->flat);
  st_front_free(l->fe);
  st_diag_free(l->diag);
}

/* A deterministic generator (the spread of inputs is the same in every run). */
static double uniform(unsigned *state) {
  *state = *state * 1103515245u + 12345u;
  return ((*state >> 8) & 0xffffff) / (double)0x1000000;
}

#define MAXEL 64
#define MAXOUT 1024

/* Arguments of one call: shapes, elements, and which elements are Real (have tangents). */
typedef struct call {
  st_fsig sig;
  double x[MAXEL], dx[MAXEL];
  int real[MAXEL], width, nargs, offs[ST_FVM_MAX_ARGS];
} call;

/* Shapes: declared sizes where they are constants, 3 for every `:` (size(x, 1) of another
 * input is then 3 too). Values: Integers 1..3 (columns, counts, hints), Booleans 0/1,
 * Reals in -2..6 and arrays increasing in row-major order (tables need an increasing first
 * column). */
static void make_call(const st_ffunction *fn, int nargs, unsigned *rng, call *c) {
  memset(c, 0, sizeof *c);
  int a = 0;
  for (int i = 0; i < fn->nlocals && a < nargs; i++) {
    const st_flocal *l = &fn->locals[i];
    if (l->causality != ST_C_INPUT) continue;
    int n = 1;
    c->sig.ndims[a] = l->ndims;
    for (int d = 0; d < l->ndims; d++)
      n *= c->sig.dims[a][d] = l->dims[d] >= 0 ? l->dims[d] : 3;
    ck_assert_int_le(c->width + n, MAXEL);
    c->offs[a] = c->width;
    for (int j = 0; j < n; j++) {
      double *x = &c->x[c->width + j];
      if (l->type == ST_T_INTEGER || l->type == ST_T_ENUM) *x = 1 + (int)(3 * uniform(rng));
      else if (l->type == ST_T_BOOLEAN) *x = uniform(rng) < 0.5;
      else if (l->ndims) *x = 0.7 * j + 0.5 * uniform(rng);
      else *x = -2 + 8 * uniform(rng);
      c->real[c->width + j] = l->type == ST_T_REAL;
      c->dx[c->width + j] = l->type == ST_T_REAL ? uniform(rng) - 0.5 : 0;
    }
    c->width += n;
    a++;
  }
  c->sig.nargs = c->nargs = a;
}

static int same_bits(double a, double b) {
  return (isnan(a) && isnan(b)) || memcmp(&a, &b, sizeof a) == 0;
}

/* Compiles fn for the call's shapes, pinning the Integer arguments that size its arrays. */
static int compile_call(st_fvm *vm, int k, call *c, char *why, size_t size) {
  int ci = st_fvm_compile(vm, k, &c->sig, why, size);
  for (int tries = 0; ci < 0 && tries < ST_FVM_MAX_ARGS; tries++) {
    int p = st_fvm_wanted_pin(vm, k, &c->sig);
    if (p < 0) break;
    c->sig.pinned |= 1u << p;
    c->sig.pin[p] = c->x[c->offs[p]];
    ci = st_fvm_compile(vm, k, &c->sig, why, size);
  }
  return ci;
}

/* Central difference of output element e along dx; *ok 0 at a kink or jump within h. */
static double central(st_fvm *vm, int ci, int o, int e, const call *c, int *ok) {
  static double y[3][MAXOUT];
  double h = 1e-6, xs[MAXEL];
  for (int s = 0; s < 3; s++) {
    for (int i = 0; i < c->width; i++) xs[i] = c->x[i] + (s - 1) * h * c->dx[i];
    if (st_fvm_run(vm, ci, o, xs, NULL, y[s], NULL)) {
      *ok = 0;
      return 0;
    }
  }
  double bwd = (y[1][e] - y[0][e]) / h, fwd = (y[2][e] - y[1][e]) / h;
  *ok = fabs(fwd - bwd) <= 1e-4 * (1 + fabs(fwd) + fabs(bwd));
  return (y[2][e] - y[0][e]) / (2 * h);
}

typedef struct tally {
  int functions, calls, values, tangents;
} tally;

/* One function on 40 input sets: compiled, the same values from the value and the tangent
 * pass, tangent == central difference. */
static void check_function(const loaded *l, int k, int nargs, tally *t) {
  const st_ffunction *fn = &l->flat->functions[k];
  st_fvm *vm = st_fvm_new(l->flat->functions, l->flat->nfunctions);
  ck_assert_ptr_nonnull(vm);
  unsigned rng = 12345u + (unsigned)k;
  for (int trial = 0; trial < 40; trial++) {
    call c;
    char why[256];
    make_call(fn, nargs, &rng, &c);
    int ci = compile_call(vm, k, &c, why, sizeof why);
    ck_assert_msg(ci >= 0, "%s is not compiled: %s", fn->name, why);
    t->calls++;
    int nd;
    for (int o = 0; st_fvm_output_shape(vm, ci, o, &nd) >= 0; o++) {
      int n = st_fvm_output_shape(vm, ci, o, &nd);
      double y[MAXOUT], yd[MAXOUT], dy[MAXOUT];
      ck_assert_int_le(n, MAXOUT);
      int rc = st_fvm_run(vm, ci, o, c.x, NULL, y, NULL);
      /* a failure (an assert on these inputs) fails the tangent pass too */
      ck_assert_int_eq(st_fvm_run(vm, ci, o, c.x, c.dx, yd, dy), rc);
      if (rc) continue;
      for (int e = 0; e < n; e++) {
        ck_assert_msg(same_bits(yd[e], y[e]), "%s: the tangent pass changed the value",
                      fn->name);
        t->values++;
        int ok;
        double cd = central(vm, ci, o, e, &c, &ok);
        if (!ok || !isfinite(dy[e])) continue;
        ck_assert_msg(fabs(dy[e] - cd) <= 1e-5 * (1 + fabs(cd)),
                      "%s output %d[%d]: tangent %.17g, central difference %.17g", fn->name, o,
                      e, dy[e], cd);
        t->tangents++;
      }
    }
  }
  st_fvm_free(vm);
  t->functions++;
}

/* Number of inputs, and the fewest positional arguments a call can give (up to the last
 * input without a default). */
static int count_inputs(const st_ffunction *fn, int *required) {
  int n = 0;
  *required = 0;
  for (int i = 0; i < fn->nlocals; i++) {
    if (fn->locals[i].causality != ST_C_INPUT) continue;
    n++;
    if (!fn->locals[i].binding) *required = n;
  }
  return n;
}

/* Every function a model file defines or calls from the library: all of tests/data and
 * models/ but FunctionsExternal.mo's external one, DerivativeBad.mo (it does not flatten)
 * and FunctionsDerivative.mo, whose made-up derivative annotation is not the difference
 * quotient on purpose (derivative_annotation_in_body compiles all three of its functions). */
static const struct {
  const char *file, *cls;
} models[] = {
  {"tests/data/compile/Functions.mo", "Functions"},
  {"tests/data/compile/Tuple.mo", "Tuple"},
  {"tests/data/compile/FunctionsShared.mo", "FunctionsShared"},
  {"tests/data/compile/IndexFunction.mo", "IndexFunction"},
  {"tests/data/compile/IndexDerivative.mo", "IndexDerivative"},
  {"tests/data/compile/IndexDirectional.mo", "IndexDirectional"},
  {"tests/data/compile/FunctionsLoops.mo", "FunctionsLoops"},
  {"tests/data/compile/FunctionsLoops.mo", "FunctionsAssert"},
  {"tests/data/compile/FunctionsArrays.mo", "FunctionsArrays"},
  {"tests/data/compile/FunctionsCallSites.mo", "FunctionsCallSites"},
  {"tests/data/compile/FunctionsStatements.mo", "FunctionsStatements"},
  {"tests/data/compile/FunctionsManyArgs.mo", "FunctionsManyArgs"},
  {"tests/data/compile/FunctionsStrings.mo", "FunctionsStrings"},
  {"tests/data/compile/FunctionsBad.mo", "FunctionsBad"},
  {"tests/data/compile/IndexFunctionBad.mo", "IndexFunctionBad"},
  {"tests/data/compile/FunctionsLibrary.mo", "FunctionsLibrary"},
  {"tests/data/front/flatten/Cases.mo", "Cases.CallsFunction"},
  {"tests/data/front/flatten/Cases.mo", "Cases.TableParam"},
};

START_TEST(all_functions_compiled) {
  tally t = {0, 0, 0, 0};
  loaded l;
  load(&l, models[_i].file, models[_i].cls);
  ck_assert_int_gt(l.flat->nfunctions, 0);
  for (int k = 0; k < l.flat->nfunctions; k++) {
    int required, n = count_inputs(&l.flat->functions[k], &required);
    check_function(&l, k, n, &t);
    if (required < n) check_function(&l, k, required, &t); /* defaults in the prologue */
  }
  fprintf(stderr, "%s: %d functions, %d calls, %d values, %d tangents checked\n",
          models[_i].cls, t.functions, t.calls, t.values, t.tangents);
  ck_assert_int_gt(t.values, 0);
  unload(&l);
}
END_TEST

/* The library in models/: all its functions are among those checked above. */
START_TEST(library_functions_listed) {
  static const char *names[] = {
    "Modelica.Math.tempInterpol1", "Modelica.Math.tempInterpol2", "Modelica.Math.isEqual",
    "Modelica.Math.Vectors.interpolate", "Modelica.Math.Matrices.isEqual",
    "Modelica.Units.Conversions.from_degC", "Modelica.Units.Conversions.to_degC",
    "Modelica.Units.Conversions.from_rpm", "Modelica.Units.Conversions.to_rpm",
    "Modelica.Mechanics.Translational.Examples.Utilities.GenerateStribeckFrictionTable"};
  loaded l;
  load(&l, "tests/data/compile/FunctionsLibrary.mo", "FunctionsLibrary");
  for (size_t i = 0; i < sizeof names / sizeof *names; i++) {
    int found = 0;
    for (int k = 0; k < l.flat->nfunctions; k++) found |= !strcmp(l.flat->functions[k].name, names[i]);
    ck_assert_msg(found, "%s is not called by FunctionsLibrary.mo", names[i]);
  }
  unload(&l);
}
END_TEST

static int function_index(const loaded *l, const char *name) {
  for (int k = 0; k < l->flat->nfunctions; k++)
    if (!strcmp(l->flat->functions[k].name, name)) return k;
  ck_abort_msg("no function %s", name);
  return -1;
}

/* Function `name` compiled for one scalar argument: its body's number. */
static int compiled_scalar(const loaded *l, st_fvm *vm, const char *name) {
  st_fsig sig;
  memset(&sig, 0, sizeof sig);
  sig.nargs = 1;
  char why[256];
  int ci = st_fvm_compile(vm, function_index(l, name), &sig, why, sizeof why);
  ck_assert_msg(ci >= 0, "%s: %s", name, why);
  return ci;
}

/* Runs FunctionsLoops.<name> on scalar/vector arguments; returns output `o`. */
static double run1(loaded *l, st_fvm *vm, const char *name, int nargs, const int *n,
                   const double *x, int o) {
  st_fsig sig;
  memset(&sig, 0, sizeof sig);
  sig.nargs = nargs;
  for (int i = 0; i < nargs; i++) {
    sig.ndims[i] = n[i] > 0;
    sig.dims[i][0] = n[i];
  }
  char why[256];
  int ci = st_fvm_compile(vm, function_index(l, name), &sig, why, sizeof why);
  ck_assert_msg(ci >= 0, "%s: %s", name, why);
  double y[8];
  if (st_fvm_run(vm, ci, o, x, NULL, y, NULL)) return NAN;
  return y[0];
}

START_TEST(closed_forms_and_depth_bound) {
  loaded l;
  load(&l, "tests/data/compile/FunctionsLoops.mo", "FunctionsLoops");
  st_fvm *vm = st_fvm_new(l.flat->functions, l.flat->nfunctions);
  const int v3[] = {3, 0}, s1[] = {0, 0}, s2[] = {0, 0}, v4[] = {4, 0};
  const double c[] = {1, 2, 3, 0.5}, v[] = {1, 5, 2, 7, 4}, n27[] = {27, 1000};
  ck_assert_double_eq(run1(&l, vm, "FunctionsLoops.horner", 2, v3, c, 0), 1 + 2 * 0.5 + 3 * 0.25);
  ck_assert_double_eq(run1(&l, vm, "FunctionsLoops.collatz", 2, s2, n27, 0), 111);
  const double n27_short[] = {27, 100};
  ck_assert_double_eq(run1(&l, vm, "FunctionsLoops.collatz", 2, s2, n27_short, 0), -1); /* break */
  ck_assert_double_eq(run1(&l, vm, "FunctionsLoops.firstAbove", 2, v4, v, 0), 2);
  const double above[] = {1, 5, 2, 7, 9};
  ck_assert_double_eq(run1(&l, vm, "FunctionsLoops.firstAbove", 2, v4, above, 0), 0);
  ck_assert_double_eq(run1(&l, vm, "FunctionsLoops.stats", 1, v4, v, 0), 1 + 25 + 4 + 49);
  ck_assert_double_eq(run1(&l, vm, "FunctionsLoops.stats", 1, v4, v, 1), 7);
  const double ten[] = {10}, deep[] = {66}, ok64[] = {65};
  ck_assert_double_eq(run1(&l, vm, "FunctionsLoops.fact", 1, s1, ten, 0), 3628800);
  st_fvm_free(vm);
  /* fact(66) nests 65 calls under the first, one more than the bound, fact(65) not; on a
   * fresh machine, as the kept last run of fact(10) would answer fact(11)'s inner call */
  vm = st_fvm_new(l.flat->functions, l.flat->nfunctions);
  ck_assert(isnan(run1(&l, vm, "FunctionsLoops.fact", 1, s1, deep, 0)));
  ck_assert_ptr_nonnull(strstr(st_fvm_failure(vm), "more than 64 nested calls"));
  ck_assert(isfinite(run1(&l, vm, "FunctionsLoops.fact", 1, s1, ok64, 0)));
  st_fvm_free(vm);
  unload(&l);
}
END_TEST

/* A body's outputs are kept from its last run for the next call with the same arguments
 * (the fields of a record result are calls of their own): every output and tangent asked
 * for after runs with other arguments, other tangents, values only, is the body's. */
START_TEST(last_run_kept_per_arguments) {
  loaded l;
  load(&l, "tests/data/compile/FunctionsLoops.mo", "FunctionsLoops");
  st_fvm *vm = st_fvm_new(l.flat->functions, l.flat->nfunctions);
  st_fsig sig;
  memset(&sig, 0, sizeof sig);
  sig.nargs = 1;
  sig.ndims[0] = 1;
  sig.dims[0][0] = 3;
  char why[256];
  int ci = st_fvm_compile(vm, function_index(&l, "FunctionsLoops.stats"), &sig, why, sizeof why);
  ck_assert_msg(ci >= 0, "%s", why);
  const double a[3] = {1, 5, 2}, b[3] = {3, -1, 4}, da[3] = {1, 0, 0}, db[3] = {0, 1, 2};
  double y, dy;
  ck_assert_int_eq(st_fvm_run(vm, ci, 0, a, NULL, &y, NULL), 0);
  ck_assert_double_eq(y, 30);
  ck_assert_int_eq(st_fvm_run(vm, ci, 1, a, NULL, &y, NULL), 0); /* the other field */
  ck_assert_double_eq(y, 5);
  ck_assert_int_eq(st_fvm_run(vm, ci, 1, b, NULL, &y, NULL), 0);
  ck_assert_double_eq(y, 4);
  /* a tangent after a run of values only: 2 sum(v dv) */
  ck_assert_int_eq(st_fvm_run(vm, ci, 0, b, da, &y, &dy), 0);
  ck_assert(y == 26 && dy == 6);
  ck_assert_int_eq(st_fvm_run(vm, ci, 0, b, db, &y, &dy), 0);
  ck_assert(y == 26 && dy == 14);
  ck_assert_int_eq(st_fvm_run(vm, ci, 0, a, db, &y, &dy), 0);
  ck_assert(y == 30 && dy == 18);
  ck_assert_int_eq(st_fvm_run(vm, ci, 1, a, db, &y, &dy), 0); /* max: the tangent of v[2] */
  ck_assert(y == 5 && dy == 1);
  ck_assert_int_eq(st_fvm_run(vm, ci, 0, a, NULL, &y, NULL), 0); /* values of a dual run */
  ck_assert_double_eq(y, 30);
  st_fvm_free(vm);
  unload(&l);
}
END_TEST

/* The same for a call inside a body (FunctionsRecordFields.mo: `q := pair(x)` in a loop
 * of four, one call per field): pair's body runs once per argument and per kind of run,
 * the calling body (total) once per run; y = 4 (x^2 + 3x), dy = 4 (2x + 3) dx, by hand. */
START_TEST(last_run_kept_inside_bodies) {
  loaded l;
  load(&l, "tests/data/compile/FunctionsRecordFields.mo", "FunctionsRecordFields.Use");
  st_fvm *vm = st_fvm_new(l.flat->functions, l.flat->nfunctions);
  int ci = compiled_scalar(&l, vm, "FunctionsRecordFields.total");
  const double x2 = 2, x3 = 3, dx = 0.5;
  double y, dy;
  long before = st_fvm_bodies_run(vm);
  ck_assert_int_eq(st_fvm_run(vm, ci, 0, &x2, NULL, &y, NULL), 0);
  ck_assert_double_eq(y, 40);
  ck_assert_int_eq(st_fvm_bodies_run(vm) - before, 2); /* total, pair once */
  before = st_fvm_bodies_run(vm);
  ck_assert_int_eq(st_fvm_run(vm, ci, 0, &x3, &dx, &y, &dy), 0); /* another argument, dual */
  ck_assert(y == 72 && dy == 18);
  ck_assert_int_eq(st_fvm_bodies_run(vm) - before, 2);
  before = st_fvm_bodies_run(vm);
  ck_assert_int_eq(st_fvm_run(vm, ci, 0, &x2, &dx, &y, &dy), 0); /* x2's run had no tangents */
  ck_assert(y == 40 && dy == 14);
  ck_assert_int_eq(st_fvm_bodies_run(vm) - before, 2);
  st_fvm_free(vm);
  unload(&l);
}
END_TEST

/* Elements at literal subscripts in range are plain frame loads and stores, no subscript
 * computed or checked when running (FunctionsFixedElements.mo); values and tangents by
 * hand: y = (x^2 + 1) x, dy = (3x^2 + 1) dx. A literal subscript out of range still fails
 * when the body runs, with the local's name. */
START_TEST(literal_subscripts_are_plain_loads) {
  loaded l;
  load(&l, "tests/data/compile/FunctionsFixedElements.mo", "FunctionsFixedElements.Use");
  st_fvm *vm = st_fvm_new(l.flat->functions, l.flat->nfunctions);
  int ci = compiled_scalar(&l, vm, "FunctionsFixedElements.chain");
  const cfn *f = &vm->c[ci];
  for (int i = 0; i < f->n; i++)
    ck_assert_msg(f->code[i].op != F_LOADI && f->code[i].op != F_STOREI, "instruction %d", i);
  const double x = 2, dx = 0.5;
  double y, dy;
  ck_assert_int_eq(st_fvm_run(vm, ci, 0, &x, &dx, &y, &dy), 0);
  ck_assert(y == 10 && dy == 6.5);
  ci = compiled_scalar(&l, vm, "FunctionsFixedElements.beyond");
  ck_assert_int_ne(st_fvm_run(vm, ci, 0, &x, NULL, &y, NULL), 0);
  ck_assert_msg(strstr(st_fvm_failure(vm), "subscript 3 of 'o' out of range 1..2"), "%s",
                st_fvm_failure(vm));
  st_fvm_free(vm);
  unload(&l);
}
END_TEST

/* Runs compiled function `name` of shape sig on x into y (output o); its tangent along dx
 * into dy when dx is not NULL. */
static void run_sig(loaded *l, st_fvm *vm, const char *name, const st_fsig *sig, int o,
                    const double *x, const double *dx, double *y, double *dy) {
  char why[256];
  int ci = st_fvm_compile(vm, function_index(l, name), sig, why, sizeof why);
  ck_assert_msg(ci >= 0, "%s: %s", name, why);
  ck_assert_int_eq(st_fvm_run(vm, ci, o, x, dx, y, dy), 0);
}

/* Products of vectors and matrices, reductions, filled arrays and .* ./ compiled (as MSL's
 * Vectors.length and the Frames functions use them), with values and tangents by hand. */
START_TEST(array_operations_closed_forms) {
  loaded l;
  load(&l, "tests/data/compile/FunctionsArrays.mo", "FunctionsArrays");
  st_fvm *vm = st_fvm_new(l.flat->functions, l.flat->nfunctions);
  st_fsig sig;
  memset(&sig, 0, sizeof sig);
  sig.nargs = 1;
  sig.ndims[0] = 1;
  sig.dims[0][0] = 2;
  double v[] = {3, 4}, dv[] = {1, 0}, y[16], dy[16];
  run_sig(&l, vm, "FunctionsArrays.norm", &sig, 0, v, dv, y, dy);
  ck_assert_double_eq(y[0], 5);
  ck_assert_double_eq_tol(dy[0], 3.0 / 5, 1e-15);
  /* A = {{1,2,3},{4,5,6}}, x = {1,2,3}, B = {{1,0},{0,1},{1,1}} */
  sig.nargs = 3;
  sig.ndims[0] = 2, sig.dims[0][0] = 2, sig.dims[0][1] = 3;
  sig.ndims[1] = 1, sig.dims[1][0] = 3;
  sig.ndims[2] = 2, sig.dims[2][0] = 3, sig.dims[2][1] = 2;
  const double amb[] = {1, 2, 3, 4, 5, 6, 1, 2, 3, 1, 0, 0, 1, 1, 1};
  run_sig(&l, vm, "FunctionsArrays.mv", &sig, 0, amb, NULL, y, NULL);
  ck_assert_double_eq(y[0], 14);
  ck_assert_double_eq(y[1], 32);
  run_sig(&l, vm, "FunctionsArrays.mv", &sig, 1, amb, NULL, y, NULL);
  ck_assert_double_eq(y[0], 1 + 3);
  ck_assert_double_eq(y[1], 2 + 3);
  run_sig(&l, vm, "FunctionsArrays.mv", &sig, 2, amb, NULL, y, NULL);
  const double c[] = {4, 5, 10, 11};
  for (int i = 0; i < 4; i++) ck_assert_double_eq(y[i], c[i]);
  /* reductions({2, -1, 4}, 2) */
  sig.nargs = 2;
  sig.ndims[0] = 1, sig.dims[0][0] = 3;
  sig.ndims[1] = 0;
  const double r[] = {2, -1, 4, 2}, dr[] = {0, 0, 1, 0};
  const double want[] = {5, -8, -1, 4, 7.5 + 4 + 0.8 + 0.5 + 16.0 / 17};
  const double dwant[] = {1, -2, 0, 1, 2 * 4 / (17.0 * 17)};
  for (int o = 0; o < 5; o++) {
    run_sig(&l, vm, "FunctionsArrays.reductions", &sig, o, r, dr, y, dy);
    ck_assert_double_eq_tol(y[0], want[o], 1e-14);
    ck_assert_double_eq_tol(dy[0], dwant[o], 1e-14);
  }
  /* normal({1, 0, t}, {0, 1, 0}) = {-t, 0, 1}/sqrt(1 + t^2); at t = 0 along dt: {-1, 0, 0} */
  sig.nargs = 2;
  sig.ndims[1] = 1, sig.dims[1][0] = 3;
  const double xy[] = {1, 0, 0, 0, 1, 0}, dxy[] = {0, 0, 1, 0, 0, 0};
  run_sig(&l, vm, "FunctionsArrays.normal", &sig, 0, xy, dxy, y, dy);
  const double n0[] = {0, 0, 1}, dn0[] = {-1, 0, 0};
  for (int i = 0; i < 3; i++) {
    ck_assert_double_eq(y[i], n0[i]);
    ck_assert_double_eq(dy[i], dn0[i]);
  }
  /* rotation({0, 0, 1}, a): about z by a, {{cos, sin, 0}, {-sin, cos, 0}, {0, 0, 1}} */
  sig.ndims[1] = 0;
  const double ea[] = {0, 0, 1, 0.3}, dea[] = {0, 0, 0, 1};
  run_sig(&l, vm, "FunctionsArrays.rotation", &sig, 0, ea, dea, y, dy);
  const double rz[] = {cos(0.3), sin(0.3), 0, -sin(0.3), cos(0.3), 0, 0, 0, 1};
  const double drz[] = {-sin(0.3), cos(0.3), 0, -cos(0.3), -sin(0.3), 0, 0, 0, 0};
  for (int i = 0; i < 9; i++) {
    ck_assert_double_eq_tol(y[i], rz[i], 1e-15);
    ck_assert_double_eq_tol(dy[i], drz[i], 1e-15);
  }
  /* stacked({1, 2}, {{3, 4}, {5, 6}}): cat(1, ...) of vectors and of matrices */
  sig.nargs = 2;
  sig.ndims[0] = 1, sig.dims[0][0] = 2;
  sig.ndims[1] = 2, sig.dims[1][0] = 2, sig.dims[1][1] = 2;
  const double va[] = {1, 2, 3, 4, 5, 6}, dva[] = {0, 1, 0, 0, 0, 0};
  run_sig(&l, vm, "FunctionsArrays.stacked", &sig, 0, va, dva, y, dy);
  const double w[] = {1, 2, 3, 1, 2}, dw[] = {0, 1, 1, 0, 1};
  for (int i = 0; i < 5; i++) {
    ck_assert_double_eq(y[i], w[i]);
    ck_assert_double_eq(dy[i], dw[i]);
  }
  run_sig(&l, vm, "FunctionsArrays.stacked", &sig, 1, va, NULL, y, NULL);
  const double bw[] = {3, 4, 5, 6, 1, 2};
  for (int i = 0; i < 6; i++) ck_assert_double_eq(y[i], bw[i]);
  /* emptyArg(x) = x + (0 + 1 + 0) + 0 + (2 + 1 + 2) */
  sig.nargs = 1;
  sig.ndims[0] = 0;
  const double ex = 0.25, dex = 1;
  run_sig(&l, vm, "FunctionsArrays.emptyArg", &sig, 0, &ex, &dex, y, dy);
  ck_assert_double_eq(y[0], 6.25);
  ck_assert_double_eq(dy[0], 1);
  /* literalSize(x) = 3 x + 2 */
  run_sig(&l, vm, "FunctionsArrays.literalSize", &sig, 0, &ex, &dex, y, dy);
  ck_assert_double_eq(y[0], 2.75);
  ck_assert_double_eq(dy[0], 3);
  st_fvm_free(vm);
  unload(&l);
}
END_TEST

/* marked() has annotation(derivative = marked_der) with a deliberately different
 * derivative: the tangent through wrapped() must come from marked_der, the value from the
 * body. */
START_TEST(derivative_annotation_in_body) {
  loaded l;
  load(&l, "tests/data/compile/FunctionsDerivative.mo", "FunctionsDerivative");
  st_fvm *vm = st_fvm_new(l.flat->functions, l.flat->nfunctions);
  st_fsig sig;
  memset(&sig, 0, sizeof sig);
  sig.nargs = 1;
  double x = 1.5, dx = 1, y, dy;
  run_sig(&l, vm, "FunctionsDerivative.wrapped", &sig, 0, &x, &dx, &y, &dy);
  ck_assert_double_eq(y, 2 * x * x * x + x);
  ck_assert_double_eq(dy, 2 * (2 * x) + 1);
  st_fvm_free(vm);
  unload(&l);
}
END_TEST

/* A call site of marked() in an equation: its tangent comes from marked_der (2 x dx, made
 * up on purpose), compiled for the site (--dump lists it),
 * also in a clone of the call table. */
START_TEST(derivative_annotation_at_call_site) {
  loaded l;
  load(&l, "tests/data/compile/FunctionsDerivative.mo", "FunctionsDerivative");
  st_fcalls *fc = st_fcalls_new(l.flat);
  ck_assert_ptr_nonnull(fc);
  int ndims[1] = {0}, dims[4] = {0, 0, 0, 0};
  int site = st_fcalls_add(fc, function_index(&l, "FunctionsDerivative.marked"), 1, ndims, dims);
  ck_assert_int_ge(site, 0);
  st_fcalls *clone = st_fcalls_clone(fc);
  ck_assert_ptr_nonnull(clone);
  double x = 1.5, dx = 0.25, dot = 0;
  ck_assert_double_eq(st_fcall_dual(fc, site, &x, &dx, &dot), x * x * x);
  ck_assert_double_eq(dot, 2 * x * dx);
  dot = 0;
  ck_assert_double_eq(st_fcall_dual(clone, site, &x, &dx, &dot), x * x * x);
  ck_assert_double_eq(dot, 2 * x * dx);
  char *text = NULL;
  size_t len = 0;
  FILE *out = open_memstream(&text, &len);
  st_fcalls_dump(fc, out);
  fclose(out);
  ck_assert_msg(strstr(text, "FunctionsDerivative.marked_der(scalar, scalar): compiled"), "%s",
                text);
  free(text);
  st_fcalls_free(clone);
  st_fcalls_free(fc);
  unload(&l);
}
END_TEST

/* A site keeps its last arguments and value: the other site of cubic() in between does not
 * make it run again, values and tangents are those of a fresh run, a zero tangent takes the
 * kept value, other arguments run the body; the impure function always runs. */
START_TEST(site_memo) {
  loaded l;
  load(&l, "tests/data/compile/FunctionsSiteMemo.mo", "FunctionsSiteMemo");
  st_fcalls *fc = st_fcalls_new(l.flat);
  ck_assert_ptr_nonnull(fc);
  int ndims[2] = {0, 0}, dims[8] = {0};
  int cubic = function_index(&l, "FunctionsSiteMemo.cubic");
  int a = st_fcalls_add(fc, cubic, 2, ndims, dims), b = st_fcalls_add(fc, cubic, 2, ndims, dims);
  int imp = st_fcalls_add(fc, function_index(&l, "FunctionsSiteMemo.counted"), 1, ndims, dims);
  ck_assert_int_ge(a, 0);
  ck_assert_int_ge(b, 0);
  ck_assert_int_ge(imp, 0);
  double xa[2] = {1.5, 1}, xb[2] = {0.5, 2}, dx[2] = {0, 0}, d1[2] = {1, 0}, dot = -1;
  ck_assert_double_eq(st_fcall_eval(fc, a, xa), 1.5 * 1.5 * 1.5 + 1.5);
  ck_assert_double_eq(st_fcall_eval(fc, b, xb), 0.125 + 1);
  ck_assert_int_eq(st_fcalls_site_hits(fc), 0);
  ck_assert_double_eq(st_fcall_eval(fc, a, xa), 1.5 * 1.5 * 1.5 + 1.5);
  ck_assert_int_eq(st_fcalls_site_hits(fc), 1);
  ck_assert_double_eq(st_fcall_dual(fc, b, xb, dx, &dot), 0.125 + 1); /* tangent 0: kept */
  ck_assert_double_eq(dot, 0);
  ck_assert_int_eq(st_fcalls_site_hits(fc), 2);
  ck_assert_double_eq(st_fcall_dual(fc, a, xa, d1, &dot), 1.5 * 1.5 * 1.5 + 1.5); /* runs */
  ck_assert_double_eq(dot, 3 * 1.5 * 1.5 + 1);
  ck_assert_int_eq(st_fcalls_site_hits(fc), 2);
  xa[0] = 2; /* other arguments run the body */
  ck_assert_double_eq(st_fcall_eval(fc, a, xa), 10);
  ck_assert_int_eq(st_fcalls_site_hits(fc), 2);
  double xi = 3;
  ck_assert_double_eq(st_fcall_eval(fc, imp, &xi), 6);
  ck_assert_double_eq(st_fcall_eval(fc, imp, &xi), 6);
  ck_assert_int_eq(st_fcalls_site_hits(fc), 2); /* impure: never kept */
  /* a site of labelled() keeps its Real output, not its String one (the output selected
   * after the site was made decides) */
  int lab = function_index(&l, "FunctionsSiteMemo.labelled");
  int real_out = st_fcalls_add(fc, lab, 1, ndims, dims), text = st_fcalls_add(fc, lab, 1, ndims, dims);
  ck_assert_int_ge(real_out, 0);
  ck_assert_int_ge(text, 0);
  ck_assert_int_eq(st_fcall_select_output(fc, text, 1), 0);
  ck_assert_double_eq(st_fcall_eval(fc, real_out, &xi), 9);
  ck_assert_double_eq(st_fcall_eval(fc, real_out, &xi), 9);
  ck_assert_int_eq(st_fcalls_site_hits(fc), 3);
  double s1 = st_fcall_eval(fc, text, &xi), s2 = st_fcall_eval(fc, text, &xi);
  ck_assert(!isnan(s1) && !isnan(s2));
  ck_assert_int_eq(st_fcalls_site_hits(fc), 3); /* a String: never kept */
  ck_assert_double_eq(st_fcall_eval(fc, real_out, &xi), 9);
  ck_assert_int_eq(st_fcalls_site_hits(fc), 4);
  st_fcalls *clone = st_fcalls_clone(fc); /* a clone starts without kept values */
  ck_assert_ptr_nonnull(clone);
  ck_assert_double_eq(st_fcall_eval(clone, a, xa), 10);
  ck_assert_int_eq(st_fcalls_site_hits(clone), 0);
  ck_assert_double_eq(st_fcall_eval(clone, real_out, &xi), 9);
  ck_assert_double_eq(st_fcall_eval(clone, real_out, &xi), 9);
  ck_assert_int_eq(st_fcalls_site_hits(clone), 1);
  st_fcall_eval(clone, text, &xi);
  st_fcall_eval(clone, text, &xi);
  ck_assert_int_eq(st_fcalls_site_hits(clone), 1);
  ck_assert_double_eq(st_fcall_eval(clone, a, xa), 10);
  ck_assert_int_eq(st_fcalls_site_hits(clone), 2);
  st_fcalls_free(clone);
  st_fcalls_free(fc);
  unload(&l);
}
END_TEST

/* The same models simulated: the calls run compiled in OP_CALL (--dump says so), and a
 * recursion past the bound stops the run with the located error of the equation. */
START_TEST(simulated) {
  char args[8192], *out = NULL;
  snprintf(args, sizeof args, "simulate '%s' FunctionsLoops --dump -o /dev/null",
           st_test_src("tests/data/compile/FunctionsLoops.mo"));
  int st = st_test_run(&out, args);
  ck_assert_msg(st == 0, "simulate failed: %s", out ? out : "");
  ck_assert_ptr_nonnull(strstr(out, "FunctionsLoops.fact(scalar): compiled"));
  ck_assert_ptr_null(strstr(out, "): not compiled"));
  free(out);
  out = NULL;
  snprintf(args, sizeof args, "simulate '%s' FunctionsTooDeep -o /dev/null",
           st_test_src("tests/data/compile/FunctionsLoops.mo"));
  st = st_test_run(&out, args);
  ck_assert_int_ne(st, 0);
  ck_assert_msg(strstr(out, "FunctionsLoops.mo:118:3: error: the equation for f evaluated to NaN")
                && strstr(out, "more than 64 nested calls"), "%s", out);
  free(out);
  out = NULL;
  snprintf(args, sizeof args, "simulate '%s' FunctionsAssert -o /dev/null",
           st_test_src("tests/data/compile/FunctionsLoops.mo"));
  st = st_test_run(&out, args);
  ck_assert_int_ne(st, 0);
  ck_assert_msg(strstr(out, "FunctionsLoops.mo:139:8: error: the equation for y evaluated to NaN")
                && strstr(out, "assertion at ") && strstr(out, "FunctionsLoops.mo:136:5 failed: "
                "x must stay below 0.5"), "%s", out);
  free(out);
}
END_TEST

/* Simulates class cls of tests/data/compile/FILE with --dump into t: exit 0, no function or
 * call site refused, the line `compiled` in the translation log, and more than 100 rows. */
static void simulate_compiled(const char *file, const char *cls, const char *compiled,
                              table *t) {
  char path[256], opts[256], *out = NULL;
  snprintf(path, sizeof path, "tests/data/compile/%s", file);
  snprintf(opts, sizeof opts, "%s --dump", cls);
  ck_assert_msg(simulate(path, opts, t, &out) == 0, "%s: %s", cls, out ? out : "");
  ck_assert_msg(!strstr(out, "): not compiled") && !strstr(out, "not compiled at"), "%s", out);
  ck_assert_msg(strstr(out, compiled), "no '%s' in %s", compiled, out);
  free(out);
  ck_assert_int_gt(t->nrows, 100);
}

/* Call sites of functions with array outputs run compiled (--dump names no interpreted
 * one): an element of an array output, and a call's array output as the argument of another
 * call (pushed element by element; the site had taken it for a scalar, the body refused
 * Q*guess and the run failed), explicit and as an input's default; values by hand. */
START_TEST(call_sites_compiled) {
  static table t;
  simulate_compiled("FunctionsCallSites.mo", "FunctionsCallSites",
                    "FunctionsCallSites.aligned([4], [4]): compiled", &t);
  for (int i = 0; i < t.nrows; i++) {
    const double *r = t.v[i];
    double tm = r[col(&t, "time")];
    /* {tm, 0, 0, -1} points away from {0, 0, 0, 1}: flipped */
    ck_assert_double_eq(r[col(&t, "q[1]")], -tm);
    ck_assert_double_eq(r[col(&t, "q[4]")], 1);
    ck_assert_double_eq(r[col(&t, "r[1]")], -tm);
    ck_assert_double_eq(r[col(&t, "r[4]")], 1);
    ck_assert_double_eq_tol(r[col(&t, "T[1,2]")], sin(tm), 1e-15);
    ck_assert_double_eq_tol(r[col(&t, "T[2,1]")], -sin(tm), 1e-15);
    ck_assert_double_eq_tol(r[col(&t, "tr")], 2 * cos(2 * tm), 1e-15);
    /* der(x) = -2 cos(2t) x: x = exp(-sin(2t)) */
    ck_assert_double_eq_tol(r[col(&t, "x")], exp(-sin(2 * tm)), 1e-5);
  }
}
END_TEST

/* Strings are values of the machine (FunctionsStrings.mo): String arguments at the call
 * sites, a default literal, String locals passed on -- all compiled (a String argument sent
 * nothing else) -- and a String literal argument of a call evaluated
 * while flattening (an array size); values by hand. */
START_TEST(strings_passed_compiled) {
  static table t;
  simulate_compiled("FunctionsStrings.mo", "FunctionsStrings",
                    "FunctionsStrings.scaled(scalar, scalar, scalar): compiled", &t);
  for (int i = 0; i < t.nrows; i++) {
    const double *r = t.v[i];
    double tm = r[col(&t, "time")];
    ck_assert_double_eq(r[col(&t, "y")], 2 * tm + 1);
    ck_assert_double_eq(r[col(&t, "z")], 2 * tm);
    ck_assert_double_eq(r[col(&t, "w[3]")], tm);
  }
}
END_TEST

/* Sizes and branches known when a function is compiled (FunctionsSizes.mo): a protected
 * m = size(x, 1) sizing locals, a pinned m choosing its branch of an if (the other one's
 * slices are never compiled), cos() of an array, comprehensions over known ranges, and a
 * record-valued call used field by field, ndims()/size() of an argument, a protected table
 * sized by its literal -- all compiled, values by hand. */
START_TEST(sizes_known_when_compiled) {
  static table t;
  simulate_compiled("FunctionsSizes.mo", "FunctionsSizes",
                    "FunctionsSizes.orient(scalar = 3): compiled", &t);
  for (int i = 0; i < t.nrows; i++) {
    const double *r = t.v[i];
    double tm = r[col(&t, "time")], x[3] = {tm, 1, 2}, y1 = 0, y2 = 0;
    for (int k = 0; k < 3; k++) {
      double phi = k * 2 * 3.14159 / 3;
      y1 += 2.0 / 3 * cos(phi) * x[k];
      y2 += 2.0 / 3 * sin(phi) * x[k];
    }
    ck_assert_double_eq_tol(r[col(&t, "y[1]")], y1, 1e-14);
    ck_assert_double_eq_tol(r[col(&t, "y[2]")], y2, 1e-14);
    /* (tm + i)(3 + i tm) + (2 - i)(1 + i): real parts 3 tm - tm and 2 + 1 */
    ck_assert_double_eq_tol(r[col(&t, "p")], 2 * tm + 3, 1e-14);
    ck_assert_double_eq_tol(r[col(&t, "z")], 1 + 2 + 6 * tm, 1e-14);
  }
}
END_TEST

/* Open-size locals sized by their first assigned value that reads locals placed after them
 * (FunctionsAssignedSize.mo): the output X of a redeclared function from a protected q, and
 * Y := 2 X after X := f(s) -- compiled; y = 2 q + 1 - q with q = 1 / (2 (t + 1)). */
START_TEST(sizes_from_assigned_values) {
  static table t;
  simulate_compiled("FunctionsAssignedSize.mo", "FunctionsAssignedSize.Use",
                    "FunctionsAssignedSize.Impl.first(scalar, scalar): compiled", &t);
  for (int i = 0; i < t.nrows; i++) {
    double q = 1 / (2 * (t.v[i][col(&t, "time")] + 1));
    ck_assert_double_eq_tol(t.v[i][col(&t, "y")], q + 1, 1e-14);
  }
}
END_TEST

/* Calls as statements compiled (FunctionsStatements.mo): a function without outputs from
 * an initial algorithm and from a body, a function with outputs whose results are dropped;
 * a failed assert in the statement call stops initialization with both locations. */
START_TEST(statement_calls_compiled) {
  static table t;
  const char *model = "tests/data/compile/FunctionsStatements.mo";
  simulate_compiled("FunctionsStatements.mo", "FunctionsStatements",
                    "FunctionsStatements.use(scalar): compiled", &t);
  for (int i = 0; i < t.nrows; i++) {
    const double *r = t.v[i];
    ck_assert_double_eq_tol(r[col(&t, "y")], 5 * r[col(&t, "time")], 1e-14); /* 3x + 2x */
  }
  char *out = NULL;
  ck_assert_int_ne(simulate(model, "FunctionsStatementsBad", &t, &out), 0);
  ck_assert_msg(strstr(out, "FunctionsStatements.mo:40:3: error: initialization failed: the "
                            "function call failed: function 'FunctionsStatements.check'") &&
                strstr(out, "FunctionsStatements.mo:12:7 failed"), "%s", out);
  free(out);
}
END_TEST

/* A function of 22 arguments (a record of twenty fields, one per field) runs compiled:
 * y = 210 x + 1. */
START_TEST(many_arguments_compiled) {
  static table t;
  simulate_compiled("FunctionsManyArgs.mo", "FunctionsManyArgs", "scalar): compiled", &t);
  for (int i = 0; i < t.nrows; i++)
    ck_assert_double_eq_tol(t.v[i][col(&t, "y")], 210 * t.v[i][col(&t, "time")] + 1, 1e-12);
}
END_TEST

/* Slices and sizes worked out while compiling (FunctionsSlices.mo): spread(m, w) compiles
 * for m = 1, 3, 5 (a size given by a call, a stepped range, slices assigned, an empty loop
 * skipped), M[j, k] = j (k - 1) w by hand; for m = 2, 4 the blocks' loop runs and its slices
 * move with the loop variable (start known when running, count when compiling). Simulated:
 * by hand. */
START_TEST(slices_compiled) {
  loaded l;
  load(&l, "tests/data/compile/FunctionsSlices.mo", "FunctionsSlices");
  st_fvm *vm = st_fvm_new(l.flat->functions, l.flat->nfunctions);
  int k = function_index(&l, "FunctionsSlices.spread");
  for (int m = 1; m <= 5; m++) {
    st_fsig sig;
    memset(&sig, 0, sizeof sig);
    sig.nargs = 2;
    sig.pinned = 1;
    sig.pin[0] = m;
    char why[256];
    int ci = st_fvm_compile(vm, k, &sig, why, sizeof why);
    ck_assert_msg(ci >= 0, "m = %d: %s", m, why);
    double x[2] = {m, 0.75}, y[25];
    if (m % 2 == 0) { /* blocks of mb = 1: M = 0, first = sum(o) (moving slices, compiled) */
      ck_assert_int_eq(st_fvm_run(vm, ci, 0, x, NULL, y, NULL), 0);
      for (int j = 0; j < m * m; j++) ck_assert_double_eq(y[j], 0);
      ck_assert_int_eq(st_fvm_run(vm, ci, 1, x, NULL, y, NULL), 0);
      ck_assert_double_eq(y[0], 0.75 * m * (m - 1) / 2);
      continue;
    }
    ck_assert_int_eq(st_fvm_run(vm, ci, 0, x, NULL, y, NULL), 0);
    for (int j = 1; j <= m; j++) /* one block: halves(m) = 1 for an odd m */
      for (int c = 1; c <= m; c++)
        ck_assert_msg(y[(j - 1) * m + c - 1] == j * (c - 1) * 0.75, "m = %d M[%d, %d]", m, j, c);
    ck_assert_int_eq(st_fvm_run(vm, ci, 1, x, NULL, y, NULL), 0);
    ck_assert_double_eq(y[0], 0); /* first: o[1] */
  }
  st_fvm_free(vm);
  unload(&l);
  /* deeper(m) sized by deeper(m + 1): refused at the bound of nested compilations (no stack
   * exhausted by 4096 of them), and the run fails with that reason */
  load(&l, "tests/data/compile/FunctionsSlices.mo", "FunctionsSelfSized");
  vm = st_fvm_new(l.flat->functions, l.flat->nfunctions);
  st_fsig sig;
  memset(&sig, 0, sizeof sig);
  sig.nargs = 1;
  sig.pinned = 1;
  sig.pin[0] = 1;
  char why[256];
  ck_assert_int_lt(st_fvm_compile(vm, function_index(&l, "FunctionsSelfSized.deeper"), &sig, why,
                                  sizeof why), 0);
  char *text = NULL;
  size_t len = 0;
  FILE *out = open_memstream(&text, &len);
  st_fvm_dump(vm, out);
  fclose(out);
  int signatures = 0;
  for (const char *p = text; (p = strchr(p, '\n')); p++) signatures++;
  ck_assert_int_le(signatures, 66); /* deeper(1) .. deeper(65): the bound, not 4096 */
  free(text);
  st_fvm_free(vm);
  unload(&l);
  static table t;
  char *msg = NULL;
  ck_assert_int_ne(simulate("tests/data/compile/FunctionsSlices.mo", "FunctionsSelfSized", &t,
                            &msg), 0);
  ck_assert_msg(strstr(msg, "FunctionsSlices.mo:71:8: error: the equation for y evaluated to "
                "NaN") && strstr(msg, "FunctionsSelfSized.deeper") &&
                strstr(msg, "the size of 'v' depends on input values"), "%s", msg);
  free(msg);
  simulate_compiled("FunctionsSlices.mo", "FunctionsSlices", "FunctionsSlices.ends([3]): compiled",
                    &t);
  for (int i = 0; i < t.nrows; i++) {
    const double *r = t.v[i];
    double tm = r[col(&t, "time")], v[3] = {tm, 1, 2};
    char name[16];
    for (int j = 1; j <= 3; j++)
      for (int c = 1; c <= 3; c++) {
        snprintf(name, sizeof name, "M[%d,%d]", j, c);
        ck_assert_double_eq_tol(r[col(&t, name)], j * (c - 1) * tm, 1e-14);
      }
    ck_assert_double_eq_tol(r[col(&t, "s")], tm + 2, 1e-14);
    for (int j = 1; j <= 3; j++) {
      snprintf(name, sizeof name, "A[%d,1]", j);
      ck_assert_double_eq(r[col(&t, name)], v[j - 1]);
      snprintf(name, sizeof name, "A[%d,2]", j);
      ck_assert_double_eq(r[col(&t, name)], 2 * v[j - 1]);
    }
  }
}
END_TEST

/* A model in a directory 1,000 characters deep: the run-time error of a failed call names
 * both locations (the equation's and the function's) in full -- no message buffer of a
 * fixed size cuts it. */
START_TEST(long_path_in_runtime_error) {
  char dir[1400], model[1500], result[1500], *out = NULL;
  int n = snprintf(dir, sizeof dir, "/tmp/stiction_test_func_compile_%ld", (long)getpid());
  ck_assert_int_eq(mkdir(dir, 0700), 0);
  for (int level = 0; level < 5; level++) {
    n += snprintf(dir + n, sizeof dir - (size_t)n, "/%0199d", level);
    ck_assert_int_eq(mkdir(dir, 0700), 0);
  }
  snprintf(model, sizeof model, "%s/FunctionsLoops.mo", dir);
  snprintf(result, sizeof result, "%s/r.csv", dir);
  char *text = NULL;
  size_t len = 0;
  FILE *in = fopen(st_test_src("tests/data/compile/FunctionsLoops.mo"), "r"), *copy = fopen(model, "w");
  ck_assert(in && copy);
  ck_assert_int_eq(getdelim(&text, &len, '\0', in) > 0, 1);
  fputs(text, copy);
  fclose(in);
  ck_assert_int_eq(fclose(copy), 0);
  free(text);
  char *args = malloc(2 * sizeof model + 64), expect[1600];
  sprintf(args, "simulate '%s' FunctionsTooDeep -o '%s'", model, result);
  ck_assert_int_ne(st_test_run(&out, args), 0);
  snprintf(expect, sizeof expect, "%s:118:3: error: the equation for f evaluated to NaN", model);
  ck_assert_msg(strstr(out, expect), "%s", out);
  snprintf(expect, sizeof expect, "(%s:", model);
  ck_assert_msg(strstr(out, expect) && strstr(out, "more than 64 nested calls"), "%s", out);
  free(out);
  free(args);
  snprintf(args = malloc(sizeof dir + 32), sizeof dir + 32, "rm -rf '/tmp/stiction_test_func_compile_%ld'",
           (long)getpid());
  ck_assert_int_eq(system(args), 0);
  free(args);
}
END_TEST

/* The machine is the only evaluator of function bodies (FunctionsMachine.mo): C code of an
 * external clause inside a body and as a statement, String concatenation, comparison and
 * String(), a String output, a record field sized by the modified field, an if-expression
 * with a known condition and branches of two shapes, a range as a value and a local sized
 * by a comprehension, slices moving with a loop variable, [v, 2 v; 3 v, 4 v] of vectors, a
 * scalar function called on a vector, scalar .+ vector, a slice of 300 -- at run time and while flattening, nothing refused; values by hand.
 * An assert's message built from values names the value when the run stops. */
START_TEST(machine_runs_everything) {
  static table t;
  const char *model = "tests/data/compile/FunctionsMachine.mo";
  simulate_compiled("FunctionsMachine.mo", "FunctionsMachine",
                    "FunctionsMachine.viaC(scalar): compiled", &t);
  for (int i = 0; i < t.nrows; i++) {
    const double *r = t.v[i];
    double tm = r[col(&t, "time")];
    ck_assert_double_eq_tol(r[col(&t, "y")], 3 * tm, 1e-15);
    ck_assert_double_eq_tol(r[col(&t, "s")], 6 * tm, 1e-14);
    ck_assert_double_eq_tol(r[col(&t, "w")], 12 * tm, 1e-14);
    /* p = 6, n = 2, q = 4, r = 4.5 */
    ck_assert_double_eq_tol(r[col(&t, "consts")], 4926 * (1 + tm), 1e-11);
    ck_assert_double_eq_tol(r[col(&t, "m")], 8 * tm, 1e-14);
    ck_assert_double_eq_tol(r[col(&t, "col")], 4 * tm + 1, 1e-14);
    ck_assert_double_eq_tol(r[col(&t, "vz")], 12 * tm, 1e-14);
    ck_assert_double_eq_tol(r[col(&t, "ls")], 45150 * tm, 1e-10);
  }
  char *out = NULL;
  ck_assert_int_ne(simulate(model, "FunctionsMachineAssert --stop-time 3", &t, &out), 0);
  ck_assert_msg(strstr(out, "FunctionsMachine.mo:55:5 failed: x = 2.") &&
                strstr(out, " is above 2"), "%s", out);
  free(out);
}
END_TEST

static Suite *suite(void) {
  Suite *s = suite_create("fcompile");
  TCase *tc = st_test_case(s, "fcompile", 120, ST_TESTS(library_functions_listed,
                           closed_forms_and_depth_bound, last_run_kept_per_arguments, last_run_kept_inside_bodies,
                           literal_subscripts_are_plain_loads,
                           array_operations_closed_forms,
                           derivative_annotation_in_body, derivative_annotation_at_call_site, site_memo, simulated, call_sites_compiled,
                           sizes_known_when_compiled, sizes_from_assigned_values, strings_passed_compiled, statement_calls_compiled,
                           many_arguments_compiled, slices_compiled,
                           long_path_in_runtime_error, machine_runs_everything));
  tcase_add_loop_test(tc, all_functions_compiled, 0,
                      (int)(sizeof models / sizeof *models));
  return s;
}

int main(void) {
  st_test_cache_home("fcompile"); /* the C code of FunctionsMachine.mo */
  int rc = st_test_main(suite());
  st_test_cache_remove();
  return rc;
}
