/* External C functions that models bring (src/compile/extlib.c, extcall.c; issue 16), with
 * the C code and models of tests/data/extc:
 *   - Include text, IncludeDirectory sources, the explicit and default call forms, arrays with
 *     their sizes, String and Integer arguments, outputs through pointers: closed forms;
 *   - a user's library beside the model: Library sources in Resources/C-Sources, its header in
 *     Resources/Include, an archive in Resources/Library built here;
 *   - the compiled code is cached by content: a second run builds nothing;
 *   - located errors: the C function reports one (ModelicaFormatError), the compiler fails
 *     (its message shown), the compiler is missing, the symbol is missing;
 *   - external objects: made once per instance when the parameters are known, passed to C,
 *     destroyed at the end and after a failure, one set per instance in threads. */
#include "config.h"

#include <check.h>
#include <dirent.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "simtable.h"
#include "testutil.h"

/* Simulates class cls of the library directory lib (under the source tree) into t. */
static int run_class(const char *lib, const char *cls, const char *opts, table *t, char **out) {
  const char *csv = st_test_tmp("extc", "out.csv");
  unlink(csv);
  int st = st_test_runf(out, "simulate -L '%s' %s %s -o '%s'", lib, cls, opts, csv);
  if (st == 0 && t) read_csv(csv, t);
  unlink(csv);
  return st;
}

/* The objects in the cache directory. */
static int cached_objects(void) {
  char dir[4200];
  snprintf(dir, sizeof dir, "%s/stiction", getenv("XDG_CACHE_HOME"));
  DIR *d = opendir(dir);
  int n = 0;
  for (struct dirent *e; d && (e = readdir(d));) n += strstr(e->d_name, ".so") != NULL;
  if (d) closedir(d);
  return n;
}

START_TEST(include_text_and_call_forms) {
  static table t;
  char *out = NULL;
  int st = run_class(st_test_src("tests/data/extc"), "Basic.M", "--tolerance 1e-9", &t, &out);
  ck_assert_msg(st == 0, "%s", out ? out : "");
  free(out);
  int ct = col(&t, "time"), cx = col(&t, "x"), cs = col(&t, "s"), cw = col(&t, "w");
  int cc = col(&t, "c"), cn = col(&t, "n"), cy1 = col(&t, "y[1]"), cy3 = col(&t, "y[3]");
  ck_assert_int_gt(t.nrows, 100);
  for (int i = 0; i < t.nrows; i++) {
    double tm = t.v[i][ct];
    ck_assert_msg(fabs(t.v[i][cx] - 1 / (1 + tm)) < 1e-6, "x(%g) = %.17g", tm, t.v[i][cx]);
    ck_assert_msg(fabs(t.v[i][cs] - 14 * tm) < 1e-12, "s(%g) = %.17g", tm, t.v[i][cs]);
    ck_assert_msg(fabs(t.v[i][cw] - tm * tm * tm) < 1e-12, "w(%g) = %.17g", tm, t.v[i][cw]);
    ck_assert_msg(t.v[i][cn] == 5 && t.v[i][cc] == 9, "n = %g, c = %g", t.v[i][cn], t.v[i][cc]);
    ck_assert_msg(t.v[i][cy1] == 2 && t.v[i][cy3] == 6, "y = %g, %g", t.v[i][cy1], t.v[i][cy3]);
  }
}
END_TEST

/* The compiled code is found by its content hash: the second translation builds nothing, and
 * gives the same result. */
START_TEST(second_run_uses_the_cache) {
  static table a, b;
  const char *lib = st_test_src("tests/data/extc");
  ck_assert_int_eq(run_class(lib, "Basic.M", "", &a, NULL), 0);
  int n = cached_objects();
  ck_assert_int_gt(n, 0);
  ck_assert_int_eq(run_class(lib, "Basic.M", "", &b, NULL), 0);
  ck_assert_int_eq(cached_objects(), n);
  ck_assert_int_eq(a.nrows, b.nrows);
  for (int i = 0; i < a.nrows; i++) ck_assert(a.v[i][col(&a, "x")] == b.v[i][col(&b, "x")]);
}
END_TEST

/* UserLib: Library sources in Resources/C-Sources, header in Resources/Include; an Integer
 * array in, two Integer outputs through pointers. */
