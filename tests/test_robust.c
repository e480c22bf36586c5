/* Bad input must fail cleanly, in bounded time and memory: exit status 1, a located error,
 * and no sanitizer report (under --enable-sanitizers a memory or UB error would print one and
 * change the exit status). The "mutants" are models found by semantic mutation fuzzing
 * (tests/fuzz_models.py), each file in tests/data/robust one distinct root cause; the other
 * cases are crashes and hangs of issue 21, their big inputs generated here at run time. */
#include <check.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <fcntl.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <stiction/bam.h>
#include <stiction/demos.h>
#include <stiction/stiction.h>

#include "tamsi/tamsi_json.h"
#include "io/table_impl.h"
#include "testutil.h"

/* The temporary directory of this run (made in main, removed at the end): the only place
 * the tests write. */
static char tmp_dir[] = "/tmp/stiction_robust_XXXXXX";

/* tmp_dir/name in a static buffer. */
static const char *tmp_path(const char *name) {
  static char buf[512];
  snprintf(buf, sizeof buf, "%s/%s", tmp_dir, name);
  return buf;
}

/* How run_child() sets up the command's process. */
typedef struct child_setup {
  int close_stdout;     /* run with standard output closed */
  rlim_t address_space; /* RLIMIT_AS in bytes; 0: unchanged */
  rlim_t stack;         /* RLIMIT_STACK in bytes; 0: unchanged */
} child_setup;

/* Runs `stiction argv...` (argv NULL-terminated, argv[0] the subcommand) with stdout and
 * stderr into tmp_dir/out.txt (stdout only if open), under the limits of cs. Returns the exit
 * status, or 128 + signal; *out is the output (caller frees). */
static int run_child(const child_setup *cs, const char *const *argv, char **out) {
  const char *bin = getenv("STICTION_BIN") ? getenv("STICTION_BIN") : "./stiction";
  const char *const *a = argv;
  char *args[256] = {(char *)bin};
  int n = 1;
  while (*a && n < 255) args[n++] = (char *)*a++;
  args[n] = NULL;
  char path[512];
  snprintf(path, sizeof path, "%s", tmp_path("out.txt"));
  fflush(NULL);
  pid_t pid = fork();
  ck_assert_int_ge(pid, 0);
  if (pid == 0) {
    int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0600);
    if (fd < 0) _exit(120);
    dup2(fd, 2);
    if (cs->close_stdout) close(1);
    else dup2(fd, 1);
    close(fd);
    if (cs->address_space) {
      struct rlimit rl = {cs->address_space, cs->address_space};
      setrlimit(RLIMIT_AS, &rl);
    }
    if (cs->stack) {
      struct rlimit rl = {cs->stack, cs->stack};
      setrlimit(RLIMIT_STACK, &rl);
    }
    execv(bin, args);
    _exit(121);
  }
  int st;
  ck_assert_int_eq(waitpid(pid, &st, 0), pid);
  FILE *f = fopen(path, "r");
  ck_assert_ptr_nonnull(f);
  size_t cap = 1 << 16, len = 0, got;
  *out = malloc(cap);
  ck_assert_ptr_nonnull(*out);
  while ((got = fread(*out + len, 1, cap - 1 - len, f)) > 0)
    if ((len += got) == cap - 1) {
      *out = realloc(*out, cap *= 2);
      ck_assert_ptr_nonnull(*out);
    }
  (*out)[len] = 0;
  fclose(f);
  return WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
}

/* Writes text to tmp_dir/name; returns the path (static buffer of tmp_path). */
static const char *write_tmp(const char *name, const char *text) {
  const char *path = tmp_path(name);
  FILE *f = fopen(path, "w");
  ck_assert_ptr_nonnull(f);
  fputs(text, f);
  ck_assert_int_eq(fclose(f), 0);
  return path;
}

