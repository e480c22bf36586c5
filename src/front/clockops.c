/* The synchronous operators of Modelica 3.6 chapter 16 in models: the Clock constructors and
 * the clocked sample/hold/previous/... calls become FX_BUILTIN nodes (flat.h); the compiler
 * partitions and lowers them (src/compile/clocks.c). The state-machine operators of chapter
 * 17 too (src/compile/statemachine.c), their states named by instance path. */
#include <string.h>

#include "front/flat_expr.h"
#include "front/inst.h"

static const struct {
  const char *name;
  st_builtin b;
  int min, max; /* argument counts */
} clock_ops[] = {
    {"hold", FB_HOLD, 1, 1},           {"previous", FB_PREVIOUS, 1, 1},
    {"noClock", FB_NOCLOCK, 1, 1},     {"interval", FB_INTERVAL, 0, 1},
    {"firstTick", FB_FIRSTTICK, 0, 1}, {"subSample", FB_SUBSAMPLE, 1, 2},
    {"superSample", FB_SUPERSAMPLE, 1, 2}, {"shiftSample", FB_SHIFTSAMPLE, 1, 3},
    {"backSample", FB_BACKSAMPLE, 1, 3},
};

static int count_args(const st_ast_fnarg *a) {
  int n = 0;
  for (; a; a = a->next) n++;
  return n;
}

/* Translates the arguments of a call into r->args; named arguments other than `named` are
 * errors; the value of `named` goes to *named_value. */
static st_fexpr *translate_args(st_fl *fl, const st_ast_expr *e, st_builtin b, int form,
                                const char *named, st_fexpr **named_value, st_env env) {
  int n = 0;
  for (const st_ast_fnarg *a = e->u.call.args; a; a = a->next) n += !a->name;
  st_fexpr *r = st_fx_new(fl->arena, FX_BUILTIN, (int)b, n, e->loc);
  if (!r) return NULL;
  r->index = form;
  int i = 0;
  for (const st_ast_fnarg *a = e->u.call.args; a; a = a->next) {
    if (a->name && !(named && strcmp(a->name, named) == 0)) {
      st_fl_error(fl, a->loc, env.inst, "%s(): unknown named argument '%s'",
                  st_builtin_name(b), a->name);
      return NULL;
    }
    st_fexpr *v = st_translate(fl, a->value, env);
    if (!v) return NULL;
    if (a->name) *named_value = v;
    else r->args[i++] = v;
  }
  return r;
}

/* Clock(), Clock(intervalCounter[, resolution]), Clock(interval), Clock(condition[,
 * startInterval]), Clock(c, solverMethod) (Modelica 3.6 section 16.3): the form from the
 * types of the arguments. */
static st_fexpr *clock_constructor(st_fl *fl, const st_ast_expr *e, st_env env) {
  st_fexpr *method = NULL;
  st_fexpr *r = translate_args(fl, e, FB_CLOCK, CLK_INFERRED, "solverMethod", &method, env);
  if (!r) return NULL;
  if (r->nargs == 2 && !method && st_fl_type(fl, r->args[0]) == ST_T_CLOCK) {
    method = r->args[1];
    r->nargs = 1;
  }
  if (r->nargs > 2 || (method && r->nargs != 1)) {
    st_fl_error(fl, e->loc, env.inst, "Clock(): unsupported arguments");
    return NULL;
  }
  if (r->nargs == 0) return r;
  st_ftype t = st_fl_type(fl, r->args[0]);
  if (method) {
    if (t != ST_T_CLOCK || !(r->str = st_fl_string_const(fl, method))) {
      st_fl_error(fl, e->loc, env.inst, "Clock(c, solverMethod) needs a clock and a String "
                  "parameter");
      return NULL;
    }
    r->index = CLK_SOLVER;
  } else if (t == ST_T_BOOLEAN) {
    r->index = CLK_EVENT;
  } else if (t == ST_T_CLOCK) {
    st_fl_error(fl, e->loc, env.inst, "Clock(c) needs a solverMethod");
    return NULL;
  } else if (t == ST_T_INTEGER || r->nargs == 2) {
    r->index = CLK_RATIONAL;
  } else {
    r->index = CLK_REAL;
  }
  return r;
}

static st_fexpr *state_call(st_fl *fl, const st_ast_expr *e, const char *name, st_env env,
                            int *handled);

st_fexpr *st_fl_clock_call(st_fl *fl, const st_ast_expr *e, const char *name, st_env env,
                           int *handled) {
  *handled = 0;
  if (fl->fnctx || e->u.call.iters) return NULL;
  st_fexpr *sm = state_call(fl, e, name, env, handled);
  if (*handled) return sm;
  int n = count_args(e->u.call.args);
  if (strcmp(name, "Clock") == 0) {
    *handled = 1;
    return clock_constructor(fl, e, env);
  }
  if (strcmp(name, "sample") == 0) {
    if (n == 2) { /* sample(u, clock) or the time events' sample(start, interval) */
      const st_ast_fnarg *second = e->u.call.args->next;
      st_fexpr *c = st_translate(fl, second->value, env);
      if (!c || st_fl_type(fl, c) != ST_T_CLOCK) return NULL; /* the caller translates it */
    } else if (n != 1) {
      return NULL;
    }
    *handled = 1;
    st_fexpr *r = translate_args(fl, e, FB_CSAMPLE, 0, NULL, NULL, env);
    return r ? st_fl_map_builtin(fl, r) : NULL;
  }
  for (size_t k = 0; k < sizeof clock_ops / sizeof clock_ops[0]; k++) {
    if (clock_ops[k].name[0] != name[0] || strcmp(clock_ops[k].name, name)) continue;
    *handled = 1;
    if (n < clock_ops[k].min || n > clock_ops[k].max) {
      st_fl_error(fl, e->loc, env.inst, "%s() takes %d to %d arguments, %d given", name,
                  clock_ops[k].min, clock_ops[k].max, n);
      return NULL;
    }
    st_fexpr *r = translate_args(fl, e, clock_ops[k].b, 0, NULL, NULL, env);
    return r ? st_fl_map_builtin(fl, r) : NULL;
  }
  return NULL;
}

