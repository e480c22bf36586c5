/* `stiction tamsi`: one TAMSI contact step from a JSON problem file, printed as JSON, and
 * the box-on-incline demo (`--demo box`). Formats: doc/tamsi.md. */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <stiction/stiction.h>
#include <stiction/tamsi.h>

#include "cli/commands.h"
#include "util/outfile.h"
#include "tamsi/tamsi_box.h"
#include "tamsi/tamsi_json.h"

enum { EXIT_INPUT = 1, EXIT_USAGE = 2, EXIT_UNSOLVED = 3 };

static void usage(FILE *out) {
  fputs("Usage: stiction tamsi [OPTION]... PROBLEM.json\n"
        "       stiction tamsi --demo box [DEMO OPTION]...\n"
        "Solve one implicit-Stribeck (TAMSI) contact time step read from PROBLEM.json ('-' for\n"
        "standard input) and print the solution as JSON on standard output.\n\n"
        "  -c, --compact          print the JSON solution on one line\n"
        "      --demo box         run the box-on-incline demo instead of a problem file\n"
        "  -h, --help             display this help and exit\n\n"
        "Box demo options (SI units):\n"
        "      --angle DEG        incline angle in degrees (default 20)\n"
        "      --mu MU            friction coefficient (default 0.5)\n"
        "      --v0 V             initial speed down the slope (default 1)\n"
        "      --force F          constant push down the slope, N (default 0)\n"
        "      --dt DT            time step (default 1e-3)\n"
        "      --t-end T          simulated time (default 1.5)\n"
        "      --stiction-tolerance VS  regularisation speed v_s (default 1e-4)\n"
        "      --max-iterations N Newton iterations per solve (default 20); a failed step\n"
        "                         is redone in 2..20 sub-steps\n"
        "      --trace FILE       write t,x,v,vn,fn,ft of every step as CSV\n\n"
        "Exit status: 0 solved, 1 bad input or file, 2 bad usage, 3 the solver did not\n"
        "succeed (the JSON with its \"result\" is still printed).\n", out);
}

static int bad_usage(const char *fmt, const char *arg) {
  fputs("stiction tamsi: ", stderr);
  fprintf(stderr, fmt, arg);
  fputs("\nTry 'stiction tamsi --help'.\n", stderr);
  return EXIT_USAGE;
}

/* Reads a whole file ("-": standard input) into a malloc'd NUL-terminated buffer. */
static char *read_all(const char *path, size_t *len) {
  FILE *f = strcmp(path, "-") ? fopen(path, "rb") : stdin;
  if (!f) return NULL;
  size_t cap = 4096, n = 0, got;
  char *buf = malloc(cap);
  while (buf && (got = fread(buf + n, 1, cap - n - 1, f)) > 0) {
    n += got;
    if (cap - n < 2) {
      char *nb = cap < ((size_t)1 << 30) ? realloc(buf, cap * 2) : NULL;
      if (!nb) { free(buf); buf = NULL; errno = ENOMEM; }
      else { buf = nb; cap *= 2; }
    }
  }
  int failed = !buf || ferror(f);
  int saved = errno;
  if (f != stdin) fclose(f);
  if (failed) {
    free(buf);
    errno = saved ? saved : EIO;
    return NULL;
  }
  buf[n] = 0;
  *len = n;
  return buf;
}

static int print_json(json_object *o, int compact) {
  int flags = (compact ? JSON_C_TO_STRING_PLAIN : JSON_C_TO_STRING_PRETTY | JSON_C_TO_STRING_SPACED) |
              JSON_C_TO_STRING_NOSLASHESCAPE;
  const char *text = o ? json_object_to_json_string_ext(o, flags) : NULL;
  if (!text) return -1;
  fputs(text, stdout);
  fputc('\n', stdout);
  return fflush(stdout) || ferror(stdout) ? -1 : 0;
}