static void expect_located(const char *file, const char *needle) {
  char args[4096];
  snprintf(args, sizeof args, "simulate '%.3000s%.200s' -o '%s'",
           st_test_src("tests/data/robust/"), file, tmp_path("robust_out.csv"));
  char *out = NULL;
  int rc = st_test_run(&out, args);
  ck_assert_ptr_nonnull(out);
  ck_assert_msg(rc == 1, "exit %d for %s:\n%s", rc, file, out);
  ck_assert_msg(strstr(out, needle) != NULL, "missing '%s' in:\n%s", needle, out);
  ck_assert_msg(strstr(out, "Sanitizer") == NULL && strstr(out, "runtime error:") == NULL,
                "sanitizer report for %s:\n%s", file, out);
  free(out);
}

/* st_compiled_free freed start_prog entries past its end (nslots had grown) */
START_TEST(index_reduction_failure_frees_cleanly) {
  expect_located("IndexReductionFails.mo",
                 "IndexReductionFails.mo:8:44: error: index reduction: cannot differentiate");
}
END_TEST

/* index.c: memcpy from NULL for an equation without unknowns */
START_TEST(equation_without_unknowns_in_index_reduction) {
  expect_located("DerOfConstant.mo", "DerOfConstant.mo:2:7: error: the model is structurally "
                 "singular");
}
END_TEST

/* structure.c: memcpy to a NULL adjacency list when no equation has an unknown */
START_TEST(no_equation_has_an_unknown) {
  expect_located("StringState.mo", "StringState.mo:3:7: error: the model is over-determined");
}
END_TEST

/* find_key() on an empty member name matched in place and never advanced. */
START_TEST(tamsi_empty_key_is_reported) {
  const char text[] = "{\"\":20}";
  st_tamsi_problem p;
  char err[256];
  int rc = st_tamsi_problem_parse(text, strlen(text), "e.json", &p, err, sizeof err);
  ck_assert_int_lt(rc, 0);
  ck_assert_msg(strstr(err, "e.json:1:2: error: unknown key ''") != NULL, "%s", err);
}
END_TEST

/* The text is len bytes without a NUL: placed against a PROT_NONE page, a read past len
 * faults. */
