/* A progress bar on stderr, only when asked for, when stderr is a terminal and once the run
 * has taken more than a second (short runs stay silent). Redrawn at most ten times a second
 * so that it costs nothing measurable. */
#include <stdio.h>
#include <unistd.h>

#include "runtime/runtime.h"

#define ST_PROGRESS_WIDTH 40

static int wanted(stiction_sim *sim) {
  if (!sim->opt.progress) return 0;
  if (sim->progress_shown) return 1;
  return isatty(STDERR_FILENO);
}

void st_progress_update(stiction_sim *sim, double t) {
  if (!sim->opt.progress) return;
  double now = st_wall_now();
  if (now - sim->t_wall0 < 1.0 || now - sim->progress_last < 0.1 || !wanted(sim)) return;
  sim->progress_last = now;
  double frac = (t - sim->opt.start_time) / (sim->opt.stop_time - sim->opt.start_time);
  if (frac < 0) frac = 0;
  if (frac > 1) frac = 1;
  int filled = (int)(frac * ST_PROGRESS_WIDTH);
  char bar[ST_PROGRESS_WIDTH + 1];
  for (int i = 0; i < ST_PROGRESS_WIDTH; i++) bar[i] = i < filled ? '#' : '.';
  bar[ST_PROGRESS_WIDTH] = 0;
  fprintf(stderr, "\r[%s] %5.1f%%  t = %-12.6g", bar, 100 * frac, t);
  fflush(stderr);
  sim->progress_shown = 1;
}

void st_progress_finish(stiction_sim *sim) {
  if (!sim->progress_shown) return;
  fprintf(stderr, "\r%*s\r", ST_PROGRESS_WIDTH + 30, "");
  fflush(stderr);
}