static int run_problem(const char *path, int compact) {
  const char *name = strcmp(path, "-") ? path : "<stdin>";
  size_t len = 0;
  char *text = read_all(path, &len);
  if (!text) {
    fprintf(stderr, "stiction tamsi: %s: %s\n", name, strerror(errno));
    return EXIT_INPUT;
  }
  st_tamsi_problem p;
  char err[ST_MSG_MAX];
  int rc = st_tamsi_problem_parse(text, len, name, &p, err, sizeof err);
  free(text);
  if (rc) {
    fprintf(stderr, "%s\n", err);
    return EXIT_INPUT;
  }
  int result = 0;
  stiction_tamsi *s = st_tamsi_problem_solve(&p, &result, err, sizeof err);
  int status = EXIT_INPUT;
  if (!s) {
    fprintf(stderr, "%s: error: %s\n", name, err);
  } else {
    json_object *o = st_tamsi_solution_json(s, result);
    if (print_json(o, compact)) fprintf(stderr, "stiction tamsi: cannot write the solution\n");
    else status = result == STICTION_TAMSI_SUCCESS ? 0 : EXIT_UNSOLVED;
    json_object_put(o);
    stiction_tamsi_free(s);
  }
  st_tamsi_problem_free(&p);
  return status;
}

static void print_box(const st_tamsi_box_params *p, const st_tamsi_box_result *r) {
  printf("box on a %g deg incline: mu = %g, v0 = %g m/s, push %g N, dt = %g s, v_s = %g m/s\n",
         p->angle_deg, p->mu, p->v0, p->force, p->dt, p->stiction_tolerance);
  if (r->t_stick >= 0)
    printf("sticks at t = %.6g s (|slip| < v_s)", r->t_stick);
  else
    printf("does not stick within %g s", (double)r->steps * p->dt);
  if (r->t_stick_coulomb >= 0) printf("; Coulomb closed form t* = %.6g s\n", r->t_stick_coulomb);
  else printf("; Coulomb: tan(angle) >= mu, the box never stops\n");
  if (r->t_stick >= 0)
    printf("creep after sticking: %.4g m/s at the end, max %.4g m/s (regularised law: %.4g "
           "m/s; bound v_s = %g m/s)\n",
           r->creep, r->creep_max, r->creep_regularised, p->stiction_tolerance);
  printf("slid %.6g m in %d steps; at most %d Newton iterations per step; last contact force: "
         "fn = %.12g N, ft = %.12g N\n",
         r->x_end, r->steps, r->max_iterations, r->fn_end, r->ft_end);
  if (r->substepped)
    printf("%d steps were redone in sub-steps (at most %d)\n", r->substepped, r->max_substeps);
}

static int run_box(const st_tamsi_box_params *p, const char *trace_path) {
  st_outfile trace = {NULL, NULL, NULL};
  if (trace_path && st_outfile_open(&trace, trace_path, "w")) {
    fprintf(stderr, "stiction tamsi: %s: %s\n", trace_path, strerror(errno));
    return EXIT_INPUT;
  }
  st_tamsi_box_result r;
  char msg[256] = "";
  int rc = st_tamsi_box_run(p, trace.file, &r, msg, sizeof msg);
  /* the trace of an unsolved run is what explains it: kept; bad parameters wrote nothing */
  if (rc == STICTION_ERR_ARG || (trace.file && ferror(trace.file))) {
    st_outfile_abort(&trace);
  } else if (st_outfile_commit(&trace)) {
    fprintf(stderr, "stiction tamsi: %s: write error\n", trace_path);
    return EXIT_INPUT;
  }
  if (rc == STICTION_ERR_ARG) {
    fprintf(stderr, "stiction tamsi: box demo: %s\nTry 'stiction tamsi --help'.\n", msg);
    return EXIT_USAGE;
  }
  print_box(p, &r);
  if (rc) {
    fprintf(stderr, "stiction tamsi: box demo: %s\n", msg);
    return EXIT_UNSOLVED;
  }
  return 0;
}

static int parse_double(const char *arg, double *out) {
  char *end;
  errno = 0;
  *out = strtod(arg, &end);
  return end == arg || *end || errno ? -1 : 0;
}

static int parse_int(const char *arg, int *out) {
  char *end;
  errno = 0;
  long v = strtol(arg, &end, 10);
  if (end == arg || *end || errno || v < 1 || v > 1000000) return -1;
  *out = (int)v;
  return 0;
}