START_TEST(tamsi_parse_stays_within_len) {
  /* the unknown key, written with an escape, is searched for to the end of the text */
  const char text[] = "{\"nv\": 1, \"mu\": [], \"bo\\u0067us\" : 2}";
  size_t len = strlen(text);
  long page = sysconf(_SC_PAGESIZE);
  unsigned char *mem = mmap(NULL, 2 * (size_t)page, PROT_READ | PROT_WRITE,
                            MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  ck_assert_ptr_ne(mem, MAP_FAILED);
  ck_assert_int_eq(mprotect(mem + page, (size_t)page, PROT_NONE), 0);
  char *at = (char *)mem + page - len;
  memcpy(at, text, len);
  st_tamsi_problem p;
  char err[256];
  ck_assert_int_lt(st_tamsi_problem_parse(at, len, "t.json", &p, err, sizeof err), 0);
  ck_assert_msg(strstr(err, "t.json: error: unknown key 'bogus'") != NULL, "%s", err);
  munmap(mem, 2 * (size_t)page);
}
END_TEST

/* A MAT v4 matrix of doubles (type 0, or 1 for text) appended at *len. */
static void mat_append(unsigned char *buf, size_t *len, int32_t type, int32_t rows,
                       int32_t cols, const char *name, const double *v) {
  int32_t h[5] = {type, rows, cols, 0, (int32_t)strlen(name) + 1};
  memcpy(buf + *len, h, sizeof h);
  memcpy(buf + *len + sizeof h, name, (size_t)h[4]);
  *len += sizeof h + (size_t)h[4];
  memcpy(buf + *len, v, (size_t)rows * (size_t)cols * sizeof *v);
  *len += (size_t)rows * (size_t)cols * sizeof *v;
}

/* Text matrix of n strings of width w, one per column (binTrans: var-major). */
static void mat_text(double *v, const char *const *s, int n, int w) {
  for (int j = 0; j < n; j++)
    for (int i = 0; i < w; i++) v[j * w + i] = i < (int)strlen(s[j]) ? s[j][i] : ' ';
}

/* A binTrans dsres file with variables time and x; name_char replaces the first character
 * of x's name and info the column index of x. Returns the reader's status. */
static int read_mat(double name_char, double info, char *msg, size_t size) {
  static unsigned char buf[4096];
  size_t len = 0;
  double aclass[4 * 11], names[2 * 4], dinfo[2 * 4] = {0, 1, 0, -1, 2, 2, 0, -1};
  double data2[2 * 2] = {0, 1, 1, 2};
  const char *const ac[4] = {"Atrajectory", "1.1", "", "binTrans"};
  for (int r = 0; r < 4; r++) /* Aclass is row-wise text: 4 rows x 11 columns */
    for (int c = 0; c < 11; c++) aclass[c * 4 + r] = c < (int)strlen(ac[r]) ? ac[r][c] : ' ';
  const char *const nm[2] = {"time", "x"};
  mat_text(names, nm, 2, 4);
  names[4] = name_char;
  dinfo[5] = info;
  mat_append(buf, &len, 1, 4, 11, "Aclass", aclass);
  mat_append(buf, &len, 1, 4, 2, "name", names);
  mat_append(buf, &len, 0, 4, 2, "dataInfo", dinfo);
  mat_append(buf, &len, 0, 2, 2, "data_2", data2);
  stiction_table *t = NULL;
  int rc = st_table_read_mat(&t, "r.mat", buf, len, msg, size);
  stiction_table_free(t);
  return rc;
}

/* The MAT reader cast doubles to char and int: undefined out of range and for NaN. */
START_TEST(mat_reader_checks_characters_and_indices) {
  char msg[256] = "";
  ck_assert_int_eq(read_mat('x', 2, msg, sizeof msg), STICTION_OK);
  ck_assert_int_eq(read_mat(1e10, 2, msg, sizeof msg), STICTION_ERR_SYNTAX);
  ck_assert_msg(strstr(msg, "r.mat: name of variable 2: character 1 is 1e+10, not a byte")
                != NULL, "%s", msg);
  ck_assert_int_eq(read_mat(NAN, 2, msg, sizeof msg), STICTION_ERR_SYNTAX);
  ck_assert_msg(strstr(msg, "character 1 is nan") != NULL, "%s", msg);
  ck_assert_int_eq(read_mat(-200, 2, msg, sizeof msg), STICTION_ERR_SYNTAX);
  ck_assert_int_eq(read_mat('x', 1e300, msg, sizeof msg), STICTION_ERR_SYNTAX);
  ck_assert_msg(strstr(msg, "r.mat: variable 'x' has an invalid dataInfo entry (2, 1e+300)")
                != NULL, "%s", msg);
  ck_assert_int_eq(read_mat('x', NAN, msg, sizeof msg), STICTION_ERR_SYNTAX);
  ck_assert_int_eq(read_mat('x', 1.5, msg, sizeof msg), STICTION_ERR_SYNTAX);
}
END_TEST

/* Runs the bouncing ball over [start, stop] with the given interval; the status, and the
 * error in err. */
static int run_grid(double start, double stop, double interval, char *err, size_t size) {
  stiction_demo *demo;
  ck_assert_int_eq(stiction_demo_new(&demo, "bouncing-ball"), STICTION_OK);
  stiction_options opt;
  stiction_options_init(&opt);
  stiction_demo_options(demo, &opt);
  opt.start_time = start;
  opt.stop_time = stop;
  opt.interval = interval;
  stiction_sim *sim = stiction_sim_new(stiction_demo_model(demo), stiction_demo_data(demo), &opt);
  ck_assert_ptr_nonnull(sim);
  int rc = stiction_sim_run(sim);
  snprintf(err, size, "%s", stiction_sim_error(sim));
  stiction_sim_free(sim);
  stiction_demo_free(demo);
  return rc;
}

/* (long)ceil(span / 1e-300) was undefined; 1e-12 ran without bound. */
START_TEST(output_grid_is_bounded) {
  char err[512];
  ck_assert_int_eq(run_grid(0, 1, 1e-300, err, sizeof err), STICTION_ERR_ARG);
  ck_assert_msg(strstr(err, "output interval 1e-300 gives 1e+300 output points over [0, 1]; "
                            "the limit is 10000000") != NULL, "%s", err);
  ck_assert_int_eq(run_grid(0, 1, 1e-12, err, sizeof err), STICTION_ERR_ARG);
  ck_assert_int_eq(run_grid(0, 1, 1e-300, err, sizeof err), STICTION_ERR_ARG);
  ck_assert_int_eq(run_grid(0, 1e-3, 1e-11, err, sizeof err), STICTION_ERR_ARG);
  ck_assert_int_eq(run_grid(0, 1, 1e-3, err, sizeof err), STICTION_OK);
  /* 10^6 points, but closer than double times near 1e9 can tell apart */
  ck_assert_int_eq(run_grid(1e9, 1e9 + 0.1, 1e-7, err, sizeof err), STICTION_ERR_ARG);
  ck_assert_msg(strstr(err, "output interval 1e-07 is below the resolution of time values "
                            "near 1e+09") != NULL, "%s", err);
  /* the command line says the same and writes nothing */
  char *out = NULL, args[1024];
  snprintf(args, sizeof args, "demo bouncing-ball --interval 1e-300 -o '%s'",
           tmp_path("grid.csv"));
  ck_assert_int_eq(st_test_run(&out, args), 1);
  ck_assert_msg(strstr(out, "the limit is 10000000") != NULL, "%s", out);
  free(out);
}
END_TEST

/* The status of reading a BAM log whose header is `header` (JSON members) and whose second
 * entry has the timestamp t2; the message in err. */
static int read_bam_log(const char *header, double t2, char *err, size_t size) {
  char text[1024];
  snprintf(text, sizeof text, "{%s, \"entries\": ["
           "{\"timestamp\": 0, \"position\": 0, \"goal_position\": 1, \"torque_enable\": 1},"
           "{\"timestamp\": %g, \"position\": 0.1, \"goal_position\": 1, \"torque_enable\": 1}"
           "]}", header, t2);
  const char *path = write_tmp("log.json", text);
  stiction_bam_log *log = NULL;
  int rc = stiction_bam_log_read(path, &log, err, size);
  stiction_bam_log_free(log);
  return rc;
}

/* kp = -1e308 and negative or decreasing timestamps were accepted without a word. */
START_TEST(bam_log_values_are_checked) {
  const char *ok = "\"mass\": 0.5, \"length\": 0.1, \"kp\": 8, \"vin\": 15, \"dt\": 0.005";
  char err[512] = "";
  ck_assert_msg(read_bam_log(ok, 0.005, err, sizeof err) == STICTION_OK, "%s", err);
  ck_assert_int_eq(read_bam_log("\"mass\": 0.5, \"length\": 0.1, \"kp\": -1e308, \"vin\": 15, "
                                "\"dt\": 0.005", 0.005, err, sizeof err), STICTION_ERR_ARG);
  ck_assert_msg(strstr(err, "log.json: \"kp\" = -1e+308 must be in (0, 1e+12]"), "%s", err);
  ck_assert_int_eq(read_bam_log(ok, -0.005, err, sizeof err), STICTION_ERR_ARG);
  ck_assert_msg(strstr(err, "log.json: entry 1: \"timestamp\" -0.005 is negative"), "%s", err);
  char later[256];
  snprintf(later, sizeof later, "%s, \"damping\": 0.1", ok);
  ck_assert_int_eq(read_bam_log(later, 1e300, err, sizeof err), STICTION_ERR_ARG);
  ck_assert_msg(strstr(err, "entry 1: \"timestamp\" 1e+300 is out of range"), "%s", err);
}
END_TEST

/* (int) of the element count of 1:1e300 was undefined */
START_TEST(huge_range_is_an_error) {
  char model[512], *out;
  snprintf(model, sizeof model, "%s",
           write_tmp("Range.mo", "model Range\n  Real x[3];\nequation\n"
                     "  for i in 1:1e300 loop\n    x[1] = 1;\n  end for;\nend Range;\n"));
  child_setup cs = {0};
  int rc = run_child(&cs, (const char *const[]){"flatten", model, NULL}, &out);
  ck_assert_msg(rc == 1 && strstr(out, "Range.mo:4:12: error: range of 1e+300 elements is too "
                                       "long (limit 1000000)"), "exit %d:\n%s", rc, out);
  free(out);
  /* a range as long as an array may be (10^6) is taken: 1:150000 was refused at 10^5 */
  snprintf(model, sizeof model, "%s",
           write_tmp("LongRange.mo", "model LongRange\n  Real x[150000];\nequation\n"
                     "  for i in 1:150000 loop\n    x[i] = i;\n  end for;\nend LongRange;\n"));
  rc = run_child(&cs, (const char *const[]){"flatten", model, NULL}, &out);
  ck_assert_msg(rc == 0 && strstr(out, "x[150000] = 150000"), "exit %d", rc);
  free(out);
}
END_TEST

/* flatten kept 64 -L directories and dropped the rest without a word. */
START_TEST(flatten_takes_any_number_of_libraries) {
  enum { NLIB = 70 };
  static char dirs[NLIB][512];
  const char *argv[2 * NLIB + 3] = {"flatten"};
  int n = 1;
  for (int i = 0; i < NLIB; i++) {
    snprintf(dirs[i], sizeof dirs[i], "%s/lib%d", tmp_dir, i);
    ck_assert_int_eq(mkdir(dirs[i], 0700), 0);
    argv[n++] = "-L";
    argv[n++] = dirs[i];
  }
  char path[600];
  snprintf(path, sizeof path, "lib%d/Last.mo", NLIB - 1);
  write_tmp(path, "package Last\n  model M\n    Real x = 2;\n  end M;\nend Last;\n");
  argv[n++] = "Last.M"; /* a class name alone, as simulate takes it */
  argv[n] = NULL;
  char *out;
  child_setup cs = {0};
  int rc = run_child(&cs, argv, &out);
  ck_assert_msg(rc == 0 && strstr(out, "1 unknowns, 1 equations"), "exit %d:\n%s", rc, out);
  free(out);
  /* an unknown class is named as a class, not read as a file */
  rc = run_child(&cs, (const char *const[]){"flatten", "No.Such.Class", NULL}, &out);
  ck_assert_msg(rc == 1 && strstr(out, "class 'No.Such.Class' not found"), "exit %d:\n%s",
                rc, out);
  free(out);
}
END_TEST

/* A closed standard output: "-: No such file or directory" for -o -, exit 0 with the text
 * lost for flatten. */
START_TEST(closed_standard_output_is_an_error) {
  const char *model = write_tmp("Decay.mo", "model Decay\n  Real x(start = 1, fixed = true);\n"
                                            "equation\n  der(x) = -x;\nend Decay;\n");
  char mpath[512];
  snprintf(mpath, sizeof mpath, "%s", model);
  child_setup cs = {.close_stdout = 1};
  const char *const *cases[] = {
      (const char *const[]){"simulate", mpath, "-o", "-", NULL},
      (const char *const[]){"demo", "bouncing-ball", "-o", "-", NULL},
      (const char *const[]){"flatten", mpath, NULL},
      (const char *const[]){"parse", "--dump", mpath, NULL}};
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
    char *out;
    int rc = run_child(&cs, cases[i], &out);
    ck_assert_msg(rc == 1 && strstr(out, "standard output: Bad file descriptor") &&
                  !strstr(out, "-: "), "stiction %s: exit %d:\n%s", cases[i][0], rc, out);
    free(out);
  }
}
END_TEST