START_TEST(user_library_from_sources) {
  static table t;
  char *out = NULL;
  int st = run_class(st_test_src("tests/data/extc"), "UserLib.Model", "", &t, &out);
  ck_assert_msg(st == 0, "%s", out ? out : "");
  free(out);
  int ct = col(&t, "time"), cy = col(&t, "y");
  for (int i = 0; i < t.nrows; i++) {
    double tm = t.v[i][ct];
    ck_assert_msg(fabs(t.v[i][cy] - ((tm + 2) * tm + 3)) < 1e-12, "y(%g) = %.17g", tm, t.v[i][cy]);
    ck_assert(t.v[i][col(&t, "lo")] == -2 && t.v[i][col(&t, "hi")] == 9);
  }
}
END_TEST

/* A Library found as an archive in the LibraryDirectory beside a model written here. */
START_TEST(user_library_archive) {
  const char *dir = st_test_tmp("extc", "arch");
  char cmd[8192], path[4200], src[4096];
  ck_assert_ptr_nonnull(realpath(st_test_src("tests/data/extc/csrc/extc_arch.c"), src));
  snprintf(cmd, sizeof cmd, "rm -rf '%s' && mkdir -p '%s/Lib' && cd '%s/Lib' && "
           "cc -c -fPIC '%s' -o a.o && ar rcs libextcarch.a a.o && rm a.o", dir, dir, dir, src);
  ck_assert_int_eq(system(cmd), 0);
  snprintf(path, sizeof path, "%s/Arch.mo", dir);
  FILE *f = fopen(path, "w");
  ck_assert_ptr_nonnull(f);
  fputs("model Arch\n  function twice\n    input Real x;\n    output Real y;\n"
        "  external \"C\" y = extc_arch_twice(x) annotation(Library = \"extcarch\",\n"
        "    LibraryDirectory = \"modelica://Arch/Lib\");\n  end twice;\n"
        "  Real y = twice(time);\nend Arch;\n", f);
  fclose(f);
  static table t;
  char *out = NULL;
  int st = run_class(dir, "Arch", "", &t, &out);
  ck_assert_msg(st == 0, "%s", out ? out : "");
  free(out);
  for (int i = 0; i < t.nrows; i++)
    ck_assert(t.v[i][col(&t, "y")] == 2 * t.v[i][col(&t, "time")]);
  snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
  ck_assert_int_eq(system(cmd), 0);
}
END_TEST

static void expect_error(const char *cls, const char *const *wanted) {
  char *out = NULL;
  int st = run_class(st_test_src("tests/data/extc"), cls, "", NULL, &out);
  ck_assert_msg(st == 1, "%s: exit %d\n%s", cls, st, out ? out : "");
  for (int i = 0; wanted[i]; i++)
    ck_assert_msg(out && strstr(out, wanted[i]), "%s: no '%s' in\n%s", cls, wanted[i],
                  out ? out : "");
  free(out);
}

START_TEST(located_errors) {
  expect_error("Errors.CError",
               (const char *const[]){"Errors.mo:11:10: error: the equation for y evaluated to NaN "
                                     "at t = 0.502 (function 'Errors.checked' (",
                                     "the C function 'extc_checked' reported an error: "
                                     "extc_checked: x = 1.502 is above the limit 1.5", NULL});
  expect_error("Errors.CompileError",
               (const char *const[]){"Errors.mo:21:14: error: external function 'Errors.broken' "
                                     "(declared at ", "Errors.mo:17:3): the C compiler",
                                     "include_annotation.c:1:42: error: expected expression",
                                     NULL});
  expect_error("Errors.MissingSymbol",
               (const char *const[]){"Errors.mo:31:14: error: external function 'Errors.missing'",
                                     "the C function 'extc_missing' is defined neither", NULL});
  expect_error("Errors.UnusedParameter",
               (const char *const[]){"Errors.mo:35:20: error: parameter p evaluated to NaN ("
                                     "function 'Errors.checked'",
                                     "extc_checked: x = 2 is above the limit 1.5", NULL});
  const char *cc = getenv("CC");
  setenv("CC", "/nonexistent/stiction-test-cc", 1);
  expect_error("Errors.CompileError",
               (const char *const[]){"the C compiler '/nonexistent/stiction-test-cc' could not be "
                                     "run (install one, or set CC)", NULL});
  if (cc) setenv("CC", cc, 1);
  else unsetenv("CC");
}
END_TEST

static int count(const char *text, const char *what) {
  int n = 0;
  for (const char *p = text; p && (p = strstr(p, what)); p += strlen(what)) n++;
  return n;
}

