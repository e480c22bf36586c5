/* The structure of df/dy that the compiler gives the runtime (src/compile/pattern.c): every
 * dependency a difference quotient finds at the start point must be in the pattern (a
 * missing one would make the grouped Jacobian wrong), the diagonal is there, and a chain
 * stays sparse. Models: the MSL CoupledClutches (sliding and stuck clutches, a mixed
 * system), the index-reduced rigid and geared inertias, a nonlinear loop, the friction block
 * and the Burridge-Knopoff chain with its blocks coupled; and the KLU path with the pattern
 * against the dense one. */
#include <check.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <stiction/stiction.h>

#include "compile/compile.h"
#include "compile/model_impl.h"
#include "front/front.h"
#include "testutil.h"

typedef struct compiled {
  st_diag *diag;
  st_front *fe;
  st_flat_model *flat;
  st_compiled *cm;
} compiled;

static void compile(compiled *c, const char *file, const char *cls, const char *mod) {
  memset(c, 0, sizeof *c);
  c->diag = st_diag_new(stderr);
  c->fe = st_front_new(c->diag);
  ck_assert_int_eq(st_front_add_library_path(c->fe, st_test_src("models")), 0);
  st_front_add_default_paths(c->fe);
  if (file) ck_assert_int_eq(st_front_load_file(c->fe, st_test_src(file)), 0);
  const char *name = cls ? cls : st_front_default_class(c->fe);
  const char *mods[] = {mod};
  c->flat = st_front_flatten_modified(c->fe, name, mods, mod ? 1 : 0, "test");
  ck_assert_ptr_nonnull(c->flat);
  c->cm = st_compile(c->flat, c->diag);
  ck_assert_ptr_nonnull(c->cm);
}

static void release(compiled *c) {
  st_compiled_free(c->cm);
  st_flat_free(c->flat);
  st_front_free(c->fe);
  st_diag_free(c->diag);
}

static int in_pattern(const stiction_model *m, int i, int j) {
  for (int k = m->ode_jac_cols[j]; k < m->ode_jac_cols[j + 1]; k++)
    if (m->ode_jac_rows[k] == i) return 1;
  return 0;
}

/* Checks the pattern against column-by-column differences at the start point; returns nnz. */
static int check_pattern(const char *file, const char *cls, const char *mod) {
  compiled c;
  compile(&c, file, cls, mod);
  const stiction_model *m = st_compiled_model(c.cm);
  void *ud = st_compiled_data(c.cm);
  int n = m->n_states;
  ck_assert_ptr_nonnull(m->ode_jac_cols);
  double *y = calloc((size_t)n, sizeof *y), *yp = calloc((size_t)n, sizeof *yp);
  double *f0 = calloc((size_t)n, sizeof *f0), *f1 = calloc((size_t)n, sizeof *f1);
  ck_assert_int_eq(m->start_values(ud, 0.0, y, yp), 0);
  ck_assert_int_eq(m->derivatives(ud, 0.0, y, f0), 0);
  for (int j = 0; j < n; j++) {
    ck_assert_msg(in_pattern(m, j, j), "%s: no diagonal entry %d", m->name, j);
    double yj = y[j];
    y[j] += 1e-6 * (1 + fabs(yj));
    ck_assert_int_eq(m->derivatives(ud, 0.0, y, f1), 0);
    y[j] = yj;
    /* a change at rounding level is not a dependency: linear blocks solved by one Newton
     * step from the previous values reproduce their solution only to the last bits */
    for (int i = 0; i < n; i++) {
      ck_assert_msg(fabs(f1[i] - f0[i]) <= 1e-12 * (1 + fabs(f0[i])) || in_pattern(m, i, j),
                    "%s: der(%s) depends on %s but the pattern says not", m->name,
                    m->state_names[i], m->state_names[j]);
    }
  }
  int nnz = m->ode_jac_cols[n];
  free(y), free(yp), free(f0), free(f1);
  release(&c);
  return nnz;
}

START_TEST(pattern_holds_every_dependency) {
  check_pattern(NULL, "Modelica.Mechanics.Rotational.Examples.CoupledClutches", NULL);
  check_pattern("tests/data/compile/TwoInertiasRigid.mo", NULL, NULL);
  check_pattern("tests/data/compile/GearInertias.mo", NULL, NULL);
  check_pattern("tests/data/compile/NonlinearLoop.mo", NULL, NULL);
  check_pattern("tests/data/compile/FrictionBlock.mo", NULL, NULL);
}
END_TEST