/* tmp_dir/name holding `model C Real x; equation x = 1 + 1 + ... + 1; end C;` with n terms
 * (a tree n levels high). */
static const char *write_chain(const char *name, int n) {
  const char *path = tmp_path(name);
  FILE *f = fopen(path, "w");
  ck_assert_ptr_nonnull(f);
  fputs("model C\n  Real x;\nequation\n  x = 1", f);
  for (int i = 1; i < n; i++) fputs("+1", f);
  fputs(";\nend C;\n", f);
  ck_assert_int_eq(fclose(f), 0);
  return path;
}

/* translate_binary overflowed the stack at 30 000 terms: the command's stack is 64 MiB and
 * every pass takes such a sum. */
START_TEST(sum_of_30000_terms_simulates) {
#if defined(__SANITIZE_ADDRESS__)
  enum { TERMS = 10000 }; /* sanitizer frames: 64 MiB hold ~16 000 levels (util/stack.h) */
#else
  enum { TERMS = 30000 };
#endif
  char model[512];
  snprintf(model, sizeof model, "%s", write_chain("chain.mo", TERMS));
  char *out;
  child_setup cs = {0};
  char csv[512];
  snprintf(csv, sizeof csv, "%s", tmp_path("chain.csv"));
  int rc = run_child(&cs, (const char *const[]){"simulate", model, "--stop-time", "1",
                                                "--interval", "0.5", "-o", csv, NULL}, &out);
  ck_assert_msg(rc == 0, "exit %d:\n%.2000s", rc, out);
  free(out);
  FILE *f = fopen(csv, "r");
  ck_assert_ptr_nonnull(f);
  char text[256] = "";
  size_t n = fread(text, 1, sizeof text - 1, f);
  text[n] = 0;
  fclose(f);
  char last[32];
  snprintf(last, sizeof last, "\n1,%d\n", (int)TERMS);
  ck_assert_msg(strstr(text, last), "%s", text);
}
END_TEST