/* Two objects of one class side by side: each made once (however often the binding is
 * evaluated) when the parameters are known, passed to a function, destroyed at the end. */
START_TEST(external_objects) {
  static table t;
  char *out = NULL;
  int st = run_class(st_test_src("tests/data/extc"), "Objects.Two", "", &t, &out);
  ck_assert_msg(st == 0, "%s", out ? out : "");
  ck_assert_msg(count(out, "extc_gain_new k=2\n") == 1 && count(out, "extc_gain_new k=3\n") == 1 &&
                count(out, "extc_gain_free k=2\n") == 1 && count(out, "extc_gain_free k=3\n") == 1,
                "%s", out);
  ck_assert_msg(strstr(out, "extc_gain_free k=3") < strstr(out, "extc_gain_free k=2"),
                "destroyed newest first:\n%s", out);
  free(out);
  for (int i = 0; i < t.nrows; i++) {
    double tm = t.v[i][col(&t, "time")];
    ck_assert(t.v[i][col(&t, "y1")] == 2 * tm && t.v[i][col(&t, "y2")] == 3 * tm);
  }
}
END_TEST

/* The C code fails in mid-run: a located error, and both objects are still destroyed. */
START_TEST(objects_destroyed_after_failure) {
  char *out = NULL;
  int st = run_class(st_test_src("tests/data/extc"), "Objects.Failing", "", NULL, &out);
  ck_assert_msg(st == 1, "%s", out ? out : "");
  ck_assert_msg(strstr(out, "Objects.mo:40:10: error: the equation for y2 evaluated to NaN at "
                            "t = 0.502") &&
                strstr(out, "extc_gain_apply: input 100.6 out of range"), "%s", out);
  ck_assert_msg(count(out, "extc_gain_new") == 2 && count(out, "extc_gain_free") == 2, "%s", out);
  free(out);
}
END_TEST

/* Instances in threads (stiction sweep): each run has its own objects, made for its own
 * parameters; every object made is destroyed. */
START_TEST(objects_per_instance_in_threads) {
  char *out = NULL;
  int st = st_test_runf(&out, "sweep -L '%s' Objects.Two --grid k1=1:1:6 --metric 'final(y1)' "
                        "-j 2", st_test_src("tests/data/extc"));
  ck_assert_msg(st == 0, "%s", out ? out : "");
  for (int k = 1; k <= 6; k++) {
    char row[64];
    snprintf(row, sizeof row, "\n%d,%d,ok,501,0,0,%d,", k, k, k);
    ck_assert_msg(strstr(out, row), "no '%s' in\n%s", row + 1, out);
  }
  ck_assert_int_eq(count(out, "extc_gain_new"), count(out, "extc_gain_free"));
  ck_assert_int_ge(count(out, "extc_gain_new"), 12);
  free(out);
}
END_TEST

/* InitialWhen.mo: the initial() branch runs before the equation calling C with its variable
 * (before, the C code saw the start value 0 and failed initialization); y follows next. */
START_TEST(initial_when_before_its_readers) {
  static table t;
  char *out = NULL;
  int st = st_test_runf(&out, "simulate '%s' --stop-time 1.2 -o '%s'",
                        st_test_src("tests/data/extc/InitialWhen.mo"), st_test_tmp("extc", "iw.csv"));
  ck_assert_msg(st == 0, "%s", out ? out : "");
  free(out);
  read_csv(st_test_tmp("extc", "iw.csv"), &t);
  unlink(st_test_tmp("extc", "iw.csv"));
  ck_assert_int_gt(t.nrows, 100);
  for (int i = 1; i < t.nrows; i++) {
    double tm = t.v[i][col(&t, "time")], next = t.v[i][col(&t, "next")];
    ck_assert(t.v[i][col(&t, "y")] == next);
    ck_assert_msg(next > tm - 1e-6 && next <= tm + 0.5 + 1e-6, "next(%g) = %g", tm, next);
  }
}
END_TEST

/* Stateful.mo: the generator's state steps once per sample in a tuple equation of a when
 * (Real and Integer[2] outputs of C), as the C recurrence gives it here; a function calling an
 * impure C function as a statement; getInstanceName() as a String to C ("Two.gen": the
 * MSL's automatic local seeds hash it), the C code built with uthash's Jenkins hash. */