/* ------------------------------------------------------------------ state machines */

/* A state argument: the instance it names, as an FX_STRING of its path. */
static st_fexpr *state_ref(st_fl *fl, const st_ast_expr *a, const char *fn, st_env env) {
  int outside;
  st_inst *s = a && a->kind == AX_CREF ? st_resolve_node(fl, a->u.cref, env, &outside, 0) : NULL;
  if (!s) {
    if (a && a->kind != AX_CREF)
      st_fl_error(fl, a->loc, env.inst, "%s(): a state is a component reference", fn);
    return NULL;
  }
  st_fexpr *r = st_fx_new(fl->arena, FX_STRING, 0, 0, a->loc);
  /* a copy: the instance tree of a nested class (a state inside a state) is freed before
   * the flat model is */
  if (r && !(r->str = st_arena_strdup(fl->arena, s->path))) return NULL;
  return r;
}

/* The path of the instance an expression is written in, as an FX_STRING. */
static st_fexpr *here(st_fl *fl, st_loc loc, st_env env) {
  st_fexpr *r = st_fx_new(fl->arena, FX_STRING, 0, 0, loc);
  if (r && !(r->str = st_arena_strdup(fl->arena, env.inst ? env.inst->path : ""))) return NULL;
  return r;
}

/* transition(from, to, condition, immediate = true, reset = true, synchronize = false,
 * priority = 1) and initialState(state) (Modelica 3.6 section 17.1) as the rhs of an
 * equation; *handled is 0 for other names. */
st_fexpr *st_fl_state_equation(st_fl *fl, const st_ast_expr *e, const char *name, st_env env,
                               int *handled) {
  static const char *const names[] = {"from", "to", "condition", "immediate", "reset",
                                      "synchronize", "priority"};
  int transition = strcmp(name, "transition") == 0;
  *handled = transition || strcmp(name, "initialState") == 0;
  if (!*handled) return NULL;
  int n = transition ? 7 : 1;
  st_fexpr *r = st_fx_new(fl->arena, FX_BUILTIN, transition ? FB_TRANSITION : FB_INITIALSTATE,
                          n, e->loc);
  if (!r) return NULL;
  const st_ast_expr *arg[7] = {0};
  int pos = 0;
  for (const st_ast_fnarg *a = e->u.call.args; a; a = a->next) {
    int k = -1;
    if (!a->name) k = pos++;
    else
      for (int j = 0; j < n; j++)
        if (strcmp(a->name, names[j]) == 0) k = j;
    if (k < 0 || k >= n || arg[k]) {
      st_fl_error(fl, a->loc, env.inst, "%s(): unexpected argument", name);
      return NULL;
    }
    arg[k] = a->value;
  }
  for (int k = 0; k < (transition ? 3 : 1); k++)
    if (!arg[k]) {
      st_fl_error(fl, e->loc, env.inst, "%s(): the %s is missing", name, names[k]);
      return NULL;
    }
  if (!(r->args[0] = state_ref(fl, arg[0], name, env))) return NULL;
  if (!transition) return r;
  if (!(r->args[1] = state_ref(fl, arg[1], name, env)) ||
      !(r->args[2] = st_translate(fl, arg[2], env)))
    return NULL;
  static const int defaults[] = {1, 1, 0, 1};
  for (int k = 3; k < 7; k++) {
    r->args[k] = arg[k] ? st_translate(fl, arg[k], env)
                 : k == 6 ? st_fx_real(fl->arena, defaults[k - 3], e->loc)
                          : st_fx_bool(fl->arena, defaults[k - 3], e->loc);
    if (!r->args[k]) return NULL;
  }
  return r;
}

/* activeState(state), ticksInState(), timeInState() in expressions. */
static st_fexpr *state_call(st_fl *fl, const st_ast_expr *e, const char *name, st_env env,
                            int *handled) {
  st_builtin b = strcmp(name, "activeState") == 0    ? FB_ACTIVESTATE
                 : strcmp(name, "ticksInState") == 0 ? FB_TICKSINSTATE
                 : strcmp(name, "timeInState") == 0  ? FB_TIMEINSTATE
                                                     : FB_COUNT_;
  *handled = b != FB_COUNT_;
  if (!*handled) return NULL;
  int n = count_args(e->u.call.args), want = b == FB_ACTIVESTATE;
  if (n != want || (want && e->u.call.args->name)) {
    st_fl_error(fl, e->loc, env.inst, "%s() takes %d argument%s", name, want, want ? "" : "s");
    return NULL;
  }
  st_fexpr *r = st_fx_new(fl->arena, FX_BUILTIN, (int)b, 1, e->loc);
  if (!r) return NULL;
  r->args[0] = want ? state_ref(fl, e->u.call.args->value, name, env) : here(fl, e->loc, env);
  return r->args[0] ? r : NULL;
}