/* 200 000 terms overflowed the stack in parse --dump; deeper than the stack can walk, the
 * sum is refused where it starts, and the 400 KB line is not echoed whole. */
START_TEST(sum_deeper_than_the_stack_is_located) {
  char model[512];
  snprintf(model, sizeof model, "%s", write_chain("deep.mo", 200000));
  char *out;
  child_setup cs = {0};
  int rc = run_child(&cs, (const char *const[]){"parse", "--dump", model, NULL}, &out);
  ck_assert_msg(rc == 1 && strstr(out, "deep.mo:4:7: error: expression nested too deeply: "
                                       "more than "), "exit %d:\n%.2000s", rc, out);
  ck_assert_msg(strlen(out) < 2000, "%zu bytes of messages", strlen(out));
  free(out);
}
END_TEST

/* 10^5 parentheses: bison's "memory exhausted" and the whole 200 KB line. */
START_TEST(deep_parentheses_are_located) {
  const char *path = tmp_path("parens.mo");
  FILE *f = fopen(path, "w");
  ck_assert_ptr_nonnull(f);
  fputs("model N\n  Real x = ", f);
  for (int i = 0; i < 100000; i++) fputc('(', f);
  fputc('1', f);
  for (int i = 0; i < 100000; i++) fputc(')', f);
  fputs(";\nend N;\n", f);
  ck_assert_int_eq(fclose(f), 0);
  char model[512], *out;
  snprintf(model, sizeof model, "%s", path);
  child_setup cs = {0};
  int rc = run_child(&cs, (const char *const[]){"flatten", model, NULL}, &out);
  ck_assert_msg(rc == 1 && strstr(out, "parens.mo:2:") &&
                strstr(out, ": error: nesting too deep: parentheses"), "exit %d:\n%.2000s",
                rc, out);
  ck_assert_msg(strlen(out) < 1000, "%zu bytes of messages", strlen(out));
  free(out);
}
END_TEST

