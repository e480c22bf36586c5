/* BAM identification: CMA-ES on known functions in a box, BAM's search spaces and nesting,
 * the batched loss, and `stiction bam fit` on the two logs of tests/data/bam. */
#include <check.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <stiction/bam.h>
#include <stiction/stiction.h>

#include "bam/bam_fit.h"
#include "bam/cmaes.h"
#include "testutil.h"

#define LOG400 "tests/data/bam/2026-01-15_10h29m14.json"
#define LOG800 "tests/data/bam/2026-01-15_10h29m47.json"

/* ---- CMA-ES ------------------------------------------------------------------------------ */

typedef struct fn_ctx {
  const double *centre;
  int rosenbrock;
  long calls;
} fn_ctx;

/* Shifted sphere sum (x - c)^2, or Rosenbrock on y = 4 x - 2 (optimum x = 0.75). */
static void objective(void *ctx, const double *X, size_t count, size_t n, double *f) {
  fn_ctx *c = ctx;
  for (size_t k = 0; k < count; k++) {
    const double *x = X + k * n;
    double s = 0;
    for (size_t i = 0; i < n; i++) {
      ck_assert(x[i] >= 0.0 && x[i] <= 1.0); /* every candidate inside the box */
      if (!c->rosenbrock) s += (x[i] - c->centre[i]) * (x[i] - c->centre[i]);
      else if (i + 1 < n) {
        double a = 4 * x[i] - 2, b = 4 * x[i + 1] - 2;
        s += 100 * (b - a * a) * (b - a * a) + (1 - a) * (1 - a);
      }
    }
    f[k] = s;
  }
  c->calls += (long)count;
}

START_TEST(cmaes_shifted_sphere_in_box) {
  /* optimum inside the box in some coordinates, outside (on the face) in others */
  const double centre[6] = {0.2, 0.9, 0.5, 0.33, 1.3, -0.2};
  const double opt[6] = {0.2, 0.9, 0.5, 0.33, 1.0, 0.0};
  fn_ctx c = {centre, 0, 0};
  double x[6];
  st_cmaes_config cfg = {6, 7, 4000, 0, NULL, ST_CMAES_NO_RESTART};
  st_cmaes_result r;
  ck_assert_int_eq(st_cmaes_minimize(&cfg, objective, NULL, &c, x, &r), STICTION_OK);
  ck_assert_int_le(r.evals, 4000);
  ck_assert_int_eq(c.calls, r.evals);
  for (int i = 0; i < 6; i++) ck_assert_msg(fabs(x[i] - opt[i]) < 1e-4, "x[%d] = %g", i, x[i]);
  ck_assert_double_le(r.best_f, 1.3 * 1.3 - 2 * 1.3 + 1 + 0.04 + 1e-8); /* 0.09 + 0.04 */
}
END_TEST

START_TEST(cmaes_rosenbrock_with_restarts) {
  fn_ctx c = {NULL, 1, 0};
  double x[5];
  st_cmaes_config cfg = {5, 3, 60000, 0, NULL, ST_CMAES_BIPOP};
  st_cmaes_result r;
  ck_assert_int_eq(st_cmaes_minimize(&cfg, objective, NULL, &c, x, &r), STICTION_OK);
  ck_assert_int_eq(r.evals, 60000); /* restarts spend the whole budget, no more */
  ck_assert_int_ge(r.restarts, 1);
  ck_assert_msg(r.best_f < 1e-10, "best %g", r.best_f);
  for (int i = 0; i < 5; i++) ck_assert_msg(fabs(x[i] - 0.75) < 1e-5, "x[%d] = %g", i, x[i]);
}
END_TEST

START_TEST(cmaes_same_seed_same_search) {
  const double centre[4] = {0.1, 0.2, 0.3, 0.4};
  double x[3][4];
  st_cmaes_result r[3];
  for (int k = 0; k < 3; k++) {
    fn_ctx c = {centre, 0, 0};
    st_cmaes_config cfg = {4, k == 2 ? 12 : 11, 300, 0, NULL, ST_CMAES_IPOP};
    ck_assert_int_eq(st_cmaes_minimize(&cfg, objective, NULL, &c, x[k], &r[k]), 0);
  }
  ck_assert(memcmp(x[0], x[1], sizeof x[0]) == 0);
  ck_assert(r[0].best_f == r[1].best_f);
  ck_assert(memcmp(x[0], x[2], sizeof x[0]) != 0);
}
END_TEST

/* ---- search space, nesting, loss --------------------------------------------------------- */

