/* The expression machine: building programs and the two interpreters (value, value+tangent). */
#include "exec/bytecode.h"

#include <math.h>
#include <stdlib.h>

#include "exec/delay.h"
#include "compile/func_calls.h"
#include "front/flat_expr.h"
#include "front/flat.h"

static int stack_effect(int op) {
  switch (op) {
  case OP_CONST: case OP_LOAD: case OP_PRE: case OP_TIME: case OP_INITIAL:
  case OP_TERMINAL: case OP_LAMBDA: case OP_EDGE: case OP_CHANGE:
    return 1;
  case OP_NEG: case OP_NOT: case OP_FN1: case OP_JMP:
    return 0;
  case OP_DELAY:
    return -2;
  default:
    return -1; /* binary operators, relations, FN2, JZ, SAMPLE */
  }
}

/* Programs start with room for 2 instructions: most are a constant, a reference or a short
 * assignment (a component chain has ~25 per component), and a first block of 16 made them a
 * tenth of the translator's memory (doc/perf-log.md, issue 18). */
int st_prog_emit(st_prog *p, int op, int arg, double k) {
  if (p->n == p->cap) {
    int cap = p->cap ? 2 * p->cap : 2;
    st_ins *c = realloc(p->code, (size_t)cap * sizeof *c);
    if (!c) return -1;
    p->code = c;
    p->cap = cap;
  }
  p->code[p->n++] = (st_ins){op, arg, k};
  p->depth += stack_effect(op);
  if (p->depth > p->maxdepth) p->maxdepth = p->depth;
  return 0;
}

void st_prog_free(st_prog *p) {
  if (!p) return;
  free(p->code);
  p->code = NULL;
  p->n = p->cap = 0;
}

/* Lets the compiler drop the range check of the dispatch switch (an instruction or two
 * per interpreted operation, which is most of what a short program costs). */
#if defined(__GNUC__)
#define ST_UNREACHABLE() __builtin_unreachable()
#else
#define ST_UNREACHABLE() (void)0
#endif

/* The value alone (st_fn1 also computes the derivative factor, a cos() per sin()). */
static double fn1_value(int b, double a) {
  double v;
  return st_fx_apply_builtin1((st_builtin)b, a, &v) ? NAN : v;
}


/* A relation: read its frozen value between events; evaluate and store it at events, and
 * note that it was evaluated (the active relations, doc/events.md). A time
 * relation (time > T) takes its right limit at the event instant so that it switches exactly
 * at the scheduled time event. */
/* Operands equal up to rounding (far below the 1e-10 indicator hysteresis of model.c). */
static int tie(double a, double b) {
  double d = fabs(a - b), m = fmax(fabs(a), fabs(b));
  return m > 0 && d <= 1e-14 * m && d < 1e-12;
}

/* The terminal pass is no event of the relations: they keep their values (a threshold crossed
 * exactly at the stop time is not handled, run.c); only terminal() rises. */
