/* Hand-written C + CVODE version of bench/clocks/ClutchPI.mo: the floor that `make bench-clocks`
 * compares stiction's sampled loop with. No stiction code: the plant is integrated with CVODE
 * (BDF, dense Newton) from tick to tick; at each tick (k/1000 s, from the integer counter, no
 * drift) the PI is evaluated on the sampled w3 and CVODE is restarted, as a time event does.
 * Prints the CPU seconds and the final state so the runs can be compared.
 * Usage: clocks_handwritten [RTOL [restart|goon [COMMAND]]]. restart (default): CVodeReInit at
 * every tick. goon: as stiction does by default (doc/events.md, "Clock ticks"), CVODE goes on
 * from its history when the jump of y' at the tick is small against its error test,
 * ||h (f_new - y'_history)||_wrms <= 0.1 (h: the next step, to the next tick at most), and is
 * restarted otherwise. With a command (stiction
 * on the same model, with --tick-restart for the restart mode) it runs it and prints the ratio
 * of CPU times. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/resource.h>
#include <time.h>

#include <cvode/cvode.h>
#include <nvector/nvector_serial.h>
#include <sundials/sundials_context.h>
#include <sunlinsol/sunlinsol_dense.h>
#include <sunmatrix/sunmatrix_dense.h>

typedef struct plant { double u; } plant; /* the held controller output */

static const double J1 = 1, J2 = 0.5, J3 = 1, c = 1e4, d = 10, muS = 5, vs = 0.01, dv = 0.1;

/* y = (w1, w2, w3, phi23) */
static int rhs(sunrealtype t, N_Vector y, N_Vector yd, void *ud) {
  const plant *p = ud;
  double w1 = NV_Ith_S(y, 0), w2 = NV_Ith_S(y, 1), w3 = NV_Ith_S(y, 2), phi = NV_Ith_S(y, 3);
  double tc = muS * tanh((w1 - w2) / vs) + dv * (w1 - w2), ts = c * phi + d * (w2 - w3);
  double tl = 0.5 * w3 + (t > 50 ? 10 : 0);
  NV_Ith_S(yd, 0) = (p->u - tc) / J1;
  NV_Ith_S(yd, 1) = (tc - ts) / J2;
  NV_Ith_S(yd, 2) = (ts - tl) / J3;
  NV_Ith_S(yd, 3) = w2 - w3;
  return 0;
}

/* The goon mode's test: whether the jump of y' at tk (u changed) is small. */
static int small_jump(void *mem, double tk, N_Vector y, N_Vector fh, N_Vector f, plant *p,
                      double rtol) {
  double h = 0, sum = 0;
  if (CVodeGetCurrentStep(mem, &h) || h == 0 || CVodeGetDky(mem, tk, 1, fh)) return 0;
  h = fmin(fabs(h), 0.001); /* the next step ends at the next tick at most */
  rhs(tk, y, f, p);
  for (int i = 0; i < 4; i++) {
    double e = h * (NV_Ith_S(f, i) - NV_Ith_S(fh, i)) / (rtol * fabs(NV_Ith_S(y, i)) + rtol);
    sum += e * e;
  }
  return sqrt(sum / 4) <= 0.1;
}

int main(int argc, char **argv) {
  double rtol = argc > 1 ? atof(argv[1]) : 1e-6, stop = 100.0;
  int goon = argc > 2 && argv[2][0] == 'g';
  long restarts = 0, steps = 0, ns = 0;
  const double kp = 2, Ti = 2, wref = 10, Ts = 0.001;
  long ticks = (long)(stop * 1000 + 0.5);
  plant p = {0};
  double I = 0;
  SUNContext ctx;
  if (SUNContext_Create(NULL, &ctx)) return 1;
  N_Vector y = N_VNew_Serial(4, ctx), fh = N_VNew_Serial(4, ctx), f = N_VNew_Serial(4, ctx);
  N_VConst(0.0, y);
  void *mem = CVodeCreate(CV_BDF, ctx);
  SUNMatrix A = SUNDenseMatrix(4, 4, ctx);
  SUNLinearSolver LS = SUNLinSol_Dense(y, A, ctx);
  int rc = CVodeInit(mem, rhs, 0.0, y);
  rc = rc ? rc : CVodeSStolerances(mem, rtol, rtol);
  rc = rc ? rc : CVodeSetUserData(mem, &p);
  rc = rc ? rc : CVodeSetLinearSolver(mem, LS, A);
  rc = rc ? rc : CVodeSetMaxNumSteps(mem, 100000);
  if (rc) return 1;
  clock_t c0 = clock();
  for (long k = 0; k <= ticks && rc >= 0; k++) {
    double tk = (double)k / 1000.0, t = tk;
    if (k > 0) {
      CVodeSetStopTime(mem, tk);
      rc = CVode(mem, tk, y, &t, CV_NORMAL);
    }
    double e = wref - NV_Ith_S(y, 2);
    I = I + Ts * e / Ti; /* previous(I) starts at 0 */
    p.u = kp * (e + I);
    if (rc < 0 || (goon && k > 0 && small_jump(mem, tk, y, fh, f, &p, rtol))) continue;
    if (!CVodeGetNumSteps(mem, &ns)) steps += ns; /* ReInit zeroes the count */
    rc = CVodeReInit(mem, tk, y); /* the held input jumped: a time event */
    restarts++;
  }
  double cpu = (double)(clock() - c0) / CLOCKS_PER_SEC;
  if (!CVodeGetNumSteps(mem, &ns)) steps += ns;
  printf("handwritten ClutchPI (%s): rc %d, %ld ticks, %ld restarts, %ld steps, cpu [s]: %.4f, "
         "per tick [us]: %.3f\n", goon ? "goon" : "restart", rc, ticks, restarts, steps, cpu,
         1e6 * cpu / ticks);
  printf("w1 %.6g w2 %.6g w3 %.6g I %.6g\n", NV_Ith_S(y, 0), NV_Ith_S(y, 1), NV_Ith_S(y, 2), I);
  if (argc > 3) { /* the stiction run: its CPU time from the children's usage */
    struct rusage ru;
    if (system(argv[3]) != 0) return 1;
    getrusage(RUSAGE_CHILDREN, &ru);
    double sc = ru.ru_utime.tv_sec + ru.ru_stime.tv_sec + 1e-6 * (ru.ru_utime.tv_usec + ru.ru_stime.tv_usec);
    printf("stiction ClutchPI: cpu [s]: %.4f, per tick [us]: %.3f, ratio stiction/handwritten: %.2f\n",
           sc, 1e6 * sc / ticks, sc / cpu);
  }
  N_VDestroy(y);
  N_VDestroy(fh);
  N_VDestroy(f);
  CVodeFree(&mem);
  SUNLinSolFree(LS);
  SUNMatDestroy(A);
  SUNContext_Free(&ctx);
  return rc < 0;
}