/* sum() of a large array was a chain as long as the array: a stack overflow printing it on
 * a small stack (2 MiB here, which the command cannot raise). */
START_TEST(sum_of_a_large_array_stays_shallow) {
  const char *path = write_tmp("Sum.mo", "model Sum\n  parameter Integer n = 60000;\n"
                               "  Real x[n] = 1:n;\n  Real y;\nequation\n  y = sum(x);\n"
                               "end Sum;\n");
  char model[512], *out;
  snprintf(model, sizeof model, "%s", path);
  child_setup cs = {.stack = (rlim_t)2 << 20};
  int rc = run_child(&cs, (const char *const[]){"flatten", model, NULL}, &out);
  ck_assert_msg(rc == 0 && strstr(out, "60001 unknowns, 60001 equations"), "exit %d:\n%.2000s",
                rc, out);
  ck_assert_msg(strstr(out, "  y = x[1] + x[2] + x[3]"), "%.300s", strstr(out, "  y ="));
  free(out);
}
END_TEST

/* Runs `stiction argv...` under address-space limits from 4 MiB up in steps of 2 MiB until
 * it succeeds: every failure before must be an exit status 1 with "out of memory while" in
 * its message, never a signal or a silent exit. Returns how many limits failed that way. */
static int out_of_memory_sweep(const char *const *argv) {
  int failed = 0;
  for (rlim_t mib = 4; mib <= 64; mib += 2) {
    child_setup cs = {.address_space = mib << 20};
    char *out;
    int rc = run_child(&cs, argv, &out);
    /* Known limit: an allocation failing inside SUNDIALS during the run is reported as the
     * solver's failure ("CVODE failed at t = 0: CV_LSETUP_FAIL"), still exit 1. */
    ck_assert_msg(rc == 0 || (rc == 1 && (strstr(out, "out of memory while") ||
                                          strstr(out, "failed at t = "))),
                  "stiction %s under %d MiB: exit %d:\n%.1000s", argv[0], (int)mib, rc, out);
    free(out);
    if (rc == 0) return failed;
    failed++;
  }
  ck_abort_msg("stiction %s does not run in 64 MiB", argv[0]);
  return failed;
}

