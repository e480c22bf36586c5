/* The Modelica library in models/ (doc/library.md):
 *   - its files are where Modelica lookup expects them (package.order, `within`, class names),
 *   - every example carries the experiment settings of its reference and declares every signal
 *     the reference compares, under the reference's name (the comparison is by name),
 *   - every .mo file parses (`stiction parse`), every example flattens to a balanced model
 *     (`stiction flatten`), and every example not listed as a known failure simulates and
 *     passes `stiction compare` against tests/reference/msl/<class>/ with the signals of
 *     msl-v4.1.0/comparisonSignals.txt at the default tolerance, with CVODE and with IDA.
 * The command-based checks say so and stop when the command is not implemented yet. */
#include <check.h>
#include <dirent.h>
#include <math.h>
#include <regex.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "testutil.h"

typedef struct example {
  const char *cls; /* full class name = reference folder name; the file is models/<path>.mo */
} example;

static const example examples[] = {
    {"Modelica.Mechanics.Rotational.Examples.CoupledClutches"},
    {"Modelica.Mechanics.Rotational.Examples.Friction"},
    {"Modelica.Mechanics.Rotational.Examples.LossyGearDemo1"},
    {"Modelica.Mechanics.Rotational.Examples.LossyGearDemo2"},
    {"Modelica.Mechanics.Rotational.Examples.LossyGearDemo3"},
    {"Modelica.Mechanics.Rotational.Examples.OneWayClutch"},
    {"Modelica.Mechanics.Rotational.Examples.OneWayClutchDisengaged"},
    {"Modelica.Mechanics.Rotational.Examples.SimpleGearShift"},
    {"Modelica.Mechanics.Rotational.Examples.Backlash"},
    {"Modelica.Mechanics.Translational.Examples.Friction"},
    {"Modelica.Mechanics.Translational.Examples.PreLoad"},
    {"Modelica.Mechanics.Translational.Examples.Brake"},
    {"Modelica.Mechanics.Translational.Examples.HeatLosses"},
    {"ModelicaTest.Rotational.TestFriction"},
    {"ModelicaTest.Rotational.TestBraking"},
    {"ModelicaTest.Translational.TestBraking"},
};
#define N_EXAMPLES ((int)(sizeof examples / sizeof examples[0]))

/* Examples that do not pass the reference comparison yet, with the reason (doc/library.md).
 * They are still simulated and their outcome printed; all others must pass. */
static const char *const known_failures[] = {
    /* they do not match the reference yet or do not simulate to the end (chattering,
     * inconsistent mixed system or failed Newton at initialization); none at present
     * (LossyGearDemo2 passes since singular mixed blocks take the solution of least compared
     * unknowns, solve.c singular_step) */
    NULL,
};

/* ---- small helpers --------------------------------------------------------------------- */

/* snprintf that reports whether the text fitted (paths here are far below the limits). */
static int fmt(char *out, size_t size, const char *format, ...) __attribute__((format(printf, 3, 4)));
static int fmt(char *out, size_t size, const char *format, ...) {
  va_list ap;
  va_start(ap, format);
  int n = vsnprintf(out, size, format, ap);
  va_end(ap);
  return n >= 0 && (size_t)n < size;
}

static char *read_text(const char *path) {
  FILE *f = fopen(path, "rb");
  if (!f) return NULL;
  size_t cap = 1 << 16, len = 0, n;
  char *buf = malloc(cap);
  while (buf && (n = fread(buf + len, 1, cap - len - 1, f)) > 0) {
    len += n;
    if (cap - len < 2) {
      char *nb = realloc(buf, cap *= 2);
      if (!nb) free(buf);
      buf = nb;
    }
  }
  fclose(f);
  if (buf) buf[len] = 0;
  return buf;
}

static int exists(const char *path) {
  struct stat sb;
  return stat(path, &sb) == 0;
}

static int is_dir(const char *path) {
  struct stat sb;
  return stat(path, &sb) == 0 && S_ISDIR(sb.st_mode);
}

static const char *models_dir(void) {
  static char buf[4096];
  fmt(buf, sizeof buf, "%s", st_test_src("models"));
  return buf;
}

/* The .mo file of a class name under models/ ("A.B.C" -> models/A/B/C.mo). */
static void class_file(char *out, size_t size, const char *cls) {
  fmt(out, size, "%s/", models_dir());
  size_t n = strlen(out);
  for (const char *c = cls; *c && n + 4 < size; c++) out[n++] = *c == '.' ? '/' : *c;
  fmt(out + n, size - n, ".mo");
}

static int is_known_failure(const char *cls) {
  for (size_t i = 0; i < sizeof known_failures / sizeof known_failures[0]; i++)
    if (known_failures[i] && !strcmp(known_failures[i], cls)) return 1;
  return 0;
}

/* True (and says so once) when `stiction CMD` is still the placeholder. */
static int not_implemented(const char *cmd, int status, const char *out) {
  if (status == 2 && out && strstr(out, "not implemented")) {
    printf("test_library: 'stiction %s' is not implemented yet; its checks did not run\n", cmd);
    return 1;
  }
  return 0;
}

/* ---- walking models/ ------------------------------------------------------------------- */

typedef void (*file_fn)(const char *path, const char *rel, void *ctx);

/* Calls fn for every .mo file below dir; rel is the path relative to models/. */
static void walk(const char *dir, const char *rel, file_fn fn, void *ctx) {
  DIR *d = opendir(dir);
  if (!d) return;
  struct dirent *e;
  while ((e = readdir(d))) {
    if (e->d_name[0] == '.') continue;
    char path[4096], sub[4096];
    fmt(path, sizeof path, "%s/%s", dir, e->d_name);
    fmt(sub, sizeof sub, "%s%s%s", rel, *rel ? "/" : "", e->d_name);
    size_t len = strlen(e->d_name);
    if (is_dir(path)) walk(path, sub, fn, ctx);
    else if (len > 3 && !strcmp(e->d_name + len - 3, ".mo")) fn(path, sub, ctx);
  }
  closedir(d);
}