static void check_generator(const char *cls, const char *prefix) {
  static table t;
  char *out = NULL, name[64];
  int st = run_class(st_test_src("tests/data/extc"), cls, "--stop-time 1", &t, &out);
  ck_assert_msg(st == 0, "%s", out ? out : "");
  free(out);
  snprintf(name, sizeof name, "%sr", prefix);
  int ct = col(&t, "time"), cr = col(&t, name);
  snprintf(name, sizeof name, "%ss[1]", prefix);
  int c1 = col(&t, name);
  snprintf(name, sizeof name, "%ss[2]", prefix);
  int c2 = col(&t, name);
  for (int i = 0; i < t.nrows; i++) {
    if (*prefix) {
      ck_assert(t.v[i][col(&t, "gen.idCopy")] == 42);
      /* the simulated class's own name, not its package (section 3.7.4.6) */
      ck_assert(t.v[i][col(&t, "gen.nameLenCopy")] == (double)strlen("Two.gen"));
      ck_assert(t.v[i][col(&t, "gen.nameMatchesCopy")] == 1);
      ck_assert(t.v[i][col(&t, "gen.jenkinsCopy")] == 1);
    }
    /* the samples at 0, 0.1, 0.2, ... (rows at an event instant may hold either side; the
     * one at t = 0 fires right after initialization, so the first row has it) */
    int n = (int)floor(t.v[i][ct] / 0.1 + 1e-9) + 1;
    if (t.v[i][ct] > 0 && fabs(t.v[i][ct] - 0.1 * floor(t.v[i][ct] / 0.1 + 0.5)) < 1e-9)
      continue;
    unsigned s1 = 7;
    double r = 0;
    for (int k = 0; k < n; k++) {
      s1 = (1103515245u * s1 + 12345u) & 0x7fffffffu;
      r = s1 / 2147483648.0;
    }
    ck_assert_msg(t.v[i][c2] == n && t.v[i][c1] == s1 && t.v[i][cr] == r,
                  "%s t = %g: s = {%g, %g}, r = %g", cls, t.v[i][ct], t.v[i][c1], t.v[i][c2],
                  t.v[i][cr]);
  }
}

START_TEST(noise_like_generator) {
  check_generator("Stateful.Two", "gen.");
  check_generator("Stateful.InAlgorithm", "");
}
END_TEST

/* An impure C function in `when {initial(), sample(0.1, 0.1)}` is called once at
 * initialization (the event iteration there settles the discrete values and must not call
 * it again at every pass: it never converged), then once per sample: n = 1 + samples so far. */
START_TEST(impure_call_at_initialization) {
  static table t;
  char *out = NULL;
  int st = run_class(st_test_src("tests/data/extc"), "Stateful.ImpureCounter",
                     "--stop-time 0.35 --interval 0.05", &t, &out);
  ck_assert_msg(st == 0, "%s", out ? out : "");
  free(out);
  int ct = col(&t, "time"), cn = col(&t, "n");
  ck_assert_int_ge(t.nrows, 8);
  for (int i = 0; i < t.nrows; i++) {
    double tm = t.v[i][ct], want = 1 + floor(tm * 10 + 1e-9);
    if (i + 1 < t.nrows && t.v[i + 1][ct] == tm) want--; /* the left row of an instant */
    ck_assert_msg(t.v[i][cn] == want, "n(%g) = %g, want %g", tm, t.v[i][cn], want);
  }
}
END_TEST

/* loadResource("modelica://ResLib/Resources/data.txt") is the file's absolute path, which
 * reaches C (its length); a URI naming no file is a located error; a function inheriting the
 * same input from two bases has it once (twice(3) = 6). */
START_TEST(load_resource) {
  static table t;
  char *out = NULL;
  int st = run_class(st_test_src("tests/data/extc"), "ResLib.UsesFile", "--stop-time 0.1", &t,
                     &out);
  ck_assert_msg(st == 0, "%s", out ? out : "");
  free(out);
  char *abs = realpath(st_test_src("tests/data/extc/ResLib/Resources/data.txt"), NULL);
  ck_assert_ptr_nonnull(abs);
  ck_assert_double_eq(t.v[0][col(&t, "nCopy")], (double)strlen(abs));
  ck_assert_double_eq(t.v[0][col(&t, "y")], 6);
  free(abs);
  st = run_class(st_test_src("tests/data/extc"), "ResLib.MissingFile", "--stop-time 0.1", &t,
                 &out);
  ck_assert_int_ne(st, 0);
  ck_assert_msg(out && strstr(out, "package.mo:30:29: error: loadResource(\"modelica://ResLib/"
                                   "Resources/none.txt\"): ") &&
                    strstr(out, "none.txt does not exist"),
                "%s", out ? out : "");
  free(out);
}
END_TEST

