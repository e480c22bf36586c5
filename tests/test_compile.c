/* The equation compiler on hand-built flat models: classification, parameters, BLT blocks
 * (assignment, linear, nonlinear), mixed systems, events, structural errors. The callbacks
 * are called directly here; test_compile_sim.c runs whole simulations (here only the runs of
 * st_compile's instance, which shares the prototype's run-time parts). */
#include <check.h>
#include <stiction/stiction.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "exec/bytecode.h"
#include "compile/compile.h"
#include "compile/model_impl.h"
#include "front/front.h"
#include "front/flat_expr.h"
#include "test_compile_builder.h"
#include "testutil.h"

/* Diagnostics into a memory buffer. */
typedef struct capture {
  char buf[8192];
  FILE *f;
  st_diag *d;
} capture;

static void cap_open(capture *c) {
  memset(c->buf, 0, sizeof c->buf);
  c->f = fmemopen(c->buf, sizeof c->buf - 1, "w");
  c->d = st_diag_new(c->f);
}

static const char *cap_text(capture *c) {
  fflush(c->f);
  return c->buf;
}

static void cap_close(capture *c) {
  fclose(c->f);
  st_diag_free(c->d);
}

/* der(x) = a*x + b with p2 = 2*p1 chained parameters */
START_TEST(parameters_chain_and_explicit_derivative) {
  fb b = fb_new("P");
  int p1 = fb_param(&b, "p1", N(&b, 1.5));
  int p2 = fb_param(&b, "p2", BIN(&b, FOP_MUL, N(&b, 2), V(&b, p1)));
  int x = fb_var(&b, "x", ST_V_CONTINUOUS, ST_T_REAL);
  int y = fb_var(&b, "y", ST_V_CONTINUOUS, ST_T_REAL);
  fb_start(&b, x, 2, 1);
  /* 0.5*der(x) + y = p2 ; y = x*p1  (der(x) must be isolated: der(x) = (p2 - y)/0.5) */
  fb_eq(&b, BIN(&b, FOP_ADD, BIN(&b, FOP_MUL, N(&b, 0.5), DER(&b, x)), V(&b, y)), V(&b, p2));
  fb_eq(&b, V(&b, y), BIN(&b, FOP_MUL, V(&b, x), V(&b, p1)));
  capture c;
  cap_open(&c);
  st_compiled *cm = st_compile(b.m, c.d);
  ck_assert_msg(cm != NULL, "%s", cap_text(&c));
  const stiction_model *m = st_compiled_model(cm);
  ck_assert_int_eq(m->n_states, 1);
  st_compile_info info;
  st_compiled_info(cm, &info);
  ck_assert_int_eq(info.n_assign, 2);
  ck_assert_int_eq(info.n_linear + info.n_nonlinear + info.n_mixed, 0);
  void *ud = st_compiled_data(cm);
  double y0[1], yp[1] = {0}, f[1];
  ck_assert_int_eq(m->start_values(ud, 0, y0, yp), 0);
  ck_assert_double_eq(y0[0], 2);
  ck_assert_int_eq(m->derivatives(ud, 0, y0, f), 0);
  ck_assert_double_eq_tol(f[0], (3.0 - 2 * 1.5) / 0.5, 1e-15);
  /* -p overrides without recompiling; p2 keeps its binding to p1 */
  ck_assert_int_eq(st_compiled_set_parameter(cm, "p1", 1.0), 0);
  ck_assert_int_eq(m->start_values(ud, 0, y0, yp), 0);
  ck_assert_int_eq(m->derivatives(ud, 0, y0, f), 0);
  ck_assert_double_eq_tol(f[0], (2.0 - 2 * 1.0) / 0.5, 1e-15);
  ck_assert_int_eq(st_compiled_set_parameter(cm, "nope", 1.0), -1);
  st_compiled_free(cm);
  cap_close(&c);
  st_flat_free(b.m);
}
END_TEST

static st_compiled *compile_ok(fb *b, capture *c) {
  cap_open(c);
  st_compiled *cm = st_compile(b->m, c->d);
  ck_assert_msg(cm != NULL, "%s", cap_text(c));
  return cm;
}

/* 2*y1 + y2 = x, y1 - y2 = 1, der(x) = y1: a linear 2x2 loop, one LU step. */
START_TEST(linear_algebraic_loop) {
  fb b = fb_new("L");
  int x = fb_var(&b, "x", ST_V_CONTINUOUS, ST_T_REAL);
  int y1 = fb_var(&b, "y1", ST_V_CONTINUOUS, ST_T_REAL);
  int y2 = fb_var(&b, "y2", ST_V_CONTINUOUS, ST_T_REAL);
  fb_start(&b, x, 5, 1);
  fb_eq(&b, BIN(&b, FOP_ADD, BIN(&b, FOP_MUL, N(&b, 2), V(&b, y1)), V(&b, y2)), V(&b, x));
  fb_eq(&b, BIN(&b, FOP_SUB, V(&b, y1), V(&b, y2)), N(&b, 1));
  fb_eq(&b, DER(&b, x), V(&b, y1));
  capture c;
  st_compiled *cm = compile_ok(&b, &c);
  st_compile_info info;
  st_compiled_info(cm, &info);
  ck_assert_int_eq(info.n_linear, 1);
  ck_assert_int_eq(info.n_nonlinear, 0);
  const stiction_model *m = st_compiled_model(cm);
  double y[1], yp[1], f[1];
  ck_assert_int_eq(m->start_values(st_compiled_data(cm), 0, y, yp), 0);
  ck_assert_int_eq(m->derivatives(st_compiled_data(cm), 0, y, f), 0);
  ck_assert_double_eq_tol(f[0], (5.0 + 1) / 3, 1e-14);
  double v;
  ck_assert_int_eq(st_compiled_value(cm, "y2", &v), 0);
  ck_assert_double_eq_tol(v, (5.0 + 1) / 3 - 1, 1e-14);
  st_compiled_free(cm);
  cap_close(&c);
  st_flat_free(b.m);
}
END_TEST

/* Around a ring of 50, d y_i - c y_{i-1} = (d - c) x with c = 0.1 time (y_0 is y_50): every
 * y_i = x. A large sparse linear loop whose coefficients vary: its Newton step goes to KLU
 * (sparse_block.c), the Jacobian written into KLU's values; with d = 1 + c it would not be
 * torn even if linear loops were. */
static st_compiled *ring(int varying_diagonal, capture *cap, st_flat_model **m) {
  enum { RING = 50 };
  fb b = fb_new("Ring");
  int x = fb_var(&b, "x", ST_V_CONTINUOUS, ST_T_REAL), y[RING];
  char name[16];
  for (int i = 0; i < RING; i++) {
    snprintf(name, sizeof name, "y%d", i + 1);
    y[i] = fb_var(&b, name, ST_V_CONTINUOUS, ST_T_REAL);
  }
  fb_start(&b, x, 5, 1);
  for (int i = 0; i < RING; i++) {
    st_fexpr *d = N(&b, 1), *d2 = N(&b, 1);
    if (varying_diagonal) {
      d = BIN(&b, FOP_ADD, d, BIN(&b, FOP_MUL, N(&b, 0.1), TIME(&b)));
      d2 = BIN(&b, FOP_ADD, d2, BIN(&b, FOP_MUL, N(&b, 0.1), TIME(&b)));
    }
    st_fexpr *c = BIN(&b, FOP_MUL, N(&b, 0.1), TIME(&b)), *c2 = BIN(&b, FOP_MUL, N(&b, 0.1), TIME(&b));
    st_fexpr *lhs = BIN(&b, FOP_SUB, BIN(&b, FOP_MUL, d, V(&b, y[i])),
                        BIN(&b, FOP_MUL, c, V(&b, y[(i + RING - 1) % RING])));
    fb_eq(&b, lhs, BIN(&b, FOP_MUL, BIN(&b, FOP_SUB, d2, c2), V(&b, x)));
  }
  fb_eq(&b, DER(&b, x), V(&b, y[0]));
  *m = b.m;
  st_compiled *cm = compile_ok(&b, cap);
  const stiction_model *model = st_compiled_model(cm);
  double yy[1], yp[1], f[1];
  ck_assert_int_eq(model->start_values(st_compiled_data(cm), 0, yy, yp), 0);
  ck_assert_int_eq(model->derivatives(st_compiled_data(cm), 1.0, yy, f), 0);
  ck_assert_double_eq_tol(f[0], 5, 1e-12);
  double v;
  ck_assert_int_eq(st_compiled_value(cm, "y25", &v), 0);
  ck_assert_double_eq_tol(v, 5, 1e-12);
  return cm;
}

START_TEST(large_sparse_loop_uses_klu) {
  capture cap;
  st_flat_model *m;
  st_compiled *cm = ring(1, &cap, &m);
  int sparse = 0, torn = 0;
  for (int k = 0; k < cm->nblocks; k++) {
    sparse += cm->blocks[k].sparse != NULL;
    torn += cm->blocks[k].ntear > 0;
  }
  ck_assert_int_eq(sparse, 1);
  ck_assert_int_eq(torn, 0);
  st_compiled_free(cm);
  cap_close(&cap);
  st_flat_free(m);
}
END_TEST

/* p y1 + (1 + t) y2 = x, (2 + t) y1 + (1 + 2 t) y2 + sin(pi y2) / 100 = 3 x (a nonlinear
 * loop; y2 is a whole number at each solution, so the sine adds nothing there): y1 can be
 * assigned from the first equation only when the parameter p is not 0 at translation (a zero
 * parameter factor is no divisor: a joint's axis {0, 0, 1} made MultiBody's torn iterates
 * infinite). Returns the tear variables; *y1 at t = 1, x = 2. */