static double relation(st_vm *vm, int k, double a, double b) {
  if (!vm->event_mode || vm->left_limit || vm->terminal) return vm->rel[k];
  if (vm->active) vm->active[k] = 1;
  /* A relation whose indicator the root finder saw cross takes the crossed side while its
   * operands are within rounding of each other: the event's evaluation may put them a
   * rounding on the side they came from (an ideal diode's voltage -2e-10 at a root found at
   * +1e-10), and the integrator, told of the crossing, would never see it again. Only between
   * Real expressions (tie_keep): integer(time/T) > pre(count) equal at a crossing is a counter
   * that has not stepped yet, not a rounding (a sawtooth stopped counting). */
  if (vm->gap) vm->gap[k] = 0;
  if (vm->crossed && vm->crossed[k] && vm->rels[k].tie_keep) {
    double window = 1e-7 * fmax(1, fmax(fabs(a), fabs(b)));
    /* Taken at a crossing, the relation may still restart with its indicator a rounding on
     * the side it crossed from (the event's solve and the integrator's disagree in the last
     * digits), and a departure further that way is then no crossing: FluxTubes' asc = true
     * at der(Hstat) = +3e-7, -9e-8 where integration restarted, then -48 with asc kept
     * true for 0.07 s. Until the next event its indicator's hysteresis is the window: it
     * fires once the operands leave the window on the other side (model.c). */
    if (vm->gap) vm->gap[k] = window;
    if (fabs(a - b) <= window) return vm->rel[k] = vm->crossed[k] > 0;
    /* the model with the crossed side in effect puts the operands clearly on the other side
     * (FluxTubes' asc = der(Hstat) > 0, whose der(Hstat) the value of asc moves): the
     * crossing is not forced again at this event, or the iteration cycles */
    if ((st_compare(vm->rels[k].op, a, b) != 0) != (vm->crossed[k] > 0)) {
      vm->crossed[k] = 0;
      if (vm->gap) vm->gap[k] = 0;
    }
  }
  /* A relation exactly on its threshold keeps its value (a hysteresis of zero width): a
   * friction element sliding while another locks the shaft has sa = tau0_max exactly, and
   * `sa > tau0_max` must not flip the mixed system back and forth (LossyGearDemo2, where
   * Dymola keeps the bearing's startForward for 0.15 s on that tie). Not at initialization,
   * where no previous value exists. Only for relations between Real expressions (emit.c):
   * equal counters, modes or time thresholds are real equalities, and so is 0 == 0 (a normal
   * force that steps to exactly zero must free its clutch). */
  if (!vm->initial && vm->rels[k].tie_keep && tie(a, b)) return vm->rel[k];
  int op = vm->rels[k].op;
  if (vm->rels[k].time_right) {
    if (op == FOP_GT) op = FOP_GE;
    else if (op == FOP_LE) op = FOP_LT;
    if (b > a && st_time_reached(a, b)) b = a; /* time op' T (emit.c) at T */
  }
  return vm->rel[k] = st_compare(op, a, b);
}

/* sample(start, interval) is true exactly at start + k*interval (stateless, so every pass of
 * an event iteration sees the same value). Those instants are time events, which the runtime
 * hits exactly at the time st_next_time_event computes the same way, so the window is a few
 * units of rounding: a state event 1e-10 after an instant (the indicator hysteresis) is not a
 * sample (with a window of 1e-9 intervals it counted as a second one). An instant is one
 * event: another time event a few units of rounding after it (a pulse source's period summed
 * up, 0.04 + 2.5e-15 in PowerConverters' rectifiers) finds it handled by the earlier event
 * and sees false (Blocks.Math.Mean sampled a second time there, right after its reinit(x, 0),
 * and output 0 for a whole period). */
static double sample_value(const st_vm *vm, double start, double interval) {
  if (!vm->event_mode || vm->left_limit || vm->time < start - 1e-12 || interval <= 0) return 0;
  double T = start + nearbyint((vm->time - start) / interval) * interval;
  double window = 1e-13 * fmax(fabs(T), interval);
  if (vm->prev_event_t < vm->time && fabs(vm->prev_event_t - T) <= window) return 0;
  return fabs(vm->time - T) <= window;
}

/* Dispatch of st_vm_eval. Why threaded code: the specialized programs between events are a
 * few operations each (doc/compiler.md, "Performance"), so the interpreter's own cost per
 * operation is most of an evaluation. With GCC's labels as values every handler ends in its
 * own indirect jump to the next one (no loop test, no range check, and a jump the branch
 * predictor can learn per opcode pair); other compilers get the same handlers in a switch.
 * ST_VM_SWITCH forces the portable form (a build to test it). */
#if defined(__GNUC__) && !defined(ST_VM_SWITCH)
#define ST_VM_THREADED 1
#endif

#ifdef ST_VM_THREADED
#define VM_CASE(name) L_##name:
#define VM_NEXT() do { if (++in == end) goto done; goto *label[in->op]; } while (0)
#define VM_JUMP(target) do { in = c + (target); if (in == end) goto done; goto *label[in->op]; } while (0)
#else
#define VM_CASE(name) case OP_##name:
#define VM_NEXT() break
#define VM_JUMP(target) do { in = c + (target) - 1; goto next; } while (0)
#endif