/* Skips white space and comments; returns the next token start. */
static const char *skip_ws(const char *p) {
  for (;;) {
    while (*p == ' ' || *p == '\t' || *p == '\n' || *p == '\r') p++;
    if (p[0] == '/' && p[1] == '/') {
      while (*p && *p != '\n') p++;
    } else if (p[0] == '/' && p[1] == '*') {
      const char *end = strstr(p + 2, "*/");
      p = end ? end + 2 : p + strlen(p);
    } else {
      return p;
    }
  }
}

static int ident_len(const char *p) {
  int n = 0;
  while ((p[n] >= 'a' && p[n] <= 'z') || (p[n] >= 'A' && p[n] <= 'Z') || p[n] == '_' || p[n] == '.' ||
         (n > 0 && p[n] >= '0' && p[n] <= '9'))
    n++;
  return n;
}

/* `within X;` of a file (X may be empty) into out; 0 if the file has none. */
static int within_of(const char *text, char *out, size_t size) {
  const char *p = skip_ws(text);
  if (strncmp(p, "within", 6) != 0) return 0;
  p = skip_ws(p + 6);
  int n = ident_len(p);
  fmt(out, size, "%.*s", n, p);
  return *skip_ws(p + n) == ';';
}

/* The name of the first class defined after the within clause. */
static int class_name_of(const char *text, char *out, size_t size) {
  static const char *const skip[] = {"within", "final", "encapsulated", "partial", "expandable",
                                     "operator", "pure", "impure", NULL};
  static const char *const kinds[] = {"class", "model", "record", "block", "connector", "type",
                                      "package", "function", NULL};
  const char *p = skip_ws(text);
  if (!strncmp(p, "within", 6)) p = strchr(p, ';') + 1;
  for (;;) {
    p = skip_ws(p);
    int n = ident_len(p), known = 0;
    for (int i = 0; skip[i]; i++) known |= (int)strlen(skip[i]) == n && !strncmp(p, skip[i], (size_t)n);
    if (known) { p += n; continue; }
    for (int i = 0; kinds[i]; i++)
      if ((int)strlen(kinds[i]) == n && !strncmp(p, kinds[i], (size_t)n)) {
        p = skip_ws(p + n);
        fmt(out, size, "%.*s", ident_len(p), p);
        return 1;
      }
    return 0;
  }
}

/* ---- structure: within, class names, package.order -------------------------------------- */

typedef struct problems {
  int n;
  char text[3000];
} problems;

static void problem(problems *pr, const char *format, ...) __attribute__((format(printf, 2, 3)));
static void problem(problems *pr, const char *format, ...) {
  size_t len = strlen(pr->text);
  va_list ap;
  va_start(ap, format);
  if (len < sizeof pr->text - 200) vsnprintf(pr->text + len, sizeof pr->text - len, format, ap);
  va_end(ap);
  pr->n++;
}

/* The package a file must be `within`, and the class it must define, from its path. */
static void expected_names(const char *rel, char *pkg, size_t psize, char *cls, size_t csize) {
  char tmp[4096];
  fmt(tmp, sizeof tmp, "%s", rel);
  tmp[strlen(tmp) - 3] = 0; /* drop .mo */
  char *last = strrchr(tmp, '/');
  if (last && !strcmp(last + 1, "package")) { /* A/B/package.mo defines B within A */
    *last = 0;
    last = strrchr(tmp, '/');
  }
  fmt(cls, csize, "%s", last ? last + 1 : tmp);
  if (last) *last = 0; else tmp[0] = 0;
  for (char *c = tmp; *c; c++) if (*c == '/') *c = '.';
  fmt(pkg, psize, "%s", tmp);
}

static void check_names(const char *path, const char *rel, void *ctx) {
  problems *pr = ctx;
  char *text = read_text(path);
  char pkg[1024], cls[256], within[1024], name[256];
  expected_names(rel, pkg, sizeof pkg, cls, sizeof cls);
  if (!text) { problem(pr, "%s: unreadable\n", rel); return; }
  if (!within_of(text, within, sizeof within)) problem(pr, "%s: no within clause\n", rel);
  else if (strcmp(within, pkg)) problem(pr, "%s: within %s, expected %s\n", rel, within, pkg);
  if (!class_name_of(text, name, sizeof name)) problem(pr, "%s: no class definition\n", rel);
  else if (strcmp(name, cls)) problem(pr, "%s: defines %s, expected %s\n", rel, name, cls);
  free(text);
}

START_TEST(files_within_and_class_names_match_paths) {
  problems pr = {0, ""};
  walk(models_dir(), "", check_names, &pr);
  ck_assert_msg(pr.n == 0, "%d problems:\n%s", pr.n, pr.text);
}
END_TEST

static int listed(const char *order, const char *name) {
  size_t n = strlen(name);
  for (const char *p = order; (p = strstr(p, name)); p += n)
    if ((p == order || p[-1] == '\n') && (p[n] == '\n' || p[n] == 0 || p[n] == '\r')) return 1;
  return 0;
}

/* Every class file or sub-package of a package is in its package.order, and every entry of
 * package.order is a file, a sub-package, or a class defined in the package.mo itself. */