/* Blocks of the chain that are stuck at t = 0 hide their spring forces (a = 0); with the
 * start moved past the first slip (x0 = 0.8 puts the plate spring force above the static
 * limit 1 only for the blocks that the ramp pushes) the slipping ones must show them. */
START_TEST(chain_is_sparse) {
  int nnz = check_pattern(NULL, "Stiction.Examples.BurridgeKnopoff",
                          "N = 8, x0 = {-1.5 + 0.1*i for i in 1:8}");
  /* 16 states: der(x_i) = v_i, der(v_i) reads x_{i-1}, x_i, x_{i+1}, v_i: at most 5 per
   * pair of rows plus the diagonal, far below the 256 entries of a dense matrix */
  ck_assert_msg(nnz <= 16 + 8 * 4, "nnz = %d", nnz);
}
END_TEST

/* The integers the dependency sets of a component chain of n masses take. */
static long chain_sets(int n) {
  char mod[32];
  snprintf(mod, sizeof mod, "N = %d", n);
  check_pattern("tests/data/compile/ComponentChain.mo", NULL, mod);
  compiled c;
  compile(&c, "tests/data/compile/ComponentChain.mo", NULL, mod);
  long sets = c.cm->p.jac_sets;
  release(&c);
  return sets;
}

/* The positions of a chain of components depend on all states before them but feed no
 * derivative: their sets must not be built (N^2/2 integers: 10^4 masses took 600 MB). Twice
 * the masses, about twice the work; with every position's set it is 3.6 times. */
START_TEST(component_chain_sets_grow_linearly) {
  long s40 = chain_sets(40), s80 = chain_sets(80);
  ck_assert_msg(s40 > 0 && s80 <= 2.2 * (double)s40, "sets: %ld at N = 40, %ld at N = 80", s40,
                s80);
}
END_TEST

/* The compiler arena's bytes (program tables, blocks, programs' trees) of a component chain
 * of n masses. */
static double chain_arena(int n) {
  char mod[32];
  snprintf(mod, sizeof mod, "N = %d", n);
  compiled c;
  compile(&c, "tests/data/compile/ComponentChain.mo", NULL, mod);
  double used = (double)st_arena_used(c.cm->p.arena);
  release(&c);
  return used;
}

/* What one Mass + SpringDamper adds to the compiler's arena (issue 18: 10^5 of them must
 * translate in bounded memory). 14.6 KB before the value arrays moved to the heap (each
 * regrowth after index reduction left the first ones in the arena, 1.3 KB) and before
 * st_block shrank from 352 to 256 bytes (11 blocks, 1.3 KB); 10.0 KB after. */
START_TEST(component_chain_compiler_arena_per_component) {
  double per = (chain_arena(120) - chain_arena(60)) / 60 / 1024;
  ck_assert_msg(per < 10.8, "%.2f KB per component", per);
}
END_TEST

/* The last result row of a run (a sink). */
typedef struct last_row {
  int n;
  double v[64];
} last_row;

static int keep_begin(void *ud, int ncols, const char *const *names) {
  (void)names;
  ((last_row *)ud)->n = ncols < 64 ? ncols : 64;
  return 0;
}

static int keep_row(void *ud, const double *v) {
  last_row *l = ud;
  memcpy(l->v, v, sizeof(double) * (size_t)l->n);
  return 0;
}

/* Twenty thousand decays in one array and one for-loop (the shape of issue 18's reproducer
 * of a pattern built through dense bit sets, states^2 of time and memory): the pattern is
 * the diagonal, its sets take a few integers per state, and the run on KLU with it gives
 * x[i](1) = exp(-i/N). Bounded by counts, not by a clock. */