static int tear_count(double p_value, double *y1) {
  fb b = fb_new("ParamFactor");
  int x = fb_var(&b, "x", ST_V_CONTINUOUS, ST_T_REAL);
  int a = fb_var(&b, "y1", ST_V_CONTINUOUS, ST_T_REAL), c = fb_var(&b, "y2", ST_V_CONTINUOUS, ST_T_REAL);
  int p = fb_param(&b, "p", N(&b, p_value));
  fb_start(&b, x, 2, 1);
  st_fexpr *t1 = BIN(&b, FOP_ADD, N(&b, 1), TIME(&b)), *t2 = BIN(&b, FOP_ADD, N(&b, 2), TIME(&b));
  st_fexpr *t3 = BIN(&b, FOP_ADD, N(&b, 1), BIN(&b, FOP_MUL, N(&b, 2), TIME(&b)));
  fb_eq(&b, BIN(&b, FOP_ADD, BIN(&b, FOP_MUL, V(&b, p), V(&b, a)), BIN(&b, FOP_MUL, t1, V(&b, c))),
        V(&b, x));
  st_fexpr *wave = BIN(&b, FOP_DIV, F1(&b, FB_SIN, BIN(&b, FOP_MUL, N(&b, M_PI), V(&b, c))), N(&b, 100));
  st_fexpr *lin = BIN(&b, FOP_ADD, BIN(&b, FOP_MUL, t2, V(&b, a)), BIN(&b, FOP_MUL, t3, V(&b, c)));
  fb_eq(&b, BIN(&b, FOP_ADD, lin, wave), BIN(&b, FOP_MUL, N(&b, 3), V(&b, x)));
  fb_eq(&b, DER(&b, x), V(&b, a));
  capture cap;
  st_compiled *cm = compile_ok(&b, &cap);
  const stiction_model *model = st_compiled_model(cm);
  double yy[1], yp[1], f[1];
  ck_assert_int_eq(model->start_values(st_compiled_data(cm), 0, yy, yp), 0);
  ck_assert_int_eq(model->derivatives(st_compiled_data(cm), 1.0, yy, f), 0);
  *y1 = f[0];
  int ntear = 0;
  for (int k = 0; k < cm->nblocks; k++) ntear += cm->blocks[k].ntear;
  st_compiled_free(cm);
  cap_close(&cap);
  st_flat_free(b.m);
  return ntear;
}

/* A model of tests/data/compile compiled through the front end; the caller checks it and
 * frees it with compiled_file_free. */
typedef struct compiled_file {
  st_diag *diag;
  st_front *fe;
  st_flat_model *m;
  st_compiled *cm;
} compiled_file;

static compiled_file flatten_file(const char *file, const char *cls) {
  compiled_file c = {st_diag_new(NULL), NULL, NULL, NULL};
  c.fe = st_front_new(c.diag);
  st_front_add_default_paths(c.fe);
  char path[256];
  snprintf(path, sizeof path, "tests/data/compile/%s", file);
  ck_assert_int_eq(st_front_load_file(c.fe, st_test_src(path)), 0);
  c.m = st_front_flatten(c.fe, cls);
  ck_assert_ptr_nonnull(c.m);
  return c;
}

/* flatten_file with modifications of the class ("N = 2000"), compiled. */
static compiled_file compile_file_mod(const char *file, const char *cls, const char *mod) {
  compiled_file c = {st_diag_new(NULL), NULL, NULL, NULL};
  c.fe = st_front_new(c.diag);
  st_front_add_default_paths(c.fe);
  char path[256];
  snprintf(path, sizeof path, "tests/data/compile/%s", file);
  ck_assert_int_eq(st_front_load_file(c.fe, st_test_src(path)), 0);
  c.m = st_front_flatten_modified(c.fe, cls, &mod, 1, "<test>");
  ck_assert_msg(c.m != NULL, "%s", st_diag_first_error(c.diag));
  c.cm = st_compile(c.m, c.diag);
  ck_assert_msg(c.cm != NULL, "%s", st_diag_first_error(c.diag));
  return c;
}

static compiled_file compile_file(const char *file, const char *cls) {
  compiled_file c = flatten_file(file, cls);
  c.cm = st_compile(c.m, c.diag);
  ck_assert_msg(c.cm != NULL, "%s", st_diag_first_error(c.diag));
  return c;
}

static void compiled_file_free(compiled_file *c) {
  st_compiled_free(c->cm);
  st_flat_free(c->m);
  st_front_free(c->fe);
  st_diag_free(c->diag);
}

/* x, y and w of cm at the end of a run to t = 2 (the event at x = 0.5 on the way). */
static void run_to_end(st_compiled *cm, double *v) {
  stiction_options opt;
  stiction_options_init(&opt);
  opt.stop_time = 2;
  stiction_sim *sim = stiction_sim_new(st_compiled_model(cm), st_compiled_data(cm), &opt);
  ck_assert_ptr_nonnull(sim);
  ck_assert_int_eq(stiction_sim_run(sim), 0);
  stiction_sim_free(sim);
  ck_assert_int_eq(st_compiled_value(cm, "x", &v[0]), 0);
  ck_assert_int_eq(st_compiled_value(cm, "y", &v[1]), 0);
  ck_assert_int_eq(st_compiled_value(cm, "w", &v[2]), 0);
}

/* st_compile's instance runs on the prototype's own values, blocks and relations (no copies:
 * issue 18); it runs again like a fresh instance, and an instance made after its runs starts
 * from the untouched program just the same. */
START_TEST(sole_instance_runs_like_any_instance) {
  compiled_file c = compile_file("SoleInstance.mo", "SoleInstance");
  ck_assert_ptr_eq(c.cm->blocks, c.cm->p.proto->blocks);
  ck_assert_ptr_eq(c.cm->x, c.cm->p.proto->x);
  double first[3], again[3], other[3];
  run_to_end(c.cm, first);
  ck_assert_double_lt(first[0], 0.5); /* the event happened */
  run_to_end(c.cm, again);
  st_compiled *in = st_instance_new(c.cm->owned, c.diag);
  ck_assert_ptr_nonnull(in);
  ck_assert_ptr_ne(in->blocks, c.cm->blocks);
  run_to_end(in, other);
  for (int k = 0; k < 3; k++) {
    ck_assert_double_eq(again[k], first[k]);
    ck_assert_double_eq(other[k], first[k]);
  }
  /* y + 2z = x, 3y - z = 1: y = (x + 2)/7 */
  ck_assert_double_eq_tol(first[1], (first[0] + 2) / 7, 1e-9);
  ck_assert_double_eq_tol(first[2] * first[2] * first[2] + first[2], first[0], 1e-9);
  st_instance_free(in);
  compiled_file_free(&c);
}
END_TEST

/* Runs cm to stop_time at rtol; its compile info after the run in *info. */
static void run_until(st_compiled *cm, double stop_time, double rtol, st_compile_info *info) {
  stiction_options opt;
  stiction_options_init(&opt);
  opt.stop_time = stop_time;
  opt.rtol = rtol;
  stiction_sim *sim = stiction_sim_new(st_compiled_model(cm), st_compiled_data(cm), &opt);
  ck_assert_ptr_nonnull(sim);
  ck_assert_msg(stiction_sim_run(sim) == 0, "%s", stiction_sim_error(sim));
  stiction_sim_free(sim);
  st_compiled_info(cm, info);
}

static double value(const st_compiled *cm, const char *name) {
  double v;
  ck_assert_msg(st_compiled_value(cm, name, &v) == 0, "no %s", name);
  return v;
}

/* A cyclic linear loop of 2000 unknowns with varying coefficients (SparseLoop.mo) goes to
 * KLU, and the instance's dense scratch is sized by the blocks solved densely (none here),
 * not by the largest block: its n^2 Newton matrix and (2n + 11) n history would be 96 MB
 * here, 240 GB at 10^5 unknowns (issue 18). The closed form holds: x[i] = 1 + t. */
START_TEST(large_sparse_loop_has_no_dense_scratch) {
  compiled_file c = compile_file_mod("SparseLoop.mo", "SparseLoop", "N = 2000");
  st_compile_info info;
  st_compiled_info(c.cm, &info);
  ck_assert_int_eq(info.n_klu, 1);
  ck_assert_msg(info.dense_bytes < 1024, "%zu bytes", info.dense_bytes);
  run_until(c.cm, 1, 1e-8, &info);
  ck_assert_msg(info.dense_bytes < 1024, "%zu bytes after the run", info.dense_bytes);
  const char *xs[] = {"x[1]", "x[999]", "x[2000]"};
  for (int i = 0; i < 3; i++) ck_assert_double_eq_tol(value(c.cm, xs[i]), 2, 1e-9);
  ck_assert_double_eq_tol(value(c.cm, "s"), 1.5, 1e-6);
  compiled_file_free(&c);
}
END_TEST

/* The slots each block reads (event_pass.c block_reads, made at the first event pass): each
 * once per block, every unknown of the loop in the loop's list (found with a mark per slot,
 * no longer a search of the list so far: quadratic in a loop of 10^5 unknowns). */