/* The parser's arena allocations were not checked (SIGSEGV under ulimit -v), and flattening
 * out of memory exited 1 without a word. (Under AddressSanitizer, whose shadow memory needs
 * terabytes of address space, there is nothing to limit.) */
START_TEST(out_of_memory_is_a_message) {
#if defined(__SANITIZE_ADDRESS__)
  return;
#endif
  const char *path = tmp_path("Many.mo");
  FILE *f = fopen(path, "w");
  ck_assert_ptr_nonnull(f);
  fputs("model Many\n", f);
  for (int i = 0; i < 60000; i++) fprintf(f, "  parameter Real p%d = %d.0 \"comment\";\n", i, i);
  fputs("end Many;\n", f);
  ck_assert_int_eq(fclose(f), 0);
  char many[512];
  snprintf(many, sizeof many, "%s", path);
  ck_assert_int_gt(out_of_memory_sweep((const char *const[]){"parse", many, NULL}), 0);
  char model[512], csv[512];
  snprintf(model, sizeof model, "%s",
           write_tmp("Mil.mo", "model Mil\n  parameter Integer n = 1000;\n"
                     "  Real x[n](each start = 1, each fixed = true);\nequation\n"
                     "  for i in 1:n loop\n    der(x[i]) = -x[i];\n  end for;\nend Mil;\n"));
  snprintf(csv, sizeof csv, "%s", tmp_path("mil.csv"));
  ck_assert_int_gt(out_of_memory_sweep((const char *const[]){"flatten", model, NULL}), 0);
  ck_assert_int_gt(out_of_memory_sweep((const char *const[]){"simulate", model, "-o", csv,
                                                             NULL}), 0);
}
END_TEST

int main(void) {
  if (!mkdtemp(tmp_dir)) {
    perror(tmp_dir);
    return EXIT_FAILURE;
  }
  Suite *s = suite_create("robust");
  st_test_case(s, "mutants", 120, ST_TESTS(index_reduction_failure_frees_cleanly,
               equation_without_unknowns_in_index_reduction, no_equation_has_an_unknown));
  st_test_case(s, "input", 10, ST_TESTS(tamsi_empty_key_is_reported, tamsi_parse_stays_within_len,
               mat_reader_checks_characters_and_indices));
  st_test_case(s, "limits", 60, ST_TESTS(output_grid_is_bounded, sum_of_30000_terms_simulates,
               sum_deeper_than_the_stack_is_located, deep_parentheses_are_located,
               sum_of_a_large_array_stays_shallow, out_of_memory_is_a_message));
  st_test_case(s, "cli", 30, ST_TESTS(flatten_takes_any_number_of_libraries,
               huge_range_is_an_error, bam_log_values_are_checked,
               closed_standard_output_is_an_error));
  int status = st_test_main(s);
  char rm[600];
  snprintf(rm, sizeof rm, "rm -rf '%s'", tmp_dir);
  if (system(rm) != 0) fprintf(stderr, "cannot remove %s\n", tmp_dir);
  return status;
}
