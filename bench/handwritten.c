/* Hand-written C + CVODE versions of the friction block and of Leine's block on a belt: the
 * baseline that `make bench` compares stiction with. No stiction code is used here; the
 * equations and the event handling mirror src/demos/friction_block.c and leine_belt.c
 * (same indicators with the same 1e-10 hysteresis, the same snapping of the velocity when an
 * element sticks, a CVodeReInit after every event that changed the mode), so both sides
 * do the same numerical work. Reference numbers: doc/benchmarks.md §1 and §7. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include <cvode/cvode.h>
#include <nvector/nvector_serial.h>
#include <sundials/sundials_context.h>
#include <sunlinsol/sunlinsol_dense.h>
#include <sunmatrix/sunmatrix_dense.h>

#include "handwritten.h"

#define HYST 1e-10 /* indicator hysteresis, as Dymola and the demos use */
#define PI 3.14159265358979323846

/* ---- the two models --------------------------------------------------------------------- */

typedef struct block {
  double m, f0, f1, U, freq;
  int mode, sf, sb; /* mode 1 forward, 0 stuck, -1 backward; startFor, startBack */
} block;

static double block_u(const block *b, double t) { return b->U * sin(2.0 * PI * b->freq * t); }

/* m der(v) = u - f; f = +-f0 + f1 v while sliding (or starting), a = 0 while locked. */
static int block_rhs(sunrealtype t, N_Vector y, N_Vector yd, void *ud) {
  const block *b = ud;
  double v = NV_Ith_S(y, 1), dir = 0.0;
  if (b->mode == 1 || b->sf) dir = 1.0;
  else if (b->mode == -1 || b->sb) dir = -1.0;
  NV_Ith_S(yd, 0) = v;
  NV_Ith_S(yd, 1) = dir == 0.0 ? 0.0 : (block_u(b, t) - dir * b->f0 - b->f1 * v) / b->m;
  return 0;
}

/* g0 = sa - 1, g1 = sa + 1 while locked; g2 = v while sliding, v -+ HYST while waiting. */
static int block_g(sunrealtype t, N_Vector y, sunrealtype *g, void *ud) {
  const block *b = ud;
  double v = NV_Ith_S(y, 1), sa = (block_u(b, t) - b->f1 * v) / b->f0;
  int locked = b->mode == 0 && !b->sf && !b->sb;
  g[0] = locked ? sa - 1.0 : 1.0;
  g[1] = locked ? sa + 1.0 : -1.0;
  if (b->mode != 0) g[2] = v;
  else if (b->sf) g[2] = v - HYST;
  else if (b->sb) g[2] = v + HYST;
  else g[2] = -1.0;
  return 0;
}

/* One pass of the discrete equations; returns 1 if a discrete variable changed. */
static int block_update(void *ud, double t, double *y, int initial, int *snapped) {
  block *b = ud;
  double v = y[1], sa = (block_u(b, t) - b->f1 * v) / b->f0;
  /* ">=": the root finder stops where sa - 1 has reached zero, which rounding may leave at
   * exactly 1.0 (see the demo for the full argument) */
  int pm = b->mode, sf = pm == 0 && sa >= 1.0, sb = pm == 0 && sa <= -1.0, mode = 0;
  if ((pm == 1 || sf || initial) && v > 0.0) mode = 1;
  else if ((pm == -1 || sb || initial) && v < 0.0) mode = -1;
  int changed = mode != b->mode || sf != b->sf || sb != b->sb;
  if (mode == 0 && pm != 0) { y[1] = 0.0; *snapped = 1; }
  b->mode = mode; b->sf = sf; b->sb = sb;
  return changed;
}

static void block_out(void *ud, double t, const double *y, double *o) {
  const block *b = ud;
  double u = block_u(b, t), v = y[1];
  int locked = b->mode == 0 && !b->sf && !b->sb;
  double dir = b->mode == 1 || b->sf ? 1.0 : -1.0;
  o[0] = y[0]; o[1] = v; o[2] = u;
  o[3] = locked ? u : dir * b->f0 + b->f1 * v;
  o[4] = (u - b->f1 * v) / b->f0;
  o[5] = b->mode;
}

