/* User function calls of compiled equations (see func_calls.h): the call sites with their
 * argument shapes, and the bridge from OP_CALL's stack elements to the one evaluator of
 * function bodies, the function machine of src/func (also the front end's), with the C code
 * of external clauses called through compile/extcall.c. Anything it does not support makes
 * the call fail (NaN) with the reason, never a crash. */
#include "compile/func_calls.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "compile/extcall.h"
#include "compile/extlib.h"
#include "func/external.h"
#include "func/func_compile.h"

#define MAX_ARGS ST_FCALL_MAX_ARGS
#define PINNED (-2)
#define MAX_PINS 8 /* pinned values remembered per call site (more are compiled again) */

typedef struct call_site {
  int function, nargs, width;
  int output;        /* which output the call returns (0: the first) */
  int element;       /* > 0: that element (1-based, row-major) of an array output */
  int compiled;      /* the body compiled for this site's shapes (func_compile.h), -1 (refused:
                        the call fails with why), or PINNED: compiled per value of some
                        arguments */
  unsigned pinmask;  /* PINNED: the arguments whose values size the function's arrays */
  int npins;         /* PINNED: bodies compiled so far, for the values pins->value[i] */
  int next_pin;      /* PINNED: the entry a new value replaces when all are taken */
  struct site_pins *pins; /* PINNED: made at the first call (owned) */
  int der;           /* the compiled body of annotation(derivative = f_der) for the site's
                        shapes and the marked inputs' tangents, -1 (none: the body's tangent) */
  int der_width;     /* argument elements of f_der: the site's and the marked tangents' */
  int shape;         /* where its argument shapes start in st_fcalls.shapes: ndims[nargs],
                        then dims[nargs][4] (a pool: a site is small, models have 10^6) */
  st_extcall ext;    /* ext.fn set: an external function stiction provides (external.h) */
  char *why;         /* why the body was not compiled (the call's failure; owned), NULL */
  int tangent_of;    /* >= 0: this site is the directional derivative of that site's call, its
                        elements the base's arguments then their tangents (FX_CALL_DER) */
  int replay;        /* >= 0: takes nothing from the stack but the argument elements (and
                        tangents) that site took last: another element of the same call */
  double *kept;      /* a site with replays: its last argument elements, then their tangents
                        (2 * width; owned) */
  double *last;      /* a pure site's last argument elements, then its value (width + 1;
                        made at its first cacheable run, owned); has_last: they are valid */
  int has_last;
  int nouts;         /* the function's outputs (0: a statement), counted once: a call site
                        runs on the hot path and Spice3's device functions have 60 locals */
  int keeps;         /* last_keep may keep its value: 0 not decided yet, 1 yes, 2 no */
} call_site;

/* The values of the pinned arguments a site's bodies were compiled for. */
struct site_pins {
  double value[MAX_PINS][ST_FVM_MAX_PINNED]; /* only the first arguments are pinned */
  int body[MAX_PINS];
};

struct st_fcalls {
  const st_flat_model *flat;
  call_site *sites;
  int n, cap;
  int *shapes;       /* the sites' argument shapes (call_site.shape) */
  int nshapes, capshapes;
  int *fn_site;      /* per function: its last site of st_fcalls_add, -1. The next site of
                        the same shapes shares its shape and compiled bodies: each field of a
                        record parameter bound to a call is a call of its own (Spice3's BJT:
                        ~100 arguments, 2 KB of shape apiece, 200 sites per transistor) */
  long shapes_shared; /* sites that did (st_fcalls_shapes_shared) */
  st_fvm *vm;        /* the compiled bodies */
  st_extlib *lib;    /* the loaded C code of external functions (shared by clones), or NULL */
  st_extrun *run;    /* this instance's side of calling it */
  char *kept; /* a failure cleared while its NaN may still sit in an unknown (malloc'd) */
  long site_hits; /* site_eval calls answered from a site's last value (st_fcalls_site_hits) */
  double *scratch; /* argument elements of a shifted or extended call (malloc'd) */
  int nscratch;
};

/* n doubles of scratch (the arguments of a wide call need not fit on the C stack), NULL when
 * out of memory. */
