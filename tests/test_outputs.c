/* Output files never destroy what they replace (util/outfile.h): results, event logs, plots,
 * BAM rollouts and TAMSI traces are written beside their path and put in place only when
 * complete; a failed run leaves the previous file (--keep-partial asks for its rows); devices
 * and pipes are written in place and never removed; an output naming an input is refused.
 * Everything happens in one temporary directory of this test. */
#include <check.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <sys/wait.h>
#include <unistd.h>
#include <dirent.h>

#include <stiction/stiction.h>

#include "util/outfile.h"
#include "testutil.h"

static char dir[256];

static void make_dir(void) {
  snprintf(dir, sizeof dir, "%s/stiction_outputs_XXXXXX", getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp");
  ck_assert_ptr_nonnull(mkdtemp(dir));
}

static void remove_dir(void) {
  char cmd[512];
  snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
  ck_assert_int_eq(system(cmd), 0);
}

static const char *in_dir(const char *name) {
  static char buf[4][512];
  static int k;
  k = (k + 1) % 4;
  snprintf(buf[k], sizeof buf[k], "%s/%s", dir, name);
  return buf[k];
}

static void put_text(const char *path, const char *text) {
  FILE *f = fopen(path, "w");
  ck_assert_ptr_nonnull(f);
  fputs(text, f);
  ck_assert_int_eq(fclose(f), 0);
}

static const char *text_of(const char *path) {
  static char buf[4096];
  FILE *f = fopen(path, "r");
  ck_assert_msg(f != NULL, "%s is missing", path);
  size_t n = fread(buf, 1, sizeof buf - 1, f);
  buf[n] = 0;
  fclose(f);
  return buf;
}

/* Files in the test directory (a leftover temporary file counts). */
static int entries(void) {
  DIR *d = opendir(dir);
  ck_assert_ptr_nonnull(d);
  int n = 0;
  for (struct dirent *e; (e = readdir(d));)
    n += strcmp(e->d_name, ".") && strcmp(e->d_name, "..");
  closedir(d);
  return n;
}

/* A child that reads the pipe at path to its end, so that writers of it do not block. */
static pid_t drain(const char *path) {
  pid_t pid = fork();
  ck_assert_int_ge(pid, 0);
  if (pid == 0) {
    int fd = open(path, O_RDONLY);
    char buf[4096];
    while (fd >= 0 && read(fd, buf, sizeof buf) > 0) {}
    _exit(0);
  }
  return pid;
}

START_TEST(outfile_killed_writer_leaves_nothing) {
  make_dir();
  const char *path = in_dir("r.txt");
  st_outfile o;
  ck_assert_int_eq(st_outfile_open(&o, path, "w"), 0);
  fputs("before\n", o.file);
  ck_assert_int_eq(st_outfile_commit(&o), 0);
  pid_t pid = fork();
  ck_assert_int_ge(pid, 0);
  if (pid == 0) {
    if (st_outfile_open(&o, path, "w")) _exit(3);
    for (int i = 0; i < 1000; i++) fprintf(o.file, "row %d\n", i);
    fflush(o.file);
    raise(SIGKILL);
    _exit(4);
  }
  int status;
  ck_assert_int_eq(waitpid(pid, &status, 0), pid);
  ck_assert(WIFSIGNALED(status) && WTERMSIG(status) == SIGKILL);
  /* the previous file, and the dead writer's rows beside it */
  ck_assert_str_eq(text_of(path), "before\n");
  ck_assert_int_eq(entries(), 2);
  /* a live writer's temporary file is left alone; the dead one's goes at the next write */
  st_outfile live;
  ck_assert_int_eq(st_outfile_open(&live, in_dir("other.txt"), "w"), 0);
  ck_assert_int_eq(st_outfile_open(&o, path, "w"), 0);
  ck_assert_int_eq(entries(), 3); /* r.txt, its new temporary file, other's; the stale one gone */
  fputs("after\n", o.file);
  ck_assert_int_eq(st_outfile_commit(&o), 0);
  st_outfile_abort(&live);
  ck_assert_str_eq(text_of(path), "after\n");
  ck_assert_int_eq(entries(), 1);
  remove_dir();
}
END_TEST

START_TEST(outfile_commit_abort_and_modes) {
  make_dir();
  const char *path = in_dir("r.txt");
  st_outfile o;
  /* a new file: nothing at the path until commit, then nothing else left */
  ck_assert_int_eq(st_outfile_open(&o, path, "w"), 0);
  ck_assert_ptr_nonnull(o.temp);
  fputs("one\n", o.file);
  ck_assert_int_ne(access(path, F_OK), 0);
  ck_assert_int_eq(st_outfile_commit(&o), 0);
  ck_assert_str_eq(text_of(path), "one\n");
  ck_assert_int_eq(entries(), 1);
  /* an abort leaves the previous contents and no temporary file */
  ck_assert_int_eq(chmod(path, 0640), 0);
  ck_assert_int_eq(st_outfile_open(&o, path, "w"), 0);
  fputs("two\n", o.file);
  st_outfile_abort(&o);
  ck_assert_str_eq(text_of(path), "one\n");
  ck_assert_int_eq(entries(), 1);
  /* a replacement keeps the permissions of the file it replaces */
  ck_assert_int_eq(st_outfile_open(&o, path, "w"), 0);
  fputs("three\n", o.file);
  ck_assert_int_eq(st_outfile_commit(&o), 0);
  struct stat sb;
  ck_assert_int_eq(stat(path, &sb), 0);
  ck_assert_int_eq(sb.st_mode & 0777, 0640);
  ck_assert_str_eq(text_of(path), "three\n");
  /* a new file gets 0666 less the umask, as fopen() would */
  mode_t old_mask = umask(022);
  ck_assert_int_eq(st_outfile_open(&o, in_dir("new.txt"), "w"), 0);
  ck_assert_int_eq(st_outfile_commit(&o), 0);
  umask(old_mask);
  ck_assert_int_eq(stat(in_dir("new.txt"), &sb), 0);
  ck_assert_int_eq(sb.st_mode & 0777, 0644);
  /* through a symbolic link: the link stays, its file is replaced */
  ck_assert_int_eq(symlink("r.txt", in_dir("link")), 0);
  ck_assert_int_eq(st_outfile_open(&o, in_dir("link"), "w"), 0);
  fputs("four\n", o.file);
  ck_assert_int_eq(st_outfile_commit(&o), 0);
  ck_assert_int_eq(lstat(in_dir("link"), &sb), 0);
  ck_assert(S_ISLNK(sb.st_mode));
  ck_assert_str_eq(text_of(path), "four\n");
  /* a directory that does not exist: an error, errno set */
  ck_assert_int_eq(st_outfile_open(&o, in_dir("no/such/x"), "w"), -1);
  ck_assert_ptr_null(o.file);
  remove_dir();
}
END_TEST

/* A pipe is written in place: no temporary file, and an abort does not remove it. */
START_TEST(outfile_pipe_in_place) {
  make_dir();
  const char *fifo = in_dir("fifo");
  ck_assert_int_eq(mkfifo(fifo, 0600), 0);
  pid_t reader = drain(fifo);
  st_outfile o;
  ck_assert_int_eq(st_outfile_open(&o, fifo, "w"), 0);
  ck_assert_ptr_null(o.temp);
  fputs("x\n", o.file);
  st_outfile_abort(&o);
  waitpid(reader, NULL, 0);
  struct stat sb;
  ck_assert_int_eq(lstat(fifo, &sb), 0);
  ck_assert(S_ISFIFO(sb.st_mode));
  remove_dir();
}
END_TEST

START_TEST(same_file_by_identity_or_resolved_path) {
  make_dir();
  put_text(in_dir("a.mo"), "model A end A;\n");
  ck_assert_int_eq(mkdir(in_dir("sub"), 0700), 0);
  ck_assert_int_eq(symlink("a.mo", in_dir("alias.mo")), 0);
  ck_assert(st_same_file(in_dir("a.mo"), in_dir("sub/../a.mo")));
  ck_assert(st_same_file(in_dir("a.mo"), in_dir("alias.mo")));
  ck_assert(!st_same_file(in_dir("a.mo"), in_dir("b.mo")));
  ck_assert(st_same_file(in_dir("new.csv"), in_dir("sub/../new.csv"))); /* neither exists */
  ck_assert(!st_same_file(in_dir("new.csv"), in_dir("sub/new.csv")));
  ck_assert(!st_same_file("-", "-"));
  remove_dir();
}
END_TEST

/* The library writer: a failed run (the sink's end() gets an error) leaves the previous
 * file; with keep_partial its rows replace it, unless there are none. */
static void write_run(const char *path, int nrows, int status, int keep) {
  static const char *const names[] = {"time", "x"};
  stiction_writer *w;
  ck_assert_int_eq(stiction_writer_open(&w, path, STICTION_FORMAT_AUTO), STICTION_OK);
  stiction_writer_keep_partial(w, keep);
  stiction_sink sink;
  stiction_writer_sink(w, &sink);
  ck_assert_int_eq(sink.begin(sink.user_data, 2, names), 0);
  for (int r = 0; r < nrows; r++) {
    double row[2] = {r, 2.0 * r};
    ck_assert_int_eq(sink.row(sink.user_data, row), 0);
  }
  ck_assert_int_eq(sink.end(sink.user_data, status), 0);
  ck_assert_int_eq(stiction_writer_close(w), STICTION_OK);
}

START_TEST(writer_keeps_previous_result_of_failed_run) {
  make_dir();
  const char *path = in_dir("r.csv");
  put_text(path, "precious\n");
  write_run(path, 3, STICTION_ERR_SOLVER, 0);
  ck_assert_str_eq(text_of(path), "precious\n");
  write_run(path, 0, STICTION_ERR_SOLVER, 1);
  ck_assert_str_eq(text_of(path), "precious\n");
  write_run(path, 2, STICTION_ERR_SOLVER, 1);
  ck_assert_str_eq(text_of(path), "time,x\n0,0\n1,2\n");
  write_run(path, 1, STICTION_OK, 0);
  ck_assert_str_eq(text_of(path), "time,x\n0,0\n");
  ck_assert_int_eq(entries(), 1);
  /* a MAT result too */
  const char *mat = in_dir("r.mat");
  put_text(mat, "precious\n");
  write_run(mat, 3, STICTION_ERR_SOLVER, 0);
  ck_assert_str_eq(text_of(mat), "precious\n");
  ck_assert_int_eq(entries(), 2);
  remove_dir();
}
END_TEST

/* `stiction simulate` and `demo`: a failed run keeps the previous result and event log, and
 * leaves no temporary file; --keep-partial keeps the rows; a run into a pipe or device that
 * fails leaves the node alone. */
START_TEST(cli_failed_run_keeps_previous_files) {
  make_dir();
  char *out = NULL;
  const char *res = in_dir("r.csv"), *ev = in_dir("e.csv");
  put_text(res, "precious,data\n");
  put_text(ev, "old events\n");
  int st = st_test_runf(&out, "simulate '%s' -o '%s' --events '%s'",
               st_test_src("tests/data/compile/NonFiniteSqrt.mo"), res, ev);
  ck_assert_msg(st == 1, "exit %d: %s", st, out);
  ck_assert_msg(strstr(out, "rows before it are not kept (--keep-partial keeps them)"), "%s", out);
  ck_assert_msg(strstr(out, "is left as it was"), "%s", out);
  ck_assert_msg(strstr(out, "stiction simulate: NonFiniteSqrt: derivatives() gave"), "%s", out);
  free(out);
  ck_assert_str_eq(text_of(res), "precious,data\n");
  ck_assert_str_eq(text_of(ev), "old events\n");
  ck_assert_int_eq(entries(), 2);
  st = st_test_runf(&out, "simulate '%s' -o '%s' --keep-partial%s",
           st_test_src("tests/data/compile/NonFiniteSqrt.mo"), res, "");
  ck_assert_msg(st == 1, "exit %d: %s", st, out);
  ck_assert_msg(strstr(out, "rows before are kept in"), "%s", out);
  free(out);
  ck_assert_msg(!strncmp(text_of(res), "time,", 5), "%s", text_of(res));
  /* the same rule in `stiction demo` */
  put_text(res, "precious,data\n");
  st = st_test_runf(&out, "demo friction-block --tolerance 1e-300 -o '%s'%s%s", res, "", "");
  ck_assert_msg(st == 1, "exit %d: %s", st, out);
  free(out);
  ck_assert_str_eq(text_of(res), "precious,data\n");
  /* a pipe is written in place and stays a pipe */
  const char *fifo = in_dir("fifo");
  ck_assert_int_eq(mkfifo(fifo, 0600), 0);
  pid_t reader = drain(fifo);
  st = st_test_runf(&out, "simulate '%s' -o '%s'%s", st_test_src("tests/data/compile/InfAtStart.mo"), fifo,
           "");
  waitpid(reader, NULL, 0);
  ck_assert_msg(st == 1, "exit %d: %s", st, out);
  free(out);
  struct stat sb;
  ck_assert_int_eq(lstat(fifo, &sb), 0);
  ck_assert(S_ISFIFO(sb.st_mode));
  /* a device node too, where this user may make one */
  const char *dev = in_dir("null");
  if (mknod(dev, S_IFCHR | 0666, makedev(1, 3)) == 0) {
    st = st_test_runf(&out, "simulate '%s' -o '%s'%s", st_test_src("tests/data/compile/InfAtStart.mo"),
             dev, "");
    ck_assert_msg(st == 1, "exit %d: %s", st, out);
    free(out);
    ck_assert_int_eq(lstat(dev, &sb), 0);
    ck_assert(S_ISCHR(sb.st_mode));
  }
  remove_dir();
}
END_TEST

/* -o or --events naming the model (or each other) is refused before anything is written. */
START_TEST(cli_output_naming_an_input_is_refused) {
  make_dir();
  char *out = NULL;
  char model[512];
  snprintf(model, sizeof model, "%s", in_dir("M.mo"));
  const char *text = "model M\n  Real x(start = 1, fixed = true);\nequation\n  der(x) = -x;\nend M;\n";
  put_text(model, text);
  int st = st_test_runf(&out, "simulate '%s' -o '%s'%s", model, model, "");
  ck_assert_msg(st == 2, "exit %d: %s", st, out);
  ck_assert_msg(strstr(out, "names an input file"), "%s", out);
  free(out);
  st = st_test_runf(&out, "simulate '%s' -o '%s' --events '%s'", model, in_dir("r.csv"), model);
  ck_assert_msg(st == 2, "exit %d: %s", st, out);
  free(out);
  st = st_test_runf(&out, "simulate '%s' -o '%s' --events '%s'", model, in_dir("r.csv"),
           in_dir("./r.csv"));
  ck_assert_msg(st == 2, "exit %d: %s", st, out);
  ck_assert_msg(strstr(out, "also the result file"), "%s", out);
  free(out);
  ck_assert_str_eq(text_of(model), text);
  ck_assert_int_eq(entries(), 1);
  /* the same model runs into another file */
  st = st_test_runf(&out, "simulate '%s' -o '%s'%s", model, in_dir("r.csv"), "");
  ck_assert_msg(st == 0, "exit %d: %s", st, out);
  free(out);
  /* bam rollout: -o naming the log or the parameters */
  put_text(in_dir("log.json"), "{}\n");
  put_text(in_dir("p.json"), "{}\n");
  st = st_test_runf(&out, "bam rollout --params '%s' --log '%s' -o '%s'", in_dir("p.json"),
           in_dir("log.json"), in_dir("log.json"));
  ck_assert_msg(st == 2, "exit %d: %s", st, out);
  free(out);
  ck_assert_str_eq(text_of(in_dir("log.json")), "{}\n");
  remove_dir();
}
END_TEST

/* `stiction plot`: a control character in a text that goes to gnuplot is refused (it would
 * start a new gnuplot command); a failing gnuplot leaves the previous image. */
START_TEST(plot_refuses_control_characters_and_keeps_old_image) {
  make_dir();
  char *out = NULL;
  const char *csv = in_dir("r.csv"), *png = in_dir("p.png");
  put_text(csv, "time,x\n0,1\n1,2\n");
  put_text(png, "old image");
  int st = st_test_runf(&out, "plot '%s' x -o '%s' --title \"$(printf 'a\\nb')\"%s", csv, png, "");
  ck_assert_msg(st == 2, "exit %d: %s", st, out);
  ck_assert_msg(strstr(out, "control character"), "%s", out);
  free(out);
  put_text(in_dir("n.csv"), "time,\"x\ny\"\n0,1\n1,2\n");
  st = st_test_runf(&out, "plot '%s' \"$(printf 'x\\ny')\" -o '%s'%s", in_dir("n.csv"), png, "");
  ck_assert_msg(st == 2, "exit %d: %s", st, out);
  free(out);
  st = st_test_runf(&out, "plot '%s' x -o \"$(printf '%s/q\\n.png')\"%s", csv, dir, "");
  ck_assert_msg(st == 2, "exit %d: %s", st, out);
  free(out);
  st = st_test_runf(&out, "plot '%s' x -o '%s'%s", csv, csv, "");
  ck_assert_msg(st == 2, "exit %d: %s", st, out);
  free(out);
  setenv("STICTION_GNUPLOT", "/bin/false", 1);
  st = st_test_runf(&out, "plot '%s' x -o '%s'%s", csv, png, "");
  unsetenv("STICTION_GNUPLOT");
  ck_assert_msg(st == 1, "exit %d: %s", st, out);
  free(out);
  ck_assert_str_eq(text_of(png), "old image");
  ck_assert_str_eq(text_of(csv), "time,x\n0,1\n1,2\n");
  ck_assert_int_eq(entries(), 3);
  remove_dir();
}
END_TEST

ST_TEST_MAIN("outputs", "outputs", 120,
             outfile_commit_abort_and_modes, outfile_killed_writer_leaves_nothing,
             outfile_pipe_in_place, same_file_by_identity_or_resolved_path,
             writer_keeps_previous_result_of_failed_run, cli_failed_run_keeps_previous_files,
             cli_output_naming_an_input_is_refused,
             plot_refuses_control_characters_and_keeps_old_image)