static void check_order(const char *dir, const char *rel, problems *pr) {
  char path[4096];
  fmt(path, sizeof path, "%s/package.order", dir);
  char *order = read_text(path);
  fmt(path, sizeof path, "%s/package.mo", dir);
  char *pkg = read_text(path);
  if (!order) { problem(pr, "%s: no package.order\n", rel); free(pkg); return; }
  DIR *d = opendir(dir);
  struct dirent *e;
  while (d && (e = readdir(d))) {
    char name[256], sub[4096];
    size_t len = strlen(e->d_name);
    fmt(sub, sizeof sub, "%s/%s", dir, e->d_name);
    if (e->d_name[0] == '.' || !strcmp(e->d_name, "package.mo") || !strcmp(e->d_name, "package.order")) continue;
    if (is_dir(sub)) {
      fmt(name, sizeof name, "%s", e->d_name);
      char inner[4096];
      fmt(inner, sizeof inner, "%s/package.mo", sub);
      if (!exists(inner)) { problem(pr, "%s/%s: directory without package.mo\n", rel, name); continue; }
      check_order(sub, name, pr);
    } else if (len > 3 && !strcmp(e->d_name + len - 3, ".mo")) {
      fmt(name, sizeof name, "%.*s", (int)len - 3, e->d_name);
    } else {
      continue;
    }
    if (!listed(order, name)) problem(pr, "%s: %s missing from package.order\n", rel, name);
  }
  if (d) closedir(d);
  for (char *line = order, *next; line && *line; line = next) {
    next = strchr(line, '\n');
    if (next) *next++ = 0;
    if (!*line) continue;
    char f[4096], sd[4096], decl[300];
    fmt(f, sizeof f, "%s/%s.mo", dir, line);
    fmt(sd, sizeof sd, "%s/%s/package.mo", dir, line);
    fmt(decl, sizeof decl, " %s", line);
    if (!exists(f) && !exists(sd) && !(pkg && strstr(pkg, decl)))
      problem(pr, "%s: package.order names %s, which does not exist\n", rel, line);
  }
  free(order);
  free(pkg);
}

START_TEST(package_order_matches_files) {
  problems pr = {0, ""};
  const char *tops[] = {"Modelica", "ModelicaTest", "Stiction"};
  for (int i = 0; i < 3; i++) {
    char dir[4096];
    fmt(dir, sizeof dir, "%s/%s", models_dir(), tops[i]);
    ck_assert_msg(exists(dir), "models/%s is missing", tops[i]);
    check_order(dir, tops[i], &pr);
  }
  ck_assert_msg(pr.n == 0, "%d problems:\n%s", pr.n, pr.text);
}
END_TEST

/* ---- examples against their reference folders -------------------------------------------- */

static const char *ref_dir(const char *cls) {
  static char buf[4096];
  char rel[1024];
  fmt(rel, sizeof rel, "msl/%s", cls);
  fmt(buf, sizeof buf, "%s", st_test_ref(rel));
  return buf;
}

/* The number after `key=` in text (creation.txt or an annotation); NAN if absent. */
static double number_after(const char *text, const char *key) {
  size_t n = strlen(key);
  for (const char *p = text; (p = strstr(p, key)); p += n) {
    if (p > text && (p[-1] == '_' || (p[-1] >= 'a' && p[-1] <= 'z') || (p[-1] >= 'A' && p[-1] <= 'Z')))
      continue;
    const char *q = skip_ws(p + n);
    if (*q != '=') continue;
    return strtod(q + 1, NULL);
  }
  return NAN;
}

static const char *experiment_of(const char *text) {
  const char *p = strstr(text, "experiment(");
  return p ? p : "";
}

START_TEST(example_experiment_matches_reference) {
  const example *ex = &examples[_i];
  char file[4096], path[4096];
  class_file(file, sizeof file, ex->cls);
  char *mo = read_text(file);
  ck_assert_msg(mo != NULL, "%s: no file %s", ex->cls, file);
  fmt(path, sizeof path, "%s/creation.txt", ref_dir(ex->cls));
  char *creation = read_text(path);
  ck_assert_msg(creation != NULL, "%s: cannot read %s", ex->cls, path);
  const char *exp = experiment_of(mo);
  double stop = number_after(exp, "StopTime"), interval = number_after(exp, "Interval");
  double ref_stop = number_after(creation, "StopTime"), ref_dt = number_after(creation, "Interval");
  ck_assert_msg(stop == ref_stop, "%s: StopTime %g, reference %g", ex->cls, stop, ref_stop);
  ck_assert_msg(isnan(number_after(exp, "Tolerance")), "%s: the references use no Tolerance", ex->cls);
  if (strstr(creation, "multiplied by 0.5"))
    ck_assert_msg(fabs(0.5 * interval - ref_dt) <= 1e-12 * ref_dt, "%s: Interval %g, reference %g/0.5",
                  ex->cls, interval, ref_dt);
  else /* ModelicaTest: no Interval, the reference used StopTime/5000 */
    ck_assert_msg(isnan(interval) && fabs(stop / 5000 - ref_dt) <= 1e-12 * ref_dt,
                  "%s: Interval %g, reference grid %g", ex->cls, interval, ref_dt);
  free(mo);
  free(creation);
}
END_TEST

/* Declaration of `name` in text: `Type name(`, `Type name;`, `Type name "`, `Type name =`,
 * `Type name,`, or `Type a, name`. */
static int declares(const char *text, const char *name) {
  char pattern[512];
  fmt(pattern, sizeof pattern,
           "(^|[\n;])[ \t]*((final|flow|discrete|parameter|constant|input|output|protected)[ \t]+)*"
           "[A-Za-z_][A-Za-z0-9_.]*(\\[[^]]*\\])?[ \t]+([A-Za-z0-9_]+[ \t]*,[ \t]*)*%s[ \t]*([[(;=,\"]|$)",
           name);
  regex_t re;
  if (regcomp(&re, pattern, REG_EXTENDED | REG_NEWLINE)) return 0;
  int found = regexec(&re, text, 0, NULL, 0) == 0;
  regfree(&re);
  return found;
}