static double *scratch(st_fcalls *fc, int n) {
  if (n > fc->nscratch) {
    double *p = realloc(fc->scratch, sizeof *p * (size_t)n);
    if (!p) return NULL;
    fc->scratch = p;
    fc->nscratch = n;
  }
  return fc->scratch;
}

static const int *site_ndims(const st_fcalls *fc, const call_site *s) {
  return fc->shapes + s->shape;
}
static const int (*site_dims(const st_fcalls *fc, const call_site *s))[4] {
  return (const int (*)[4])(fc->shapes + s->shape + s->nargs);
}

/* Room for n more ints of shapes at the end of the pool: their offset, or -1. */
static int shapes_take(st_fcalls *fc, int n) {
  if (fc->nshapes + n > fc->capshapes || !fc->shapes) { /* a site without arguments too */
    int cap = fc->capshapes ? fc->capshapes : 64;
    while (cap < fc->nshapes + n) cap *= 2;
    int *p = realloc(fc->shapes, (size_t)cap * sizeof *p);
    if (!p) return -1;
    fc->shapes = p;
    fc->capshapes = cap;
  }
  fc->nshapes += n;
  return fc->nshapes - n;
}

/* Keeps why (a refused body's reason) as the site's, "" clears it. */
static void set_why(call_site *s, const char *why) {
  free(s->why);
  s->why = why[0] ? strdup(why) : NULL; /* out of memory: the call fails without its reason */
}

static int wants_extlib(const st_flat_model *flat) {
  for (int k = 0; k < flat->nfunctions; k++)
    if (st_extlib_wants(&flat->functions[k])) return 1;
  return 0;
}

/* A call table over lib (one more owner taken), or a newly built one when lib is NULL. */
static st_fcalls *fcalls_new(const st_flat_model *flat, st_extlib *lib) {
  st_fcalls *fc = calloc(1, sizeof *fc);
  if (!fc) return NULL;
  fc->flat = flat;
  fc->vm = st_fvm_new(flat->functions, flat->nfunctions);
  int ok = fc->vm != NULL;
  if (ok && (lib || wants_extlib(flat))) {
    fc->lib = lib ? st_extlib_ref(lib)
                  : st_extlib_new(flat->functions, flat->nfunctions, st_extcall_callbacks());
    fc->run = fc->lib ? st_extrun_new(fc->lib, flat->functions) : NULL;
    if (fc->run) st_fvm_set_external(fc->vm, st_extrun_call, fc->run);
    ok = fc->run != NULL;
  }
  if (!ok) {
    st_fcalls_free(fc);
    return NULL;
  }
  return fc;
}

st_fcalls *st_fcalls_new(const st_flat_model *flat) { return fcalls_new(flat, NULL); }

const char *st_fcalls_external_error(const st_fcalls *fc, int function) {
  return fc ? st_extlib_error(fc->lib, function) : NULL;
}

int st_fcalls_string(st_fcalls *fc, const char *str) { return st_fvm_string(fc->vm, str); }

void st_fcalls_free(st_fcalls *fc) {
  if (!fc) return;
  free(fc->kept);
  free(fc->scratch);
  st_extrun_free(fc->run);
  st_extlib_free(fc->lib);
  st_fvm_free(fc->vm);
  for (int k = 0; k < fc->n; k++) {
    free(fc->sites[k].pins);
    free(fc->sites[k].why);
    free(fc->sites[k].kept);
    free(fc->sites[k].last);
  }
  free(fc->sites);
  free(fc->shapes);
  free(fc->fn_site);
  free(fc);
}

static int count_outputs(const st_ffunction *fn) {
  int n = 0;
  for (int i = 0; i < fn->nlocals; i++) n += fn->locals[i].causality == ST_C_OUTPUT;
  return n;
}

/* The compiler's signature of a call site: its argument shapes, nothing pinned. */
static void site_sig(const st_fcalls *fc, const call_site *s, st_fsig *sig) {
  memset(sig, 0, sizeof *sig);
  sig->nargs = s->nargs;
  for (int i = 0; i < s->nargs; i++) {
    sig->ndims[i] = site_ndims(fc, s)[i];
    memcpy(sig->dims[i], site_dims(fc, s)[i], sizeof sig->dims[i]);
  }
}

/* The body compiled for the site's argument shapes; -1 when the compiler refuses it (the
 * reason in s->why: the call's failure, and --dump's line). */