/* The top of the stack lives in a register (acc), the entries below it in s[1..sp-1] (s[0]
 * takes the empty stack's acc on the first push): an operation on the top does not go
 * through memory, where each result would wait for the store of the one before. sp is the
 * depth. The operations and their order are those of the plain stack machine, so are the
 * results. */
double st_vm_eval(st_vm *vm, const st_prog *p) {
  double *s = vm->stack, acc = 0;
  int sp = 0;
  if (p->n == 0) return 0; /* an empty program's code may be NULL: no offset from it */
  const st_ins *c = p->code, *in = c, *end = c + p->n;
#ifdef ST_VM_THREADED
  /* in the order of st_opcode (bytecode.h); a new opcode without a label fails to compile */
  static const void *const label[] = {
      &&L_CONST, &&L_LOAD, &&L_PRE, &&L_TIME, &&L_ADD, &&L_SUB, &&L_MUL, &&L_DIV, &&L_POW,
      &&L_NEG, &&L_LT, &&L_LE, &&L_GT, &&L_GE, &&L_EQ, &&L_NE, &&L_AND, &&L_OR, &&L_NOT,
      &&L_REL, &&L_JZ, &&L_JMP, &&L_FN1, &&L_FN2, &&L_EDGE, &&L_CHANGE, &&L_INITIAL,
      &&L_TERMINAL, &&L_LAMBDA, &&L_SAMPLE, &&L_CALL, &&L_DELAY, &&L_ADDX, &&L_SUBX, &&L_MULX, &&L_DIVX,
      &&L_ADDK, &&L_SUBK, &&L_MULK, &&L_DIVK, &&L_STORE, &&L_OSTORE};
  _Static_assert(sizeof label / sizeof label[0] == OP_COUNT, "a label per opcode");
  goto *label[in->op];
#else
  for (; in < end; in++) {
    switch (in->op) {
#endif
    VM_CASE(CONST) s[sp++] = acc; acc = in->k; VM_NEXT();
    VM_CASE(LOAD) s[sp++] = acc; acc = vm->x[in->arg]; VM_NEXT();
    VM_CASE(PRE) s[sp++] = acc; acc = vm->pre[in->arg]; VM_NEXT();
    VM_CASE(TIME) s[sp++] = acc; acc = vm->time; VM_NEXT();
    VM_CASE(ADD) acc = s[--sp] + acc; VM_NEXT();
    VM_CASE(SUB) acc = s[--sp] - acc; VM_NEXT();
    VM_CASE(MUL) acc = s[--sp] * acc; VM_NEXT();
    VM_CASE(DIV) acc = s[--sp] / acc; VM_NEXT();
    VM_CASE(POW) acc = pow(s[--sp], acc); VM_NEXT();
    VM_CASE(NEG) acc = -acc; VM_NEXT();
    VM_CASE(LT) VM_CASE(LE) VM_CASE(GT) VM_CASE(GE) VM_CASE(EQ) VM_CASE(NE)
      acc = st_compare(FOP_LT + (in->op - OP_LT), s[--sp], acc);
      VM_NEXT();
    VM_CASE(AND) acc = s[--sp] != 0 && acc != 0; VM_NEXT();
    VM_CASE(OR) acc = s[--sp] != 0 || acc != 0; VM_NEXT();
    VM_CASE(NOT) acc = acc == 0; VM_NEXT();
    VM_CASE(REL) acc = relation(vm, in->arg, s[--sp], acc); VM_NEXT();
    VM_CASE(JZ) {
      double cond = acc;
      acc = s[--sp];
      if (cond == 0) VM_JUMP(in->arg);
      VM_NEXT();
    }
    VM_CASE(JMP) VM_JUMP(in->arg);
    VM_CASE(FN1) acc = fn1_value(in->arg, acc); VM_NEXT();
    VM_CASE(FN2) {
      double da, db;
      acc = st_fn2(in->arg, s[--sp], acc, &da, &db);
      VM_NEXT();
    }
    VM_CASE(EDGE) s[sp++] = acc; acc = vm->x[in->arg] != 0 && vm->pre[in->arg] == 0; VM_NEXT();
    VM_CASE(CHANGE) s[sp++] = acc; acc = vm->x[in->arg] != vm->pre[in->arg]; VM_NEXT();
    VM_CASE(INITIAL) s[sp++] = acc; acc = vm->initial; VM_NEXT();
    VM_CASE(TERMINAL) s[sp++] = acc; acc = vm->terminal; VM_NEXT();
    VM_CASE(LAMBDA) s[sp++] = acc; acc = vm->lambda; VM_NEXT();
    VM_CASE(SAMPLE) acc = sample_value(vm, s[--sp], acc); VM_NEXT();
    VM_CASE(CALL) { /* the arguments, acc the last, contiguous in s for the callee */
      int w = st_fcall_width(vm->calls, in->arg);
      s[sp] = acc;
      acc = st_fcall_eval(vm->calls, in->arg, &s[sp - w + 1]);
      sp -= w - 1;
      VM_NEXT();
    }
    VM_CASE(DELAY) {
      int cur;
      acc = st_delay_value(vm->delays, in->arg, vm->time, s[sp - 2], s[sp - 1], acc,
                           vm->event_mode || vm->time <= vm->event_done_t, &cur);
      sp -= 2;
      VM_NEXT();
    }
    VM_CASE(ADDX) acc += vm->x[in->arg]; VM_NEXT();
    VM_CASE(SUBX) acc -= vm->x[in->arg]; VM_NEXT();
    VM_CASE(MULX) acc *= vm->x[in->arg]; VM_NEXT();
    VM_CASE(DIVX) acc /= vm->x[in->arg]; VM_NEXT();
    VM_CASE(ADDK) acc += in->k; VM_NEXT();
    VM_CASE(SUBK) acc -= in->k; VM_NEXT();
    VM_CASE(MULK) acc *= in->k; VM_NEXT();
    VM_CASE(DIVK) acc /= in->k; VM_NEXT();
    VM_CASE(STORE) vm->x[in->arg] = acc; acc = s[--sp]; VM_NEXT();
    VM_CASE(OSTORE) vm->out[in->arg] = acc; acc = s[--sp]; VM_NEXT();
#ifndef ST_VM_THREADED
    default: ST_UNREACHABLE(); /* the emitters write only the opcodes above */
    }
  next:;
  }
#else
done:
#endif
  return sp > 0 ? acc : 0;
}

