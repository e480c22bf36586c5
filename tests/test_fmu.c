/* FMI 2.0 export (`stiction fmu`, src/fmi): the FMU is a well-formed archive with a
 * well-formed modelDescription.xml, and a small importer of this test (dlopen and the fmi2
 * calls) runs it. Co-Simulation of the friction block matches `stiction simulate` closely,
 * Model Exchange driven by the importer's own RK4 with event location matches it within the
 * reference's own error, an input set at every step follows the closed form, instances run
 * side by side and in threads with their own parameters, fmi2Reset repeats a run, a wrong
 * GUID and a broken model are refused with messages. */
#include <check.h>
#include <dlfcn.h>
#include <math.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include <stiction/stiction.h>

#include "fmi/fmi2_abi.h"
#include "fmi/fmu.h"
#include "fmi/zip.h"
#include "front/libpath.h"
#include "testutil.h"

/* ------------------------------------------------------------------ the importer */

typedef struct fmi2_lib {
  void *handle;
#define FIELD(name, ret, args) ret(*name) args;
  ST_FMI2_FUNCTIONS(FIELD)
#undef FIELD
} fmi2_lib;

typedef struct fmu_dir {
  char dir[4096], uri[4200], guid[64];
  char *xml;
  fmi2_lib f;
} fmu_dir;

static char last_message[4096];

static void logger(fmi2ComponentEnvironment env, fmi2String name, fmi2Status status,
                   fmi2String category, fmi2String message, ...) {
  va_list ap;
  va_start(ap, message);
  vsnprintf(last_message, sizeof last_message, message, ap);
  va_end(ap);
}

static const fmi2CallbackFunctions callbacks = {logger, calloc, free, NULL, NULL};