static int compile_site(st_fcalls *fc, call_site *s) {
  char why[200] = "";
  if (s->nargs > ST_FVM_MAX_ARGS) {
    snprintf(why, sizeof why, "more than %d arguments", ST_FVM_MAX_ARGS);
    set_why(s, why);
    return -1;
  }
  st_fsig sig;
  site_sig(fc, s, &sig);
  int c = st_fvm_compile(fc->vm, s->function, &sig, why, sizeof why);
  set_why(s, c < 0 ? why : "");
  return c < 0 && st_fvm_wanted_pin(fc->vm, s->function, &sig) >= 0 ? PINNED : c;
}

/* f_der of the site's function compiled for the site's shapes followed by the shapes of the
 * inputs it marks (func_compile.c's derivative_of does the same inside bodies); -1 when
 * there is none, the site is pinned, or f_der does not compile. */
static int compile_derivative(st_fcalls *fc, call_site *s) {
  const st_ffunction *fn = &fc->flat->functions[s->function];
  if (!fn->derivative || !fn->has_derivative || s->compiled < 0) return -1;
  st_fsig sig;
  site_sig(fc, s, &sig);
  const int *ndims = site_ndims(fc, s);
  const int (*dims)[4] = site_dims(fc, s);
  s->der_width = s->width;
  for (int i = 0, a = 0; i < fn->nlocals; i++) {
    if (fn->locals[i].causality != ST_C_INPUT) continue;
    if (a >= s->nargs) return -1; /* an input left to its default */
    if (fn->has_derivative[i]) {
      if (sig.nargs == ST_FVM_MAX_ARGS) return -1;
      sig.ndims[sig.nargs] = ndims[a];
      memcpy(sig.dims[sig.nargs++], dims[a], sizeof sig.dims[0]);
      int n = 1;
      for (int d = 0; d < ndims[a]; d++) n *= dims[a][d];
      s->der_width += n;
    }
    a++;
  }
  char why[200];
  return st_fvm_compile(fc->vm, fn->derivative - 1, &sig, why, sizeof why);
}

/* A body compiled for the values of the arguments that size the function's arrays
 * (`ramp(n, slope)` with `output Real table[n, 2]`): compiled at the first call with those
 * values, then reused; -1 with the reason in s->why (a non-scalar or non-integer such
 * argument). */
static int pinned_body(st_fcalls *fc, call_site *s, const double *x) {
  for (int i = 0; i < s->npins; i++) {
    int same = 1;
    for (int a = 0; a < s->nargs && a < ST_FVM_MAX_PINNED && same; a++)
      if (s->pinmask >> a & 1u)
        same = s->pins->value[i][a] == x[st_arg_offset(site_ndims(fc, s), site_dims(fc, s), a)];
    if (same) return s->pins->body[i];
  }
  if (!s->pins && !(s->pins = malloc(sizeof *s->pins))) {
    set_why(s, "out of memory");
    return -1;
  }
  st_fsig sig;
  site_sig(fc, s, &sig);
  char why[200] = "";
  int c = st_fvm_compile_for(fc->vm, s->function, &sig, x, why, sizeof why);
  set_why(s, c < 0 ? why : "");
  int at = s->npins < MAX_PINS ? s->npins++ : s->next_pin++ % MAX_PINS;
  s->pinmask |= sig.pinned;
  for (int a = 0; a < s->nargs && a < ST_FVM_MAX_PINNED; a++) s->pins->value[at][a] = sig.pin[a];
  s->pins->body[at] = c;
  return c;
}

/* The compiled body for these arguments, -1 when there is none (why in s->why). */
static int body_for(st_fcalls *fc, call_site *s, const double *x) {
  return s->compiled == PINNED ? pinned_body(fc, s, x) : s->compiled;
}

/* Room for one more site (not yet counted in fc->n): cleared, of no other site; NULL when
 * out of memory. */
static call_site *new_site(st_fcalls *fc) {
  if (fc->n == fc->cap) {
    int cap = fc->cap ? 2 * fc->cap : 8;
    call_site *s = realloc(fc->sites, (size_t)cap * sizeof *s);
    if (!s) return NULL;
    fc->sites = s;
    fc->cap = cap;
  }
  call_site *s = &fc->sites[fc->n];
  memset(s, 0, sizeof *s);
  s->tangent_of = -1;
  s->replay = -1;
  return s;
}

