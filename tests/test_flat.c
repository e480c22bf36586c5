/* The flat model printer (`stiction flatten` output) and the balance count. */
#include <check.h>
#include <stdio.h>
#include <string.h>

#include "front/flat.h"
#include "testutil.h"

static st_fexpr *node(st_arena *a, st_fexpr_kind kind, int op, int nargs) {
  st_fexpr *e = st_arena_alloc(a, sizeof *e);
  e->kind = kind;
  e->op = op;
  e->nargs = nargs;
  e->args = nargs ? st_arena_alloc(a, (size_t)nargs * sizeof *e->args) : NULL;
  return e;
}

static st_fexpr *num(st_arena *a, double v) {
  st_fexpr *e = node(a, FX_REAL, 0, 0);
  e->value = v;
  return e;
}

static st_fexpr *var(st_arena *a, int index) {
  st_fexpr *e = node(a, FX_VAR, 0, 0);
  e->index = index;
  return e;
}

static st_fexpr *bin(st_arena *a, st_fop op, st_fexpr *l, st_fexpr *r) {
  st_fexpr *e = node(a, FX_BINARY, op, 2);
  e->args[0] = l;
  e->args[1] = r;
  return e;
}

static st_fexpr *call1(st_arena *a, st_builtin b, st_fexpr *x) {
  st_fexpr *e = node(a, FX_BUILTIN, b, 1);
  e->args[0] = x;
  return e;
}

static st_feq *equal(st_arena *a, st_fexpr *l, st_fexpr *r) {
  st_feq *q = st_arena_alloc(a, sizeof *q);
  q->kind = FE_EQUAL;
  q->lhs = l;
  q->rhs = r;
  return q;
}

/* A bouncing ball: h, v continuous, g and e parameters, one when-equation with reinit. */
static st_flat_model *ball(void) {
  st_arena *a = st_arena_new();
  st_flat_model *m = st_arena_alloc(a, sizeof *m);
  m->arena = a;
  m->name = "Ball";
  m->nvars = 4;
  m->vars = st_arena_alloc(a, 4 * sizeof *m->vars);
  const char *names[] = {"h", "v", "g", "e"};
  for (int i = 0; i < 4; i++) {
    m->vars[i].name = names[i];
    m->vars[i].fixed = -1;
    m->vars[i].state_select = ST_SS_DEFAULT;
    m->vars[i].variability = i < 2 ? ST_V_CONTINUOUS : ST_V_PARAMETER;
  }
  m->vars[0].start = num(a, 1);
  m->vars[0].fixed = 1;
  m->vars[0].unit = "m";
  m->vars[2].binding = num(a, 9.81);
  m->vars[3].binding = num(a, 0.8);
  m->vars[3].description = "restitution";
  st_feq *reinit = st_arena_alloc(a, sizeof *reinit);
  reinit->kind = FE_REINIT;
  reinit->lhs = var(a, 1);
  reinit->rhs = node(a, FX_UNARY, FOP_NEG, 1);
  reinit->rhs->args[0] = bin(a, FOP_MUL, var(a, 3), call1(a, FB_PRE, var(a, 1)));
  st_feq *when = st_arena_alloc(a, sizeof *when);
  when->kind = FE_WHEN;
  when->nconds = 1;
  when->conds = st_arena_alloc(a, sizeof *when->conds);
  when->conds[0] = bin(a, FOP_LT, var(a, 0), num(a, 0));
  when->branches = st_arena_alloc(a, sizeof *when->branches);
  when->branches[0].n = 1;
  when->branches[0].items = st_arena_alloc(a, sizeof(st_feq *));
  when->branches[0].items[0] = reinit;
  m->equations.n = 3;
  m->equations.items = st_arena_alloc(a, 3 * sizeof(st_feq *));
  m->equations.items[0] = equal(a, call1(a, FB_DER, var(a, 0)), var(a, 1));
  /* der(v) = -g; written as -(g) to test unary printing around a binary */
  st_fexpr *neg = node(a, FX_UNARY, FOP_NEG, 1);
  neg->args[0] = bin(a, FOP_SUB, var(a, 2), num(a, 0));
  m->equations.items[1] = equal(a, call1(a, FB_DER, var(a, 1)), neg);
  m->equations.items[2] = when;
  return m;
}

START_TEST(prints_readable_modelica_and_balance) {
  st_flat_model *m = ball();
  char buf[4096] = {0};
  FILE *out = fmemopen(buf, sizeof buf, "w");
  st_flat_print(m, out);
  fclose(out);
  ck_assert_ptr_nonnull(strstr(buf, "class Ball\n"));
  ck_assert_ptr_nonnull(strstr(buf, "  Real h(start = 1, fixed = true, unit = \"m\");\n"));
  ck_assert_ptr_nonnull(strstr(buf, "  parameter Real e = 0.8 \"restitution\";\n"));
  ck_assert_ptr_nonnull(strstr(buf, "  der(v) = -(g - 0);\n"));
  ck_assert_ptr_nonnull(strstr(buf, "  when h < 0 then\n    reinit(v, -e*pre(v));\n  end when;\n"));
  ck_assert_ptr_nonnull(strstr(buf, "2 unknowns, 2 equations\n"));
  ck_assert_int_eq(st_flat_count_unknowns(m), 2);
  ck_assert_int_eq(st_flat_count_equations(m), 2);
  st_flat_free(m);
}
END_TEST

START_TEST(parenthesizes_by_precedence) {
  st_arena *a = st_arena_new();
  st_flat_model m = {.arena = a, .name = "P"};
  st_fvar vars[2] = {{.name = "x", .variability = ST_V_CONTINUOUS, .fixed = -1, .state_select = ST_SS_DEFAULT},
                     {.name = "y", .variability = ST_V_CONTINUOUS, .fixed = -1, .state_select = ST_SS_DEFAULT}};
  m.vars = vars;
  m.nvars = 2;
  /* (x - y) - (x - y), x - y - x, (x + y)*x, x^(y^x) needs parens on the right */
  st_fexpr *e1 = bin(a, FOP_SUB, bin(a, FOP_SUB, var(a, 0), var(a, 1)),
                     bin(a, FOP_SUB, var(a, 0), var(a, 1)));
  st_fexpr *e2 = bin(a, FOP_MUL, bin(a, FOP_ADD, var(a, 0), var(a, 1)), var(a, 0));
  st_fexpr *e3 = bin(a, FOP_POW, var(a, 0), bin(a, FOP_POW, var(a, 1), var(a, 0)));
  st_feq *eqs[3] = {equal(a, var(a, 0), e1), equal(a, var(a, 0), e2), equal(a, var(a, 1), e3)};
  m.equations.items = eqs;
  m.equations.n = 3;
  char buf[2048] = {0};
  FILE *out = fmemopen(buf, sizeof buf, "w");
  st_flat_print(&m, out);
  fclose(out);
  ck_assert_ptr_nonnull(strstr(buf, "x = x - y - (x - y);"));
  ck_assert_ptr_nonnull(strstr(buf, "x = (x + y)*x;"));
  ck_assert_ptr_nonnull(strstr(buf, "y = x^(y^x);"));
  ck_assert_ptr_nonnull(strstr(buf, "2 unknowns, 3 equations"));
  st_arena_free(a);
}
END_TEST

ST_TEST_MAIN("flat", "print", 0,
             prints_readable_modelica_and_balance, parenthesizes_by_precedence)