START_TEST(wide_array_pattern_is_diagonal) {
  enum { N = 20000 };
  compiled c;
  compile(&c, "tests/data/compile/DecayArray.mo", NULL, "N = 20000");
  const stiction_model *m = st_compiled_model(c.cm);
  ck_assert_int_eq(m->n_states, N);
  ck_assert_ptr_nonnull(m->ode_jac_cols);
  ck_assert_int_eq(m->ode_jac_cols[N], N);
  for (int j = 0; j < N; j++) ck_assert(in_pattern(m, j, j));
  ck_assert_msg(c.cm->p.jac_sets <= 4L * N, "sets: %ld integers", c.cm->p.jac_sets);
  stiction_options opt;
  stiction_options_init(&opt);
  opt.stop_time = 1;
  opt.interval = 1;
  opt.rtol = 1e-8;
  opt.linear_solver = STICTION_LINSOL_KLU;
  stiction_sim *sim = stiction_sim_new(m, st_compiled_data(c.cm), &opt);
  ck_assert_ptr_nonnull(sim);
  last_row row = {0};
  stiction_sink sink = {sizeof(stiction_sink), keep_begin, keep_row, NULL, &row};
  stiction_sim_set_sink(sim, &sink);
  ck_assert_msg(stiction_sim_run(sim) == 0, "%s", stiction_sim_error(sim));
  stiction_sim_free(sim);
  /* the row holds time and the first 63 states */
  ck_assert_int_eq(row.n, 64);
  ck_assert_double_eq_tol(row.v[0], 1, 1e-12);
  for (int i = 1; i < row.n; i++)
    ck_assert_double_eq_tol(row.v[i], exp(-(double)i / N), 1e-6);
  release(&c);
}
END_TEST

/* A chain to the stop time on solver and ls, with the model's pattern or without it (the
 * runtime then takes full Jacobians): the Burridge-Knopoff chain of 6 blocks to t = 30, or
 * a chain of tests/data/compile (WallChain, LoopChain) to t = 10; its statistics in *stats. */
static void run_chain_on(const char *file, stiction_solver solver, stiction_linear_solver ls,
                         int pattern, last_row *out, stiction_stats *stats) {
  compiled c;
  if (file) compile(&c, file, NULL, NULL);
  else compile(&c, NULL, "Stiction.Examples.BurridgeKnopoff", "N = 6");
  if (solver == STICTION_SOLVER_IDA) st_compiled_set_dae(c.cm, 1);
  stiction_model m = *st_compiled_model(c.cm);
  if (!pattern) m.ode_jac_cols = m.ode_jac_rows = m.dae_jac_cols = m.dae_jac_rows = NULL;
  stiction_options opt;
  stiction_options_init(&opt);
  opt.stop_time = file ? 10 : 30;
  opt.interval = 1;
  opt.rtol = 1e-8;
  opt.solver = solver;
  opt.linear_solver = ls;
  stiction_sim *sim = stiction_sim_new(&m, st_compiled_data(c.cm), &opt);
  ck_assert_ptr_nonnull(sim);
  stiction_sink sink = {sizeof(stiction_sink), keep_begin, keep_row, NULL, out};
  stiction_sim_set_sink(sim, &sink);
  ck_assert_msg(stiction_sim_run(sim) == 0, "%s", stiction_sim_error(sim));
  if (stats) *stats = *stiction_sim_stats(sim);
  stiction_sim_free(sim);
  release(&c);
}

static void run_chain(stiction_linear_solver ls, last_row *out) {
  run_chain_on(NULL, STICTION_SOLVER_CVODE_BDF, ls, 1, out, NULL);
}

static void rows_agree(const last_row *a, const last_row *b, double tol, const char *what) {
  ck_assert_int_eq(a->n, b->n);
  ck_assert_int_gt(a->n, 12);
  for (int i = 0; i < a->n; i++)
    ck_assert_msg(fabs(a->v[i] - b->v[i]) <= tol * (1 + fabs(a->v[i])),
                  "%s, column %d: %.12g and %.12g", what, i, a->v[i], b->v[i]);
}

/* IDA on file with full Jacobians, and with the pattern into KLU's sparse matrix and into
 * the dense one, and CVODE: the same trajectory; at most most_calls residual calls per
 * Jacobian with the pattern, n (the full count) without; the number of state events of the
 * CVODE run (the same on all). */