#undef VM_CASE
#undef VM_NEXT
#undef VM_JUMP

static int operand_count(int op) {
  if (op == OP_NOT) return 1;
  if ((op >= OP_LT && op <= OP_REL) || op == OP_SAMPLE) return 2;
  return 0;
}

/* The operations without a derivative, for the dual interpreter. */
static double discrete_op(st_vm *vm, const st_ins *in, double a, double b) {
  switch (in->op) {
  case OP_PRE: return vm->pre[in->arg];
  case OP_TIME: return vm->time;
  case OP_AND: return a != 0 && b != 0;
  case OP_OR: return a != 0 || b != 0;
  case OP_NOT: return a == 0;
  case OP_REL: return relation(vm, in->arg, a, b);
  case OP_EDGE: return vm->x[in->arg] != 0 && vm->pre[in->arg] == 0;
  case OP_CHANGE: return vm->x[in->arg] != vm->pre[in->arg];
  case OP_INITIAL: return vm->initial;
  case OP_TERMINAL: return vm->terminal;
  case OP_LAMBDA: return vm->lambda;
  case OP_SAMPLE: return sample_value(vm, a, b);
  default: return st_compare(FOP_LT + (in->op - OP_LT), a, b);
  }
}

/* Forward mode: every stack entry carries its tangent d[]. Relations, logic and integer
 * functions have zero tangent (they are piecewise constant). */
static void dual_pow(double *v, double *d, int sp) {
  double a = v[sp], b = v[sp + 1], da = d[sp], db = d[sp + 1];
  double r = pow(a, b);
  double t = 0;
  if (da != 0) t += (b == 0 ? 0 : b * pow(a, b - 1)) * da;
  if (db != 0 && a > 0) t += r * log(a) * db;
  v[sp] = r;
  d[sp] = t;
}