/* Site p has these nargs argument shapes. */
static int same_shape(const st_fcalls *fc, const call_site *p, int nargs, const int *ndims,
                      const int *dims) {
  if (p->nargs != nargs) return 0;
  const int *sn = site_ndims(fc, p), (*sd)[4] = site_dims(fc, p);
  for (int i = 0; i < nargs; i++) {
    if (sn[i] != ndims[i]) return 0;
    for (int d = 0; d < 4; d++)
      if (sd[i][d] != (d < ndims[i] ? dims[4 * i + d] : 0)) return 0;
  }
  return 1;
}

/* The function's last site when it has the same argument shapes, else NULL. */
static const call_site *shape_donor(st_fcalls *fc, int function, int nargs, const int *ndims,
                                    const int *dims) {
  if (!fc->fn_site) {
    if (!(fc->fn_site = malloc(sizeof *fc->fn_site * ((size_t)fc->flat->nfunctions + 1))))
      return NULL;
    for (int f = 0; f < fc->flat->nfunctions; f++) fc->fn_site[f] = -1;
  }
  int k = fc->fn_site[function];
  return k >= 0 && same_shape(fc, &fc->sites[k], nargs, ndims, dims) ? &fc->sites[k] : NULL;
}

long st_fcalls_shapes_shared(const st_fcalls *fc) { return fc ? fc->shapes_shared : 0; }

int st_fcalls_add(st_fcalls *fc, int function, int nargs, const int *ndims, const int *dims) {
  if (function < 0 || function >= fc->flat->nfunctions || nargs < 0 || nargs > MAX_ARGS)
    return -1;
  for (int i = 0; i < nargs; i++)
    if (ndims[i] < 0 || ndims[i] > 4) return -1;
  if (!new_site(fc)) return -1;
  const call_site *donor = shape_donor(fc, function, nargs, ndims, dims);
  if (!fc->fn_site) return -1;
  int shape = donor ? donor->shape : shapes_take(fc, 5 * nargs);
  if (shape < 0) return -1;
  call_site *s = &fc->sites[fc->n];
  s->function = function;
  s->nargs = nargs;
  s->shape = shape;
  s->nouts = count_outputs(&fc->flat->functions[function]);
  int *sn = fc->shapes + shape, (*sd)[4] = (int (*)[4])(sn + nargs);
  for (int i = 0; i < nargs; i++) {
    int n = 1;
    if (!donor) {
      sn[i] = ndims[i];
      memset(sd[i], 0, sizeof sd[i]);
    }
    for (int d = 0; d < ndims[i]; d++) n *= sd[i][d] = dims[4 * i + d];
    s->width += n;
  }
  const st_ffunction *fn = &fc->flat->functions[function];
  char why[8];
  int c_code = st_extlib_wants(fn); /* compiled: the machine calls it through extcall.c */
  if (fn->external_name && !c_code &&
      (s->width != nargs || st_extcall_bind(&s->ext, fn, nargs, why, sizeof why)))
    return -1; /* emit.c reported why */
  if (donor && !s->ext.fn && donor->compiled != -1 && !donor->ext.fn) {
    /* the same bodies for the same shapes (st_fvm_compile would find them again) */
    fc->shapes_shared++;
    s->compiled = donor->compiled;
    s->der = donor->der;
    s->der_width = donor->der_width;
    set_why(s, donor->why ? donor->why : "");
  } else {
    /* String arguments are numbers of the machine's strings */
    s->compiled = s->ext.fn ? -1 : compile_site(fc, s);
    s->der = compile_derivative(fc, s);
  }
  fc->fn_site[function] = fc->n;
  return fc->n++;
}