/* Records.mo: records to C as structs (a Real, an Integer with the padding after it, a Real)
 * by address: an input in the explicit form, an output written by C, and the default form. */
START_TEST(records_as_structs) {
  static table t;
  run_ok("tests/data/extc/Records.mo", "Records.Use", "--stop-time 1 --interval 0.25", &t);
  ck_assert_int_ge(t.nrows, 5);
  for (int i = 0; i < t.nrows; i++) {
    double k = t.v[i][col(&t, "time")] + 1;
    ck_assert_double_eq(t.v[i][col(&t, "y")], 2 * 3 + 0.5);
    ck_assert_double_eq_tol(t.v[i][col(&t, "q.a")], 2 * k, 1e-12);
    ck_assert_double_eq(t.v[i][col(&t, "q.n")], 4);
    ck_assert_double_eq_tol(t.v[i][col(&t, "q.b")], 0.5 * k, 1e-12);
    ck_assert_double_eq(t.v[i][col(&t, "r.a")], 3);
    ck_assert_double_eq(t.v[i][col(&t, "r.n")], 4);
    ck_assert_double_eq(t.v[i][col(&t, "r.b")], 1.5);
  }
}
END_TEST

/* Scan.mo: strtod_l in a loaded object (the shim's fast path, else the C library's) reads
 * strtod's values and stops where strtod stops. */
START_TEST(strtod_l_in_objects) {
  static table t;
  run_ok("tests/data/extc/Scan.mo", "Scan.Use", "--stop-time 1 --interval 0.5", &t);
  ck_assert_int_ge(t.nrows, 1);
  ck_assert_double_eq(t.v[0][col(&t, "a")], 0.841470985);
  ck_assert_double_eq(t.v[0][col(&t, "b")], -2.5e-3);
  ck_assert_double_eq(t.v[0][col(&t, "c")], 1e23);
  ck_assert_double_eq(t.v[0][col(&t, "d")], 123456789012345678901.0);
  ck_assert_double_eq(t.v[0][col(&t, "e")], -1);
}
END_TEST

/* Records.mo: a record holding a record and arrays of fixed size reaches C as the struct a C
 * compiler lays out (the member struct aligned and padded to its widest field, arrays inline),
 * an input in the explicit form and an input and an output of the default form. */
START_TEST(nested_records_as_structs) {
  static table t;
  run_ok("tests/data/extc/Records.mo", "Records.Nested", "--stop-time 1 --interval 0.5", &t);
  ck_assert_int_ge(t.nrows, 3);
  static const char *const names[] = {"q.n", "q.s.k", "q.s.x", "q.m[1]", "q.m[2]", "q.m[3]",
                                      "q.v[1]", "q.v[2]", "q.tail"};
  static const double want[] = {4, 4, -3, 3, 2, 1, 0.5, 0.25, 1};
  for (int i = 0; i < t.nrows; i++) {
    double time = t.v[i][col(&t, "time")];
    ck_assert_double_eq_tol(t.v[i][col(&t, "y")], 1 + 20 + 300 + 6000 + 7500 + 400000 + time,
                            1e-9);
    for (int k = 0; k < 9; k++) ck_assert_double_eq(t.v[i][col(&t, names[k])], want[k]);
  }
}
END_TEST

/* Records.mo: a record C cannot take as a struct is a located error naming the field, also
 * when the NaN it leaves lands in an output that the checked derivatives do not hold. */
START_TEST(records_refused_with_reason) {
  expect_error("Records.ArrayField",
               (const char *const[]){"Records.mo:", "error: the equation for y evaluated to NaN",
                                     "function 'Records.extc_first_a' (",
                                     "its field 'p.v' is an array C cannot take", NULL});
}
END_TEST

/* WhenCall.mo: a function called as an equation of a when-equation runs once at its instant
 * (also `when terminal()`, as the MSL closes its files); its failure is located there. */