double st_vm_eval_dual(st_vm *vm, const st_prog *p, double *dot) {
  double *s = vm->stack, *d = vm->dstack;
  int sp = -1;
  const st_ins *c = p->code;
  for (int pc = 0; pc < p->n; pc++) {
    const st_ins *in = &c[pc];
    switch (in->op) {
    case OP_CONST: s[++sp] = in->k; d[sp] = 0; break;
    case OP_LOAD: s[++sp] = vm->x[in->arg]; d[sp] = vm->xd[in->arg]; break;
    case OP_ADD: sp--; s[sp] += s[sp + 1]; d[sp] += d[sp + 1]; break;
    case OP_SUB: sp--; s[sp] -= s[sp + 1]; d[sp] -= d[sp + 1]; break;
    case OP_MUL:
      sp--;
      d[sp] = d[sp] * s[sp + 1] + s[sp] * d[sp + 1];
      s[sp] *= s[sp + 1];
      break;
    case OP_DIV:
      sp--;
      s[sp] /= s[sp + 1];
      d[sp] = (d[sp] - s[sp] * d[sp + 1]) / s[sp + 1];
      break;
    case OP_POW: sp--; dual_pow(s, d, sp); break;
    case OP_NEG: s[sp] = -s[sp]; d[sp] = -d[sp]; break;
    case OP_FN1: {
      double f;
      s[sp] = st_fn1(in->arg, s[sp], &f);
      d[sp] = d[sp] == 0 ? 0 : f * d[sp];
      break;
    }
    case OP_FN2: {
      double fa, fb;
      sp--;
      s[sp] = st_fn2(in->arg, s[sp], s[sp + 1], &fa, &fb);
      d[sp] = fa * d[sp] + fb * d[sp + 1];
      break;
    }
    case OP_JZ: if (s[sp--] == 0) pc = in->arg - 1; break;
    case OP_JMP: pc = in->arg - 1; break;
    case OP_CALL: {
      double t;
      sp -= st_fcall_width(vm->calls, in->arg) - 1;
      s[sp] = st_fcall_dual(vm->calls, in->arg, &s[sp], &d[sp], &t);
      d[sp] = t;
      break;
    }
    case OP_DELAY: {
      /* a past value does not move with the unknowns; expr itself does while it is used
       * directly (delay 0, or at initialization before anything is recorded) */
      int cur;
      sp -= 2;
      s[sp] = st_delay_value(vm->delays, in->arg, vm->time, s[sp], s[sp + 1], s[sp + 2],
                             vm->event_mode || vm->time <= vm->event_done_t, &cur);
      if (!cur) d[sp] = 0;
      break;
    }
    case OP_ADDX: s[sp] += vm->x[in->arg]; d[sp] += vm->xd[in->arg]; break;
    case OP_SUBX: s[sp] -= vm->x[in->arg]; d[sp] -= vm->xd[in->arg]; break;
    case OP_MULX: {
      double b = vm->x[in->arg];
      d[sp] = d[sp] * b + s[sp] * vm->xd[in->arg];
      s[sp] *= b;
      break;
    }
    case OP_DIVX: {
      double b = vm->x[in->arg];
      s[sp] /= b;
      d[sp] = (d[sp] - s[sp] * vm->xd[in->arg]) / b;
      break;
    }
    case OP_ADDK: s[sp] += in->k; break;
    case OP_SUBK: s[sp] -= in->k; break;
    case OP_MULK: s[sp] *= in->k; d[sp] *= in->k; break;
    case OP_DIVK: s[sp] /= in->k; d[sp] /= in->k; break;
    default: {
      /* Everything else is piecewise constant in the unknowns: tangent 0. */
      int pops = operand_count(in->op);
      double a = pops == 2 ? s[sp - 1] : pops == 1 ? s[sp] : 0;
      double b = pops == 2 ? s[sp] : 0;
      sp -= pops;
      s[++sp] = discrete_op(vm, in, a, b);
      d[sp] = 0;
      break;
    }
    }
  }
  *dot = sp >= 0 ? d[sp] : 0;
  return sp >= 0 ? s[sp] : 0;
}