int st_fcalls_add_tangent(st_fcalls *fc, int base) {
  if (base < 0 || base >= fc->n || 2 * fc->sites[base].nargs > MAX_ARGS || !new_site(fc))
    return -1;
  int nb = fc->sites[base].nargs, shape = shapes_take(fc, 10 * nb);
  if (shape < 0) return -1;
  const call_site *b = &fc->sites[base];
  call_site *s = &fc->sites[fc->n];
  s->tangent_of = base;
  s->function = b->function;
  s->nouts = b->nouts;
  s->output = b->output;
  s->element = b->element;
  s->nargs = 2 * nb;
  s->width = 2 * b->width;
  s->shape = shape;
  int *sn = fc->shapes + shape, (*sd)[4] = (int (*)[4])(sn + s->nargs);
  for (int h = 0; h < 2; h++) { /* the tangents have the arguments' shapes */
    memcpy(sn + h * nb, site_ndims(fc, b), (size_t)nb * sizeof *sn);
    memcpy(sd + h * nb, site_dims(fc, b), (size_t)nb * sizeof *sd);
  }
  s->compiled = -1;
  s->der = -1;
  return fc->n++;
}

/* A new site (fc->n, not yet counted) that copies site k without what belongs to k's runs:
 * its kept arguments, pins and failure text. NULL when out of memory. */
static call_site *copy_fresh(st_fcalls *fc, int k) {
  call_site *s = new_site(fc);
  if (!s) return NULL;
  *s = fc->sites[k];
  s->kept = NULL;
  s->pinmask = 0;
  s->npins = 0;
  s->next_pin = 0;
  s->pins = NULL;
  s->why = NULL;
  set_why(s, fc->sites[k].why ? fc->sites[k].why : "");
  return s;
}

/* A copy of site k returning element `element` instead (a tangent site: over a copy of its
 * base likewise), with bodies of its own to pin; its index or -1. */
static int copy_site(st_fcalls *fc, int k, int element) {
  int base = fc->sites[k].tangent_of;
  if (base >= 0 && (base = copy_site(fc, base, element)) < 0) return -1;
  call_site *s = copy_fresh(fc, k);
  if (!s) return -1;
  s->element = element;
  s->tangent_of = base;
  s->replay = -1;
  return fc->n++;
}

/* Room for site k's last arguments and tangents; 0 or -1. */
static int keep_arguments(call_site *s) {
  if (!s->kept) s->kept = calloc(2 * (size_t)s->width + 1, sizeof *s->kept);
  return s->kept ? 0 : -1;
}

int st_fcalls_add_like(st_fcalls *fc, int k) {
  if (k < 0 || k >= fc->n || fc->sites[k].tangent_of >= 0 || fc->sites[k].replay >= 0)
    return -1;
  call_site *s = copy_fresh(fc, k);
  if (!s) return -1;
  s->output = 0;
  s->element = 0;
  s->last = NULL;
  s->has_last = 0;
  fc->shapes_shared++;
  return fc->n++;
}

int st_fcalls_add_replay(st_fcalls *fc, int k, int element) {
  if (k < 0 || k >= fc->n || fc->sites[k].replay >= 0 || keep_arguments(&fc->sites[k]))
    return -1;
  int r = copy_site(fc, k, element);
  if (r >= 0) fc->sites[r].replay = k;
  return r;
}

st_fcalls *st_fcalls_clone(const st_fcalls *fc) {
  if (!fc) return NULL;
  st_fcalls *c = fcalls_new(fc->flat, fc->lib);
  if (!c || !(c->sites = malloc((size_t)(fc->n + 1) * sizeof *c->sites))) {
    st_fcalls_free(c);
    return NULL;
  }
  c->cap = fc->n + 1;
  if (st_fvm_copy_strings(c->vm, fc->vm) || /* the program's String constants by number */
      shapes_take(c, fc->nshapes) < 0) {
    st_fcalls_free(c);
    return NULL;
  }
  if (fc->nshapes) memcpy(c->shapes, fc->shapes, (size_t)fc->nshapes * sizeof *c->shapes);
  for (int k = 0; k < fc->n; k++) {
    call_site *s = &c->sites[c->n++];
    *s = fc->sites[k];
    s->pinmask = 0; /* pinned bodies are compiled again on first use, by this clone */
    s->npins = 0;
    s->pins = NULL;
    s->why = NULL;
    set_why(s, fc->sites[k].why ? fc->sites[k].why : "");
    s->kept = NULL;
    s->last = NULL;
    s->has_last = 0;
    if (fc->sites[k].kept && keep_arguments(s)) {
      st_fcalls_free(c);
      return NULL;
    }
    /* compiled in the original's order: the same bodies as the original's machine */
    if (!s->ext.fn && s->compiled != -1) s->compiled = compile_site(c, s);
    if (s->der >= 0) s->der = compile_derivative(c, s);
  }
  return c;
}