START_TEST(call_in_when_equation) {
  char *out = NULL;
  int st = run_class(st_test_src("tests/data/extc"), "WhenCall.Passes", "--stop-time 1", NULL,
                     &out);
  ck_assert_msg(st == 0, "%s", out ? out : "");
  ck_assert_msg(count(out, "extc_log: x = 0.25\n") == 1 && count(out, "extc_log: x = 2\n") == 1 &&
                count(out, "extc_log") == 2, "%s", out);
  free(out);
  expect_error("WhenCall.Fails",
               (const char *const[]){"WhenCall.mo:", "error: the function call failed",
                                     "at time 0.5", NULL});
}
END_TEST

/* WideInts.mo: Integers by value fill their whole 64-bit slot, also past the sixth integer
 * argument (on the stack) after a call that left ones there, so that a C size_t (the MSL's
 * tables' size() arguments) or long reads the value: before, the upper half was stale stack. */
START_TEST(integers_fill_their_slot) {
  static table t;
  run_ok("tests/data/extc/WideInts.mo", "WideInts.M", "--stop-time 1 --interval 0.5", &t);
  ck_assert_int_eq(t.nrows, 3);
  for (int i = 0; i < t.nrows; i++) {
    ck_assert_double_eq(t.v[i][col(&t, "y")], 1000 * 3 + 3 + 10 * 7 - 7 + 255);
    ck_assert_double_eq(t.v[i][col(&t, "z")], 1000 * 4 + 4 + 10 * 2 - 2);
  }
}
END_TEST

/* Writes a model extending FileTable.Base with fileName path into the test's directory;
 * returns the model's path. */
static const char *file_table_model(const char *name, const char *path) {
  const char *model = st_test_tmp("extc", name);
  FILE *f = fopen(model, "w");
  ck_assert_ptr_nonnull(f);
  fprintf(f, "model %.*s\n  extends FileTable.Base(fileName = \"%s\");\nend %.*s;\n",
          (int)(strlen(name) - 3), name, path, (int)(strlen(name) - 3), name);
  fclose(f);
  return model;
}

/* FileTable.mo: an object from a matrix, and from a file with the matrix parameter empty
 * (fill(0.0, 0, 2): its size comes from fill's arguments, the empty argument keeps its rank),
 * a parameter computed from the object; an unreadable file is a located error naming it. */
START_TEST(file_table) {
  static table t;
  const char *data = st_test_tmp("extc", "tab.txt"), *csv = st_test_tmp("extc", "ft.csv");
  FILE *f = fopen(data, "w");
  ck_assert_ptr_nonnull(f);
  fputs("0 0\n1 3\n2 1\n", f);
  fclose(f);
  char *out = NULL;
  int st = st_test_runf(&out, "simulate -L '%s' '%s' --stop-time 2 -o '%s'",
                        st_test_src("tests/data/extc"), file_table_model("FromFile.mo", data), csv);
  ck_assert_msg(st == 0, "%s", out ? out : "");
  free(out);
  read_csv(csv, &t);
  for (int i = 0; i < t.nrows; i++) {
    double tm = t.v[i][col(&t, "time")], y = t.v[i][col(&t, "y")];
    double want = tm <= 1 ? 3 * tm : 3 - 2 * (tm - 1);
    ck_assert_msg(fabs(y - want) < 1e-12, "y(%g) = %g, want %g", tm, y, want);
    ck_assert(t.v[i][col(&t, "tEndCopy")] == 2);
  }
  st = run_class(st_test_src("tests/data/extc"), "FileTable.FromMatrix", "--stop-time 2", &t, &out);
  ck_assert_msg(st == 0, "%s", out ? out : "");
  free(out);
  for (int i = 0; i < t.nrows; i++) {
    double tm = t.v[i][col(&t, "time")], y = t.v[i][col(&t, "y")];
    ck_assert(fabs(y - (tm <= 1 ? 2 * tm : 2 - 2 * (tm - 1))) < 1e-12);
  }
  const char *missing = st_test_tmp("extc", "missing.txt");
  unlink(missing);
  st = st_test_runf(&out, "simulate -L '%s' '%s' -o '%s'", st_test_src("tests/data/extc"),
                    file_table_model("Missing.mo", missing), csv);
  ck_assert_msg(st == 1 && strstr(out, "FileTable.mo:40:21: error: parameter t evaluated to NaN") &&
                strstr(out, "function 'FileTable.Table.constructor' (") &&
                strstr(out, "extc_table_open: cannot read the table file") && strstr(out, missing),
                "%s", out);
  free(out);
  unlink(data);
  unlink(csv);
  unlink(st_test_tmp("extc", "FromFile.mo"));
  unlink(st_test_tmp("extc", "Missing.mo"));
}
END_TEST