START_TEST(block_reads_listed_once) {
  compiled_file c = compile_file_mod("SparseLoop.mo", "SparseLoop", "N = 2000");
  st_compile_info info;
  run_until(c.cm, 0.01, 1e-6, &info);
  st_compiled *cm = c.cm;
  ck_assert_ptr_nonnull(cm->rd_start);
  int *last = malloc(sizeof *last * (size_t)cm->p.nslots), loop = -1;
  for (int s = 0; s < cm->p.nslots; s++) last[s] = -1;
  for (int k = 0; k < cm->nblocks; k++) {
    for (int j = cm->rd_start[k]; j < cm->rd_start[k + 1]; j++) {
      int s = cm->rd_slot[j];
      ck_assert_msg(last[s] != k, "block %d lists slot %d twice", k, s);
      last[s] = k;
    }
    if (cm->blocks[k].n == 2000) loop = k;
  }
  ck_assert_int_ge(loop, 0);
  const st_block *b = &cm->blocks[loop];
  for (int i = 0; i < b->n; i++) {
    int found = 0;
    for (int j = cm->rd_start[loop]; j < cm->rd_start[loop + 1] && !found; j++)
      found = cm->rd_slot[j] == b->slots[i];
    ck_assert_msg(found, "unknown %d of the loop not among its reads", i);
  }
  free(last);
  compiled_file_free(&c);
}
END_TEST

/* The same loop with frozen coefficients (SparseLoopFrozen.mo): KLU factors it once per event
 * interval, and the tape applies those factors (solve.c st_linear_step), with no dense
 * factors (their n^2 doubles, indices and values were 80 MB at 2000 unknowns). Its right-hand
 * side steps at the time event t = 0.5: x[i] = u = 2 + t after it. Below 40 unknowns the
 * loop keeps its dense factors. */
START_TEST(frozen_sparse_loop_factored_by_klu) {
  compiled_file c = compile_file_mod("SparseLoopFrozen.mo", "SparseLoopFrozen", "N = 2000");
  st_compile_info info;
  st_compiled_info(c.cm, &info);
  ck_assert_int_eq(info.n_linear, 1);
  ck_assert_int_eq(info.n_klu, 1);
  ck_assert_msg(info.dense_bytes < 1024, "%zu bytes", info.dense_bytes);
  run_until(c.cm, 2, 1e-8, &info);
  ck_assert_int_gt(info.tape_runs, 0);
  ck_assert_msg(info.dense_bytes < 1024, "%zu bytes after the run", info.dense_bytes);
  const char *xs[] = {"x[1]", "x[1234]", "x[2000]"};
  for (int i = 0; i < 3; i++) ck_assert_double_eq_tol(value(c.cm, xs[i]), 4, 1e-9);
  ck_assert_double_eq_tol(value(c.cm, "s"), 5.5, 1e-6);
  compiled_file_free(&c);
  c = compile_file_mod("SparseLoopFrozen.mo", "SparseLoopFrozen", "N = 30");
  st_compiled_info(c.cm, &info);
  ck_assert_int_eq(info.n_klu, 0);
  ck_assert_uint_ge(info.dense_bytes, 30 * 30 * (2 * sizeof(double) + sizeof(int)));
  run_until(c.cm, 2, 1e-8, &info);
  ck_assert_double_eq_tol(value(c.cm, "x[17]"), 4, 1e-9);
  ck_assert_double_eq_tol(value(c.cm, "s"), 5.5, 1e-6);
  compiled_file_free(&c);
}
END_TEST

/* A singular consistent loop of 50 solved by KLU (SingularRing.mo) has no dense matrix from
 * the compiler; its minimum-norm solution (x[i] = +-0.5) gets one at the first solve. */
START_TEST(singular_sparse_loop_grows_dense_matrix) {
  compiled_file c = compile_file("SingularRing.mo", "SingularRing");
  st_compile_info info;
  st_compiled_info(c.cm, &info);
  ck_assert_int_eq(info.n_klu, 1);
  ck_assert_msg(info.dense_bytes < 1024, "%zu bytes", info.dense_bytes);
  run_until(c.cm, 1, 1e-8, &info);
  ck_assert_uint_ge(info.dense_bytes, 50 * 50 * sizeof(double));
  char name[16];
  for (int i = 1; i <= 50; i++) {
    snprintf(name, sizeof name, "x[%d]", i);
    ck_assert_double_eq_tol(value(c.cm, name), i % 2 ? -0.5 : 0.5, 1e-12);
  }
  ck_assert_double_eq_tol(value(c.cm, "s"), 0.5, 1e-9);
  compiled_file_free(&c);
}
END_TEST

/* A fixed = false parameter an initial algorithm assigns is not an unknown of the initial
 * system (FluidHeatFlow's SimpleFriction k: with no equation of its own there the initial
 * solve gave TwoTanks' tank temperature NaN). */
START_TEST(initial_algorithm_parameter_is_no_unknown) {
  compiled_file c = compile_file("InitialAlgorithmParameter.mo", "InitialAlgorithmParameter");
  ck_assert_int_eq(c.cm->p.ninit_params, 0);
  compiled_file_free(&c);
}
END_TEST

/* A singular but consistent initial system takes the minimum-norm Newton step toward the
 * start values (MSL RobotR3: a friction locked at rest leaves the motor current free);
 * a residual of a large scale is solved when small for its size. */
START_TEST(initial_system_singular_and_large_scale) {
  compiled_file c = compile_file("InitSingular.mo", "InitSingular");
  double y[2], yp[2], x, z;
  ck_assert_int_eq(st_compiled_model(c.cm)->start_values(st_compiled_data(c.cm), 0, y, yp), 0);
  ck_assert_int_eq(st_compiled_value(c.cm, "x", &x), 0);
  ck_assert_int_eq(st_compiled_value(c.cm, "y", &z), 0);
  /* the null direction of a difference-quotient Jacobian is (1, -1) to ~1e-9 */
  ck_assert_double_eq_tol(x, 2, 1e-6);
  ck_assert_double_eq_tol(z, 0, 1e-6);
  compiled_file_free(&c);
  c = compile_file("InitLargeScale.mo", "InitLargeScale");
  ck_assert_int_eq(st_compiled_model(c.cm)->start_values(st_compiled_data(c.cm), 0, y, yp), 0);
  ck_assert_int_eq(st_compiled_value(c.cm, "x", &x), 0);
  ck_assert_double_eq_tol(x, sqrt(2), 1e-12);
  compiled_file_free(&c);
}
END_TEST

/* The nominal values of the states after the start: x's from a parameter expression, v's
 * from speed, an alias of v that alias elimination removed; NULL when none is given. */
START_TEST(nominal_values_of_states) {
  compiled_file c = compile_file("NominalTolerance.mo", "NominalTolerance");
  const stiction_model *m = st_compiled_model(c.cm);
  double y[2], yp[2];
  ck_assert_int_eq(m->n_states, 2);
  ck_assert_int_eq(m->start_values(st_compiled_data(c.cm), 0, y, yp), 0);
  ck_assert_ptr_nonnull(m->nominal);
  for (int i = 0; i < 2; i++) {
    double want = strcmp(m->state_names[i], "x") == 0 ? 1e-6 : 1e-5;
    ck_assert_double_eq_tol(m->nominal[i], want, want * 1e-12);
  }
  compiled_file_free(&c);
  c = compile_file("SoleInstance.mo", "SoleInstance");
  m = st_compiled_model(c.cm);
  double z[8], zp[8];
  ck_assert_int_le(m->n_states, 8);
  ck_assert_int_eq(m->start_values(st_compiled_data(c.cm), 0, z, zp), 0);
  ck_assert_ptr_null(m->nominal);
  compiled_file_free(&c);
}
END_TEST

/* The model's start values y and its derivatives f at time t from them (one state at most). */
static void derivatives_at_start(st_compiled *cm, double t, double *y, double *f) {
  const stiction_model *mod = st_compiled_model(cm);
  double yp[1];
  ck_assert_int_eq(mod->start_values(st_compiled_data(cm), 0, y, yp), 0);
  ck_assert_int_eq(mod->derivatives(st_compiled_data(cm), t, y, f), 0);
}

/* Zeros of evaluated parameters travel through smooth(), noEvent(), sums, quotients and
 * if-expressions into the variables they define (StructuralZeros.mo: c = 0 for every v),
 * and a product with such a variable is no equation for the derivative it multiplies:
 * v is no state and follows sin(time) (Analog's HeatingNPN_NORGate with CapVal = 0). */
START_TEST(structural_zeros_are_no_states) {
  compiled_file c = compile_file("StructuralZeros.mo", "StructuralZeros");
  st_compiled *cm = c.cm;
  ck_assert_int_eq(cm->p.nstates, 0);
  double y[1], f[1], v;
  derivatives_at_start(cm, 0.3, y, f);
  ck_assert_int_eq(st_compiled_value(cm, "v", &v), 0);
  ck_assert_double_eq_tol(v, sin(0.3), 1e-12);
  ck_assert_int_eq(st_compiled_value(cm, "c", &v), 0);
  ck_assert(v == 0);
  /* nothing reads der(v): no equation is differentiated to compute it */
  ck_assert_int_eq(cm->p.n_differentiated, 0);
  compiled_file_free(&c);
}
END_TEST

/* A der() read outside the equations (an assert) keeps its variable differentiated. */
START_TEST(structural_zeros_keep_a_der_read_elsewhere) {
  compiled_file c = compile_file("StructuralZeroReadDer.mo", "StructuralZeroReadDer");
  st_compiled *cm = c.cm;
  ck_assert_int_eq(cm->p.nstates, 0);
  double y[1], f[1], v;
  derivatives_at_start(cm, 0.3, y, f);
  ck_assert_int_eq(st_compiled_value(cm, "der(v)", &v), 0);
  ck_assert_double_eq_tol(v, cos(0.3), 1e-9);
  compiled_file_free(&c);
}
END_TEST

