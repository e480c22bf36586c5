/* The `stiction` command itself: GNU --help/--version, unknown commands, and the man page
 * documenting every command that --help lists. */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include <stiction/stiction.h>

#include "testutil.h"

START_TEST(help_lists_commands_and_exits_zero) {
  st_test_expect(0, "--help", "Usage: stiction COMMAND", "simulate");
}
END_TEST

START_TEST(version_is_the_library_version) {
  char *out = NULL, expected[64];
  ck_assert_int_eq(st_test_run(&out, "--version"), 0);
  snprintf(expected, sizeof expected, "stiction %s\n", stiction_version());
  ck_assert_str_eq(out, expected);
  free(out);
}
END_TEST

START_TEST(unknown_command_is_usage_error) {
  st_test_expect(2, "frobnicate", "unknown command 'frobnicate'");
  st_test_expect(2, "");
}
END_TEST

static char *read_file(const char *path) {
  FILE *f = fopen(path, "rb");
  if (!f) return NULL;
  fseek(f, 0, SEEK_END);
  long n = ftell(f);
  rewind(f);
  char *buf = malloc((size_t)n + 1);
  if (buf && fread(buf, 1, (size_t)n, f) != (size_t)n) n = 0;
  if (buf) buf[n] = 0;
  fclose(f);
  return buf;
}

/* Every command of `stiction --help` (the indented lines after "Commands:") has its own
 * paragraph in doc/stiction.1, so the man page cannot silently fall behind. */
/* simulate and demo parse their shared run options with one parser (cli/sim_common.c): the
 * same checks and messages, each under its own command name, and the options of one
 * command alone are refused by the other. */
START_TEST(shared_run_options) {
  static const char *const cmds[][2] = {
      {"simulate", "simulate \"$STICTION_SRCDIR/tests/data/compile/BouncingBall.mo\""},
      {"demo", "demo bouncing-ball"}};
  static const char *const bad[][2] = {
      {"--tolerance 0", "--tolerance: invalid value '0' (expected a positive number)"},
      {"--interval -1", "--interval: invalid value '-1' (expected a positive number)"},
      {"--stop-time nan", "--stop-time: invalid value 'nan' (expected a finite number)"},
      {"--solver rk4", "--solver: unknown solver 'rk4' (cvode, cvode-adams, ida)"},
      {"--events", "option '--events' needs an argument"},
      {"--frobnicate", "unrecognized option '--frobnicate'"}};
  for (int c = 0; c < 2; c++)
    for (size_t b = 0; b < sizeof bad / sizeof bad[0]; b++) {
      char args[1024], want[256], *out = NULL;
      snprintf(args, sizeof args, "%s %s", cmds[c][1], bad[b][0]);
      snprintf(want, sizeof want, "stiction %s: %s\n", cmds[c][0], bad[b][1]);
      ck_assert_int_eq(st_test_run(&out, args), 2);
      ck_assert_msg(out && strstr(out, want), "%s: %s", args, out ? out : "");
      snprintf(want, sizeof want, "Try 'stiction %s --help'.", cmds[c][0]);
      ck_assert_msg(b < 3 || strstr(out, want), "%s: %s", args, out); /* not after a value */
      free(out);
    }
  st_test_expect(2, "demo bouncing-ball --dump", "unrecognized option '--dump'");
  st_test_expect(2, "simulate --list", "unrecognized option '--list'");
}
END_TEST

/* The number after `name: ` in out, or -1 when the line is missing. */
static double stat_value(const char *out, const char *name) {
  const char *p = strstr(out, name);
  return p ? strtod(p + strlen(name), NULL) : -1;
}

/* --stats gives the translation phases' CPU time beside their wall time (the wall time of
 * a shared machine says little; bench/msl_translate_times.py reads these lines). */
START_TEST(stats_print_translation_cpu_time) {
  char args[1024], *out = NULL;
  snprintf(args, sizeof args, "simulate \"$STICTION_SRCDIR/tests/data/compile/BouncingBall.mo\" "
           "--stop-time 0 --stats -o '%s'", st_test_tmp("cli", "stats.csv"));
  ck_assert_int_eq(st_test_run(&out, args), 0);
  ck_assert_ptr_nonnull(out);
  ck_assert_msg(stat_value(out, "wall time load + flatten [s]: ") >= 0, "%s", out);
  ck_assert_msg(stat_value(out, "cpu time load + flatten [s]: ") >= 0, "%s", out);
  ck_assert_msg(stat_value(out, "cpu time compile [s]: ") >= 0, "%s", out);
  free(out);
}
END_TEST

START_TEST(man_page_documents_every_command) {
  char *help = NULL;
  ck_assert_int_eq(st_test_run(&help, "--help"), 0);
  char *man = read_file(st_test_src("doc/stiction.1"));
  ck_assert_ptr_nonnull(man);
  char *p = strstr(help, "Commands:\n");
  ck_assert_ptr_nonnull(p);
  int n = 0;
  for (p = strchr(p, '\n') + 1; p && strncmp(p, "  ", 2) == 0; p = strchr(p, '\n'), p = p ? p + 1 : p) {
    char name[32], needle[64];
    ck_assert_int_eq(sscanf(p, " %31s", name), 1);
    snprintf(needle, sizeof needle, ".BI \"%s ", name);
    char needle2[64];
    snprintf(needle2, sizeof needle2, ".BR \"%s ", name);
    ck_assert_msg(strstr(man, needle) || strstr(man, needle2),
                  "doc/stiction.1 has no entry for the command '%s'", name);
    n++;
  }
  ck_assert_int_ge(n, 9);
  free(man);
  free(help);
}
END_TEST

/* A library given with -L overrides stiction's own: a private `Modelica` whose pi is 3 must
 * win over models/Modelica, for simulate as for flatten. */
START_TEST(library_option_overrides_builtin_library) {
  char dir[] = "/tmp/stiction_cli_XXXXXX";
  ck_assert_ptr_nonnull(mkdtemp(dir));
  char path[256], args[1024];
  snprintf(path, sizeof path, "%s/Modelica", dir);
  ck_assert_int_eq(mkdir(path, 0700), 0);
  snprintf(path, sizeof path, "%s/Modelica/package.mo", dir);
  FILE *f = fopen(path, "w");
  ck_assert_ptr_nonnull(f);
  fputs("package Modelica\n  package Constants\n    constant Real pi = 3;\n  end Constants;\n"
        "end Modelica;\n", f);
  fclose(f);
  snprintf(path, sizeof path, "%s/P.mo", dir);
  f = fopen(path, "w");
  ck_assert_ptr_nonnull(f);
  fputs("model P\n  Real y;\nequation\n  y = Modelica.Constants.pi;\nend P;\n", f);
  fclose(f);
  char *out = NULL;
  snprintf(args, sizeof args, "simulate '%s/P.mo' -L '%s' --stop-time 1 --interval 0.5 -o -", dir,
           dir);
  ck_assert_int_eq(st_test_run(&out, args), 0);
  ck_assert_msg(strstr(out, "\n1,3\n") != NULL, "y is not the -L library's pi:\n%s", out);
  free(out);
  snprintf(args, sizeof args, "rm -rf '%s'", dir);
  ck_assert_int_eq(system(args), 0);
}
END_TEST

ST_TEST_MAIN("cli", "command", 0,
             help_lists_commands_and_exits_zero, version_is_the_library_version,
             unknown_command_is_usage_error, man_page_documents_every_command,
             shared_run_options, library_option_overrides_builtin_library,
             stats_print_translation_cpu_time)