START_TEST(space_parameter_counts) {
  /* bam.md §3.1: friction + kt, R, armature, q_offset */
  const size_t counts[] = {6, 9, 7, 11, 13, 15};
  st_bam_space s;
  for (int m = 1; m <= 6; m++) {
    ck_assert_int_eq(st_bam_space_init(&s, (stiction_bam_model)m, STICTION_BAM_XL330), 0);
    ck_assert_int_eq(s.n, counts[m - 1]);
    ck_assert_int_eq(s.nkeys, counts[m - 1]);
  }
  ck_assert_int_eq(st_bam_space_freeze(&s, "q_offset", 0.01), 0);
  ck_assert_int_eq(s.n, 14);
  ck_assert_int_eq(s.nkeys, 15);
  ck_assert_int_eq(st_bam_space_freeze(&s, "load_friction_base", 0.1), STICTION_ERR_NOT_FOUND);
  double u[ST_BAM_MAX_KEYS];
  for (size_t i = 0; i < s.n; i++) u[i] = 1.0;
  stiction_bam_params p;
  st_bam_space_params(&s, u, &p);
  ck_assert_double_eq(p.q_offset, 0.01);
  ck_assert_double_eq(p.kt, 3.0);     /* xl330 box of bam.md §2.1 */
  ck_assert_double_eq(p.alpha, 10.0);
  ck_assert_double_eq(p.Kmq, 0.01);
  ck_assert_int_eq(st_bam_space_init(&s, STICTION_BAM_M1, STICTION_BAM_STS3215),
                   STICTION_ERR_UNSUPPORTED);
}
END_TEST

static stiction_bam_log *read_log(const char *rel) {
  char err[512];
  stiction_bam_log *log;
  ck_assert_msg(!stiction_bam_log_read(st_test_src(rel), &log, err, sizeof err), "%s", err);
  return log;
}

/* M3's optimum embeds in M4..M6: the embedded set rolls out to the same MAE (bam.md §3). */
START_TEST(m3_embeds_in_m4_to_m6) {
  stiction_bam_log *log = read_log(LOG400);
  stiction_bam_params m3;
  stiction_bam_params_default(&m3, STICTION_BAM_M3, STICTION_BAM_XL330);
  m3.kt = 0.44, m3.R = 4.4, m3.armature = 0.002, m3.q_offset = 0.019;
  m3.Kc = 0.0038, m3.Kl = 0.207, m3.Kv = 0.0019;
  double ref, mae;
  ck_assert_int_eq(stiction_bam_mae(&m3, log, &ref), 0);
  for (int m = STICTION_BAM_M4; m <= STICTION_BAM_M6; m++) {
    stiction_bam_params p = m3;
    st_bam_params_embed(&p, (stiction_bam_model)m);
    ck_assert_int_eq(p.model, m);
    ck_assert_int_eq(stiction_bam_mae(&p, log, &mae), 0);
    ck_assert_msg(fabs(mae - ref) <= 1e-15, "m%d: %.17g vs %.17g", m, mae, ref);
  }
  stiction_bam_log_free(log);
}
END_TEST

/* BAM's fitting loss on two logs: mean MAE over the shortest log's samples. */
static double batch_loss(const stiction_bam_params *p, stiction_bam_log *const *logs) {
  size_t shortest = logs[0]->n < logs[1]->n ? logs[0]->n : logs[1]->n;
  double sum = 0;
  for (int j = 0; j < 2; j++) {
    stiction_bam_log v = *logs[j];
    v.n = shortest;
    double m;
    ck_assert_int_eq(stiction_bam_mae(p, &v, &m), 0);
    sum += m;
  }
  return sum / 2;
}

/* The loss is the mean over logs of the MAE over the shortest log's samples, whatever the
 * thread count. */
START_TEST(loss_is_batched_mean_mae) {
  stiction_bam_log *logs[2] = {read_log(LOG400), read_log(LOG800)};
  ck_assert_int_ne(logs[0]->n, logs[1]->n);
  st_bam_space s;
  st_bam_space_init(&s, STICTION_BAM_M2, STICTION_BAM_XL330);
  double X[3 * 9], f1[3], f3[3];
  for (size_t i = 0; i < 27; i++) X[i] = (double)((i * 7) % 11) / 10.0;
  st_pool *pools[2] = {st_pool_new(1), st_pool_new(3)};
  double *fs[2] = {f1, f3};
  for (int t = 0; t < 2; t++) {
    st_bam_loss L;
    ck_assert_int_eq(st_bam_loss_init(&L, (const stiction_bam_log *const *)logs, 2, &s, pools[t]), 0);
    st_bam_loss_eval(&L, X, 3, 9, fs[t]);
    st_bam_loss_free(&L);
    st_pool_free(pools[t]);
  }
  for (int k = 0; k < 3; k++) {
    stiction_bam_params p;
    st_bam_space_params(&s, X + 9 * k, &p);
    ck_assert(f1[k] == batch_loss(&p, logs) && f3[k] == f1[k]);
  }
  stiction_bam_log_free(logs[0]);
  stiction_bam_log_free(logs[1]);
}
END_TEST