enum { OPT_DEMO = 256, OPT_ANGLE, OPT_MU, OPT_V0, OPT_DT, OPT_TEND, OPT_VS, OPT_TRACE, OPT_MAXIT,
       OPT_FORCE };

static const struct option longopts[] = {
    {"help", no_argument, NULL, 'h'},
    {"compact", no_argument, NULL, 'c'},
    {"demo", required_argument, NULL, OPT_DEMO},
    {"angle", required_argument, NULL, OPT_ANGLE},
    {"mu", required_argument, NULL, OPT_MU},
    {"v0", required_argument, NULL, OPT_V0},
    {"force", required_argument, NULL, OPT_FORCE},
    {"dt", required_argument, NULL, OPT_DT},
    {"t-end", required_argument, NULL, OPT_TEND},
    {"stiction-tolerance", required_argument, NULL, OPT_VS},
    {"max-iterations", required_argument, NULL, OPT_MAXIT},
    {"trace", required_argument, NULL, OPT_TRACE},
    {NULL, 0, NULL, 0}};

typedef struct tamsi_opts {
  int compact, box_opts;
  const char *demo, *trace;
  st_tamsi_box_params box;
} tamsi_opts;

/* A box demo option; returns -1 when done, else the exit status of a usage error. */
static int box_option(int c, const char *arg, tamsi_opts *o) {
  double *target = NULL;
  o->box_opts++;
  switch (c) {
  case OPT_ANGLE: target = &o->box.angle_deg; break;
  case OPT_MU: target = &o->box.mu; break;
  case OPT_V0: target = &o->box.v0; break;
  case OPT_FORCE: target = &o->box.force; break;
  case OPT_DT: target = &o->box.dt; break;
  case OPT_TEND: target = &o->box.t_end; break;
  case OPT_VS: target = &o->box.stiction_tolerance; break;
  case OPT_TRACE: o->trace = arg; return -1;
  case OPT_MAXIT:
    return parse_int(arg, &o->box.max_iterations) ? bad_usage("invalid iteration count '%s'", arg)
                                                  : -1;
  default: return bad_usage("%s", "internal error: unknown option");
  }
  return parse_double(arg, target) ? bad_usage("invalid number '%s'", arg) : -1;
}

static int unknown_option(char **argv) {
  if (optopt > 0 && optopt < 256) {
    char flag[3] = {'-', (char)optopt, 0};
    return bad_usage("invalid option '%s'", flag);
  }
  return bad_usage("unrecognized option '%s'", argv[optind - 1]);
}

/* Returns -1 to go on, or an exit status (after --help or a usage error). */
static int parse_options(int argc, char **argv, tamsi_opts *o) {
  int c, rc = -1;
  opterr = 0;
  optind = 1;
  while (rc < 0 && (c = getopt_long(argc, argv, ":hc", longopts, NULL)) != -1) {
    switch (c) {
    case 'h': usage(stdout); return 0;
    case 'c': o->compact = 1; break;
    case OPT_DEMO: o->demo = optarg; break;
    case ':': return bad_usage("option '%s' needs an argument", argv[optind - 1]);
    case '?': return unknown_option(argv);
    default: rc = box_option(c, optarg, o);
    }
  }
  return rc;
}

int st_cmd_tamsi(int argc, char **argv) {
  tamsi_opts o = {0};
  st_tamsi_box_defaults(&o.box);
  int rc = parse_options(argc, argv, &o);
  if (rc >= 0) return rc;
  if (o.demo) {
    if (strcmp(o.demo, "box")) return bad_usage("unknown demo '%s' (available: box)", o.demo);
    if (optind < argc) return bad_usage("unexpected argument '%s' with --demo", argv[optind]);
    return run_box(&o.box, o.trace);
  }
  if (o.box_opts) return bad_usage("%s", "box demo options need --demo box");
  if (optind >= argc) return bad_usage("%s", "missing PROBLEM.json");
  if (optind + 1 < argc) return bad_usage("unexpected argument '%s'", argv[optind + 1]);
  return run_problem(argv[optind], o.compact);
}