/* The file of class `type` as seen from directory dir (its enclosing packages, upwards). */
static int resolve_class(const char *type, const char *dir, char *out, size_t size) {
  char d[4096], rel[1024];
  fmt(d, sizeof d, "%s", dir);
  fmt(rel, sizeof rel, "%s", type);
  char *paren = strchr(rel, '(');
  if (paren) *paren = 0;
  for (char *c = rel; *c; c++) if (*c == '.') *c = '/';
  size_t root = strlen(models_dir());
  for (;;) {
    fmt(out, size, "%s/%s.mo", d, rel);
    if (exists(out)) return 1;
    char *slash = strrchr(d, '/');
    if (strlen(d) <= root || !slash) return 0;
    *slash = 0;
  }
}

/* Whether class file `path` or a class it extends (followed through files) declares member. */
static int class_declares(const char *path, const char *member, int depth) {
  char *text = read_text(path);
  if (!text || depth > 8) { free(text); return 0; }
  int found = declares(text, member);
  char dir[4096];
  fmt(dir, sizeof dir, "%s", path);
  *strrchr(dir, '/') = 0;
  for (const char *p = text; !found && (p = strstr(p, "extends ")); p += 8) {
    char type[512], file[4096];
    const char *q = skip_ws(p + 8);
    fmt(type, sizeof type, "%.*s", ident_len(q), q);
    if (resolve_class(type, dir, file, sizeof file)) found = class_declares(file, member, depth + 1);
  }
  free(text);
  return found;
}

/* The type name in the declaration of component `name` in text, or 0. */
static int component_type(const char *text, const char *name, char *out, size_t size) {
  char pattern[512];
  fmt(pattern, sizeof pattern, "(^|[\n;])[ \t]*([A-Za-z_][A-Za-z0-9_.]*)[ \t]+%s[ \t]*[(;\"]", name);
  regex_t re;
  regmatch_t m[3];
  if (regcomp(&re, pattern, REG_EXTENDED | REG_NEWLINE)) return 0;
  int ok = regexec(&re, text, 3, m, 0) == 0;
  if (ok) fmt(out, size, "%.*s", (int)(m[2].rm_eo - m[2].rm_so), text + m[2].rm_so);
  regfree(&re);
  return ok;
}

/* Checks one compared signal "comp.member" (or a top-level variable) against the example. */
static void check_signal(const char *mo, const char *dir, const char *signal, problems *pr) {
  char comp[256], type[512], file[4096];
  const char *dot = strchr(signal, '.');
  fmt(comp, sizeof comp, "%.*s", dot ? (int)(dot - signal) : (int)strlen(signal), signal);
  if (!dot) {
    if (!declares(mo, comp)) problem(pr, "%s: not declared\n", signal);
    return;
  }
  if (!component_type(mo, comp, type, sizeof type)) { problem(pr, "%s: no component %s\n", signal, comp); return; }
  if (!resolve_class(type, dir, file, sizeof file)) { problem(pr, "%s: class %s not found\n", signal, type); return; }
  if (strchr(dot + 1, '.')) return; /* deeper paths: not checked */
  if (!class_declares(file, dot + 1, 0)) problem(pr, "%s: %s declares no %s\n", signal, type, dot + 1);
}

START_TEST(example_declares_compared_signals) {
  const example *ex = &examples[_i];
  char file[4096], path[4096];
  class_file(file, sizeof file, ex->cls);
  char *mo = read_text(file);
  ck_assert_msg(mo != NULL, "%s: no file %s", ex->cls, file);
  fmt(path, sizeof path, "%s/msl-v4.1.0/comparisonSignals.txt", ref_dir(ex->cls));
  char *signals = read_text(path);
  ck_assert_msg(signals != NULL, "cannot read %s", path);
  fmt(path, sizeof path, "%s", file);
  *strrchr(path, '/') = 0;
  /* the header of the reference CSV: signals it lacks (inertia6, mass6) are skipped */
  char csv[4096];
  fmt(csv, sizeof csv, "%s/%s.csv", ref_dir(ex->cls), strrchr(ex->cls, '.') + 1);
  FILE *f = fopen(csv, "r");
  ck_assert_msg(f != NULL, "cannot read %s", csv);
  static char header[1 << 14];
  ck_assert_ptr_nonnull(fgets(header, sizeof header, f));
  fclose(f);
  problems pr = {0, ""};
  int checked = 0;
  for (char *line = signals, *next; line && *line; line = next) {
    next = strchr(line, '\n');
    if (next) *next++ = 0;
    char quoted[300];
    fmt(quoted, sizeof quoted, "\"%s\"", line);
    if (!*line || !strcmp(line, "time") || !strstr(header, quoted)) continue;
    check_signal(mo, path, line, &pr);
    checked++;
  }
  ck_assert_int_gt(checked, 0);
  ck_assert_msg(pr.n == 0, "%s: %d of %d signals:\n%s", ex->cls, pr.n, checked, pr.text);
  free(mo);
  free(signals);
}
END_TEST

/* ---- with the stiction command --------------------------------------------------------- */

typedef struct file_list {
  int n;
  char paths[400][512];
} file_list;

static void collect(const char *path, const char *rel, void *ctx) {
  file_list *l = ctx;
  if (l->n < 400) fmt(l->paths[l->n++], sizeof l->paths[0], "%s", path);
}

/* All files in one `stiction parse` run (silent on success); on failure the messages name the
 * files and lines. */
START_TEST(every_file_parses) {
  file_list *l = calloc(1, sizeof *l);
  walk(models_dir(), "", collect, l);
  ck_assert_int_gt(l->n, 100);
  ck_assert_int_lt(l->n, 400);
  size_t cap = 600 * (size_t)l->n, len = 0;
  char *args = malloc(cap);
  len += (size_t)sprintf(args, "parse");
  for (int i = 0; i < l->n; i++) len += (size_t)sprintf(args + len, " '%s'", l->paths[i]);
  char *out = NULL;
  int st = st_test_run(&out, args);
  if (!not_implemented("parse", st, out)) {
    printf("test_library: %d files parsed: exit %d\n", l->n, st);
    ck_assert_msg(st == 0, "stiction parse failed:\n%.3000s", out ? out : "");
  }
  free(out);
  free(args);
  free(l);
}
END_TEST