int st_fcall_width(const st_fcalls *fc, int k) {
  return fc->sites[k].replay >= 0 ? 0 : fc->sites[k].width;
}

int st_fcall_select_output(st_fcalls *fc, int k, int output) {
  int n = count_outputs(&fc->flat->functions[fc->sites[k].function]);
  if (output < 0 || output >= n) return -1;
  fc->sites[k].output = output;
  fc->sites[k].keeps = 0; /* the output's type decides */
  return 0;
}

void st_fcall_select_element(st_fcalls *fc, int k, int element) {
  fc->sites[k].element = element;
}

/* The compiled body's output, or the selected element of it: one scalar; 0, or -1 when the
 * call fails. */
static int run_compiled(st_fcalls *fc, int c, const call_site *s, const double *x,
                        const double *dx, double *y, double *dy) {
  int ndims;
  if (s->element > 0)
    return st_fvm_run_element(fc->vm, c, s->output, s->element - 1, x, dx, y, dy);
  if (st_fvm_output_shape(fc->vm, c, s->output, &ndims) != 1 || ndims != 0) return -1;
  return st_fvm_run(fc->vm, c, s->output, x, dx, y, dy);
}

/* A call without a compiled body fails with the compiler's reason: NaN. */
static double refused(st_fcalls *fc, const call_site *s) {
  st_fvm_fail(fc->vm, s->function, s->why ? s->why : "not compiled");
  return NAN;
}

/* The body's tangent is exact: through the machine, no C code on its way. */
static int exact(const st_fcalls *fc, int c) { return c >= 0 && st_fvm_exact_tangent(fc->vm, c); }

static double site_dual(st_fcalls *fc, int k, const double *x, const double *dx, double *dot);

/* The type of the output site s returns. */
static st_ftype output_type(const st_fcalls *fc, const call_site *s) {
  const st_ffunction *fn = &fc->flat->functions[s->function];
  for (int i = 0, o = 0; i < fn->nlocals; i++)
    if (fn->locals[i].causality == ST_C_OUTPUT && o++ == s->output) return fn->locals[i].type;
  return ST_T_STRING;
}

/* A pure function gives the same value for the same arguments: the Jacobian of a nonlinear
 * block evaluates a residual once per nonzero of its row, with the same arguments for every
 * call whose inputs do not depend on that column's unknown, and the machine's memo
 * (func_vm.c) keeps only the last run of each body, which the other sites of the same
 * function (a circuit's transistors) overwrite. So each site keeps its last arguments and
 * value. Not impure functions; not a String, whose text may be freed by the next run. */
static int last_hit(st_fcalls *fc, const call_site *s, const double *x, double *y) {
  if (!s->has_last || memcmp(s->last, x, (size_t)s->width * sizeof *x)) return 0;
  *y = s->last[s->width];
  fc->site_hits++;
  return 1;
}

static void last_keep(const st_fcalls *fc, call_site *s, const double *x, double y) {
  if (!s->keeps)
    s->keeps = fc->flat->functions[s->function].is_impure || output_type(fc, s) == ST_T_STRING ? 2 : 1;
  if (s->keeps == 2) return;
  if (!s->last && !(s->last = malloc(sizeof *s->last * ((size_t)s->width + 1)))) return;
  memcpy(s->last, x, (size_t)s->width * sizeof *x);
  s->last[s->width] = y;
  s->has_last = 1;
}

long st_fcalls_site_hits(const st_fcalls *fc) { return fc->site_hits; }

/* Call site k on argument elements x (the value interpreter's OP_CALL, st_fcall_eval). */
static double site_eval(st_fcalls *fc, int k, const double *x) {
  call_site *s = &fc->sites[k];
  if (s->tangent_of >= 0) {
    double dot;
    site_dual(fc, s->tangent_of, x, x + s->width / 2, &dot);
    return dot;
  }
  st_extrun_release(fc->run); /* strings the C code returned in the previous call */
  if (s->ext.fn) return st_extcall_eval(&s->ext, x);
  int c = body_for(fc, s, x);
  if (c < 0) return refused(fc, s);
  double y;
  if (!s->nouts) /* a statement: 0, NaN when it fails */
    return st_fvm_run(fc->vm, c, -1, x, NULL, NULL, NULL) ? NAN : 0;
  if (last_hit(fc, s, x, &y)) return y;
  if (run_compiled(fc, c, s, x, NULL, &y, NULL)) return NAN;
  last_keep(fc, s, x, y);
  return y;
}