static long ida_pattern_against_full(const char *file, int n, int most_calls) {
  last_row full = {0}, klu = {0}, dense = {0}, cvode = {0};
  stiction_stats sf, sk, sd, sc;
  run_chain_on(file, STICTION_SOLVER_IDA, STICTION_LINSOL_DENSE, 0, &full, &sf);
  run_chain_on(file, STICTION_SOLVER_IDA, STICTION_LINSOL_KLU, 1, &klu, &sk);
  run_chain_on(file, STICTION_SOLVER_IDA, STICTION_LINSOL_DENSE, 1, &dense, &sd);
  run_chain_on(file, STICTION_SOLVER_CVODE_BDF, STICTION_LINSOL_DENSE, 1, &cvode, &sc);
  rows_agree(&full, &klu, 1e-5, "IDA full / IDA KLU with the pattern");
  rows_agree(&full, &dense, 1e-5, "IDA full / IDA dense with the pattern");
  rows_agree(&cvode, &klu, 1e-5, "CVODE / IDA KLU with the pattern");
  ck_assert_int_gt(sk.njac, 0);
  ck_assert_int_gt(sd.njac, 0);
  ck_assert_msg(sk.nfe_fd <= most_calls * sk.njac && sd.nfe_fd <= most_calls * sd.njac &&
                sf.nfe_fd >= n * sf.njac, "KLU: %ld calls for %ld Jacobians, dense: %ld for "
                "%ld, full: %ld for %ld", sk.nfe_fd, sk.njac, sd.nfe_fd, sd.njac, sf.nfe_fd,
                sf.njac);
  ck_assert_int_eq(sk.state_events, sc.state_events);
  ck_assert_int_eq(sd.state_events, sc.state_events);
  ck_assert_int_eq(sf.state_events, sc.state_events);
  return sc.state_events;
}

/* IDA uses the pattern too when the model has no algebraic unknowns (F = y' - f): grouped
 * difference quotients of the residual into KLU's sparse matrix or the dense one, 7 residual
 * calls per Jacobian of the 12 states instead of 12, and the trajectory through the wall's
 * 9 state events is that of IDA's full Jacobians and of CVODE. */
START_TEST(ida_with_the_pattern_matches_full) {
  ck_assert_int_eq(ida_pattern_against_full("tests/data/compile/WallChain.mo", 12, 8), 9);
}
END_TEST

static int in_dae_pattern(const stiction_model *m, int i, int j) {
  for (int k = m->dae_jac_cols[j]; k < m->dae_jac_cols[j + 1]; k++)
    if (m->dae_jac_rows[k] == i) return 1;
  return 0;
}

/* The DAE form's pattern (IDA: states and the unknowns of the blocks IDA iterates on) against
 * column-by-column differences of the residual at the start point, in y and in yp. */
static void check_dae_pattern(const char *file, const char *cls) {
  compiled c;
  compile(&c, file, cls, NULL);
  ck_assert_int_ge(st_compiled_set_dae(c.cm, 1), 0);
  const stiction_model *m = st_compiled_model(c.cm);
  void *ud = st_compiled_data(c.cm);
  int n = m->n_states + m->n_algebraic;
  ck_assert_ptr_nonnull(m->dae_jac_cols);
  double *y = calloc((size_t)n, sizeof *y), *yp = calloc((size_t)n, sizeof *yp);
  double *r0 = calloc((size_t)n, sizeof *r0), *r1 = calloc((size_t)n, sizeof *r1);
  ck_assert_int_eq(m->start_values(ud, 0.0, y, yp), 0);
  ck_assert_int_eq(m->residual(ud, 0.0, y, yp, r0), 0);
  for (int j = 0; j < n; j++) {
    ck_assert_msg(in_dae_pattern(m, j, j), "%s: no diagonal entry %d", m->name, j);
    for (int in_yp = 0; in_yp < 2; in_yp++) {
      double *v = in_yp ? yp : y, vj = v[j];
      v[j] += 1e-6 * (1 + fabs(vj));
      ck_assert_int_eq(m->residual(ud, 0.0, y, yp, r1), 0);
      v[j] = vj;
      for (int i = 0; i < n; i++)
        ck_assert_msg(fabs(r1[i] - r0[i]) <= 1e-12 * (1 + fabs(r0[i])) || in_dae_pattern(m, i, j),
                      "%s: residual %d (%s) depends on %s%s but the pattern says not", m->name,
                      i, m->state_names[i], m->state_names[j], in_yp ? "'" : "");
    }
  }
  ck_assert_int_eq(m->residual(ud, 0.0, y, yp, r1), 0); /* the point is restored */
  free(y), free(yp), free(r0), free(r1);
  release(&c);
}