/* Two states v1, v2 where v1's capacitance is a structural zero found through a call: v1 is
 * no state and follows sin(time); c2, never 0 but unknown, keeps v2 a state. */
static void zero_through_call(const char *model, int differentiated) {
  char file[128];
  snprintf(file, sizeof file, "%s.mo", model);
  compiled_file c = compile_file(file, model);
  st_compiled *cm = c.cm;
  ck_assert_int_eq(cm->p.nstates, 1);
  double y[1], f[1], v;
  derivatives_at_start(cm, 0.3, y, f);
  ck_assert_int_eq(st_compiled_value(cm, "v1", &v), 0);
  ck_assert_double_eq_tol(v, sin(0.3), 1e-12);
  ck_assert_int_eq(st_compiled_value(cm, "cc.c1", &v), 0);
  ck_assert(v == 0);
  ck_assert_double_eq_tol(f[0], -0.5/2/(1e-3*1.25), 1e-9); /* der(v2) = -v2/R/c2 */
  if (differentiated >= 0) ck_assert_int_eq(cm->p.n_differentiated, differentiated);
  compiled_file_free(&c);
}

/* A call output that is 0 on every path of the function body for the evaluated Cj = 0
 * (StructuralZeroCalls.mo: through an if on an unknown, a callee, a loop) is a zero too
 * (Spice3's BJT with no base-collector capacitance). */
START_TEST(structural_zeros_through_function_bodies) { zero_through_call("StructuralZeroCalls", -1); }
END_TEST

/* A constant argument (a flag choosing an initialization branch) is known to the body. */
START_TEST(structural_zeros_through_constant_arguments) {
  zero_through_call("StructuralZeroConstantArgs", 0);
}
END_TEST

/* Eight calls v = caps(...) with the same inputs as the zero analysis sees them (the
 * final Cj = 0, the unknown voltages) share one run of the body (zero_calls.c's memo; the
 * four-bit adder asked ~3700 times for 2 distinct runs); the zeros are the same: c1 of
 * every device is 0 (v1 no state), c2 is not. */
START_TEST(structural_zero_calls_share_one_analysis) {
  compiled_file c = compile_file("StructuralZeroCallsShared.mo", "StructuralZeroCallsShared");
  st_compiled *cm = c.cm;
  ck_assert_int_eq(cm->p.nstates, 4);
  ck_assert_int_eq(cm->p.zero_call_runs, 1);
  double y[4], f[4], v;
  const stiction_model *mod = st_compiled_model(cm);
  double yp[4];
  ck_assert_int_eq(mod->start_values(st_compiled_data(cm), 0, y, yp), 0);
  ck_assert_int_eq(mod->derivatives(st_compiled_data(cm), 0.3, y, f), 0);
  for (int i = 1; i <= 4; i++) {
    char name[32];
    snprintf(name, sizeof name, "d[%d].cc.c1", i);
    ck_assert_int_eq(st_compiled_value(cm, name, &v), 0);
    ck_assert(v == 0);
    snprintf(name, sizeof name, "d[%d].v1", i);
    ck_assert_int_eq(st_compiled_value(cm, name, &v), 0);
    ck_assert_double_eq_tol(v, sin(0.3), 1e-12);
  }
  for (int i = 0; i < 4; i++) ck_assert_double_eq_tol(f[i], -0.5 / 2 / (1e-3 * 1.25), 1e-9);
  compiled_file_free(&c);
}
END_TEST

static const st_fvar *flat_var(const st_flat_model *m, const char *name) {
  for (int i = 0; i < m->nvars; i++)
    if (!strcmp(m->vars[i].name, name)) return &m->vars[i];
  ck_abort_msg("no variable %s", name);
  return NULL;
}

/* A record parameter bound to a record function's call (RecordCallParameters.mo): each
 * field's binding is a node of its own over the arguments translated once (not a deep copy
 * per field), and the compiler emits those arguments once per record, copying the program
 * for the other fields (their call sites share shapes and bodies); the values are the
 * fields of the call. */
START_TEST(record_call_parameters_share_arguments_and_emission) {
  compiled_file c = flatten_file("RecordCallParameters.mo", "RecordCallParameters");
  const st_fexpr *a = flat_var(c.m, "d1.card.a")->binding;
  const st_fexpr *b = flat_var(c.m, "d1.card.b")->binding;
  ck_assert_ptr_nonnull(a);
  ck_assert_ptr_nonnull(b);
  ck_assert_int_eq(a->kind, FX_CALL);
  ck_assert_int_eq(b->kind, FX_CALL);
  ck_assert_ptr_ne(a, b);
  ck_assert_int_ne(a->op, b->op);
  ck_assert_int_eq(a->nargs, 3);
  ck_assert_ptr_eq(a->args[0], b->args[0]);
  c.cm = st_compile(c.m, c.diag);
  ck_assert_msg(c.cm != NULL, "%s", st_diag_first_error(c.diag));
  st_compiled *cm = c.cm;
  ck_assert_int_eq(cm->p.n_emitted_again, 4);             /* two more fields per device */
  ck_assert_int_ge(st_fcalls_shapes_shared(cm->fcalls), 4);
  static const struct { const char *name; double v; } want[] = {
      {"d1.card.a", 3}, {"d1.card.b", 3}, {"d1.card.c", -1},
      {"d2.card.a", 4}, {"d2.card.b", 6}, {"d2.card.c", -1}};
  for (size_t i = 0; i < sizeof want / sizeof want[0]; i++) {
    double v;
    ck_assert_int_eq(st_compiled_value(cm, want[i].name, &v), 0);
    ck_assert_msg(v == want[i].v, "%s = %g, not %g", want[i].name, v, want[i].v);
  }
  compiled_file_free(&c);
}
END_TEST

START_TEST(zero_parameter_factor_is_no_divisor) {
  double y1;
  ck_assert_int_eq(tear_count(3, &y1), 1);
  ck_assert_double_eq_tol(y1, -2, 1e-12); /* 3 y1 + 2 y2 = 2, 3 y1 + 3 y2 = 6 */
  ck_assert_int_eq(tear_count(0, &y1), 0);
  ck_assert_double_eq_tol(y1, 1, 1e-12); /* 2 y2 = 2, 3 y1 + 3 y2 = 6 */
}
END_TEST

/* y1^2 + y2^2 = x, y1 = y2*1 written as y1 - y2 = 0 ... plus y3 + exp(y3) = 1 (y3 = 0):
 * a nonlinear 2x2 loop and a nonlinear scalar equation that cannot be isolated. */
START_TEST(nonlinear_algebraic_loop) {
  fb b = fb_new("NL");
  int x = fb_var(&b, "x", ST_V_CONTINUOUS, ST_T_REAL);
  int y1 = fb_var(&b, "y1", ST_V_CONTINUOUS, ST_T_REAL);
  int y2 = fb_var(&b, "y2", ST_V_CONTINUOUS, ST_T_REAL);
  int y3 = fb_var(&b, "y3", ST_V_CONTINUOUS, ST_T_REAL);
  fb_start(&b, x, 4, 1);
  fb_start(&b, y1, 1, 0);
  fb_start(&b, y2, 1, 0);
  fb_start(&b, y3, 3, 0);
  fb_eq(&b, BIN(&b, FOP_ADD, BIN(&b, FOP_MUL, V(&b, y1), V(&b, y1)),
                BIN(&b, FOP_POW, V(&b, y2), N(&b, 2))), V(&b, x));
  fb_eq(&b, BIN(&b, FOP_SUB, V(&b, y1), V(&b, y2)), N(&b, 0));
  fb_eq(&b, BIN(&b, FOP_ADD, V(&b, y3), F1(&b, FB_EXP, V(&b, y3))), N(&b, 1));
  fb_eq(&b, DER(&b, x), BIN(&b, FOP_ADD, UN(&b, FOP_NEG, V(&b, y1)), V(&b, y3)));
  capture c;
  st_compiled *cm = compile_ok(&b, &c);
  st_compile_info info;
  st_compiled_info(cm, &info);
  ck_assert_int_eq(info.n_nonlinear, 2);
  const stiction_model *m = st_compiled_model(cm);
  double y[1], yp[1], f[1];
  ck_assert_int_eq(m->start_values(st_compiled_data(cm), 0, y, yp), 0);
  ck_assert_int_eq(m->derivatives(st_compiled_data(cm), 0, y, f), 0);
  ck_assert_double_eq_tol(f[0], -sqrt(2.0), 1e-12);
  double v;
  st_compiled_value(cm, "y3", &v);
  ck_assert_double_eq_tol(v, 0, 1e-12);
  st_compiled_free(cm);
  cap_close(&c);
  st_flat_free(b.m);
}
END_TEST

/* One Coulomb element in the style of the MSL friction block, on the relative velocity and
 * acceleration given by vrel/arel (variables defined elsewhere). Returns the index of sf. */