/* The exact directional derivative by annotation(derivative = f_der) (Modelica 3.6 section
 * 12.7.1): f_der(u, du) with du the tangent of the inputs the front end marked. -1 when the
 * function has none, f_der is not compiled for the site or fails (then the body's tangent or
 * the difference quotient is used). */
static int annotated_dual(st_fcalls *fc, const call_site *s, const double *x, const double *dx,
                          double *dot) {
  const st_ffunction *fn = &fc->flat->functions[s->function];
  if (!fn->derivative) return -1;
  if (s->der < 0) return -1;
  /* the arguments, then the marked inputs' tangents */
  double *xs = scratch(fc, s->der_width);
  if (!xs) return -1;
  int at = s->width, off = 0;
  memcpy(xs, x, (size_t)s->width * sizeof *xs);
  for (int i = 0, a = 0; i < fn->nlocals && a < s->nargs; i++) {
    if (fn->locals[i].causality != ST_C_INPUT) continue;
    int n = 1;
    for (int d = 0; d < site_ndims(fc, s)[a]; d++) n *= site_dims(fc, s)[a][d];
    if (fn->has_derivative[i]) {
      memcpy(xs + at, dx + off, (size_t)n * sizeof *xs);
      at += n;
    }
    off += n;
    a++;
  }
  double d;
  if (run_compiled(fc, s->der, s, xs, NULL, &d, NULL)) return -1;
  *dot = d;
  return 0;
}

static double max_abs(const double *v, int n) {
  double m = 0;
  for (int i = 0; i < n; i++) m = fmax(m, fabs(v[i]));
  return m;
}

/* A one-sided difference quotient of call k at x (value y) along dx, the shifted elements in
 * xs: relative step sqrt(DBL_EPSILON) of the largest argument, along the unit-scaled tangent. */
static double quotient(st_fcalls *fc, int k, const double *x, const double *dx, double y,
                       double *xs) {
  int n = fc->sites[k].width;
  double nd = max_abs(dx, n);
  if (nd == 0) return 0;
  if (!xs) return NAN;
  double h = 1.4901161193847656e-08 * (1 + max_abs(x, n)) / nd;
  for (int i = 0; i < n; i++) xs[i] = x[i] + h * dx[i];
  return (site_eval(fc, k, xs) - y) / h;
}

/* The tangent of tangent site k, g(u, v) = f'(u) v, along (a, b) at x = (u, v): g is linear
 * in v, so that is g(u, b) (exact) plus f''(u)[v, a], a central difference of g in u along a
 * (error of order h^2, 1e-10 relative where a one-sided one leaves 1e-8: an IDA residual at
 * tight tolerances must not be that noisy). The shifted elements are its own buffer: its base
 * (a tangent site too, or a body's difference quotient) may take fc->scratch. */
static double tangent_dual(st_fcalls *fc, int k, const double *x, const double *dx,
                           double *dot) {
  int n = fc->sites[k].width / 2;
  double y = site_eval(fc, k, x);
  double *xs = malloc(sizeof *xs * 2 * (size_t)n);
  if (!xs) return *dot = NAN;
  memcpy(xs, x, sizeof *xs * (size_t)n);
  memcpy(xs + n, dx + n, sizeof *xs * (size_t)n);
  *dot = max_abs(dx + n, n) == 0 ? 0 : site_eval(fc, k, xs);
  double na = max_abs(dx, n);
  if (na > 0) {
    double h = 6.0554544523933395e-06 * (1 + max_abs(x, n)) / na; /* cbrt(DBL_EPSILON) */
    memcpy(xs + n, x + n, sizeof *xs * (size_t)n);
    for (int i = 0; i < n; i++) xs[i] = x[i] + h * dx[i];
    double up = site_eval(fc, k, xs);
    for (int i = 0; i < n; i++) xs[i] = x[i] - h * dx[i];
    *dot += (up - site_eval(fc, k, xs)) / (2 * h);
  }
  free(xs);
  return y;
}