START_TEST(dae_pattern_holds_every_dependency) {
  check_dae_pattern("tests/data/compile/LoopChain.mo", NULL);
  check_dae_pattern("tests/data/compile/NonlinearLoop.mo", NULL);
  check_dae_pattern(NULL, "Modelica.Mechanics.Rotational.Examples.CoupledClutches");
}
END_TEST

/* With algebraic unknowns (LoopChain: 12 states, 12 unknowns of six linear loops) IDA takes
 * the DAE form's pattern: grouped residual calls into KLU's sparse matrix or the dense one,
 * fewer than half the 24 a full Jacobian takes, and the trajectory through the wall's events
 * is that of IDA's full Jacobians and of CVODE. */
START_TEST(ida_with_algebraic_unknowns_uses_the_pattern) {
  ck_assert_int_gt(ida_pattern_against_full("tests/data/compile/LoopChain.mo", 24, 11), 0);
}
END_TEST

/* KLU with the model's pattern (sparse matrix, grouped difference quotients written into it)
 * gives the trajectory of the dense path: the chain through several slips. */
START_TEST(klu_with_the_pattern_matches_dense) {
  last_row dense = {0}, klu = {0};
  run_chain(STICTION_LINSOL_DENSE, &dense);
  run_chain(STICTION_LINSOL_KLU, &klu);
  ck_assert_int_eq(dense.n, klu.n);
  ck_assert_int_gt(dense.n, 12);
  for (int i = 0; i < dense.n; i++)
    ck_assert_msg(fabs(dense.v[i] - klu.v[i]) <= 1e-5 * (1 + fabs(dense.v[i])),
                  "column %d: dense %.12g, KLU %.12g", i, dense.v[i], klu.v[i]);
}
END_TEST

/* A fast mode whose direction turns with an angle state (tests/data/compile/RotatingStiff.mo):
 * with CVODE's Newton matrix kept for up to 20 steps almost every step failed to converge
 * first; the runtime then evaluates the Jacobian at every step (cvode.c cv_watch_newton).
 * The run keeps its convergence failures below one in four steps and ends where a run at a
 * tight tolerance does. */
static void run_rotating(double rtol, last_row *out, stiction_stats *stats) {
  compiled c;
  compile(&c, "tests/data/compile/RotatingStiff.mo", NULL, NULL);
  stiction_options opt;
  stiction_options_init(&opt);
  opt.stop_time = 0.5;
  opt.interval = 0.5;
  opt.rtol = rtol;
  stiction_sim *sim = stiction_sim_new(st_compiled_model(c.cm), st_compiled_data(c.cm), &opt);
  ck_assert_ptr_nonnull(sim);
  stiction_sink sink = {sizeof(stiction_sink), keep_begin, keep_row, NULL, out};
  stiction_sim_set_sink(sim, &sink);
  ck_assert_msg(stiction_sim_run(sim) == 0, "%s", stiction_sim_error(sim));
  *stats = *stiction_sim_stats(sim);
  stiction_sim_free(sim);
  release(&c);
}

START_TEST(turning_fast_mode_refreshes_the_jacobian) {
  last_row run = {0}, tight = {0};
  stiction_stats s, st;
  run_rotating(1e-6, &run, &s);
  run_rotating(1e-9, &tight, &st);
  ck_assert_int_gt(s.steps, 100);
  ck_assert_msg(4 * s.conv_fails < s.steps, "%ld convergence failures in %ld steps",
                s.conv_fails, s.steps);
  ck_assert_int_ge(run.n, 5);
  for (int i = 1; i < run.n; i++)
    ck_assert_msg(fabs(run.v[i] - tight.v[i]) <= 1e-3 * (1 + fabs(tight.v[i])),
                  "column %d: %.12g, at 1e-9 %.12g", i, run.v[i], tight.v[i]);
}
END_TEST

static Suite *suite(void) {
  Suite *s = suite_create("pattern");
  st_test_case(s, "jacobian", 120, ST_TESTS(pattern_holds_every_dependency, chain_is_sparse,
               component_chain_sets_grow_linearly, wide_array_pattern_is_diagonal,
               component_chain_compiler_arena_per_component,
               klu_with_the_pattern_matches_dense, ida_with_the_pattern_matches_full,
               dae_pattern_holds_every_dependency, ida_with_algebraic_unknowns_uses_the_pattern,
               turning_fast_mode_refreshes_the_jacobian));
  return s;
}

int main(void) {
  return st_test_main(suite());
}