/* Derivative.mo: index reduction differentiates an external C function through its
 * derivative annotation (another C function): v = cos(t) to rounding. */
START_TEST(external_derivative) {
  static table t;
  char *out = NULL;
  const char *csv = st_test_tmp("extc", "der.csv");
  int st = st_test_runf(&out, "simulate '%s' --stop-time 1 -o '%s'",
                        st_test_src("tests/data/extc/Derivative.mo"), csv);
  ck_assert_msg(st == 0, "%s", out ? out : "");
  free(out);
  read_csv(csv, &t);
  unlink(csv);
  ck_assert_int_gt(t.nrows, 100);
  for (int i = 0; i < t.nrows; i++) {
    double tm = t.v[i][col(&t, "time")];
    ck_assert_msg(fabs(t.v[i][col(&t, "v")] - cos(tm)) < 1e-14, "v(%g) = %.17g", tm,
                  t.v[i][col(&t, "v")]);
    ck_assert(fabs(t.v[i][col(&t, "p")] - sin(tm)) < 1e-14);
  }
}
END_TEST

/* Sizes known only from C with parameters as arguments: the calls run while translating;
 * A = [11 12; 21 22; 31 32] (3 rows: the letters of "a b c", counted with isspace()). */
START_TEST(sizes_from_c_while_translating) {
  static table t;
  char *out = NULL;
  int st = run_class(st_test_src("tests/data/extc"), "SizeFromC.M", "", &t, &out);
  ck_assert_msg(st == 0, "%s", out ? out : "");
  free(out);
  for (int i = 0; i < t.nrows; i++)
    ck_assert_double_eq_tol(t.v[i][col(&t, "s")], 129 * t.v[i][col(&t, "time")], 1e-12);
  out = NULL;
  st = st_test_runf(&out, "flatten -L '%s' SizeFromC.M", st_test_src("tests/data/extc"));
  ck_assert_msg(st == 0 && out && strstr(out, "A[3,2]"), "%s", out ? out : "");
  free(out);
  /* impure functions (the MSL's readMatrixSize, readRealMatrix) when a size needs them */
  run_ok("tests/data/extc/SizeFromC.mo", "SizeFromC.Impure", "", &t);
  for (int i = 0; i < t.nrows; i++)
    ck_assert_double_eq_tol(t.v[i][col(&t, "s")], 129 * t.v[i][col(&t, "time")], 1e-12);
}
END_TEST

/* ImpureInitial.mo: an initial equation calling an impure C function runs once (evaluated
 * again at the solved point it restarted the MSL's impure random generator:
 * Blocks.Examples.Noise.ImpureGenerator). */
START_TEST(impure_initial_equation_once) {
  static table t;
  char *out = NULL;
  int st = run_class(st_test_src("tests/data/extc"), "ImpureInitial.M", "", &t, &out);
  ck_assert_msg(st == 0, "%s", out ? out : "");
  free(out);
  ck_assert_int_gt(t.nrows, 10);
  for (int i = 0; i < t.nrows; i++) {
    ck_assert_double_eq_tol(t.v[i][col(&t, "y")], 2 * t.v[i][col(&t, "x")], 1e-12);
  }
}
END_TEST

/* Fortran.M: routines of the FORTRAN 77 convention (extc_fortran.c): scalars and size() by
 * reference, a 2x3 matrix in and its transpose out in column-major order, an Integer matrix
 * updated in place, a CHARACTER argument with its hidden length, a FUNCTION's value under an
 * upper-case name. */
START_TEST(fortran_convention) {
  static table t;
  run_ok("tests/data/extc/Fortran.mo", "Fortran.M", "--stop-time 1", &t);
  ck_assert_int_gt(t.nrows, 10);
  char name[32];
  for (int r = 0; r < t.nrows; r++) {
    double tm = t.v[r][col(&t, "time")], w = 0;
    for (int i = 1; i <= 2; i++)
      for (int j = 1; j <= 3; j++) {
        double a = i == 2 && j == 3 ? 6 + tm : 3 * (i - 1) + j;
        snprintf(name, sizeof name, "B[%d,%d]", j, i);
        ck_assert_double_eq(t.v[r][col(&t, name)], a);
        snprintf(name, sizeof name, "K[%d,%d]", i, j);
        ck_assert_double_eq(t.v[r][col(&t, name)], 100 * (i - 1) + 10 * i + j);
        w += a * (i + 10 * j);
      }
    ck_assert_double_eq_tol(t.v[r][col(&t, "w")], w, 1e-12);
    ck_assert_double_eq(t.v[r][col(&t, "info")], 3);
    ck_assert_double_eq_tol(t.v[r][col(&t, "d")], 2 * (4 + 10 + 3 * tm), 1e-12);
  }
}
END_TEST