/* "N unknowns, M equations" at the end of `stiction flatten` output. */
static int balance_of(const char *out, int *unknowns, int *equations) {
  const char *p = NULL;
  for (const char *q = out; (q = strstr(q, " unknowns, ")); q++) p = q;
  if (!p) return 0;
  while (p > out && p[-1] >= '0' && p[-1] <= '9') p--;
  return sscanf(p, "%d unknowns, %d equations", unknowns, equations) == 2;
}

START_TEST(example_flattens_balanced) {
  const example *ex = &examples[_i];
  char file[4096];
  class_file(file, sizeof file, ex->cls);
  char *out = NULL;
  int st = st_test_runf(&out, "flatten -L '%s' '%s' %s", models_dir(), file, ex->cls);
  if (!not_implemented("flatten", st, out)) {
    int u = -1, e = -2;
    ck_assert_msg(st == 0, "%s: flatten exit %d\n%.2000s", ex->cls, st, out ? out : "");
    ck_assert_msg(balance_of(out, &u, &e), "%s: no balance line in the flat model", ex->cls);
    ck_assert_msg(u == e, "%s: %d unknowns, %d equations", ex->cls, u, e);
  }
  free(out);
}
END_TEST

/* The integer after `key` and a colon in text (stiction --stats, Dymola's simulate log). */
static int count_after(const char *text, const char *key) {
  const char *p = text ? strstr(text, key) : NULL;
  if (!p || !(p = strchr(p + strlen(key), ':'))) return -1;
  return (int)strtol(p + 1, NULL, 10);
}

/* Only relations that can change something make events (doc/events.md, "Active relations"),
 * as in Dymola: the number of state events is Dymola's (simulate_passed.log) within two.
 * The slack: a relation exactly on its threshold at an event, which Dymola resolves with a
 * state event of its own (SimpleGearShift: the brake's normal force reaches 0 at the end of
 * the ramp, a time event; PreLoad 6 vs 7), and a break-away whose waiting phase (start, then
 * the mode change at |w| = 1e-10, two events in Dymola) is one event when the velocity has
 * already left zero at the break-away event, which depends on the solver's steps
 * (SimpleGearShift: 3 or 4 vs 5). Without the rule, CoupledClutches has 54 (Dymola 9). */
static void check_state_events(const char *cls, const char *out) {
  char path[4096];
  fmt(path, sizeof path, "%s/simulate_passed.log", ref_dir(cls));
  char *log = read_text(path);
  int dymola = count_after(log, "Number of state events"), ours = count_after(out, "\nstate events");
  free(log);
  ck_assert_msg(dymola >= 0 && ours >= 0, "%s: no state event counts (%s)", cls, path);
  printf("test_library: %s state events %d, Dymola %d\n", cls, ours, dymola);
  /* ElastoBacklash limits its damping torque by `noEvent(tau_c + tau_d ...)`; Dymola's log
   * counts an event at each contact loss there (53), the noEvent makes none here (40): for
   * Backlash only fewer events than Dymola's are accepted. */
  if (!strcmp(cls, "Modelica.Mechanics.Rotational.Examples.Backlash")) {
    ck_assert_msg(ours <= dymola, "%s: %d state events, Dymola %d", cls, ours, dymola);
    return;
  }
  ck_assert_msg(abs(ours - dymola) <= 2, "%s: %d state events, Dymola %d", cls, ours, dymola);
}

/* Simulates example i with the solver (cvode or ida) on the reference's output grid and
 * compares it with the reference; known failures are run and reported, not asserted. */
static void match_reference(int i, const char *solver) {
  const example *ex = &examples[i];
  char creation[4096], result[512], csv[4096];
  fmt(creation, sizeof creation, "%s/creation.txt", ref_dir(ex->cls));
  char *text = read_text(creation);
  ck_assert_ptr_nonnull(text);
  double dt = number_after(text, "Interval");
  free(text);
  fmt(result, sizeof result, "/tmp/stiction_test_library_%ld_%d_%s.csv", (long)getpid(), i, solver);
  fmt(csv, sizeof csv, "%s/%s.csv", ref_dir(ex->cls), strrchr(ex->cls, '.') + 1);
  char *out = NULL;
  /* the experiment annotation gives the stop time; the output grid is the reference's */
  char file[4096];
  class_file(file, sizeof file, ex->cls);
  int st = st_test_runf(&out, "simulate -L '%s' '%s' %s -o '%s' --interval %.17g --solver %s --stats",
               models_dir(), file, ex->cls, result, dt, solver);
  if (not_implemented("simulate", st, out)) { free(out); return; }
  int pass = st == 0;
  char *cmp = NULL;
  if (pass) {
    pass = st_test_runf(&cmp, "compare '%s' '%s'", result, csv) == 0;
  }
  int known = is_known_failure(ex->cls);
  printf("test_library: %s (%s) %s%s\n", ex->cls, solver, pass ? "passes" : "fails",
         known ? " (known failure)" : "");
  if (!known)
    ck_assert_msg(pass, "%s (%s): %s\n%.3000s", ex->cls, solver,
                  st ? "simulate failed" : "compare failed", st ? (out ? out : "") : (cmp ? cmp : ""));
  if (!known) check_state_events(ex->cls, out);
  free(out);
  free(cmp);
  unlink(result);
}

/* CoupledClutches with its experiment settings on CVODE takes fewer than 600 steps (Dymola's
 * log: 515; 659 while the default bounded the step by 1/500 of the run, 477 now that the
 * indicators are sampled inside longer steps instead, doc/events.md "Frozen modes"), with
 * Dymola's 9 state events. */