typedef struct belt {
  double k, m, Fs, vdr, delta;
  int mode; /* 0 stick, 1 slip with gamma > 0, -1 slip with gamma < 0 */
} belt;

/* m x'' + k x = F, F = -mode Fs / (1 + delta |gamma|) in slip, x'' = 0 in stick. */
static int belt_rhs(sunrealtype t, N_Vector y, N_Vector yd, void *ud) {
  const belt *b = ud;
  double x = NV_Ith_S(y, 0), v = NV_Ith_S(y, 1), gam = v - b->vdr;
  NV_Ith_S(yd, 0) = v;
  NV_Ith_S(yd, 1) = b->mode == 0 ? 0.0
                     : (-b->k * x - b->mode * b->Fs / (1.0 + b->delta * fabs(gam))) / b->m;
  return 0;
}

static int belt_g(sunrealtype t, N_Vector y, sunrealtype *g, void *ud) {
  const belt *b = ud;
  double kx = b->k * NV_Ith_S(y, 0), gam = NV_Ith_S(y, 1) - b->vdr;
  g[0] = b->mode == 0 ? kx - b->Fs - HYST : -1.0;
  g[1] = b->mode == 0 ? kx + b->Fs + HYST : 1.0;
  g[2] = b->mode == 0 ? 1.0 : gam + b->mode * HYST;
  return 0;
}

static int belt_update(void *ud, double t, double *y, int initial, int *snapped) {
  belt *b = ud;
  double kx = b->k * y[0], gam = y[1] - b->vdr;
  int mode = b->mode;
  if (initial && gam != 0.0) mode = gam > 0.0 ? 1 : -1;
  else if (mode == 0 || gam * mode <= 0.0) /* stuck, or the slip velocity reached zero */
    mode = kx > b->Fs ? -1 : kx < -b->Fs ? 1 : 0;
  if (mode == 0 && (b->mode != 0 || y[1] != b->vdr)) { y[1] = b->vdr; *snapped = 1; }
  int changed = mode != b->mode;
  b->mode = mode;
  return changed;
}

static void belt_out(void *ud, double t, const double *y, double *o) {
  const belt *b = ud;
  o[0] = y[0]; o[1] = y[1]; o[2] = b->mode;
}

/* ---- a minimal event-driven CVODE driver ---------------------------------------------------- */

typedef struct hw_model {
  CVRhsFn rhs;
  CVRootFn g;
  int (*update)(void *ud, double t, double *y, int initial, int *snapped);
  void (*out)(void *ud, double t, const double *y, double *o);
  int (*mode)(const void *ud);
  int ng, nout;
  const char *header;
  void *ud;
  double x0, v0;
} hw_model;

static int block_mode(const void *ud) { return ((const block *)ud)->mode; }
static int belt_mode(const void *ud) { return ((const belt *)ud)->mode; }

typedef struct hw_run {
  const hw_model *m;
  FILE *out;
  hw_stats *st;
  void *mem;
  N_Vector y;
} hw_run;

static void row(hw_run *r, double t) {
  double o[8];
  r->m->out(r->m->ud, t, NV_DATA_S(r->y), o);
  r->st->rows++;
  if (!r->out) return;
  fprintf(r->out, "%.17g", t);
  for (int i = 0; i < r->m->nout; i++) fprintf(r->out, ",%.17g", o[i]);
  fputc('\n', r->out);
}

/* Adds CVODE's counters to the totals: CVodeReInit sets them back to zero. */
static void collect(hw_run *r) {
  long nst = 0, nfe = 0, nje = 0, nge = 0;
  CVodeGetNumSteps(r->mem, &nst);
  CVodeGetNumRhsEvals(r->mem, &nfe);
  CVodeGetNumJacEvals(r->mem, &nje);
  CVodeGetNumGEvals(r->mem, &nge);
  r->st->steps += nst; r->st->nfe += nfe; r->st->njac += nje; r->st->nge += nge;
}

