/* The histories behind delay() (delay.h): a sliding window of (t, value) samples per delay()
 * node, appended at the end and dropped at the front, interpolated linearly. */
#include "exec/delay.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

typedef struct st_sample_tv {
  double t, v;
  int event; /* recorded in an event pass (the value after the event) */
} st_sample_tv;

typedef struct st_delay_line {
  const void *key;
  st_prog arg, bound;     /* expr, and the parameter bound on delayTime */
  st_sample_tv *s;        /* samples s[head .. head + n), times non-decreasing */
  int head, n, cap;
  int fixed;              /* bound is the delay time itself (no delayMax): events scheduled */
} st_delay_line;

struct st_delays {
  st_delay_line *lines;
  int n, cap;
  int shared; /* a clone: the programs are the original's */
};

st_delays *st_delays_new(void) { return calloc(1, sizeof(st_delays)); }

void st_delays_free(st_delays *d) {
  if (!d) return;
  for (int i = 0; i < d->n; i++) {
    if (!d->shared) {
      st_prog_free(&d->lines[i].arg);
      st_prog_free(&d->lines[i].bound);
    }
    free(d->lines[i].s);
  }
  free(d->lines);
  free(d);
}

st_delays *st_delays_clone(const st_delays *d) {
  if (!d) return NULL;
  st_delays *c = calloc(1, sizeof *c);
  if (!c || !(c->lines = calloc((size_t)(d->n + 1), sizeof *c->lines))) {
    free(c);
    return NULL;
  }
  for (int i = 0; i < d->n; i++) {
    c->lines[i] = d->lines[i];
    c->lines[i].s = NULL;
    c->lines[i].head = c->lines[i].n = c->lines[i].cap = 0;
  }
  c->n = c->cap = d->n;
  c->shared = 1;
  return c;
}

int st_delays_line(st_delays *d, const void *key, int *created, st_prog **arg, st_prog **bound) {
  *created = 0;
  for (int i = 0; i < d->n; i++)
    if (d->lines[i].key == key) return i;
  if (d->n == d->cap) {
    int cap = d->cap ? 2 * d->cap : 4;
    st_delay_line *l = realloc(d->lines, (size_t)cap * sizeof *l);
    if (!l) return -1;
    d->lines = l;
    d->cap = cap;
  }
  st_delay_line *l = &d->lines[d->n];
  memset(l, 0, sizeof *l);
  l->key = key;
  *created = 1;
  *arg = &l->arg;
  *bound = &l->bound;
  return d->n++;
}

void st_delays_reset(st_delays *d) {
  for (int i = 0; d && i < d->n; i++) d->lines[i].head = d->lines[i].n = 0;
}

/* Room for one more sample at the end: slide the window to the front of the array when half
 * of it is dropped samples, else grow it (amortized O(1) per sample). */
static int reserve(st_delay_line *l) {
  if (l->head + l->n < l->cap) return 0;
  if (l->head > 0 && l->head >= l->cap / 2) {
    memmove(l->s, l->s + l->head, (size_t)l->n * sizeof *l->s);
    l->head = 0;
    return 0;
  }
  int cap = l->cap ? 2 * l->cap : 64;
  st_sample_tv *s = realloc(l->s, (size_t)cap * sizeof *s);
  if (!s) return -1;
  l->s = s;
  l->cap = cap;
  return 0;
}

static int samples_at(const st_delay_line *l, double t) {
  int c = 0;
  for (int i = l->head + l->n - 1; i >= l->head && l->s[i].t == t; i--) c++;
  return c;
}

/* Appends (t, v). The integrator went back when t is older than the newest sample: those are
 * dropped. At one instant at most two samples stay, the first (the left limit) and the latest
 * event pass (replaced by every later pass): a step of expr is delayed as a step. A call
 * after the event at the same instant (IDACalcIC's iterates at the restart) keeps the event's
 * value: overwritten, the right sample differed from the left one and the delay saw a step. */
static int push(st_delay_line *l, double t, double v, int event) {
  while (l->n > 0 && l->s[l->head + l->n - 1].t > t) l->n--;
  int same = samples_at(l, t);
  if (same >= 2 && !event) return 0;
  if (same >= 2 || (same == 1 && !event)) {
    l->s[l->head + l->n - 1] = (st_sample_tv){t, v, event};
    return 0;
  }
  if (reserve(l)) return -1;
  l->s[l->head + l->n++] = (st_sample_tv){t, v, event};
  return 0;
}

/* Drops samples that no delay up to dmax can reach again. The newest sample may be a trial
 * point ahead of the last accepted step, and outputs and indicators read at times inside
 * that step, so the reference is the third newest sample (at or before the accepted step
 * even with a left/right pair at an event): keep the last one at or before ref - dmax, the
 * left end of the interval interpolation may need. */