static int coulomb(fb *b, const char *p, int vrel, int arel, int f, double f0, int *mode) {
  char n[64];
  snprintf(n, sizeof n, "%s.sa", p);
  int sa = fb_var(b, n, ST_V_CONTINUOUS, ST_T_REAL);
  snprintf(n, sizeof n, "%s.startFor", p);
  int sf = fb_var(b, n, ST_V_DISCRETE, ST_T_BOOLEAN);
  snprintf(n, sizeof n, "%s.startBack", p);
  int sb = fb_var(b, n, ST_V_DISCRETE, ST_T_BOOLEAN);
  snprintf(n, sizeof n, "%s.mode", p);
  int md = fb_var(b, n, ST_V_DISCRETE, ST_T_INTEGER);
  fb_start(b, sf, 0, 1);
  fb_start(b, sb, 0, 1);
  fb_start(b, md, 0, 1);
  fb_eq(b, V(b, sf), BIN(b, FOP_AND, BIN(b, FOP_EQ, PRE(b, md), N(b, 0)),
                         BIN(b, FOP_GT, V(b, sa), N(b, 1))));
  fb_eq(b, V(b, sb), BIN(b, FOP_AND, BIN(b, FOP_EQ, PRE(b, md), N(b, 0)),
                         BIN(b, FOP_LT, V(b, sa), N(b, -1))));
#define FWD BIN(b, FOP_OR, BIN(b, FOP_EQ, PRE(b, md), N(b, 1)), V(b, sf))
#define BWD BIN(b, FOP_OR, BIN(b, FOP_EQ, PRE(b, md), N(b, -1)), V(b, sb))
  fb_eq(b, V(b, f), IF(b, FWD, N(b, f0), IF(b, BWD, N(b, -f0), BIN(b, FOP_MUL, N(b, f0), V(b, sa)))));
  fb_eq(b, V(b, arel), IF(b, FWD, BIN(b, FOP_SUB, V(b, sa), N(b, 1)),
                          IF(b, BWD, BIN(b, FOP_ADD, V(b, sa), N(b, 1)), N(b, 0))));
  fb_eq(b, V(b, md), IF(b, BIN(b, FOP_AND, FWD, BIN(b, FOP_GT, V(b, vrel), N(b, 0))), N(b, 1),
                        IF(b, BIN(b, FOP_AND, BWD, BIN(b, FOP_LT, V(b, vrel), N(b, 0))),
                           N(b, -1), N(b, 0))));
#undef FWD
#undef BWD
  *mode = md;
  return sf;
}

/* Runs event passes like the runtime until no discrete changes (at most 20). */
static int event_iterate(const stiction_model *m, void *ud, double t, double *y, double *yp,
                         int initial) {
  for (int it = 0; it < 20; it++) {
    stiction_event_info info = {.initial = initial, .iteration = it};
    if (m->event_update(ud, t, y, yp, &info)) return -1;
    if (!info.discrete_changed) return it + 1;
  }
  return -1;
}

/* Two coupled Coulomb elements: A between mass 1 and the ground, B (weaker) between the
 * masses; a force step at t = 1 breaks A loose, which loads B beyond its limit: the mixed
 * system needs three fixed-point passes (all stuck -> A slides -> both slide). */
START_TEST(mixed_loop_two_coulomb_elements) {
  fb b = fb_new("TwoCoulomb");
  int v1 = fb_var(&b, "v1", ST_V_CONTINUOUS, ST_T_REAL);
  int v2 = fb_var(&b, "v2", ST_V_CONTINUOUS, ST_T_REAL);
  int vb = fb_var(&b, "vB", ST_V_CONTINUOUS, ST_T_REAL);
  int aa = fb_var(&b, "aA", ST_V_CONTINUOUS, ST_T_REAL);
  int ab = fb_var(&b, "aB", ST_V_CONTINUOUS, ST_T_REAL);
  int fa = fb_var(&b, "fA", ST_V_CONTINUOUS, ST_T_REAL);
  int fbv = fb_var(&b, "fB", ST_V_CONTINUOUS, ST_T_REAL);
  int u = fb_var(&b, "u", ST_V_CONTINUOUS, ST_T_REAL);
  fb_start(&b, v1, 0, 1);
  fb_start(&b, v2, 0, 1);
  fb_eq(&b, V(&b, u), IF(&b, BIN(&b, FOP_GE, TIME(&b), N(&b, 1)), N(&b, 5), N(&b, 0)));
  fb_eq(&b, V(&b, vb), BIN(&b, FOP_SUB, V(&b, v1), V(&b, v2)));
  fb_eq(&b, V(&b, aa), DER(&b, v1));
  fb_eq(&b, V(&b, ab), BIN(&b, FOP_SUB, DER(&b, v1), DER(&b, v2)));
  fb_eq(&b, DER(&b, v1), BIN(&b, FOP_SUB, BIN(&b, FOP_SUB, V(&b, u), V(&b, fa)), V(&b, fbv)));
  fb_eq(&b, DER(&b, v2), V(&b, fbv));
  int ma, mb;
  int sfa = coulomb(&b, "A", v1, aa, fa, 1.0, &ma);
  int sfb = coulomb(&b, "B", vb, ab, fbv, 0.3, &mb);
  capture c;
  st_compiled *cm = compile_ok(&b, &c);
  st_compile_info info;
  st_compiled_info(cm, &info);
  ck_assert_int_eq(info.n_mixed, 1);
  ck_assert_int_eq(info.n_time_relations, 1);
  const stiction_model *m = st_compiled_model(cm);
  void *ud = st_compiled_data(cm);
  double y[2], yp[2], f[2];
  ck_assert_int_eq(m->start_values(ud, 0, y, yp), 0);
  ck_assert_int_gt(event_iterate(m, ud, 0, y, yp, 1), 0);
  ck_assert_int_le(info.mixed_iterations_max, 1);
  /* the step is a time event at exactly 1 */
  stiction_event_info ti = {0};
  ck_assert_int_eq(m->event_update(ud, 0.5, y, yp, &ti), 0);
  ck_assert_int_eq(ti.next_time_defined, 1);
  ck_assert_double_eq(ti.next_time, 1);
  ck_assert_int_gt(event_iterate(m, ud, 1, y, yp, 0), 0);
  st_compiled_info(cm, &info);
  ck_assert_int_ge(info.mixed_iterations_max, 3);
  double d[8];
  m->get_discrete(ud, d);
  double va, vbb;
  st_compiled_value(cm, b.m->vars[sfa].name, &va);
  st_compiled_value(cm, b.m->vars[sfb].name, &vbb);
  ck_assert(va == 1 && vbb == 1);
  /* both slide: der(v2) = f0B/m2 = 0.3, der(v1) = 5 - 1 - 0.3 */
  ck_assert_int_eq(m->derivatives(ud, 1, y, f), 0);
  ck_assert_double_eq_tol(f[0], 3.7, 1e-12);
  ck_assert_double_eq_tol(f[1], 0.3, 1e-12);
  (void)ma;
  (void)mb;
  st_compiled_free(cm);
  cap_close(&c);
  st_flat_free(b.m);
}
END_TEST

/* At a state event the runtime names the indicators that crossed: a relation whose operands
 * are within rounding of the threshold takes the crossed side (the event's evaluation may put
 * an ideal diode's voltage -2e-10 at a root found at +1e-10; the diode stayed off). x = -3e-8
 * with `b = x > 0` crossed upwards: b becomes true; not told of the crossing, or far from the
 * threshold, it stays false. */
START_TEST(crossed_relation_takes_the_crossed_side) {
  const double at[3] = {-3e-8, -3e-8, -1e-3};
  const int told[3] = {1, 0, 1}, expect[3] = {1, 0, 0};
  for (int k = 0; k < 3; k++) {
    fb b = fb_new("Crossing");
    int x = fb_var(&b, "x", ST_V_CONTINUOUS, ST_T_REAL);
    int bv = fb_var(&b, "b", ST_V_DISCRETE, ST_T_BOOLEAN);
    fb_start(&b, x, -1, 1);
    fb_eq(&b, DER(&b, x), N(&b, 1));
    fb_eq(&b, V(&b, bv), BIN(&b, FOP_GT, V(&b, x), N(&b, 0)));
    capture c;
    st_compiled *cm = compile_ok(&b, &c);
    const stiction_model *m = st_compiled_model(cm);
    void *ud = st_compiled_data(cm);
    ck_assert_int_eq(m->n_indicators, 1);
    double y[1], yp[1], value;
    ck_assert_int_eq(m->start_values(ud, 0, y, yp), 0);
    ck_assert_int_gt(event_iterate(m, ud, 0, y, yp, 1), 0);
    y[0] = at[k];
    int crossed[1] = {0}, dir[1] = {1};
    stiction_event_info info = {.n_crossed = told[k], .crossed = crossed, .crossed_dir = dir};
    ck_assert_int_eq(m->event_update(ud, 1, y, yp, &info), 0);
    ck_assert_int_eq(st_compiled_value(cm, "b", &value), 0);
    ck_assert_msg(value == expect[k], "case %d: b = %g", k, value);
    st_compiled_free(cm);
    cap_close(&c);
    st_flat_free(b.m);
  }
}
END_TEST

/* Errors must name the equations/variables with their locations and compile nothing. */
static void expect_error(fb *b, const char *const *needles, int n) {
  capture c;
  cap_open(&c);
  st_compiled *cm = st_compile(b->m, c.d);
  const char *text = cap_text(&c);
  ck_assert_msg(cm == NULL, "compiled a bad model");
  ck_assert_int_gt(st_diag_errors(c.d), 0);
  for (int i = 0; i < n; i++)
    ck_assert_msg(strstr(text, needles[i]) != NULL, "missing '%s' in:\n%s", needles[i], text);
  cap_close(&c);
  st_flat_free(b->m);
}

START_TEST(structurally_singular) {
  fb b = fb_new("S");
  int y = fb_var(&b, "y", ST_V_CONTINUOUS, ST_T_REAL);
  int z = fb_var(&b, "z", ST_V_CONTINUOUS, ST_T_REAL); /* declared on line 3 */
  fb_eq(&b, V(&b, y), N(&b, 1));
  int l2 = fb_eq(&b, BIN(&b, FOP_MUL, N(&b, 2), V(&b, y)), N(&b, 2));
  (void)z;
  char loc[64];
  snprintf(loc, sizeof loc, "test.mo:%d:3: note: this equation", l2);
  const char *want[] = {"test.mo:1:1: error: the model is structurally singular: 2 equations "
                        "for 2 unknowns", loc, "test.mo:3:3: note: no equation determines 'z'"};
  expect_error(&b, want, 3);
}
END_TEST