START_TEST(coupled_clutches_steps_near_dymola) {
  const char *cls = "Modelica.Mechanics.Rotational.Examples.CoupledClutches";
  char file[4096], result[512], path[4096];
  class_file(file, sizeof file, cls);
  fmt(result, sizeof result, "/tmp/stiction_test_library_%ld_cc_steps.csv", (long)getpid());
  char *out = NULL;
  int st = st_test_runf(&out, "simulate -L '%s' '%s' %s -o '%s' --stats", models_dir(), file, cls, result);
  unlink(result);
  if (not_implemented("simulate", st, out)) { free(out); return; }
  ck_assert_msg(st == 0, "%.2000s", out ? out : "");
  fmt(path, sizeof path, "%s/simulate_passed.log", ref_dir(cls));
  char *log = read_text(path);
  int dymola = count_after(log, "Number of accepted steps"), steps = count_after(out, "\nsteps");
  free(log);
  printf("test_library: CoupledClutches %d steps, Dymola %d\n", steps, dymola);
  ck_assert_msg(dymola > 0 && steps > 0, "no step counts");
  ck_assert_msg(steps < 600, "CoupledClutches: %d steps (Dymola %d)", steps, dymola);
  ck_assert_int_eq(count_after(out, "\nstate events"), 9);
  free(out);
}
END_TEST

START_TEST(example_matches_reference) { match_reference(_i, "cvode"); }
END_TEST

/* The DAE form on IDA (issue 4, Backends: both forms pass the same tests): the loop unknowns
 * are IDA's, consistent values after every restart come from IDACalcIC and the model's
 * algebraic slopes (src/exec/dae.c). Same references, tolerances and event counts. */
START_TEST(example_matches_reference_ida) { match_reference(_i, "ida"); }
END_TEST

/* The Stiction examples: they parse and flatten like the MSL ones. */
START_TEST(stiction_examples_flatten_balanced) {
  static const char *const names[] = {"Stiction.Examples.LeineBelt", "Stiction.Examples.LuGreStickSlip"};
  for (int i = 0; i < 2; i++) {
    char *out = NULL, file[4096];
    class_file(file, sizeof file, names[i]);
    int st = st_test_runf(&out, "flatten -L '%s' '%s' %s", models_dir(), file, names[i]);
    if (not_implemented("flatten", st, out)) { free(out); return; }
    int u = -1, e = -2;
    ck_assert_msg(st == 0, "%s: flatten exit %d\n%.2000s", names[i], st, out ? out : "");
    ck_assert_msg(balance_of(out, &u, &e) && u == e, "%s: %d unknowns, %d equations", names[i], u, e);
    free(out);
  }
}
END_TEST

/* ---- the Stiction benchmarks (doc/benchmarks.md sections 1-3) ------------------------------ */

typedef struct series {
  int n;
  double *t, *y;
} series;

/* Column `name` of a result CSV (header of names, one row per sample) with its time column. */
static int read_column(const char *path, const char *name, series *s) {
  char *text = read_text(path);
  if (!text) return 0;
  int col = -1, k = 0;
  char *eol = strchr(text, '\n');
  if (!eol) { free(text); return 0; }
  *eol = 0;
  for (char *h = strtok(text, ","); h; h = strtok(NULL, ","), k++) {
    if (*h == '"') h++;
    size_t len = strlen(h);
    if (len && h[len - 1] == '"') h[len - 1] = 0;
    if (!strcmp(h, name)) col = k;
  }
  size_t cap = 1024;
  s->n = 0;
  s->t = malloc(cap * sizeof *s->t);
  s->y = malloc(cap * sizeof *s->y);
  for (char *line = eol + 1, *next; col > 0 && line && *line; line = next) {
    next = strchr(line, '\n');
    if (next) *next++ = 0;
    if ((size_t)s->n == cap) {
      cap *= 2;
      s->t = realloc(s->t, cap * sizeof *s->t);
      s->y = realloc(s->y, cap * sizeof *s->y);
    }
    char *p = line;
    s->t[s->n] = strtod(p, NULL);
    for (int c = 0; c < col && p; c++) p = strchr(p, ','), p = p ? p + 1 : NULL;
    if (!p) break;
    s->y[s->n++] = strtod(p, NULL);
  }
  free(text);
  return col > 0 && s->n > 1;
}

static void free_series(series *s) {
  free(s->t);
  free(s->y);
}

/* Times where y crosses level upwards, linearly interpolated between samples. */
static int upward_crossings(const series *s, double level, double *out, int max) {
  int n = 0;
  for (int i = 1; i < s->n && n < max; i++)
    if (s->y[i - 1] < level && s->y[i] >= level && s->t[i] > s->t[i - 1])
      out[n++] = s->t[i - 1] + (level - s->y[i - 1]) * (s->t[i] - s->t[i - 1]) / (s->y[i] - s->y[i - 1]);
  return n;
}

/* Simulates Stiction.Examples.LeineBelt with a law and width through a small extending model
 * (the experiment annotation is not inherited) and returns the mean period of x. */
static double leine_period_on(const char *law, double eps, double interval, const char *solver,
                              const char *extra) {
  char mo[256], csv[256], *out = NULL;
  fmt(mo, sizeof mo, "/tmp/stiction_test_library_%ld_LB%s.mo", (long)getpid(), law);
  fmt(csv, sizeof csv, "/tmp/stiction_test_library_%ld_LB%s.csv", (long)getpid(), law);
  FILE *f = fopen(mo, "w");
  if (!f) return NAN;
  fprintf(f, "model LB%s\n  extends Stiction.Examples.LeineBelt(law=Stiction.Types.FrictionLaw.%s, eps=%.17g);\n"
             "end LB%s;\n", law, law, eps, law);
  fclose(f);
  int st = st_test_runf(&out, "simulate -L '%s' '%s' -o '%s' --stop-time 60.005 --interval %g --tolerance 1e-6 "
               "--solver %s %s", models_dir(), mo, csv, interval, solver, extra);
  double period = NAN, c[16];
  series x = {0, NULL, NULL};
  if (st == 0 && read_column(csv, "x", &x)) {
    int n = upward_crossings(&x, 0.0, c, 16);
    if (n >= 3) period = (c[n - 1] - c[0]) / (n - 1);
  } else {
    printf("test_library: LeineBelt %s: simulate exit %d\n%.600s\n", law, st, out ? out : "");
  }
  free_series(&x);
  free(out);
  unlink(mo);
  unlink(csv);
  return period;
}