/* Fortran.Lapack: LAPACK's dgesv through a wrapper written here (Library = "lapack"): a
 * matrix that is not symmetric and needs pivoting gives back the X that made B; a singular
 * one gives info = 2. */
START_TEST(lapack_dgesv) {
#ifdef HAVE_LAPACK
  static table t;
  run_ok("tests/data/extc/Fortran.mo", "Fortran.Lapack", "--stop-time 1", &t);
  char name[32];
  for (int r = 0; r < t.nrows; r++) {
    double tm = t.v[r][col(&t, "time")];
    const double x[3][2] = {{1, tm}, {2, -1}, {3, 0.5}};
    for (int i = 0; i < 3; i++)
      for (int j = 0; j < 2; j++) {
        snprintf(name, sizeof name, "X[%d,%d]", i + 1, j + 1);
        ck_assert_double_eq_tol(t.v[r][col(&t, name)], x[i][j], 1e-12);
      }
    ck_assert_double_eq(t.v[r][col(&t, "info")], 0);
  }
  run_ok("tests/data/extc/Fortran.mo", "Fortran.Singular", "--stop-time 1", &t);
  ck_assert_double_eq(t.v[t.nrows - 1][col(&t, "info")], 2);
#else
  printf("SKIP lapack_dgesv: configure found no LAPACK (install liblapack-dev)\n");
#endif
}
END_TEST

/* A C file that an Include text reads from its IncludeDirectory, edited between two runs:
 * the second run builds a new object from the new text (the cache key holds the contents of
 * the include directories' sources, remembered by inode, size and times). */
START_TEST(edited_include_rebuilds) {
  const char *dir = st_test_tmp("extc", "edit");
  char cmd[4400], src[4400];
  snprintf(cmd, sizeof cmd, "rm -rf '%s' && mkdir -p '%s/src'", dir, dir);
  ck_assert_int_eq(system(cmd), 0);
  snprintf(src, sizeof src, "%s/src", dir);
  st_test_write(dir, "Edit.mo", "model Edit\n  function f\n    input Real x;\n    output Real y;\n"
             "  external \"C\" y = edit_f(x) annotation(Include = \"#include \\\"edit_f.c\\\"\",\n"
             "    IncludeDirectory = \"modelica://Edit/src\");\n  end f;\n"
             "  Real y = f(time);\nend Edit;\n");
  for (int k = 2; k <= 3; k++) {
    char text[200];
    snprintf(text, sizeof text, "double edit_f(double x) { return %d * x; }\n", k);
    st_test_write(src, "edit_f.c", text);
    static table t;
    char *out = NULL;
    int st = run_class(dir, "Edit", "", &t, &out);
    ck_assert_msg(st == 0, "%s", out ? out : "");
    free(out);
    ck_assert_int_gt(t.nrows, 10);
    for (int i = 0; i < t.nrows; i++)
      ck_assert_double_eq(t.v[i][col(&t, "y")], k * t.v[i][col(&t, "time")]);
  }
  snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
  ck_assert_int_eq(system(cmd), 0);
}
END_TEST

int main(void) {
  Suite *s = suite_create("extc");
  st_test_case(s, "extc", 120, ST_TESTS(include_text_and_call_forms, second_run_uses_the_cache,
               user_library_from_sources, user_library_archive, located_errors,
               external_objects, objects_destroyed_after_failure,
               objects_per_instance_in_threads, initial_when_before_its_readers,
               noise_like_generator, impure_call_at_initialization, load_resource, records_as_structs,
               nested_records_as_structs, strtod_l_in_objects, integers_fill_their_slot,
               records_refused_with_reason,
               call_in_when_equation, file_table, external_derivative,
               sizes_from_c_while_translating, impure_initial_equation_once,
               fortran_convention, lapack_dgesv, edited_include_rebuilds));
  st_test_cache_home("extc");
  int rc = st_test_main(s);
  st_test_cache_remove();
  return rc;
}