/* Every element 0 (a NaN is not). */
static int all_zero(const double *v, int n) {
  for (int i = 0; i < n; i++)
    if (v[i] != 0) return 0;
  return 1;
}

static double site_dual(st_fcalls *fc, int k, const double *x, const double *dx, double *dot) {
  call_site *s = &fc->sites[k];
  if (s->tangent_of >= 0) return tangent_dual(fc, k, x, dx, dot);
  if (s->ext.fn) return st_extcall_dual(&s->ext, x, dx, dot);
  if (!s->nouts) { /* a statement: nothing to vary */
    *dot = 0;
    return site_eval(fc, k, x);
  }
  int n = fc->sites[k].width;
  if (all_zero(dx, n)) { /* no argument moves (another column's unknown): tangent 0 */
    *dot = 0;
    return site_eval(fc, k, x);
  }
  int c = body_for(fc, s, x);
  if (exact(fc, c) && !fc->flat->functions[s->function].derivative) {
    /* exact forward mode through the compiled body */
    double y;
    if (run_compiled(fc, c, s, x, dx, &y, dot)) return *dot = NAN;
    last_keep(fc, s, x, y);
    return y;
  }
  double y = site_eval(fc, k, x);
  *dot = 0;
  if (annotated_dual(fc, &fc->sites[k], x, dx, dot) == 0) return y;
  if (exact(fc, c) && run_compiled(fc, c, s, x, dx, &y, dot) == 0) return y;
  *dot = quotient(fc, k, x, dx, y, scratch(fc, n));
  return y;
}

/* The argument elements (x, and dx when not NULL) a replay site runs on: those its base took
 * last; a base keeps them. */
static void replay_arguments(st_fcalls *fc, int k, const double **x, const double **dx) {
  const call_site *s = &fc->sites[k];
  if (s->replay >= 0) {
    const call_site *b = &fc->sites[s->replay];
    *x = b->kept;
    if (dx) *dx = b->kept + b->width;
    return;
  }
  if (!s->kept) return;
  memcpy(s->kept, *x, (size_t)s->width * sizeof *s->kept);
  if (dx) memcpy(s->kept + s->width, *dx, (size_t)s->width * sizeof *s->kept);
}

double st_fcall_eval(st_fcalls *fc, int k, const double *x) {
  replay_arguments(fc, k, &x, NULL);
  return site_eval(fc, k, x);
}

double st_fcall_dual(st_fcalls *fc, int k, const double *x, const double *dx, double *dot) {
  replay_arguments(fc, k, &x, &dx);
  return site_dual(fc, k, x, dx, dot);
}

static const char *current_failure(const st_fcalls *fc) {
  const char *e = st_extrun_failure(fc->run);
  return *e ? e : st_fvm_failure(fc->vm);
}

const char *st_fcalls_failure(const st_fcalls *fc) {
  const char *e = current_failure(fc);
  return *e || !fc->kept ? e : fc->kept;
}

void st_fcalls_clear_failure(st_fcalls *fc, int keep) {
  const char *e = current_failure(fc);
  if (keep && *e) {
    char *k = strdup(e);
    if (k) {
      free(fc->kept);
      fc->kept = k;
    }
  } else if (!keep) {
    free(fc->kept);
    fc->kept = NULL;
  }
  st_fvm_clear_failure(fc->vm);
  st_extrun_clear_failure(fc->run);
}

/* Call sites refused for a reason of the site (more arguments than the machine takes), once
 * per function. */
static void dump_refused_sites(const st_fcalls *fc, FILE *out) {
  for (int k = 0; k < fc->n; k++) {
    const call_site *s = &fc->sites[k];
    int seen = s->compiled != -1 || s->ext.fn || s->nargs <= ST_FVM_MAX_ARGS;
    for (int j = 0; j < k && !seen; j++) seen = fc->sites[j].function == s->function;
    if (!seen)
      fprintf(out, "  %s: not compiled at a call site (%s)\n",
              fc->flat->functions[s->function].name, s->why ? s->why : "");
  }
}

void st_fcalls_dump(const st_fcalls *fc, FILE *out) {
  if (!fc) return;
  st_fvm_dump(fc->vm, out);
  dump_refused_sites(fc, out);
}