START_TEST(over_determined) {
  fb b = fb_new("O");
  int y = fb_var(&b, "y", ST_V_CONTINUOUS, ST_T_REAL);
  fb_eq(&b, V(&b, y), N(&b, 1));
  int l2 = fb_eq(&b, V(&b, y), N(&b, 2));
  char loc[64];
  snprintf(loc, sizeof loc, "test.mo:%d:3: note: this equation is not needed", l2);
  const char *want[] = {"error: the model is over-determined: 2 equations for 1 unknowns", loc};
  expect_error(&b, want, 2);
}
END_TEST

START_TEST(initial_system_count_and_no_solution) {
  /* over-determined: x fixed and an initial equation for it */
  fb b = fb_new("I");
  int x = fb_var(&b, "x", ST_V_CONTINUOUS, ST_T_REAL);
  fb_start(&b, x, 1, 1);
  fb_eq(&b, DER(&b, x), UN(&b, FOP_NEG, V(&b, x)));
  int li = fb_initial(&b, V(&b, x), N(&b, 2));
  char loc[96];
  snprintf(loc, sizeof loc, "test.mo:%d:3: error: the initial system is over-determined", li);
  const char *want[] = {loc, "test.mo:2:3: note: 'x' has fixed = true"};
  expect_error(&b, want, 2);
  /* no real solution: x*x = -1 */
  fb b2 = fb_new("I2");
  x = fb_var(&b2, "x", ST_V_CONTINUOUS, ST_T_REAL);
  fb_start(&b2, x, 1, 0);
  fb_eq(&b2, DER(&b2, x), UN(&b2, FOP_NEG, V(&b2, x)));
  li = fb_initial(&b2, BIN(&b2, FOP_MUL, V(&b2, x), V(&b2, x)), N(&b2, -1));
  capture c;
  st_compiled *cm = compile_ok(&b2, &c);
  double y[1], yp[1];
  ck_assert_int_ne(st_compiled_model(cm)->start_values(st_compiled_data(cm), 0, y, yp), 0);
  snprintf(loc, sizeof loc, "test.mo:%d:3: error: the initial system has no solution", li);
  ck_assert_msg(strstr(cap_text(&c), loc) != NULL, "%s", cap_text(&c));
  st_compiled_free(cm);
  cap_close(&c);
  st_flat_free(b2.m);
}
END_TEST

/* b1 = not b2, b2 = b1 has no consistent solution: the fixed-point iteration cycles, the
 * exhaustive search finds nothing, the error names the elements. */
START_TEST(event_iteration_cycle) {
  fb b = fb_new("Cycle");
  int x = fb_var(&b, "x", ST_V_CONTINUOUS, ST_T_REAL);
  int b1 = fb_var(&b, "b1", ST_V_DISCRETE, ST_T_BOOLEAN);
  int b2 = fb_var(&b, "b2", ST_V_DISCRETE, ST_T_BOOLEAN);
  fb_start(&b, x, 0, 1);
  fb_eq(&b, DER(&b, x), N(&b, 1));
  int l1 = fb_eq(&b, V(&b, b1), UN(&b, FOP_NOT, V(&b, b2)));
  int l2 = fb_eq(&b, V(&b, b2), BIN(&b, FOP_AND, V(&b, b1), BIN(&b, FOP_GT, V(&b, x), N(&b, -1))));
  capture c;
  st_compiled *cm = compile_ok(&b, &c);
  const stiction_model *m = st_compiled_model(cm);
  double y[1], yp[1];
  ck_assert_int_eq(m->start_values(st_compiled_data(cm), 0, y, yp), -1);
  char loc[128];
  snprintf(loc, sizeof loc, "test.mo:%d:3: error: initialization failed: mixed system has no "
           "consistent solution at time 0: ", l1);
  const char *hit = strstr(cap_text(&c), loc);
  if (!hit) {
    snprintf(loc, sizeof loc, "test.mo:%d:3: error: initialization failed: mixed system has no "
             "consistent solution at time 0: ", l2);
    hit = strstr(cap_text(&c), loc);
  }
  ck_assert_msg(hit != NULL, "%s", cap_text(&c));
  hit += strlen(loc);
  ck_assert(strncmp(hit, "b1, b2", 6) == 0 || strncmp(hit, "b2, b1", 6) == 0);
  st_compiled_free(cm);
  cap_close(&c);
  st_flat_free(b.m);
}
END_TEST

/* Singular consistent systems (minnorm.c): x0 + x1 = 3 (twice) and x2 = x0 + 1 leave the
 * direction (1, -1, 1) open. Minimum norm: least x0^2 + x1^2 + x2^2, x0 = 2/3, x1 = 7/3,
 * x2 = 5/3; with x0 and x1 selected (the compared unknowns of a mixed block): least
 * x0^2 + x1^2, x0 = x1 = 3/2, x2 = 5/2; nearest a target of theirs; the null direction. */
START_TEST(min_norm_over_selected_unknowns) {
  const double A0[9] = {1, -1, 2, 1, 0, 2, 0, 1, 0}; /* column-major rows (1 1 0; -1 0 1; 2 2 0) */
  double A[9], b[3] = {3, 1, 6};
  memcpy(A, A0, sizeof A);
  ck_assert_int_eq(st_min_norm_solve(A, 3, b), 0);
  ck_assert_double_eq_tol(b[0], 2.0 / 3, 1e-12);
  ck_assert_double_eq_tol(b[1], 7.0 / 3, 1e-12);
  ck_assert_double_eq_tol(b[2], 5.0 / 3, 1e-12);
  const unsigned char sel[3] = {1, 1, 0};
  double c[3] = {3, 1, 6};
  memcpy(A, A0, sizeof A);
  ck_assert_int_eq(st_min_norm_solve_sel(A, 3, c, sel), 0);
  ck_assert_double_eq_tol(c[0], 1.5, 1e-12);
  ck_assert_double_eq_tol(c[1], 1.5, 1e-12);
  ck_assert_double_eq_tol(c[2], 2.5, 1e-12);
  /* nearest (x0, x1) = (2, 0) instead: t = 11/6 along (1, -1, 1) from the minimum norm */
  const double target[3] = {2, 0, 0};
  double d[3] = {3, 1, 6};
  memcpy(A, A0, sizeof A);
  ck_assert_int_eq(st_min_norm_solve_toward(A, 3, d, sel, target), 0);
  ck_assert_double_eq_tol(d[0], 2.5, 1e-12);
  ck_assert_double_eq_tol(d[1], 0.5, 1e-12);
  ck_assert_double_eq_tol(d[2], 3.5, 1e-12);
  /* the one null direction, up to its sign */
  double v[3];
  memcpy(A, A0, sizeof A);
  ck_assert_int_eq(st_null_direction(A, 3, v), 1);
  double s = v[0] > 0 ? 1 : -1, r3 = 1 / sqrt(3.0);
  ck_assert_double_eq_tol(s * v[0], r3, 1e-12);
  ck_assert_double_eq_tol(s * v[1], -r3, 1e-12);
  ck_assert_double_eq_tol(s * v[2], r3, 1e-12);
}
END_TEST

/* Superinstructions (peephole.c) keep value and tangent: x0 + (if x1 then x2*3 else x3) / x2
 * - 2 has a jump landing on a load followed by ADD, which must not be fused, and fusable
 * pairs on both sides of it. Checked against the closed form, before and after fusion. */
START_TEST(fused_programs_keep_values_and_tangents) {
  st_prog p = {0};
  ck_assert_int_eq(st_prog_emit(&p, OP_LOAD, 0, 0), 0);
  ck_assert_int_eq(st_prog_emit(&p, OP_LOAD, 1, 0), 0);
  ck_assert_int_eq(st_prog_emit(&p, OP_JZ, 0, 0), 0);
  ck_assert_int_eq(st_prog_emit(&p, OP_LOAD, 2, 0), 0);
  ck_assert_int_eq(st_prog_emit(&p, OP_CONST, 0, 3.0), 0);
  ck_assert_int_eq(st_prog_emit(&p, OP_MUL, 0, 0), 0);
  ck_assert_int_eq(st_prog_emit(&p, OP_JMP, 0, 0), 0);
  p.code[2].arg = st_prog_here(&p);
  ck_assert_int_eq(st_prog_emit(&p, OP_LOAD, 3, 0), 0);
  p.code[6].arg = st_prog_here(&p); /* the jump lands on ADD, after the load of x3 */
  ck_assert_int_eq(st_prog_emit(&p, OP_ADD, 0, 0), 0);
  ck_assert_int_eq(st_prog_emit(&p, OP_LOAD, 2, 0), 0);
  ck_assert_int_eq(st_prog_emit(&p, OP_DIV, 0, 0), 0);
  ck_assert_int_eq(st_prog_emit(&p, OP_CONST, 0, 2.0), 0);
  ck_assert_int_eq(st_prog_emit(&p, OP_SUB, 0, 0), 0);
  double x[4] = {1.5, 1, 4, -7}, xd[4] = {0, 0, 1, 0}, stack[16], dstack[16];
  st_vm vm = {.x = x, .xd = xd, .stack = stack, .dstack = dstack};
  for (int pass = 0; pass < 2; pass++) {
    for (int branch = 0; branch < 2; branch++) {
      x[1] = branch;
      double dot, v = st_vm_eval_dual(&vm, &p, &dot);
      /* then: (x0 + 3 x2)/x2 - 2 = x0/x2 + 1, d/dx2 = -x0/x2^2;
       * else: (x0 + x3)/x2 - 2, d/dx2 = -(x0 + x3)/x2^2 */
      double num = branch ? x[0] + 3 * x[2] : x[0] + x[3];
      ck_assert_double_eq_tol(v, num / x[2] - 2, 1e-15);
      ck_assert_double_eq_tol(st_vm_eval(&vm, &p), num / x[2] - 2, 1e-15);
      ck_assert_double_eq_tol(dot, (branch ? -x[0] : -(x[0] + x[3])) / (x[2] * x[2]), 1e-15);
    }
    if (pass == 0) {
      ck_assert_int_eq(st_prog_fuse(&p), 0);
      ck_assert_int_eq(p.n, 10); /* LOAD x2,CONST 3,MUL -> LOAD,MULK; /x2 and -2 fused */
    }
  }
  st_prog_free(&p);
}
END_TEST