/* Event iteration at t: passes until nothing changes; restarts CVODE if anything did. */
static int event(hw_run *r, double t, int initial) {
  int before = r->m->mode(r->m->ud), changed = 0, snapped = 0;
  if (!initial) row(r, t);
  for (int pass = 0; pass < 20; pass++) {
    if (!r->m->update(r->m->ud, t, NV_DATA_S(r->y), initial, &snapped)) break;
    changed = 1;
  }
  if (r->m->mode(r->m->ud) != before) {
    if (r->st->transitions++ == 0) r->st->first_transition = t;
  }
  row(r, t);
  if (!changed && !snapped) return 0;
  collect(r);
  r->st->restarts++;
  return CVodeReInit(r->mem, t, r->y);
}

static int simulate(const hw_model *m, const hw_options *opt, hw_stats *st, FILE *out) {
  *st = (hw_stats){.first_transition = NAN};
  SUNContext ctx;
#if SUNDIALS_VERSION_MAJOR >= 7
  if (SUNContext_Create(SUN_COMM_NULL, &ctx)) return -1;
#else
  if (SUNContext_Create(NULL, &ctx)) return -1;
#endif
  hw_run r = {.m = m, .out = out, .st = st};
  r.y = N_VNew_Serial(2, ctx);
  NV_Ith_S(r.y, 0) = m->x0;
  NV_Ith_S(r.y, 1) = m->v0;
  r.mem = CVodeCreate(opt->adams ? CV_ADAMS : CV_BDF, ctx);
  SUNMatrix A = SUNDenseMatrix(2, 2, ctx);
  SUNLinearSolver LS = SUNLinSol_Dense(r.y, A, ctx);
  int rc = CVodeInit(r.mem, m->rhs, 0.0, r.y);
  rc = rc ? rc : CVodeSetUserData(r.mem, m->ud);
  rc = rc ? rc : CVodeSStolerances(r.mem, opt->rtol, opt->atol);
  rc = rc ? rc : CVodeSetLinearSolver(r.mem, LS, A);
  rc = rc ? rc : CVodeRootInit(r.mem, m->ng, m->g);
  /* the runtime's default bound (doc/events.md, "Frozen modes"), so that both take the same
   * steps whatever the output interval */
  rc = rc ? rc : CVodeSetMaxStep(r.mem, opt->stop_time / 500);
  rc = rc ? rc : CVodeSetStopTime(r.mem, opt->stop_time);
  if (out) fprintf(out, "%s\n", m->header);
  rc = rc ? rc : event(&r, 0.0, 1);
  double t = 0.0;
  for (long k = 1; !rc && t < opt->stop_time;) {
    double tout = fmin(k * opt->interval, opt->stop_time);
    int flag = CVode(r.mem, tout, r.y, &t, CV_NORMAL);
    if (flag == CV_ROOT_RETURN) {
      st->events++;
      rc = event(&r, t, 0);
    } else if (flag >= 0) {
      row(&r, t);
      k++;
    } else {
      fprintf(stderr, "handwritten: CVode failed at t = %g (flag %d)\n", t, flag);
      rc = -1;
    }
  }
  collect(&r);
  st->x_end = NV_Ith_S(r.y, 0);
  st->v_end = NV_Ith_S(r.y, 1);
  CVodeFree(&r.mem);
  SUNLinSolFree(LS);
  SUNMatDestroy(A);
  N_VDestroy(r.y);
  SUNContext_Free(&ctx);
  return rc ? -1 : 0;
}

int hw_friction_block_run(const hw_options *opt, hw_stats *stats, FILE *out) {
  block b = {.m = 1, .f0 = 1, .f1 = 0.1, .U = 1.5, .freq = 0.5};
  hw_model m = {block_rhs, block_g, block_update, block_out, block_mode, 3, 6,
                "time,x,v,u,f,sa,mode", &b, 0.0, 0.0};
  return simulate(&m, opt, stats, out);
}

int hw_leine_belt_run(const hw_options *opt, hw_stats *stats, FILE *out) {
  belt b = {.k = 1, .m = 1, .Fs = 1, .vdr = 0.2, .delta = 3};
  /* starts at break-away: x = Fs/k, v = v_dr */
  hw_model m = {belt_rhs, belt_g, belt_update, belt_out, belt_mode, 3, 3, "time,x,v,mode", &b,
                1.0, 0.2};
  return simulate(&m, opt, stats, out);
}