/* `stiction fmu ARGS -o DIR/ID.fmu`, extracted into DIR/x, its library opened. */
static void export_and_open(fmu_dir *u, const char *tag, const char *args, const char *id) {
  snprintf(u->dir, sizeof u->dir, "%s", st_test_tmp(tag, "fmu"));
  mkdir(u->dir, 0755);
  char *out = NULL;
  int st = st_test_runf(&out, "fmu %s -o '%s/%s.fmu'", args, u->dir, id);
  ck_assert_msg(st == 0, "stiction fmu %s: %d\n%s", args, st, out ? out : "");
  free(out);
  char fmu[4200], x[4200], *err = NULL;
  snprintf(fmu, sizeof fmu, "%s/%s.fmu", u->dir, id);
  snprintf(x, sizeof x, "%s/x", u->dir);
  ck_assert_msg(st_zip_extract(fmu, x, &err) == 0, "%s", err ? err : "");
  snprintf(u->uri, sizeof u->uri, "file://%s/x/resources", u->dir);
  snprintf(fmu, sizeof fmu, "%s/x/modelDescription.xml", u->dir);
  u->xml = st_read_file(fmu, NULL);
  ck_assert_ptr_nonnull(u->xml);
  const char *g = strstr(u->xml, "guid=\"");
  ck_assert_ptr_nonnull(g);
  snprintf(u->guid, sizeof u->guid, "%.38s", g + 6);
  snprintf(fmu, sizeof fmu, "%s/x/binaries/linux64/%s.so", u->dir, id);
  u->f.handle = dlopen(fmu, RTLD_NOW | RTLD_LOCAL);
  ck_assert_msg(u->f.handle != NULL, "%s", dlerror());
#define LOOKUP(name, ret, args)                                                          \
  *(void **)&u->f.name = dlsym(u->f.handle, #name);                                      \
  ck_assert_msg(u->f.name != NULL, "%s is not exported", #name);
  ST_FMI2_FUNCTIONS(LOOKUP)
#undef LOOKUP
}

/* resources/stiction/manifest.txt of the unpacked FMU (free it). */
static char *read_manifest(const fmu_dir *u) {
  char path[4300];
  snprintf(path, sizeof path, "%s/x/resources/stiction/manifest.txt", u->dir);
  char *manifest = st_read_file(path, NULL);
  ck_assert_ptr_nonnull(manifest);
  return manifest;
}

static void close_fmu(fmu_dir *u) {
  dlclose(u->f.handle);
  free(u->xml);
  char cmd[4200];
  snprintf(cmd, sizeof cmd, "rm -rf '%s'", u->dir);
  ck_assert_int_eq(system(cmd), 0);
}

/* The value reference of a variable, from modelDescription.xml. */
static fmi2ValueReference vr_of(const fmu_dir *u, const char *name) {
  char key[256];
  snprintf(key, sizeof key, "name=\"%s\" valueReference=\"", name);
  const char *p = strstr(u->xml, key);
  ck_assert_msg(p != NULL, "no variable %s", name);
  return (fmi2ValueReference)strtoul(p + strlen(key), NULL, 10);
}

static int xml_int(const fmu_dir *u, const char *attr) {
  char key[128];
  snprintf(key, sizeof key, "%s=\"", attr);
  const char *p = strstr(u->xml, key);
  ck_assert_msg(p != NULL, "no %s", attr);
  return atoi(p + strlen(key));
}

/* Elements in the section <tag> ... </tag>. */
static int count_in(const fmu_dir *u, const char *tag, const char *element) {
  char open[64], close[64];
  snprintf(open, sizeof open, "<%s>", tag);
  snprintf(close, sizeof close, "</%s>", tag);
  const char *a = strstr(u->xml, open), *b = a ? strstr(a, close) : NULL;
  int n = 0;
  for (const char *p = a; p && b && (p = strstr(p + 1, element)) && p < b;) n++;
  return n;
}

static fmi2Component instantiate(fmu_dir *u, fmi2Type type, const char *name) {
  fmi2Component c = u->f.fmi2Instantiate(name, type, u->guid, u->uri, &callbacks, 0, 0);
  ck_assert_msg(c != NULL, "fmi2Instantiate: %s", last_message);
  return c;
}

#define OK(call) ck_assert_msg((call) == fmi2OK, "%s: %s", #call, last_message)

static void initialize(fmu_dir *u, fmi2Component c, double stop) {
  OK(u->f.fmi2SetupExperiment(c, 0, 0, 0, 1, stop));
  OK(u->f.fmi2EnterInitializationMode(c));
  OK(u->f.fmi2ExitInitializationMode(c));
}

/* ------------------------------------------------------------------ well-formed XML */

/* Tags balanced and properly nested, attributes quoted, no stray '<' or '&' (entities of XML
 * only), one root element: enough to say a parser reads the file. */
static const char *xml_error(const char *s) {
  const char *stack[64];
  size_t lens[64];
  int depth = 0, roots = 0;
  if (strncmp(s, "<?xml ", 6) || !(s = strstr(s, "?>"))) return "no XML declaration";
  for (s += 2; *s; s++) {
    if (*s == '&') {
      if (strncmp(s, "&amp;", 5) && strncmp(s, "&lt;", 4) && strncmp(s, "&gt;", 4) &&
          strncmp(s, "&quot;", 6) && strncmp(s, "&#x", 3))
        return "stray '&'";
      continue;
    }
    if (*s != '<') continue;
    int closing = s[1] == '/';
    const char *name = s + 1 + closing;
    size_t n = strcspn(name, " \t\n/>");
    if (n == 0) return "empty tag name";
    const char *p = name + n;
    while (*p && *p != '>' && *p != '/') { /* attributes: name="value" */
      p += strspn(p, " \t\n");
      if (*p == '>' || *p == '/') break;
      size_t an = strcspn(p, "=\" \t\n>");
      if (an == 0 || p[an] != '=' || p[an + 1] != '"') return "attribute without a quoted value";
      const char *end = strchr(p + an + 2, '"');
      if (!end || memchr(p + an + 2, '<', (size_t)(end - p - an - 2))) return "bad attribute value";
      for (const char *q = p + an + 2; q < end; q++)
        if (*q == '&' && strncmp(q, "&amp;", 5) && strncmp(q, "&lt;", 4) &&
            strncmp(q, "&gt;", 4) && strncmp(q, "&quot;", 6) && strncmp(q, "&#x", 3))
          return "stray '&' in an attribute";
      p = end + 1;
    }
    int empty = *p == '/';
    if (empty) p++;
    if (*p != '>') return "unterminated tag";
    if (closing) {
      if (depth == 0 || lens[depth - 1] != n || strncmp(stack[depth - 1], name, n))
        return "end tag does not match";
      depth--;
    } else if (!empty) {
      if (depth == 0) roots++;
      if (depth == 64) return "too deep";
      stack[depth] = name;
      lens[depth++] = n;
    } else if (depth == 0) {
      roots++;
    }
    s = p;
  }
  return depth ? "unclosed element" : roots != 1 ? "not one root element" : NULL;
}

START_TEST(xml_checker_rejects) {
  ck_assert_ptr_null(xml_error("<?xml version=\"1.0\"?>\n<a x=\"1\"><b/></a>\n"));
  ck_assert_ptr_nonnull(xml_error("<?xml version=\"1.0\"?>\n<a><b></a>\n"));
  ck_assert_ptr_nonnull(xml_error("<?xml version=\"1.0\"?>\n<a x=1></a>\n"));
  ck_assert_ptr_nonnull(xml_error("<?xml version=\"1.0\"?>\n<a x=\"<\"></a>\n"));
  ck_assert_ptr_nonnull(xml_error("<?xml version=\"1.0\"?>\n<a>&</a>\n"));
  ck_assert_ptr_nonnull(xml_error("<?xml version=\"1.0\"?>\n<a></a><b/>\n"));
}
END_TEST

START_TEST(model_description) {
  fmu_dir u;
  export_and_open(&u, "desc", st_test_src("tests/data/compile/FrictionBlock.mo"), "FrictionBlock");
  const char *why = xml_error(u.xml);
  ck_assert_msg(why == NULL, "modelDescription.xml: %s", why);
  ck_assert_ptr_nonnull(strstr(u.xml, "fmiVersion=\"2.0\""));
  ck_assert_ptr_nonnull(strstr(u.xml, "<ModelExchange modelIdentifier=\"FrictionBlock\""));
  ck_assert_ptr_nonnull(strstr(u.xml, "<CoSimulation modelIdentifier=\"FrictionBlock\""));
  ck_assert_int_eq(count_in(&u, "Derivatives", "<Unknown "), 2);
  /* der(x), der(v) in the order of the states, each naming its state */
  const char *dx = strstr(u.xml, "name=\"der(x)\""), *dv = strstr(u.xml, "name=\"der(v)\"");
  ck_assert(dx && dv && dx < dv);
  ck_assert_ptr_nonnull(strstr(dx, "derivative=\""));
  /* the parameters are parameters with their values as start */
  const char *f0 = strstr(u.xml, "name=\"f0\"");
  ck_assert(f0 && strstr(f0, "causality=\"parameter\"") < strstr(f0, "</ScalarVariable>"));
  ck_assert(strstr(f0, "start=\"1\"") < strstr(f0, "</ScalarVariable>"));
  ck_assert_int_gt(xml_int(&u, "numberOfEventIndicators"), 0);
  /* the flat model saved and the manifest travel with it, not the Modelica text */
  char path[4300];
  char *manifest = read_manifest(&u);
  ck_assert_ptr_nonnull(strstr(manifest, "class FrictionBlock\n"));
  ck_assert_ptr_nonnull(strstr(manifest, "flat model.stflat\nfile model.stflat\n"));
  ck_assert_ptr_null(strstr(manifest, "load "));
  free(manifest);
  struct stat st;
  snprintf(path, sizeof path, "%s/x/resources/stiction/files", u.dir);
  ck_assert_int_ne(stat(path, &st), 0);
  close_fmu(&u);
}
END_TEST

/* ------------------------------------------------------------------ against simulate */

/* `stiction simulate ARGS -o DIR/sim.csv`, read back. */
static stiction_table *simulate(const char *tag, const char *args) {
  const char *csv = st_test_tmp(tag, "sim.csv");
  char *out = NULL;
  int st = st_test_runf(&out, "simulate %s -o '%s'", args, csv);
  ck_assert_msg(st == 0, "%s", out ? out : "");
  free(out);
  stiction_table *t;
  char msg[512];
  ck_assert_msg(stiction_table_read(&t, csv, msg, sizeof msg) == 0, "%s", msg);
  remove(csv);
  return t;
}

/* The value of column col at time t (the last row with that time: the right limit). */
static double at(const stiction_table *t, const char *col, double time) {
  int c = stiction_table_find(t, col), n = stiction_table_rows(t), m = stiction_table_columns(t);
  ck_assert_int_ge(c, 0);
  const double *d = stiction_table_data(t);
  double v = NAN;
  for (int i = 0; i < n; i++)
    if (fabs(d[(size_t)i * m] - time) < 1e-9) v = d[(size_t)i * m + c];
  ck_assert_msg(!isnan(v), "no row at t = %g", time);
  return v;
}

/* Co-Simulation in 10 ms steps against simulate's rows at the same times. The runs differ
 * only in where CVODE must stop (every step end), so the gap is a few of its local errors
 * at rtol 1e-6 (6e-7 measured). */
START_TEST(cosimulation_matches_simulate) {
  fmu_dir u;
  const char *model = st_test_src("tests/data/compile/FrictionBlock.mo");
  export_and_open(&u, "cs", model, "FrictionBlock");
  stiction_table *ref = simulate("cs", model);
  fmi2Component c = instantiate(&u, fmi2CoSimulation, "cs");
  initialize(&u, c, 10);
  fmi2ValueReference vr[2] = {vr_of(&u, "x"), vr_of(&u, "v")}, mode = vr_of(&u, "mode");
  double worst = 0;
  int modes_seen = 0;
  for (int k = 1; k <= 1000; k++) {
    OK(u.f.fmi2DoStep(c, (k - 1) * 0.01, 0.01, 1));
    double xv[2];
    fmi2Integer m;
    OK(u.f.fmi2GetReal(c, vr, 2, xv));
    OK(u.f.fmi2GetInteger(c, &mode, 1, &m));
    modes_seen |= 1 << (m + 1);
    double t = k * 0.01;
    worst = fmax(worst, fmax(fabs(xv[0] - at(ref, "x", t)), fabs(xv[1] - at(ref, "v", t))));
    ck_assert_int_eq(m, (int)at(ref, "mode", t));
  }
  ck_assert_msg(worst < 1e-5, "CS off simulate by %g", worst);
  ck_assert_int_eq(modes_seen, 7); /* backward, stuck and forward all happened */
  fmi2Real last;
  ck_assert_int_eq(u.f.fmi2GetRealStatus(c, fmi2LastSuccessfulTime, &last), fmi2OK);
  ck_assert(fabs(last - 10) < 1e-12);
  OK(u.f.fmi2Terminate(c));
  u.f.fmi2FreeInstance(c);
  stiction_table_free(ref);
  close_fmu(&u);
}
END_TEST

/* The importer's Model Exchange loop: classic RK4 with a fixed step, a sign change of an
 * event indicator located by bisection of the step to 1e-13 s, time events hit exactly,
 * the event iteration, a restart from the FMU's states. `input` (may be NULL) sets inputs
 * at the start of each step; `sample` is called at every grid point k * dt. */
typedef struct me_run {
  fmu_dir *u;
  fmi2Component c;
  int nx, ng;
  double *x, *k, *g0, *g1, *xs;
  void (*input)(struct me_run *r, double t);
  void (*sample)(struct me_run *r, double t);
  void *ctx;
  int events;
} me_run;

static void derivatives(me_run *r, double t, const double *x, double *dx) {
  OK(r->u->f.fmi2SetTime(r->c, t));
  OK(r->u->f.fmi2SetContinuousStates(r->c, x, (size_t)r->nx));
  OK(r->u->f.fmi2GetDerivatives(r->c, dx, (size_t)r->nx));
}

/* One RK4 step of size h from (t, x) into out. */
static void rk4(me_run *r, double t, const double *x, double h, double *out) {
  int n = r->nx;
  double *k1 = r->k, *k2 = k1 + n, *k3 = k2 + n, *k4 = k3 + n, *y = k4 + n;
  derivatives(r, t, x, k1);
  for (int i = 0; i < n; i++) y[i] = x[i] + h / 2 * k1[i];
  derivatives(r, t + h / 2, y, k2);
  for (int i = 0; i < n; i++) y[i] = x[i] + h / 2 * k2[i];
  derivatives(r, t + h / 2, y, k3);
  for (int i = 0; i < n; i++) y[i] = x[i] + h * k3[i];
  derivatives(r, t + h, y, k4);
  for (int i = 0; i < n; i++) out[i] = x[i] + h / 6 * (k1[i] + 2 * k2[i] + 2 * k3[i] + k4[i]);
}

static int crossed(const me_run *r, double t, const double *x, double *g) {
  OK(r->u->f.fmi2SetTime(r->c, t));
  OK(r->u->f.fmi2SetContinuousStates(r->c, x, (size_t)r->nx));
  OK(r->u->f.fmi2GetEventIndicators(r->c, g, (size_t)r->ng));
  for (int i = 0; i < r->ng; i++)
    if ((r->g0[i] < 0) != (g[i] < 0)) return 1;
  return 0;
}

/* The event iteration; returns the next time event (INFINITY: none). */
static double event_mode(me_run *r, double t, const double *x, int entered) {
  fmi2EventInfo e;
  if (!entered) OK(r->u->f.fmi2EnterEventMode(r->c));
  int passes = 0;
  do {
    OK(r->u->f.fmi2NewDiscreteStates(r->c, &e));
    ck_assert_int_lt(++passes, 100);
  } while (e.newDiscreteStatesNeeded);
  ck_assert(!e.terminateSimulation);
  OK(r->u->f.fmi2EnterContinuousTimeMode(r->c));
  OK(r->u->f.fmi2GetContinuousStates(r->c, r->x, (size_t)r->nx));
  OK(r->u->f.fmi2SetTime(r->c, t));
  OK(r->u->f.fmi2GetEventIndicators(r->c, r->g0, (size_t)r->ng));
  r->events++;
  return e.nextEventTimeDefined ? e.nextEventTime : INFINITY;
}

static void me_simulate(me_run *r, double stop, double h, double dt) {
  fmu_dir *u = r->u;
  r->nx = count_in(u, "Derivatives", "<Unknown ");
  r->ng = xml_int(u, "numberOfEventIndicators");
  r->x = calloc((size_t)r->nx + 1, sizeof *r->x);
  r->xs = calloc((size_t)r->nx + 1, sizeof *r->xs);
  r->k = calloc(5 * (size_t)r->nx + 1, sizeof *r->k);
  r->g0 = calloc((size_t)r->ng + 1, sizeof *r->g0);
  r->g1 = calloc((size_t)r->ng + 1, sizeof *r->g1);
  if (r->input) r->input(r, 0);
  initialize(u, r->c, stop);
  double te = event_mode(r, 0, r->x, 1), t = 0;
  int grid = 1;
  while (t < stop - 1e-12) {
    if (r->input) {
      r->input(r, t);
      OK(u->f.fmi2GetEventIndicators(r->c, r->g0, (size_t)r->ng));
    }
    double target = fmin(fmin(t + h, grid * dt), te);
    rk4(r, t, r->x, target - t, r->xs);
    int state_event = crossed(r, target, r->xs, r->g1);
    if (state_event) { /* the crossing lies in (lo, hi] of the step */
      double lo = 0, hi = target - t;
      while (hi - lo > 1e-13) {
        double mid = (lo + hi) / 2;
        rk4(r, t, r->x, mid, r->xs);
        if (crossed(r, t + mid, r->xs, r->g1)) hi = mid;
        else lo = mid;
      }
      target = t + hi;
      rk4(r, t, r->x, hi, r->xs);
      crossed(r, target, r->xs, r->g1);
    }
    t = target;
    memcpy(r->x, r->xs, sizeof *r->x * (size_t)r->nx);
    fmi2Boolean enter = 0, term = 0;
    OK(u->f.fmi2SetTime(r->c, t));
    OK(u->f.fmi2SetContinuousStates(r->c, r->x, (size_t)r->nx));
    OK(u->f.fmi2CompletedIntegratorStep(r->c, 1, &enter, &term));
    memcpy(r->g0, r->g1, sizeof *r->g0 * (size_t)r->ng);
    if (state_event || enter || t >= te) te = event_mode(r, t, r->x, 0);
    if (fabs(t - grid * dt) < 1e-12) {
      if (r->sample) r->sample(r, grid * dt);
      grid++;
    }
  }
  OK(u->f.fmi2Terminate(r->c));
  free(r->x);
  free(r->xs);
  free(r->k);
  free(r->g0);
  free(r->g1);
}

typedef struct compare_ctx {
  const stiction_table *ref;
  fmi2ValueReference vr[3];
  double worst;
  int mode_mismatch;
} compare_ctx;

static void compare_sample(me_run *r, double t) {
  compare_ctx *cc = r->ctx;
  double xv[2];
  fmi2Integer m;
  OK(r->u->f.fmi2GetReal(r->c, cc->vr, 2, xv));
  OK(r->u->f.fmi2GetInteger(r->c, cc->vr + 2, 1, &m));
  cc->worst = fmax(cc->worst, fmax(fabs(xv[0] - at(cc->ref, "x", t)),
                                    fabs(xv[1] - at(cc->ref, "v", t))));
  cc->mode_mismatch += m != (int)at(cc->ref, "mode", t);
}

/* Model Exchange under the importer's RK4 (h = 1 ms, local error ~1e-13, events located to
 * 1e-13 s) against simulate's CVODE at rtol 1e-6: the gap is the reference's own error,
 * (6e-7 measured on x and v, which are of order 0.1 to 1, over 10 s and 21 events); 1e-5
 * leaves room for that and fails on any event handled one pass wrong (a mode off for
 * 10 ms moves v by 1e-2). */
START_TEST(model_exchange_matches_simulate) {
  fmu_dir u;
  const char *model = st_test_src("tests/data/compile/FrictionBlock.mo");
  export_and_open(&u, "me", model, "FrictionBlock");
  stiction_table *ref = simulate("me", model);
  compare_ctx cc = {ref, {vr_of(&u, "x"), vr_of(&u, "v"), vr_of(&u, "mode")}, 0, 0};
  me_run r = {.u = &u, .c = instantiate(&u, fmi2ModelExchange, "me"), .sample = compare_sample,
              .ctx = &cc};
  me_simulate(&r, 10, 1e-3, 0.01);
  ck_assert_msg(cc.worst < 1e-5, "ME off simulate by %g", cc.worst);
  ck_assert_int_eq(cc.mode_mismatch, 0);
  ck_assert_int_ge(r.events, 5);
  u.f.fmi2FreeInstance(r.c);
  stiction_table_free(ref);
  close_fmu(&u);
}
END_TEST

/* ------------------------------------------------------------------ inputs */

/* InputLag: 0.05 x' = u - x with u held over each 1 ms step; the exact solution of the held
 * input is the reference. CS integrates with CVODE (rtol 1e-6), ME with the importer's RK4:
 * its error per step is about (h/T)^5/5! = 2.7e-11, damped by the lag to at most
 * 2.7e-11 / (1 - exp(-h/T)) = 1.4e-9 (5e-10 measured). */
typedef struct lag_ctx {
  fmi2ValueReference u, x, y, high;
  double exact, worst, worst_y;
} lag_ctx;

static double lag_input(int k) { return sin(0.01 * k); }

static void lag_check(lag_ctx *l, fmu_dir *f, fmi2Component c, double u) {
  double x, y;
  fmi2Boolean high;
  OK(f->f.fmi2GetReal(c, &l->x, 1, &x));
  OK(f->f.fmi2GetReal(c, &l->y, 1, &y));
  OK(f->f.fmi2GetBoolean(c, &l->high, 1, &high));
  l->exact = u + (l->exact - u) * exp(-1e-3 / 0.05);
  l->worst = fmax(l->worst, fabs(x - l->exact));
  l->worst_y = fmax(l->worst_y, fabs(y - (high ? x : 0)));
}

/* The same stepping through include/stiction/modelica.h: x after each of n steps. */
static double *api_lag(int n) {
  stiction_modelica *mo = stiction_modelica_new();
  stiction_program *prog;
  ck_assert_int_eq(stiction_modelica_load_file(mo, st_test_src("tests/data/embed/InputLag.mo")), 0);
  ck_assert_int_eq(stiction_modelica_compile(mo, "InputLag", NULL, 0, &prog), 0);
  stiction_instance *in = stiction_instance_new(prog);
  double *x = malloc(sizeof *x * (size_t)n);
  ck_assert_int_eq(stiction_instance_start(in, NULL, NULL), 0);
  for (int k = 1; k <= n; k++) {
    ck_assert_int_eq(stiction_instance_set_by_name(in, "u", lag_input(k)), 0);
    ck_assert_int_eq(stiction_instance_advance(in, (k - 1) * 1e-3 + 1e-3), 0); /* as DoStep */
    ck_assert_int_eq(stiction_instance_get_by_name(in, "x", &x[k - 1]), 0);
  }
  stiction_instance_free(in);
  stiction_program_free(prog);
  stiction_modelica_free(mo);
  return x;
}

/* Co-Simulation is stiction's own stepping (stiction_sim_advance): the same numbers as the
 * stepping API, bit for bit; against the closed form, CVODE's error after a restart at every
 * input change (as for the API, README). */
START_TEST(cosimulation_input_each_step) {
  fmu_dir u;
  export_and_open(&u, "csin", st_test_src("tests/data/embed/InputLag.mo"), "InputLag");
  double *api = api_lag(1000);
  lag_ctx l = {vr_of(&u, "u"), vr_of(&u, "x"), vr_of(&u, "y"), vr_of(&u, "high"), 0, 0, 0};
  ck_assert_ptr_nonnull(strstr(u.xml, "causality=\"input\""));
  fmi2Component c = instantiate(&u, fmi2CoSimulation, "lag");
  initialize(&u, c, 1);
  fmi2Boolean high, was_high = 0;
  for (int k = 1; k <= 1000; k++) {
    double in = lag_input(k);
    OK(u.f.fmi2SetReal(c, &l.u, 1, &in));
    OK(u.f.fmi2DoStep(c, (k - 1) * 1e-3, 1e-3, 1));
    lag_check(&l, &u, c, in);
    double x;
    OK(u.f.fmi2GetReal(c, &l.x, 1, &x));
    ck_assert_msg(x == api[k - 1], "step %d: FMU %.17g, API %.17g", k, x, api[k - 1]);
    OK(u.f.fmi2GetBoolean(c, &l.high, 1, &high));
    was_high |= high;
  }
  ck_assert(was_high); /* x passed 0.3: the relation's event happened inside a step */
  ck_assert_msg(l.worst < 1e-4, "CS lag off the closed form by %g", l.worst);
  free(api);
  ck_assert_double_eq(l.worst_y, 0);
  /* a parameter cannot change after initialization */
  fmi2ValueReference T = vr_of(&u, "T");
  double two = 2;
  ck_assert_int_eq(u.f.fmi2SetReal(c, &T, 1, &two), fmi2Error);
  ck_assert_ptr_nonnull(strstr(last_message, "after initialization"));
  u.f.fmi2FreeInstance(c);
  close_fmu(&u);
}
END_TEST

static void lag_me_input(me_run *r, double t) {
  lag_ctx *l = r->ctx;
  double in = lag_input((int)floor(t / 1e-3 + 1e-6) + 1); /* the step t lies in */
  OK(r->u->f.fmi2SetReal(r->c, &l->u, 1, &in));
}

static void lag_me_sample(me_run *r, double t) {
  lag_check(r->ctx, r->u, r->c, lag_input((int)lround(t / 1e-3)));
}

START_TEST(model_exchange_input_each_step) {
  fmu_dir u;
  export_and_open(&u, "mein", st_test_src("tests/data/embed/InputLag.mo"), "InputLag");
  lag_ctx l = {vr_of(&u, "u"), vr_of(&u, "x"), vr_of(&u, "y"), vr_of(&u, "high"), 0, 0, 0};
  me_run r = {.u = &u, .c = instantiate(&u, fmi2ModelExchange, "lag"), .input = lag_me_input,
              .sample = lag_me_sample, .ctx = &l};
  me_simulate(&r, 1, 1e-3, 1e-3);
  ck_assert_msg(l.worst < 1e-8, "ME lag off the closed form by %g", l.worst);
  ck_assert_double_eq(l.worst_y, 0);
  ck_assert_int_ge(r.events, 2); /* the initial one and x crossing 0.3 */
  u.f.fmi2FreeInstance(r.c);
  close_fmu(&u);
}
END_TEST

/* ------------------------------------------------------------------ instances */

/* v at every 10 ms of a CS run of c (f0 set when > 0). */
static void cs_series(fmu_dir *u, fmi2Component c, double f0, double *v, int n) {
  fmi2ValueReference f0vr = vr_of(u, "f0"), vvr = vr_of(u, "v");
  if (f0 > 0) OK(u->f.fmi2SetReal(c, &f0vr, 1, &f0));
  initialize(u, c, 10);
  for (int k = 0; k < n; k++) {
    OK(u->f.fmi2DoStep(c, k * 0.01, 0.01, 1));
    OK(u->f.fmi2GetReal(c, &vvr, 1, &v[k]));
  }
}

START_TEST(instances_side_by_side_and_reset) {
  fmu_dir u;
  export_and_open(&u, "inst", st_test_src("tests/data/compile/FrictionBlock.mo"),
                  "FrictionBlock");
  enum { N = 300 };
  static double alone[N], a[N], b[N], again[N];
  fmi2Component c = instantiate(&u, fmi2CoSimulation, "alone");
  cs_series(&u, c, 0, alone, N);
  OK(u.f.fmi2Reset(c)); /* back to instantiated: the same run again */
  cs_series(&u, c, 0, again, N);
  ck_assert_mem_eq(alone, again, sizeof alone);
  u.f.fmi2FreeInstance(c);
  /* two instances stepped in turn, one with its own friction force */
  fmi2Component ca = instantiate(&u, fmi2CoSimulation, "a");
  fmi2Component cb = instantiate(&u, fmi2CoSimulation, "b");
  fmi2ValueReference f0 = vr_of(&u, "f0"), vvr = vr_of(&u, "v");
  double half = 0.5;
  OK(u.f.fmi2SetReal(cb, &f0, 1, &half));
  initialize(&u, ca, 10);
  initialize(&u, cb, 10);
  for (int k = 0; k < N; k++) {
    OK(u.f.fmi2DoStep(ca, k * 0.01, 0.01, 1));
    OK(u.f.fmi2DoStep(cb, k * 0.01, 0.01, 1));
    OK(u.f.fmi2GetReal(ca, &vvr, 1, &a[k]));
    OK(u.f.fmi2GetReal(cb, &vvr, 1, &b[k]));
  }
  ck_assert_mem_eq(alone, a, sizeof a);
  double diff = 0;
  for (int k = 0; k < N; k++) diff = fmax(diff, fabs(a[k] - b[k]));
  ck_assert_msg(diff > 0.1, "f0 = 0.5 changed v by only %g", diff);
  u.f.fmi2FreeInstance(ca);
  u.f.fmi2FreeInstance(cb);
  close_fmu(&u);
}
END_TEST

/* Instances in two threads at once, each translating and running its own program: the
 * same numbers as one after the other. */
typedef struct thread_job {
  fmu_dir *u;
  double f0, v[300];
} thread_job;

static void *thread_run(void *arg) {
  thread_job *j = arg;
  fmi2Component c = j->u->f.fmi2Instantiate("thread", fmi2CoSimulation, j->u->guid, j->u->uri,
                                            &callbacks, 0, 0);
  fmi2ValueReference f0 = vr_of(j->u, "f0"), v = vr_of(j->u, "v");
  int bad = !c || j->u->f.fmi2SetReal(c, &f0, 1, &j->f0) ||
            j->u->f.fmi2SetupExperiment(c, 0, 0, 0, 1, 10) ||
            j->u->f.fmi2EnterInitializationMode(c) || j->u->f.fmi2ExitInitializationMode(c);
  for (int k = 0; k < 300 && !bad; k++)
    bad = j->u->f.fmi2DoStep(c, k * 0.01, 0.01, 1) || j->u->f.fmi2GetReal(c, &v, 1, &j->v[k]);
  if (c) j->u->f.fmi2FreeInstance(c);
  if (bad) j->v[0] = NAN;
  return NULL;
}

START_TEST(instances_in_threads) {
  fmu_dir u;
  export_and_open(&u, "thr", st_test_src("tests/data/compile/FrictionBlock.mo"),
                  "FrictionBlock");
  static thread_job a, b, alone_a, alone_b;
  a = (thread_job){&u, 1, {0}};
  b = (thread_job){&u, 0.5, {0}};
  alone_a = a;
  alone_b = b;
  thread_run(&alone_a);
  thread_run(&alone_b);
  pthread_t ta, tb;
  ck_assert_int_eq(pthread_create(&ta, NULL, thread_run, &a), 0);
  ck_assert_int_eq(pthread_create(&tb, NULL, thread_run, &b), 0);
  pthread_join(ta, NULL);
  pthread_join(tb, NULL);
  ck_assert(!isnan(a.v[0]) && !isnan(b.v[0]));
  ck_assert_mem_eq(a.v, alone_a.v, sizeof a.v);
  ck_assert_mem_eq(b.v, alone_b.v, sizeof b.v);
  close_fmu(&u);
}
END_TEST

/* ------------------------------------------------------------------ refusals */

START_TEST(wrong_guid_refused) {
  fmu_dir u;
  export_and_open(&u, "guid", st_test_src("tests/data/compile/FrictionBlock.mo"),
                  "FrictionBlock");
  last_message[0] = 0;
  fmi2Component c = u.f.fmi2Instantiate("x", fmi2CoSimulation, "{00000000-0000-0000-0000-"
                                        "000000000000}", u.uri, &callbacks, 0, 0);
  ck_assert_ptr_null(c);
  ck_assert_msg(strstr(last_message, "GUID") != NULL, "%s", last_message);
  /* a flat model changed after export is another model */
  char path[4300];
  snprintf(path, sizeof path, "%s/x/resources/stiction/model.stflat", u.dir);
  FILE *f = fopen(path, "r+b");
  ck_assert_ptr_nonnull(f);
  ck_assert_int_eq(fseek(f, 100, SEEK_SET), 0);
  fputc('#', f);
  fclose(f);
  c = u.f.fmi2Instantiate("x", fmi2ModelExchange, u.guid, u.uri, &callbacks, 0, 0);
  ck_assert_ptr_null(c);
  ck_assert_msg(strstr(last_message, "GUID") != NULL, "%s", last_message);
  close_fmu(&u);
}
END_TEST

/* A damaged model.stflat behind a GUID made to match it (the GUID of what is stored) is
 * refused by the loader in fmi2Instantiate, with the file and byte in the logger. */
START_TEST(damaged_flat_model_refused) {
  fmu_dir u;
  export_and_open(&u, "damaged", st_test_src("tests/data/compile/FrictionBlock.mo"),
                  "FrictionBlock");
  char dir[4300], path[4400], guid[ST_FMU_GUID_LEN + 1], *err = NULL;
  snprintf(dir, sizeof dir, "%s/x/resources/stiction", u.dir);
  snprintf(path, sizeof path, "%s/model.stflat", dir);
  long len = 0;
  char *bytes = st_read_file(path, &len);
  ck_assert_ptr_nonnull(bytes);
  FILE *f = fopen(path, "wb");
  ck_assert_ptr_nonnull(f);
  ck_assert_uint_eq(fwrite(bytes, 1, (size_t)len / 2, f), (size_t)len / 2); /* truncated */
  fclose(f);
  free(bytes);
  st_fmu_manifest m;
  ck_assert_int_eq(st_fmu_manifest_read(&m, dir, &err), 0);
  ck_assert_int_eq(st_fmu_guid_of(&m, dir, guid, &err), 0);
  st_fmu_manifest_free(&m);
  last_message[0] = 0;
  fmi2Component c = u.f.fmi2Instantiate("x", fmi2CoSimulation, guid, u.uri, &callbacks, 0, 0);
  ck_assert_ptr_null(c);
  ck_assert_msg(strstr(last_message, "model.stflat: byte ") != NULL, "%s", last_message);
  ck_assert_msg(strstr(last_message, "truncated") != NULL, "%s", last_message);
  close_fmu(&u);
}
END_TEST

/* The saved flat model names its files relative to where they came from: a model exported
 * from two directories gives the same model.stflat and GUID, without either directory. */
START_TEST(same_fmu_wherever_exported) {
  char *text = st_read_file(st_test_src("tests/data/compile/FrictionBlock.mo"), NULL);
  ck_assert_ptr_nonnull(text);
  char *flat[2] = {NULL, NULL}, guid[2][64], copy[2][4200];
  long len[2];
  for (int k = 0; k < 2; k++) {
    const char *tag = k ? "where-b" : "where-a";
    char dir[4096];
    snprintf(dir, sizeof dir, "%s", st_test_tmp(tag, "dir"));
    mkdir(dir, 0755);
    snprintf(copy[k], sizeof copy[k], "%s/FrictionBlock.mo", dir);
    FILE *f = fopen(copy[k], "w");
    ck_assert_ptr_nonnull(f);
    fputs(text, f);
    fclose(f);
    fmu_dir u;
    export_and_open(&u, tag, copy[k], "FrictionBlock");
    char path[4300];
    snprintf(path, sizeof path, "%s/x/resources/stiction/model.stflat", u.dir);
    flat[k] = st_read_file(path, &len[k]);
    ck_assert_ptr_nonnull(flat[k]);
    snprintf(guid[k], sizeof guid[k], "%s", u.guid);
    close_fmu(&u);
    remove(copy[k]);
    rmdir(dir);
  }
  ck_assert_str_ne(copy[0], copy[1]);
  ck_assert_int_eq(len[0], len[1]);
  ck_assert(memcmp(flat[0], flat[1], (size_t)len[0]) == 0);
  ck_assert_str_eq(guid[0], guid[1]);
  const char *slash = strrchr(copy[0], '/');
  size_t dir_len = (size_t)(slash - copy[0]);
  for (long i = 0; i + (long)dir_len <= len[0]; i++)
    ck_assert_msg(memcmp(flat[0] + i, copy[0], dir_len) != 0, "the export directory at byte %ld", i);
  free(flat[0]);
  free(flat[1]);
  free(text);
}
END_TEST

START_TEST(broken_model_leaves_file) {
  const char *out = st_test_tmp("broken", "Broken.fmu");
  FILE *f = fopen(out, "w");
  ck_assert_ptr_nonnull(f);
  fputs("previous\n", f);
  fclose(f);
  char args[8400];
  snprintf(args, sizeof args, "fmu '%s' -o '%s'", st_test_src("tests/data/embed/Broken.mo"), out);
  st_test_expect(1, args, "Broken.mo:5:", "error");
  char *text = st_read_file(out, NULL);
  ck_assert_str_eq(text, "previous\n");
  free(text);
  remove(out);
  st_test_expect(2, "fmu", "missing MODEL.mo or CLASS");
}
END_TEST

/* The FMU's library resolves every symbol by itself and libc/libm: this test process links
 * libstiction (and so libffi, SUNDIALS, ...), which would hide a missing one from dlopen
 * here, so `ldd -r` performs the relocations in a process of its own (fmusim crashed on an
 * FMU whose library needed libffi's ffi_type_pointer). */
START_TEST(library_is_self_contained) {
  fmu_dir u;
  export_and_open(&u, "self", st_test_src("tests/data/compile/FrictionBlock.mo"), "FrictionBlock");
  char cmd[4400];
  snprintf(cmd, sizeof cmd, "ldd -r '%s/x/binaries/linux64/FrictionBlock.so' 2>&1", u.dir);
  FILE *p = popen(cmd, "r");
  ck_assert_ptr_nonnull(p);
  char line[1024];
  int lines = 0;
  while (fgets(line, sizeof line, p)) {
    lines++;
    ck_assert_msg(!strstr(line, "undefined symbol") && !strstr(line, "not found"), "%s", line);
  }
  ck_assert_int_eq(pclose(p), 0);
  ck_assert_int_gt(lines, 0); /* ldd ran and listed libc at least */
  close_fmu(&u);
}
END_TEST

/* A model with C code to build goes as Modelica text (the C is built where the FMU runs),
 * the others as the saved flat model (model_description). */
START_TEST(external_c_model_goes_as_text) {
  st_test_cache_home("fmu-extc");
  fmu_dir u;
  export_and_open(&u, "extc", st_test_src("tests/data/embed/ExternalInclude.mo"),
                  "ExternalInclude");
  char *manifest = read_manifest(&u);
  ck_assert_ptr_nonnull(strstr(manifest, "load files/1/ExternalInclude.mo\n"));
  ck_assert_ptr_null(strstr(manifest, "flat "));
  free(manifest);
  fmi2Component c = instantiate(&u, fmi2CoSimulation, "extc");
  initialize(&u, c, 1);
  for (int k = 0; k < 10; k++) OK(u.f.fmi2DoStep(c, k * 0.1, 0.1, 1));
  fmi2ValueReference vr = vr_of(&u, "x");
  double x;
  OK(u.f.fmi2GetReal(c, &vr, 1, &x));
  ck_assert_msg(fabs(x - exp(-2.0)) < 1e-5, "x(1) = %.9g, exp(-2) = %.9g", x, exp(-2.0));
  OK(u.f.fmi2Terminate(c));
  u.f.fmi2FreeInstance(c);
  close_fmu(&u);
  st_test_cache_remove();
}
END_TEST

int main(void) {
  Suite *s = suite_create("fmu");
  st_test_case(s, "fmu", 120,
               ST_TESTS(xml_checker_rejects, model_description, cosimulation_matches_simulate,
                        model_exchange_matches_simulate, cosimulation_input_each_step,
                        model_exchange_input_each_step, instances_side_by_side_and_reset,
                        instances_in_threads,
                        wrong_guid_refused, broken_model_leaves_file, library_is_self_contained,
                        external_c_model_goes_as_text, damaged_flat_model_refused,
                        same_fmu_wherever_exported));
  return st_test_main(s);
}