/* Built-ins are written once (front/flat_expr.h's table): the model machine's st_fn1/st_fn2 give
 * its values bit for bit, and derivative factors that match central differences where the
 * function is smooth; a built-in outside the table is NaN, not a pass-through. */
START_TEST(builtins_one_table_values_and_derivatives) {
  static const int one[] = {FB_ABS, FB_SQRT, FB_SIN, FB_COS, FB_TAN, FB_ASIN, FB_ACOS, FB_ATAN,
                            FB_SINH, FB_COSH, FB_TANH, FB_EXP, FB_LOG, FB_LOG10, FB_SIGN,
                            FB_FLOOR, FB_CEIL, FB_INTEGER, FB_NOEVENT};
  static const double at[] = {0.3, 0.55, 0.9};
  for (size_t i = 0; i < sizeof one / sizeof one[0]; i++)
    for (size_t j = 0; j < sizeof at / sizeof at[0]; j++) {
      double a = at[j], want, d, h = 1e-6, lo, hi, dl, dh;
      ck_assert_int_eq(st_fx_apply_builtin1((st_builtin)one[i], a, &want), 0);
      double v = st_fn1(one[i], a, &d);
      ck_assert_msg(memcmp(&v, &want, sizeof v) == 0, "builtin %d value", one[i]);
      lo = st_fn1(one[i], a - h, &dl);
      hi = st_fn1(one[i], a + h, &dh);
      ck_assert_msg(fabs(d - (hi - lo) / (2 * h)) < 1e-6 * (1 + fabs(d)), "builtin %d at %g: %g",
                    one[i], a, d);
    }
  static const int two[] = {FB_ATAN2, FB_MIN, FB_MAX, FB_MOD, FB_REM, FB_DIV, FB_HOMOTOPY};
  for (size_t i = 0; i < sizeof two / sizeof two[0]; i++) {
    double x = 0.7, y = 0.3, want, dx, dy, h = 1e-6, t1, t2;
    ck_assert_int_eq(st_fx_apply_builtin2((st_builtin)two[i], x, y, &want), 0);
    double v = st_fn2(two[i], x, y, &dx, &dy);
    ck_assert_msg(memcmp(&v, &want, sizeof v) == 0, "builtin %d value", two[i]);
    double px = (st_fn2(two[i], x + h, y, &t1, &t2) - st_fn2(two[i], x - h, y, &t1, &t2)) /
                (2 * h);
    ck_assert_msg(fabs(dx - px) < 1e-6, "builtin %d d/dx %g vs %g", two[i], dx, px);
  }
  double d;
  ck_assert(isnan(st_fn1(FB_PRE, 1.0, &d)));
  ck_assert(isnan(st_fn2(FB_SAMPLE, 1.0, 2.0, &d, &d)));
}
END_TEST

/* NestedArrayCalls.mo's and DeepArrayCalls.mo's mix() on u (n elements, n <= 8) into y. */
static void mix(int n, const double *u, double *y) {
  for (int i = 0; i < n; i++) y[i] = 0.5 * u[n - 1 - i] + 0.1 * (i + 1) + 0.01 * sin(u[i]);
}

static void mix_times(int n, int times, const double *u, double *y) {
  double t[8];
  memcpy(y, u, (size_t)n * sizeof *y);
  for (int k = 0; k < times; k++) {
    memcpy(t, y, (size_t)n * sizeof *y);
    mix(n, t, y);
  }
}

/* The OP_CALLs of cm's equation programs (assignments and residuals). */
static int program_calls(const st_compiled *cm) {
  int calls = 0;
  for (int k = 0; k < cm->nblocks; k++) {
    const st_block *b = &cm->blocks[k];
    int np = b->kind == BK_ASSIGN ? 1 : b->kind == BK_SOLVE ? b->n : 0;
    for (int i = 0; i < np; i++) {
      const st_prog *p = b->kind == BK_ASSIGN ? &b->assign : &b->res[i];
      for (int j = 0; j < p->n; j++) calls += p->code[j].op == OP_CALL;
    }
  }
  return calls;
}

/* Calls of an array function nested five deep: each argument's elements come from one
 * evaluation of the inner call's arguments (a replay site per further element), so the
 * programs hold a few calls per level where they held 6^depth (9,588 OP_CALLs here before);
 * values and the Newton tangents through the replays are those of the closed form. */
START_TEST(nested_array_calls_grow_linearly) {
  compiled_file c = compile_file("NestedArrayCalls.mo", "NestedArrayCalls");
  st_compiled *cm = c.cm;
  int calls = 0, code = 0;
  const st_block *loop = NULL;
  for (int k = 0; k < cm->nblocks; k++) {
    const st_block *b = &cm->blocks[k];
    int np = b->kind == BK_ASSIGN ? 1 : b->kind == BK_SOLVE ? b->n : 0;
    if (b->kind == BK_SOLVE) loop = b;
    for (int i = 0; i < np; i++) {
      const st_prog *p = b->kind == BK_ASSIGN ? &b->assign : &b->res[i];
      code += p->n;
      for (int j = 0; j < p->n; j++) calls += p->code[j].op == OP_CALL;
    }
  }
  /* z: 6 equations of 5 levels of 6 elements; w: 6 residuals of 3 levels */
  ck_assert_msg(calls <= 6 * 6 * (5 + 3), "%d calls", calls);
  ck_assert_msg(code <= 40 * 6 * (5 + 3), "%d instructions", code);
  double y[6], f[6], x0[6] = {1, 2, 3, 4, 5, 6}, z[6], w[6], mw[6];
  const stiction_model *mod = st_compiled_model(cm);
  double yp[6];
  ck_assert_int_eq(mod->start_values(st_compiled_data(cm), 0, y, yp), 0);
  ck_assert_int_eq(mod->derivatives(st_compiled_data(cm), 0, y, f), 0);
  mix_times(6, 5, x0, z);
  for (int i = 0; i < 6; i++) {
    char name[16];
    ck_assert_double_eq_tol(f[i], -z[i], 1e-14);
    snprintf(name, sizeof name, "w[%d]", i + 1);
    ck_assert_int_eq(st_compiled_value(cm, name, &w[i]), 0);
  }
  mix_times(6, 3, w, mw);
  for (int i = 0; i < 6; i++) ck_assert_double_eq_tol(w[i] + mw[i], x0[i], 1e-9);
  /* the loop's residual tangents along all of w against central differences */
  ck_assert_ptr_nonnull(loop);
  double *xd = calloc((size_t)cm->p.nslots, sizeof *xd), *keep = cm->vm.xd;
  for (int j = 0; j < loop->n; j++) xd[loop->slots[j]] = 1 + 0.25 * j;
  cm->vm.xd = xd;
  for (int i = 0; i < loop->n; i++) {
    double dot, h = 1e-6, v[2];
    st_vm_eval_dual(&cm->vm, &loop->res[i], &dot);
    for (int side = 0; side < 2; side++) {
      for (int j = 0; j < loop->n; j++) cm->vm.x[loop->slots[j]] += (side ? -2 : 1) * h * xd[loop->slots[j]];
      v[side] = st_vm_eval(&cm->vm, &loop->res[i]);
    }
    for (int j = 0; j < loop->n; j++) cm->vm.x[loop->slots[j]] += h * xd[loop->slots[j]];
    ck_assert_double_eq_tol(dot, (v[0] - v[1]) / (2 * h), 1e-7);
  }
  cm->vm.xd = keep;
  free(xd);
  compiled_file_free(&c);
}
END_TEST

/* Whole-call arguments (value 0: all of an array output, as the front end passes them)
 * expanded into the arrays of their n element calls, which share the call's arguments, as
 * a saved flat model may hold them; from[] maps each call to its array (the calls are
 * shared). The nodes made here are malloc'd and listed in made[]. */
typedef struct expand_map {
  st_fexpr *from[64], *to[64], *made[1024];
  int n, nmade, width;
} expand_map;

static st_fexpr *made_node(expand_map *m, st_fexpr_kind kind, int nargs, const st_fexpr *like) {
  ck_assert_int_lt(m->nmade, 1024);
  st_fexpr *e = calloc(1, sizeof *e);
  ck_assert_ptr_nonnull(e);
  e->kind = kind;
  e->nargs = nargs;
  e->index = like->index;
  e->loc = like->loc;
  e->args = calloc((size_t)nargs + 1, sizeof *e->args);
  ck_assert_ptr_nonnull(e->args);
  return m->made[m->nmade++] = e;
}