static void prune(st_delay_line *l, double dmax) {
  if (l->n < 3) return;
  double oldest = l->s[l->head + l->n - 3].t - dmax;
  while (l->n > 2 && l->s[l->head + 1].t <= oldest) {
    l->head++;
    l->n--;
  }
}

int st_delays_record(st_delays *d, st_vm *vm) {
  for (int i = 0; d && i < d->n; i++) {
    st_delay_line *l = &d->lines[i];
    double v = st_vm_eval(vm, &l->arg), dmax = st_vm_eval(vm, &l->bound);
    if (push(l, vm->time, v, vm->event_mode)) return -1;
    if (dmax >= 0) prune(l, dmax);
  }
  return 0;
}

void st_delays_set_fixed(st_delays *d, int k) { d->lines[k].fixed = 1; }

/* How close a delayed instant te + d, taken back by - d, must come to te (rounding). */
static double instant_window(double t) { return 1e-12 * (1 + fabs(t)); }

/* Instants at which expr changed at an event: a left and a right sample at one time whose
 * values differ by more than rounding and the solver's noise (IDA's consistent restart moves
 * a continuous expr by ~1e-12; a delayed step that small needs no event). fn(ctx, te) for
 * each, oldest first; stops when fn returns non-zero. */
static int each_step(const st_delay_line *l, int (*fn)(void *, double), void *ctx) {
  for (int i = l->head + 1; i < l->head + l->n; i++) {
    const st_sample_tv *a = &l->s[i - 1], *b = &l->s[i];
    if (a->t == b->t && fabs(b->v - a->v) > 1e-9 * (1 + fabs(a->v)) && fn(ctx, b->t)) return 1;
  }
  return 0;
}

typedef struct step_query {
  double t, delay, next; /* now, the line's delay time, the earliest arrival after t */
  int at;                /* an arrival at t */
} step_query;

static int arrival(void *ctx, double te) {
  step_query *q = ctx;
  double T = te + q->delay;
  if (fabs(T - q->t) <= instant_window(q->t)) q->at = 1;
  else if (T > q->t && T < q->next) q->next = T;
  return 0;
}

static void query_steps(const st_delays *d, st_vm *vm, step_query *q) {
  for (int i = 0; d && i < d->n; i++) {
    const st_delay_line *l = &d->lines[i];
    if (!l->fixed) continue;
    q->delay = st_vm_eval(vm, &l->bound);
    if (q->delay > 0) each_step(l, arrival, q);
  }
}

double st_delays_next_event(const st_delays *d, st_vm *vm, double t) {
  step_query q = {t, 0, INFINITY, 0};
  query_steps(d, vm, &q);
  return q.next;
}

int st_delays_event_at(const st_delays *d, st_vm *vm, double t) {
  step_query q = {t, 0, INFINITY, 0};
  query_steps(d, vm, &q);
  return q.at;
}

/* Index of the last sample with time <= target (the later of two at one instant). */
static int last_at_or_before(const st_delay_line *l, double target) {
  int lo = l->head, hi = l->head + l->n - 1; /* s[lo].t <= target is known */
  while (lo < hi) {
    int mid = lo + (hi - lo + 1) / 2;
    if (l->s[mid].t <= target) lo = mid;
    else hi = mid - 1;
  }
  return lo;
}

double st_delay_value(const st_delays *d, int k, double t, double value, double delay,
                      double dmax, int right, int *current) {
  *current = 0;
  if (!(delay >= 0 && delay <= dmax)) return NAN; /* Modelica: 0 <= delayTime <= delayMax */
  const st_delay_line *l = &d->lines[k];
  if (delay == 0 || l->n == 0) {
    *current = 1;
    return value;
  }
  double target = t - delay;
  const st_sample_tv *first = &l->s[l->head];
  /* before start + delayTime: the value at the start (after the initial event) */
  if (target < first->t) target = first->t;
  double eps = instant_window(target);
  int i = last_at_or_before(l, target + eps);
  if (fabs(l->s[i].t - target) <= eps) {
    /* at a delayed instant (the time event st_delays_next_event scheduled): the left sample
     * before the event, the right one in its passes, so a delayed step arrives as a step */
    int left = i > l->head && l->s[i - 1].t == l->s[i].t && !right;
    return l->s[left ? i - 1 : i].v;
  }
  if (i == l->head + l->n - 1) return l->s[i].v; /* a step longer than the delay: hold */
  const st_sample_tv *a = &l->s[i], *b = &l->s[i + 1];
  double w = (target - a->t) / (b->t - a->t);
  return a->v + w * (b->v - a->v);
}