/* ---- the command ----------------------------------------------------------------------- */

static char tmpdir[256];

static void make_tmpdir(void) {
  const char *t = getenv("TMPDIR");
  snprintf(tmpdir, sizeof tmpdir, "%s/st_bam_fit_XXXXXX", t && *t ? t : "/tmp");
  ck_assert_ptr_nonnull(mkdtemp(tmpdir));
}

static void remove_tmpdir(void) {
  char cmd[512];
  snprintf(cmd, sizeof cmd, "rm -rf '%s'", tmpdir);
  ck_assert_int_eq(system(cmd), 0);
}

static char *slurp(const char *path) {
  FILE *f = fopen(path, "rb");
  if (!f) return NULL;
  char *buf = calloc(1, 1 << 16);
  size_t n = fread(buf, 1, (1 << 16) - 1, f);
  buf[n] = 0;
  fclose(f);
  return buf;
}

/* A short fit on two logs (kp 800 held out); returns the output file's text. */
static char *short_fit(const char *name, const char *extra, char **out) {
  char args[12288], path[512];
  snprintf(path, sizeof path, "%s/%s", tmpdir, name);
  snprintf(args, sizeof args,
           "bam fit --model m2 --actuator xl330 --logdir '%s' --validation-kp 800 --trials 600 "
           "--seed 5 %s -o '%s'", st_test_src("tests/data/bam"), extra, path);
  ck_assert_int_eq(st_test_run(out, args), 0);
  return slurp(path);
}

START_TEST(cli_short_fit_is_reproducible) {
  make_tmpdir();
  char *out1, *out2, *out3;
  char *a = short_fit("a.json", "-j 1", &out1), *b = short_fit("b.json", "-j 1", &out2);
  char *c = short_fit("c.json", "-j 3", &out3);
  ck_assert_ptr_nonnull(a);
  ck_assert_str_eq(a, b); /* same seed: the same parameters, to the last digit */
  ck_assert_str_eq(a, c); /* and the same with another thread count */
  ck_assert_ptr_nonnull(strstr(a, "\"model\":\"m2\""));
  ck_assert_ptr_nonnull(strstr(out1, "validation"));
  ck_assert_ptr_nonnull(strstr(out1, "m2 trial 600/600"));
  /* the written set is BAM's params JSON: `bam mae` reads it, and its training MAE beats
   * the box centre where CMA-ES started */
  char path[512], args[12288], *mae;
  snprintf(path, sizeof path, "%s/a.json", tmpdir);
  stiction_bam_params p, centre;
  char err[512];
  ck_assert_msg(!stiction_bam_params_read(path, &p, err, sizeof err), "%s", err);
  st_bam_space s;
  st_bam_space_init(&s, STICTION_BAM_M2, STICTION_BAM_XL330);
  double u[ST_BAM_MAX_KEYS];
  for (size_t i = 0; i < s.n; i++) u[i] = 0.5;
  st_bam_space_params(&s, u, &centre);
  stiction_bam_log *log = read_log(LOG400);
  double fitted, start;
  stiction_bam_mae(&p, log, &fitted);
  stiction_bam_mae(&centre, log, &start);
  ck_assert_msg(fitted < 0.5 * start, "fitted %g, start %g", fitted, start);
  snprintf(args, sizeof args, "bam mae --params '%s' --logdir '%s'", path, st_test_src("tests/data/bam"));
  ck_assert_int_eq(st_test_run(&mae, args), 0);
  ck_assert_ptr_nonnull(strstr(mae, "m2"));
  stiction_bam_log_free(log);
  free(a), free(b), free(c), free(out1), free(out2), free(out3), free(mae);
  remove_tmpdir();
}
END_TEST

/* --from starts at a given set, evaluated first: the fit cannot end worse than its start;
 * --set freezes a value into the output. */