static st_fexpr *expand(expand_map *m, st_fexpr *e, int is_arg) {
  for (int i = 0; i < m->nmade; i++)
    if (m->made[i] == e) return e;
  for (int i = 0; i < m->n; i++)
    if (m->from[i] == e) return m->to[i];
  if (!is_arg || e->kind != FX_CALL || e->value != 0) {
    for (int i = 0; i < e->nargs; i++) e->args[i] = expand(m, e->args[i], e->kind == FX_CALL);
    return e;
  }
  st_fexpr *arr = made_node(m, FX_ARRAY, m->width, e), *first = NULL;
  for (int k = 0; k < m->width; k++) {
    st_fexpr *c = arr->args[k] = made_node(m, FX_CALL, e->nargs, e);
    c->value = k + 1;
    for (int i = 0; i < e->nargs; i++) c->args[i] = first ? first->args[i] : expand(m, e->args[i], 1);
    first = first ? first : c;
  }
  ck_assert_int_lt(m->n, 64);
  m->from[m->n] = e;
  m->to[m->n++] = arr;
  return arr;
}

/* The nesting as a saved flat model may write it, each argument the array of the inner
 * call's element calls: those elements too are one call and replays of its arguments, with
 * the same values. */
START_TEST(whole_array_call_arguments_are_evaluated_once) {
  compiled_file c = compile_file("NestedArrayCalls.mo", "NestedArrayCalls");
  double y[6], yp[6], f[6], g[6];
  const stiction_model *mod = st_compiled_model(c.cm);
  ck_assert_int_eq(mod->start_values(st_compiled_data(c.cm), 0, y, yp), 0);
  ck_assert_int_eq(mod->derivatives(st_compiled_data(c.cm), 0, y, f), 0);
  expand_map map = {.n = 0, .width = 6};
  for (int i = 0; i < c.m->equations.n; i++) {
    st_feq *q = c.m->equations.items[i];
    if (q->rhs) q->rhs = expand(&map, q->rhs, 0);
    if (q->lhs) q->lhs = expand(&map, q->lhs, 0);
  }
  /* the front end passed each inner call whole: z's four, w's two */
  ck_assert_int_eq(map.n, 4 + 2);
  st_compiled *cm = st_compile(c.m, c.diag);
  ck_assert_msg(cm != NULL, "%s", st_diag_first_error(c.diag));
  int calls = program_calls(cm);
  ck_assert_msg(calls <= 6 * 6 * (5 + 3), "%d calls", calls);
  const stiction_model *mod2 = st_compiled_model(cm);
  ck_assert_int_eq(mod2->start_values(st_compiled_data(cm), 0, y, yp), 0);
  ck_assert_int_eq(mod2->derivatives(st_compiled_data(cm), 0, y, g), 0);
  for (int i = 0; i < 6; i++) ck_assert(f[i] == g[i]);
  st_compiled_free(cm);
  compiled_file_free(&c);
  for (int i = 0; i < map.nmade; i++) {
    free(map.made[i]->args);
    free(map.made[i]);
  }
}
END_TEST

/* The nodes of e walked as a tree, as the passes before emit walk it, up to cap. */
static long tree_nodes(const st_fexpr *e, long cap) {
  long n = 1;
  for (int i = 0; e && i < e->nargs && n < cap; i++) n += tree_nodes(e->args[i], cap - n);
  return n;
}

/* Array calls nested twelve deep on 8-vectors: each argument is the inner call, whole, so
 * the flat equations hold a chain of 12 calls each where the element calls made a tree of
 * 8^12 (compile time had doubled with each level: 7 s at depth 7); the programs are a call
 * and 7 replays per level, and the values those of the closed form. */
START_TEST(deep_array_calls_translate_linearly) {
  compiled_file c = flatten_file("DeepArrayCalls.mo", "DeepArrayCalls");
  long nodes = 0;
  for (int i = 0; i < c.m->equations.n; i++) {
    const st_feq *q = c.m->equations.items[i];
    nodes += tree_nodes(q->lhs, 1000000) + tree_nodes(q->rhs, 1000000);
  }
  /* z[i] = 12 calls on {x[1], ..., x[8]}: 8 equations of 22 nodes; der(x[i]) = -z[i]: 8 of 4 */
  ck_assert_msg(nodes <= 8 * (1 + 12 + 1 + 8) + 8 * 4, "%ld nodes", nodes);
  ck_assert_msg((c.cm = st_compile(c.m, c.diag)) != NULL, "%s", st_diag_first_error(c.diag));
  int calls = program_calls(c.cm);
  ck_assert_msg(calls <= 8 * 8 * 12, "%d calls", calls);
  double y[8], yp[8], f[8], x0[8] = {1, 2, 3, 4, 5, 6, 7, 8}, z[8];
  const stiction_model *mod = st_compiled_model(c.cm);
  ck_assert_int_eq(mod->start_values(st_compiled_data(c.cm), 0, y, yp), 0);
  ck_assert_int_eq(mod->derivatives(st_compiled_data(c.cm), 0, y, f), 0);
  mix_times(8, 12, x0, z);
  for (int i = 0; i < 8; i++) ck_assert_double_eq_tol(f[i], -z[i], 1e-13);
  compiled_file_free(&c);
}
END_TEST

/* The hidden-constraint elimination (constraints.c) builds its rows only where some
 * combination of equations could leave states only: in the two chains every equation is
 * removed through an unknown no other remaining equation reads (ArrayChain needs no index
 * reduction, ComponentChain's equations after it are an assignment chain), so no row is
 * built; FloatingNetwork's node equations share all their unknowns, so it is built and
 * finds L1.i + L2.i = 0 (one of the two currents is no state). */
START_TEST(hidden_constraints_only_where_equations_combine) {
  const char *chains[][2] = {{"ArrayChain.mo", "ArrayChain"},
                             {"ComponentChain.mo", "ComponentChain"},
                             {"SparseLoopFrozen.mo", "SparseLoopFrozen"}};
  st_compile_info info;
  /* the loop's equations read no state at all (its rows grew around the cycle: 1.3 GB at
   * N = 10^4) */
  for (int k = 0; k < 3; k++) {
    compiled_file c = compile_file(chains[k][0], chains[k][1]);
    st_compiled_info(c.cm, &info);
    ck_assert_msg(info.hc_skipped == 1 && info.hc_rows == 0, "%s: skipped %d, rows %d",
                  chains[k][1], info.hc_skipped, info.hc_rows);
    compiled_file_free(&c);
  }
  compiled_file c = compile_file("FloatingNetwork.mo", "FloatingNetwork");
  st_compiled_info(c.cm, &info);
  ck_assert_int_eq(info.hc_skipped, 0);
  ck_assert_int_gt(info.hc_rows, 0);
  ck_assert_int_eq(info.n_states, 4); /* L1.i, cap.v, iRef, vRef: not L2.i */
  compiled_file_free(&c);
}
END_TEST

/* Most blocks of a large model are one-unknown assignments (ComponentChain: all of them):
 * such a block holds its slot and equation in one array, no discrete arrays and no cached
 * factors, and the block itself keeps its flags in bytes (352 bytes each before). The
 * linear loops of LoopChain, with coefficients frozen between events, get their factors. */
START_TEST(assignment_blocks_are_small) {
  ck_assert_uint_le(sizeof(st_block), 256);
  compiled_file c = compile_file("ComponentChain.mo", "ComponentChain");
  int assigns = 0;
  for (int k = 0; k < c.cm->nblocks; k++) {
    const st_block *b = &c.cm->blocks[k];
    if (b->kind != BK_ASSIGN) continue;
    assigns++;
    ck_assert_ptr_eq(b->eqs, b->slots + 1);
    ck_assert_ptr_null(b->dslots);
    ck_assert_ptr_null(b->fac);
  }
  ck_assert_int_eq(assigns, c.cm->nblocks);
  compiled_file_free(&c);
  c = compile_file("LoopChain.mo", "LoopChain");
  int factored = 0;
  for (int k = 0; k < c.cm->nblocks; k++) {
    const st_block *b = &c.cm->blocks[k];
    ck_assert(!b->const_jac == !b->fac);
    factored += b->fac != NULL;
  }
  ck_assert_int_gt(factored, 0);
  compiled_file_free(&c);
}
END_TEST

ST_TEST_MAIN("compile", "compile", 0,
             parameters_chain_and_explicit_derivative, fused_programs_keep_values_and_tangents,
             linear_algebraic_loop, large_sparse_loop_uses_klu,
             large_sparse_loop_has_no_dense_scratch, frozen_sparse_loop_factored_by_klu,
             singular_sparse_loop_grows_dense_matrix, block_reads_listed_once,
             sole_instance_runs_like_any_instance, nominal_values_of_states,
             zero_parameter_factor_is_no_divisor,
             initial_algorithm_parameter_is_no_unknown, initial_system_singular_and_large_scale,
             structural_zeros_are_no_states, structural_zeros_through_function_bodies,
             structural_zeros_keep_a_der_read_elsewhere,
             structural_zeros_through_constant_arguments,
             structural_zero_calls_share_one_analysis,
             record_call_parameters_share_arguments_and_emission, nonlinear_algebraic_loop,
             mixed_loop_two_coulomb_elements, crossed_relation_takes_the_crossed_side,
             structurally_singular, over_determined, initial_system_count_and_no_solution,
             event_iteration_cycle, min_norm_over_selected_unknowns,
             builtins_one_table_values_and_derivatives, nested_array_calls_grow_linearly,
             whole_array_call_arguments_are_evaluated_once, deep_array_calls_translate_linearly,
             hidden_constraints_only_where_equations_combine, assignment_blocks_are_small)