static double leine_period(const char *law, double eps, double interval) {
  return leine_period_on(law, eps, interval, "cvode", "");
}

START_TEST(leine_belt_regularised_periods) {
  char *out = NULL;
  int st = st_test_runf(&out, "simulate --help");
  int placeholder = not_implemented("simulate", st, out);
  free(out);
  if (placeholder) return;
  /* doc/benchmarks.md §1.3: arctan with Leine's epsilon 1e3 (width 1e-3) and LuGre (100, 20) */
  double arctan = leine_period("Arctan", 1e-3, 0.005), lugre = leine_period("LuGre", 1e-3, 0.005);
  printf("test_library: LeineBelt periods arctan(1e-3) %.5f, LuGre %.5f\n", arctan, lugre);
  ck_assert_msg(fabs(arctan - 11.29810) < 1e-3, "arctan period %.6f, expected 11.29810", arctan);
  ck_assert_msg(fabs(lugre - 11.01344) < 1e-3, "LuGre period %.6f, expected 11.01344", lugre);
  /* Karnopp: the period approaches the exact 12.00103 as the band shrinks (doc/benchmarks.md §2) */
  double k2 = leine_period("Karnopp", 1e-2, 0.001), k3 = leine_period("Karnopp", 1e-3, 0.001),
         k4 = leine_period("Karnopp", 1e-4, 0.001);
  printf("test_library: LeineBelt Karnopp periods %.5f %.5f %.5f\n", k2, k3, k4);
  ck_assert_msg(fabs(k3 - 12.00103) < fabs(k2 - 12.00103) && fabs(k4 - 12.00103) < fabs(k3 - 12.00103),
                "Karnopp periods %.6f %.6f %.6f do not approach 12.00103", k2, k3, k4);
  ck_assert_msg(fabs(k4 - 12.00103) < 1e-3, "Karnopp band 1e-4: period %.6f", k4);
  /* the same on IDA (DAE form): the arctan period and the narrowest Karnopp band */
  double arctan_ida = leine_period_on("Arctan", 1e-3, 0.005, "ida", ""),
         k4_ida = leine_period_on("Karnopp", 1e-4, 0.001, "ida", "");
  printf("test_library: LeineBelt on IDA: arctan(1e-3) %.5f, Karnopp(1e-4) %.5f\n", arctan_ida, k4_ida);
  ck_assert_msg(fabs(arctan_ida - 11.29810) < 1e-3, "IDA arctan period %.6f, expected 11.29810",
                arctan_ida);
  ck_assert_msg(fabs(k4_ida - 12.00103) < 1e-3, "IDA Karnopp band 1e-4: period %.6f", k4_ida);
}
END_TEST

/* The exact (event-driven) belt through `stiction simulate` with the step bounded by 1/500 of
 * the run (the default when this tolerance was set; free steps give 1.18e-4, see
 * test_demos_sim check_leine), rtol 1e-6: period 12.001031 s +-1e-4 (doc/benchmarks.md §1.2 and
 * 8, fixture 1). The issue's +-1e-5 needs a tighter rtol (doc/study.md; tests/test_study.c
 * asserts it there). */
START_TEST(leine_belt_event_driven_period) {
  char *out = NULL;
  int st = st_test_runf(&out, "simulate --help");
  int placeholder = not_implemented("simulate", st, out);
  free(out);
  if (placeholder) return;
  double period = leine_period_on("EventDriven", 1e-3, 0.001, "cvode", "--max-step 0.12001");
  printf("test_library: LeineBelt event-driven period %.6f\n", period);
  ck_assert_msg(fabs(period - 12.001031) < 1e-4, "event-driven period %.6f, expected 12.001031",
                period);
}
END_TEST

START_TEST(lugre_stick_slip_numbers) {
  char csv[256], file[4096], *out = NULL;
  fmt(csv, sizeof csv, "/tmp/stiction_test_library_%ld_lugre.csv", (long)getpid());
  class_file(file, sizeof file, "Stiction.Examples.LuGreStickSlip");
  int st = st_test_runf(&out, "simulate -L '%s' '%s' -o '%s'", models_dir(), file, csv);
  if (not_implemented("simulate", st, out)) { free(out); return; }
  ck_assert_msg(st == 0, "simulate exit %d\n%.2000s", st, out ? out : "");
  series v = {0, NULL, NULL};
  ck_assert(read_column(csv, "v", &v));
  /* doc/benchmarks.md §3: slip means v > 1e-3 m/s */
  double on[8], vmax = 0;
  int n = upward_crossings(&v, 1e-3, on, 8);
  for (int i = 0; i < v.n; i++) vmax = fmax(vmax, v.y[i]);
  printf("test_library: LuGre stick-slip first slip %.5f, period %.5f, v_max %.5f\n", on[0],
         n > 1 ? (on[n - 1] - on[0]) / (n - 1) : NAN, vmax);
  ck_assert_int_ge(n, 3);
  ck_assert_msg(fabs(on[0] - 7.4376) < 2e-3, "first slip %.6f, expected 7.4376", on[0]);
  ck_assert_msg(fabs((on[n - 1] - on[0]) / (n - 1) - 6.3627) < 2e-3, "period, expected 6.3627");
  ck_assert_msg(fabs(vmax - 0.3698) < 1e-3, "v_max %.6f, expected 0.3698", vmax);
  free_series(&v);
  free(out);
  unlink(csv);
}
END_TEST