START_TEST(cli_from_and_set) {
  make_tmpdir();
  char from[512], args[12288], *out, path[512];
  snprintf(from, sizeof from, "%s/from.json", tmpdir);
  snprintf(path, sizeof path, "%s/m5.json", tmpdir);
  stiction_bam_params m3;
  stiction_bam_params_default(&m3, STICTION_BAM_M3, STICTION_BAM_XL330);
  m3.kt = 0.44, m3.R = 4.4, m3.armature = 0.002, m3.q_offset = 0.019;
  m3.Kc = 0.0038, m3.Kl = 0.207, m3.Kv = 0.0019;
  const char *keys[] = {"kt", "R", "armature", "q_offset", "friction_base",
                        "load_friction_base", "friction_viscous"};
  ck_assert_int_eq(st_bam_params_write(from, &m3, keys, 7, NULL, 0), 0);
  snprintf(args, sizeof args,
           "bam fit --model m5 --actuator xl330 --logdir '%s' --trials 40 --restarts none -q "
           "--from '%s' --set alpha=2.5 -o '%s'", st_test_src("tests/data/bam"), from, path);
  ck_assert_int_eq(st_test_run(&out, args), 0);
  stiction_bam_params p, start = m3;
  char err[512];
  ck_assert_msg(!stiction_bam_params_read(path, &p, err, sizeof err), "%s", err);
  ck_assert_double_eq(p.alpha, 2.5);
  st_bam_params_embed(&start, STICTION_BAM_M5);
  start.alpha = 2.5;
  stiction_bam_log *logs[2] = {read_log(LOG400), read_log(LOG800)};
  double fit = batch_loss(&p, logs), ref = batch_loss(&start, logs);
  ck_assert_msg(fit <= ref + 1e-12, "fit %.17g, start %.17g", fit, ref);
  stiction_bam_log_free(logs[0]);
  stiction_bam_log_free(logs[1]);
  free(out);
  remove_tmpdir();
}
END_TEST

/* Usage errors exit non-zero with a message and leave an existing output alone. */
START_TEST(cli_errors_keep_output) {
  make_tmpdir();
  char path[512], args[12288], *out = NULL;
  snprintf(path, sizeof path, "%s/keep.json", tmpdir);
  FILE *f = fopen(path, "w");
  fputs("previous result\n", f);
  fclose(f);
  const char *bad[] = {"--set nonsense=1", "--set alpha", "--validation-kp 123",
                       "--trials 0", "--set load_friction_base=0.1", "--from /nonexistent.json",
                       "--restarts sometimes"};
  const char *msg[] = {"unknown parameter", "NAME=VALUE", "no log has kp 123",
                       "positive integer", "has no such parameter", "/nonexistent.json",
                       "bipop, ipop or none"};
  for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
    snprintf(args, sizeof args, "bam fit --model m1 --actuator xl330 --logdir '%s' %s -o '%s'",
             st_test_src("tests/data/bam"), bad[i], path);
    ck_assert_int_ne(st_test_run(&out, args), 0);
    ck_assert_msg(strstr(out, msg[i]) != NULL, "%s: %s", bad[i], out);
    free(out);
    char *keep = slurp(path);
    ck_assert_str_eq(keep, "previous result\n");
    free(keep);
  }
  /* -o naming one of the logs is refused before anything is written */
  snprintf(path, sizeof path, "%s/log.json", tmpdir);
  snprintf(args, sizeof args, "cp '%s' '%s'", st_test_src(LOG400), path);
  ck_assert_int_eq(system(args), 0);
  snprintf(args, sizeof args, "bam fit --model m1 --actuator xl330 --logdir '%s' -o '%s'", tmpdir, path);
  ck_assert_int_ne(st_test_run(&out, args), 0);
  ck_assert_ptr_nonnull(strstr(out, "names one of the logs"));
  free(out);
  stiction_bam_log *log;
  char err[512];
  ck_assert_msg(!stiction_bam_log_read(path, &log, err, sizeof err), "%s", err);
  stiction_bam_log_free(log);
  remove_tmpdir();
}
END_TEST

static Suite *suite(void) {
  Suite *s = suite_create("bam_fit");
  TCase *tc = tcase_create("cmaes");
  tcase_add_test(tc, cmaes_shifted_sphere_in_box);
  tcase_add_test(tc, cmaes_rosenbrock_with_restarts);
  tcase_add_test(tc, cmaes_same_seed_same_search);
  suite_add_tcase(s, tc);
  tc = tcase_create("space");
  tcase_add_test(tc, space_parameter_counts);
  tcase_add_test(tc, m3_embeds_in_m4_to_m6);
  tcase_add_test(tc, loss_is_batched_mean_mae);
  suite_add_tcase(s, tc);
  tc = tcase_create("cli");
  tcase_add_test(tc, cli_short_fit_is_reproducible);
  tcase_add_test(tc, cli_from_and_set);
  tcase_add_test(tc, cli_errors_keep_output);
  suite_add_tcase(s, tc);
  return s;
}

int main(void) {
  SRunner *sr = srunner_create(suite());
  srunner_run_all(sr, CK_NORMAL);
  int failed = srunner_ntests_failed(sr);
  srunner_free(sr);
  return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