/* make check-msl's script (scripts/check-msl) on a library and reference folder written here:
 * an example that matches its reference, one whose reference is off by 0.1, one without a
 * reference CSV and one that does not translate. The table counts them per package, the
 * failures are named, the exit status says whether all with a reference verified, and a
 * prefix narrows the run. */
static void write_reference(const char *refs, const char *name, double offset, int csv) {
  char dir[4400], path[4500];
  snprintf(dir, sizeof dir, "%s/Lib/Mech/Examples/%s", refs, name);
  char cmd[4500];
  snprintf(cmd, sizeof cmd, "mkdir -p '%s'", dir);
  ck_assert_int_eq(system(cmd), 0);
  st_test_write(dir, "comparisonSignals.txt", "time\nx\n");
  if (!csv) return;
  snprintf(path, sizeof path, "%s/%s.csv", dir, name);
  FILE *f = fopen(path, "w");
  ck_assert_ptr_nonnull(f);
  fprintf(f, "\"time\",\"x\"\n");
  for (int i = 0; i <= 100; i++) fprintf(f, "%.17g,%.17g\n", i / 100.0, exp(-i / 100.0) + offset);
  ck_assert_int_eq(fclose(f), 0);
}

static int run_check_msl(const char *lib, const char *refs, const char *work, const char *prefix,
                         char **out) {
  const char *bin = getenv("STICTION_BIN");
  char cmd[16384];
  snprintf(cmd, sizeof cmd, "OUT='%s' JOBS=2 TIMEOUT=120 bash '%s' '%s' '%s' '%s' %s 2>&1", work,
           st_test_src("scripts/check-msl"), bin ? bin : "./stiction", lib, refs, prefix);
  FILE *p = popen(cmd, "r");
  ck_assert_ptr_nonnull(p);
  size_t cap = 1 << 16, len = 0, n;
  *out = calloc(1, cap);
  while ((n = fread(*out + len, 1, cap - len - 1, p)) > 0) len += n;
  int st = pclose(p);
  return (st >> 8) & 0xff;
}

START_TEST(check_msl_tables_a_library) {
  char root[4096], lib[4200], refs[4200], work[4200], cmd[4400];
  snprintf(root, sizeof root, "%s", st_test_tmp("library", "checkmsl"));
  snprintf(lib, sizeof lib, "%s/lib", root);
  snprintf(refs, sizeof refs, "%s/refs", root);
  snprintf(cmd, sizeof cmd, "mkdir -p '%s'", lib);
  ck_assert_int_eq(system(cmd), 0);
  const char *decay = "Real x(start = 1, fixed = true);\n equation\n der(x) = -x;\n"
                      " annotation(experiment(StopTime = 1, Interval = 0.01));\n";
  char text[2048];
  snprintf(text, sizeof text,
           "package Lib\n package Mech\n package Examples\n"
           " model Decay\n %s end Decay;\n model Shifted\n %s end Shifted;\n"
           " model NoCsv\n %s end NoCsv;\n"
           " model Broken\n Real x;\n equation\n der(x) = undefinedName;\n end Broken;\n"
           " end Examples;\n end Mech;\nend Lib;\n", decay, decay, decay);
  st_test_write(lib, "Lib.mo", text);
  write_reference(refs, "Decay", 0, 1);
  write_reference(refs, "Shifted", 0.1, 1);
  write_reference(refs, "NoCsv", 0, 0);
  write_reference(refs, "Broken", 0, 1);
  char *out = NULL;
  snprintf(work, sizeof work, "%s/all", root);
  int st = run_check_msl(lib, refs, work, "", &out);
  ck_assert_msg(st == 1, "exit %d\n%s", st, out);
  ck_assert_msg(strstr(out, "| Mech                         |        4 |        3 |        1 |"
                            "            1 |"), "%s", out);
  ck_assert_msg(strstr(out, "Lib.Mech.Examples.Shifted: not-verified: FAIL x"), "%s", out);
  ck_assert_msg(strstr(out, "Lib.Mech.Examples.Broken: failed: ") && strstr(out, "undefinedName"),
                "%s", out);
  ck_assert_msg(!strstr(out, "Decay: ") && !strstr(out, "NoCsv: "), "%s", out);
  free(out);
  snprintf(work, sizeof work, "%s/one", root);
  st = run_check_msl(lib, refs, work, "Lib.Mech.Examples.Decay", &out);
  ck_assert_msg(st == 0 && strstr(out, "| all                          |        1 |        1 |        1 |"),
                "exit %d\n%s", st, out);
  free(out);
  snprintf(cmd, sizeof cmd, "rm -rf '%s'", root);
  ck_assert_int_eq(system(cmd), 0);
}
END_TEST

static Suite *library_suite(void) {
  Suite *s = suite_create("library");
  TCase *tc = st_test_case(s, "structure", 0, ST_TESTS(files_within_and_class_names_match_paths,
                           package_order_matches_files));
  tcase_add_loop_test(tc, example_experiment_matches_reference, 0, N_EXAMPLES);
  tcase_add_loop_test(tc, example_declares_compared_signals, 0, N_EXAMPLES);
  tc = st_test_case(s, "command", 0, ST_TESTS(every_file_parses, stiction_examples_flatten_balanced,
                    coupled_clutches_steps_near_dymola, check_msl_tables_a_library));
  tcase_set_timeout(tc, 300); /* simulations under the sanitizers */
  tcase_add_loop_test(tc, example_flattens_balanced, 0, N_EXAMPLES);
  tcase_add_loop_test(tc, example_matches_reference, 0, N_EXAMPLES);
  tcase_add_loop_test(tc, example_matches_reference_ida, 0, N_EXAMPLES);
  st_test_case(s, "benchmarks", 300, ST_TESTS(lugre_stick_slip_numbers,
               leine_belt_regularised_periods, leine_belt_event_driven_period));
  return s;
}

int main(void) {
  return st_test_main(library_suite());
}
