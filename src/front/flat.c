/* Flat model: release and readable printing (`stiction flatten`). */
#include "front/flat.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void st_flat_free(st_flat_model *model) {
  if (!model) return;
  free(model->heap_vars);
  st_arena_free(model->arena); /* the model itself lives in its arena */
}

static const char *const builtin_names[FB_COUNT_] = {
  "der", "pre", "edge", "change", "initial", "terminal", "noEvent", "smooth",
  "sample", "abs", "sign", "sqrt", "min", "max",
  "sin", "cos", "tan", "asin", "acos", "atan", "atan2",
  "sinh", "cosh", "tanh", "exp", "log", "log10",
  "floor", "ceil", "integer", "mod", "rem", "div",
  "homotopy", "semiLinear", "delay", "cardinality",
  "Clock", "sample", "hold", "previous", "interval", "firstTick", "subSample",
  "superSample", "shiftSample", "backSample", "noClock",
  "size",
  "zeros", "ones", "fill", "sum", "product", "min", "max", "ndims", "size",
  "transpose", "identity", "diagonal", "linspace", "vector", "scalar", "matrix",
  "cross", "cat", "array",
  "transition", "initialState", "activeState", "ticksInState", "timeInState",
  "String",
};

void st_fvar_hidden(st_fvar *v, const char *name, st_ftype type, st_variability variability,
                    st_fexpr *start, st_loc loc) {
  memset(v, 0, sizeof *v);
  v->name = name;
  v->type = type;
  v->variability = variability;
  v->start = start;
  v->fixed = -1;
  v->state_select = ST_SS_DEFAULT;
  v->is_protected = 1;
  v->loc = loc;
}

const char *st_builtin_name(st_builtin b) {
  return b >= 0 && b < FB_COUNT_ ? builtin_names[b] : "?";
}

/* Binding strength for parenthesization, following the Modelica grammar's levels:
 * or < and < not < relation < additive < multiplicative < power < primary. */
static int precedence(const st_fexpr *e) {
  if (e->kind == FX_IF) return 0;
  if (e->kind == FX_RANGE) return 1;
  if (e->kind == FX_UNARY) return e->op == FOP_NOT ? 4 : 6;
  if (e->kind != FX_BINARY) return 9;
  switch ((st_fop)e->op) {
  case FOP_OR: return 2;
  case FOP_AND: return 3;
  case FOP_LT: case FOP_LE: case FOP_GT: case FOP_GE: case FOP_EQ: case FOP_NE: return 5;
  case FOP_ADD: case FOP_SUB: return 6;
  case FOP_MUL: case FOP_DIV: return 7;
  case FOP_POW: return 8;
  default: return 9;
  }
}

static const char *op_text(st_fop op) {
  static const char *const text[] = {" + ", " - ", "*", "/", "^", " < ", " <= ", " > ", " >= ",
                                     " == ", " <> ", " and ", " or ", "not ", "-"};
  return text[op];
}

typedef struct printer {
  const st_flat_model *model;
  const st_ffunction *function; /* non-NULL inside a function body */
  FILE *out;
} printer;

static void print_expr(const printer *p, const st_fexpr *e);

static void print_sub(const printer *p, const st_fexpr *e, int min_prec) {
  int paren = precedence(e) < min_prec;
  if (paren) fputc('(', p->out);
  print_expr(p, e);
  if (paren) fputc(')', p->out);
}

static void print_args(const printer *p, const st_fexpr *e, int from) {
  for (int i = from; i < e->nargs; i++) {
    if (i > from) fputs(", ", p->out);
    print_expr(p, e->args[i]);
  }
}

/* Shortest text that reads back as the same double, so 0.8 prints as 0.8. */
static void print_number(FILE *out, double v) {
  char text[32];
  if (isinf(v)) {
    fputs(v > 0 ? "1e308" : "-1e308", out);
    return;
  }
  for (int digits = 15; digits <= 17; digits++) {
    snprintf(text, sizeof text, "%.*g", digits, v);
    if (strtod(text, NULL) == v) break;
  }
  fputs(text, out);
}

static void print_binary(const printer *p, const st_fexpr *e) {
  int prec = precedence(e);
  /* Left-associative: the right operand needs parentheses at equal precedence, except for
   * the associative + and *; power is non-associative in Modelica. */
  int right_min = (e->op == FOP_ADD || e->op == FOP_MUL) ? prec : prec + 1;
  print_sub(p, e->args[0], e->op == FOP_POW ? prec + 1 : prec);
  fputs(op_text(e->op), p->out);
  print_sub(p, e->args[1], right_min);
}

static void print_if(const printer *p, const st_fexpr *e) {
  fputs("if ", p->out);
  print_expr(p, e->args[0]);
  fputs(" then ", p->out);
  print_expr(p, e->args[1]);
  fputs(" else ", p->out);
  print_expr(p, e->args[2]);
}

static void print_reference(const printer *p, const st_fexpr *e) {
  if (e->kind == FX_VAR)
    fputs(e->index >= 0 && e->index < p->model->nvars ? p->model->vars[e->index].name : "?",
          p->out);
  else if (p->function && e->index >= 0 && e->index < p->function->nlocals)
    fputs(p->function->locals[e->index].name, p->out);
  else
    fputs("?", p->out);
}

static void print_expr(const printer *p, const st_fexpr *e) {
  FILE *out = p->out;
  if (!e) { fputs("<none>", out); return; }
  switch (e->kind) {
  case FX_REAL: print_number(out, e->value); break;
  case FX_BOOL: fputs(e->value != 0 ? "true" : "false", out); break;
  case FX_STRING: fprintf(out, "\"%s\"", e->str ? e->str : ""); break;
  case FX_ENUM: fputs(e->str ? e->str : "?", out); break;
  case FX_VAR: case FX_LOCAL: print_reference(p, e); break;
  case FX_TIME: fputs("time", out); break;
  case FX_BINARY: print_binary(p, e); break;
  case FX_UNARY:
    fputs(op_text(e->op), out);
    print_sub(p, e->args[0], precedence(e) + 1);
    break;
  case FX_BUILTIN:
    fprintf(out, "%s(", st_builtin_name(e->op));
    print_args(p, e, 0);
    fputc(')', out);
    break;
  case FX_CALL:
    fprintf(out, "%s(", e->index >= 0 && e->index < p->model->nfunctions
                             ? p->model->functions[e->index].name : "?");
    print_args(p, e, 0);
    fputc(')', out);
    break;
  case FX_IF: print_if(p, e); break;
  case FX_ARRAY:
    fputc('{', out);
    print_args(p, e, 0);
    fputc('}', out);
    break;
  case FX_INDEX:
    print_sub(p, e->args[0], 9);
    fputc('[', out);
    print_args(p, e, 1);
    fputc(']', out);
    break;
  case FX_RANGE:
    for (int i = 0; i < e->nargs; i++) {
      if (i) fputc(':', out);
      print_sub(p, e->args[i], 2);
    }
    break;
  case FX_END: fputs("end", out); break;
  case FX_CALL_DER: /* der(f(u)) along the derivatives of its arguments (the second half) */
    fprintf(out, "der(%s(", e->index >= 0 && e->index < p->model->nfunctions
                                ? p->model->functions[e->index].name : "?");
    for (int i = 0; i < e->nargs / 2; i++) {
      if (i) fputs(", ", out);
      print_expr(p, e->args[i]);
    }
    fputs("))", out);
    break;
  }
}

static const char *type_name(const st_fvar *v) {
  switch (v->type) {
  case ST_T_REAL: return "Real";
  case ST_T_INTEGER: return "Integer";
  case ST_T_BOOLEAN: return "Boolean";
  case ST_T_STRING: return "String";
  case ST_T_ENUM: return v->enum_type ? v->enum_type : "enumeration";
  case ST_T_CLOCK: return "Clock";
  }
  return "?";
}

static void print_attr_expr(const printer *p, int *first, const char *name, const st_fexpr *e) {
  if (!e) return;
  fprintf(p->out, "%s%s = ", *first ? "(" : ", ", name);
  print_expr(p, e);
  *first = 0;
}

static void print_attr_text(FILE *out, int *first, const char *name, const char *text) {
  if (!text) return;
  fprintf(out, "%s%s = \"%s\"", *first ? "(" : ", ", name, text);
  *first = 0;
}

static void print_attributes(const printer *p, const st_fvar *v) {
  static const char *const ss[] = {"never", "avoid", "default", "prefer", "always"};
  int first = 1;
  print_attr_expr(p, &first, "start", v->start);
  if (v->fixed >= 0 || v->fixed_expr) {
    fprintf(p->out, "%sfixed = ", first ? "(" : ", ");
    if (v->fixed_expr) print_expr(p, v->fixed_expr);
    else fputs(v->fixed ? "true" : "false", p->out);
    first = 0;
  }
  print_attr_expr(p, &first, "nominal", v->nominal);
  print_attr_expr(p, &first, "min", v->min);
  print_attr_expr(p, &first, "max", v->max);
  if (v->state_select != ST_SS_DEFAULT) {
    fprintf(p->out, "%sstateSelect = StateSelect.%s", first ? "(" : ", ", ss[v->state_select]);
    first = 0;
  }
  print_attr_text(p->out, &first, "unit", v->unit);
  print_attr_text(p->out, &first, "displayUnit", v->display_unit);
  if (!first) fputc(')', p->out);
}

static void print_variable(const printer *p, const st_fvar *v) {
  static const char *const variability[] = {"constant ", "parameter ", "discrete ", ""};
  static const char *const causality[] = {"", "input ", "output "};
  fprintf(p->out, "  %s%s%s%s%s%s", v->is_protected ? "protected " : "",
          v->is_final ? "final " : "", v->is_flow ? "flow " : v->is_stream ? "stream " : "",
          /* Boolean/Integer variables are discrete by nature; say so only for Reals. */
          (v->variability == ST_V_DISCRETE && v->type != ST_T_REAL) ? ""
                                                                    : variability[v->variability],
          causality[v->causality], type_name(v));
  fprintf(p->out, " %s", v->name);
  print_attributes(p, v);
  if (v->binding) {
    fputs(" = ", p->out);
    print_expr(p, v->binding);
  }
  if (v->description) fprintf(p->out, " \"%s\"", v->description);
  fputs(";\n", p->out);
}

static void indent(FILE *out, int depth) {
  for (int i = 0; i < depth; i++) fputs("  ", out);
}

static void print_equations(const printer *p, const st_feq_list *list, int depth);

static void print_branches(const printer *p, const st_feq *eq, int depth, const char *kw) {
  for (int i = 0; i < eq->nconds; i++) {
    indent(p->out, depth);
    fprintf(p->out, "%s%s ", i ? "else" : "", kw);
    print_expr(p, eq->conds[i]);
    fputs(" then\n", p->out);
    print_equations(p, &eq->branches[i], depth + 1);
  }
  if (eq->kind == FE_IF && eq->branches[eq->nconds].n > 0) {
    indent(p->out, depth);
    fputs("else\n", p->out);
    print_equations(p, &eq->branches[eq->nconds], depth + 1);
  }
  indent(p->out, depth);
  fprintf(p->out, "end %s;\n", kw);
}

static void print_equation(const printer *p, const st_feq *eq, int depth) {
  FILE *out = p->out;
  if (eq->kind == FE_IF || eq->kind == FE_WHEN) {
    print_branches(p, eq, depth, eq->kind == FE_IF ? "if" : "when");
    return;
  }
  indent(out, depth);
  switch (eq->kind) {
  case FE_EQUAL:
    print_expr(p, eq->lhs);
    fputs(" = ", out);
    print_expr(p, eq->rhs);
    break;
  case FE_TUPLE:
    fputc('(', out);
    for (int i = 0; i < eq->ntuple; i++) {
      if (i) fputs(", ", out);
      if (eq->tuple[i]) print_expr(p, eq->tuple[i]);
    }
    fputs(") = ", out);
    print_expr(p, eq->rhs);
    break;
  case FE_REINIT:
    fputs("reinit(", out);
    print_expr(p, eq->lhs);
    fputs(", ", out);
    print_expr(p, eq->rhs);
    fputc(')', out);
    break;
  case FE_ASSERT:
    fputs("assert(", out);
    print_expr(p, eq->rhs);
    fputs(", ", out);
    print_expr(p, eq->message);
    if (eq->level) fputs(", AssertionLevel.warning", out);
    fputc(')', out);
    break;
  case FE_TERMINATE:
    fputs("terminate(", out);
    print_expr(p, eq->message);
    fputc(')', out);
    break;
  case FE_CALL: print_expr(p, eq->rhs); break;
  default: break;
  }
  fputs(";\n", out);
}

static void print_equations(const printer *p, const st_feq_list *list, int depth) {
  for (int i = 0; i < list->n; i++) print_equation(p, list->items[i], depth);
}

static void print_statements(const printer *p, const st_fstmt_list *list, int depth);

static void print_statement(const printer *p, const st_fstmt *s, int depth) {
  FILE *out = p->out;
  indent(out, depth);
  switch (s->kind) {
  case FS_ASSIGN:
    print_expr(p, s->target);
    fputs(" := ", out);
    print_expr(p, s->value);
    fputs(";\n", out);
    return;
  case FS_TUPLE:
    fputc('(', out);
    for (int i = 0; i < s->ntargets; i++) {
      if (i) fputs(", ", out);
      if (s->targets[i]) print_expr(p, s->targets[i]);
    }
    fputs(") := ", out);
    print_expr(p, s->value);
    fputs(";\n", out);
    return;
  case FS_IF: case FS_WHEN: {
    const char *kw = s->kind == FS_IF ? "if" : "when";
    for (int i = 0; i < s->nconds; i++) {
      if (i) indent(out, depth);
      fprintf(out, "%s%s ", i ? "else" : "", kw);
      print_expr(p, s->conds[i]);
      fputs(" then\n", out);
      print_statements(p, &s->branches[i], depth + 1);
    }
    if (s->kind == FS_IF && s->branches[s->nconds].n > 0) {
      indent(out, depth);
      fputs("else\n", out);
      print_statements(p, &s->branches[s->nconds], depth + 1);
    }
    indent(out, depth);
    fprintf(out, "end %s;\n", kw);
    return;
  }
  case FS_FOR:
    fprintf(out, "for %s in ", p->function ? p->function->locals[s->loop_local].name : "i");
    print_expr(p, s->range);
    fputs(" loop\n", out);
    print_statements(p, &s->branches[0], depth + 1);
    indent(out, depth);
    fputs("end for;\n", out);
    return;
  case FS_WHILE:
    fputs("while ", out);
    print_expr(p, s->conds[0]);
    fputs(" loop\n", out);
    print_statements(p, &s->branches[0], depth + 1);
    indent(out, depth);
    fputs("end while;\n", out);
    return;
  case FS_REINIT:
    fputs("reinit(", out);
    print_expr(p, s->target);
    fputs(", ", out);
    print_expr(p, s->value);
    fputs(");\n", out);
    return;
  case FS_ASSERT:
    fputs("assert(", out);
    print_expr(p, s->value);
    fputs(", ", out);
    print_expr(p, s->message);
    fputs(");\n", out);
    return;
  case FS_TERMINATE:
    fputs("terminate(", out);
    print_expr(p, s->message);
    fputs(");\n", out);
    return;
  case FS_BREAK: fputs("break;\n", out); return;
  case FS_RETURN: fputs("return;\n", out); return;
  case FS_CALL:
    print_expr(p, s->value);
    fputs(";\n", out);
    return;
  }
}

static void print_statements(const printer *p, const st_fstmt_list *list, int depth) {
  for (int i = 0; i < list->n; i++) print_statement(p, list->items[i], depth);
}

static void print_function(const st_flat_model *m, const st_ffunction *f, FILE *out) {
  static const char *const causality[] = {"protected ", "input ", "output "};
  static const char *const types[] = {"Real", "Integer", "Boolean", "String", "enumeration",
                                             "Clock"};
  printer p = {m, f, out};
  fprintf(out, "%sfunction %s\n", f->is_impure ? "impure " : "", f->name);
  for (int i = 0; i < f->nlocals; i++) {
    const st_flocal *l = &f->locals[i];
    fprintf(out, "  %s%s %s", causality[l->causality], types[l->type], l->name);
    for (int d = 0; d < l->ndims; d++) {
      if (d == 0) fputc('[', out);
      if (l->dims[d] < 0) fputc(':', out);
      else fprintf(out, "%d", l->dims[d]);
      fputc(d + 1 < l->ndims ? ',' : ']', out);
    }
    if (l->binding) {
      fputs(" = ", out);
      print_expr(&p, l->binding);
    }
    fputs(";\n", out);
  }
  if (f->external_name) fprintf(out, "external \"C\" %s;\n", f->external_name);
  else {
    fputs("algorithm\n", out);
    print_statements(&p, &f->body, 1);
  }
  fprintf(out, "end %s;\n\n", f->name);
}

/* Scalar equations contributed by one equation, for the balance line. An if-equation
 * contributes as many as one of its branches (they must agree); a when-equation as many as
 * its first branch assigns (reinit/assert/terminate assign nothing). */
static int count_equations(const st_feq_list *list);

static int count_equation(const st_feq *eq) {
  switch (eq->kind) {
  case FE_EQUAL: return 1;
  case FE_TUPLE: {
    int n = 0;
    for (int i = 0; i < eq->ntuple; i++) n += eq->tuple[i] != NULL;
    return n;
  }
  case FE_IF: case FE_WHEN: return eq->nconds > 0 ? count_equations(&eq->branches[0]) : 0;
  default: return 0;
  }
}

static int count_equations(const st_feq_list *list) {
  int n = 0;
  for (int i = 0; i < list->n; i++) n += count_equation(list->items[i]);
  return n;
}

/* An algorithm section contributes one equation per distinct variable it assigns. */
static void mark_assigned(const st_fstmt_list *list, unsigned char *seen, int nvars) {
  for (int i = 0; i < list->n; i++) {
    const st_fstmt *s = list->items[i];
    if (s->kind == FS_ASSIGN && s->target && s->target->kind == FX_VAR &&
        s->target->index >= 0 && s->target->index < nvars)
      seen[s->target->index] = 1;
    for (int t = 0; s->kind == FS_TUPLE && t < s->ntargets; t++)
      if (s->targets[t] && s->targets[t]->kind == FX_VAR) seen[s->targets[t]->index] = 1;
    int nb = s->kind == FS_IF ? s->nconds + 1
           : (s->kind == FS_WHEN) ? s->nconds
           : (s->kind == FS_FOR || s->kind == FS_WHILE) ? 1 : 0;
    for (int b = 0; b < nb && s->branches; b++) mark_assigned(&s->branches[b], seen, nvars);
  }
}

static int count_algorithm_equations(const st_flat_model *m) {
  if (m->nalgorithms == 0 || m->nvars == 0) return 0;
  int n = 0;
  for (int a = 0; a < m->nalgorithms; a++) {
    unsigned char seen[m->nvars];
    memset(seen, 0, sizeof seen);
    mark_assigned(&m->algorithms[a], seen, m->nvars);
    for (int i = 0; i < m->nvars; i++) n += seen[i];
  }
  return n;
}

int st_flat_count_unknowns(const st_flat_model *m) {
  int n = 0;
  for (int i = 0; i < m->nvars; i++) {
    const st_fvar *v = &m->vars[i];
    int is_top_input = v->causality == ST_C_INPUT && !strchr(v->name, '.');
    if (v->variability >= ST_V_DISCRETE && !is_top_input) n++;
  }
  return n;
}

int st_flat_count_equations(const st_flat_model *m) {
  int n = count_equations(&m->equations) + count_algorithm_equations(m);
  /* Declaration equations of non-parameters (Real y = 2*x) are equations too. */
  for (int i = 0; i < m->nvars; i++)
    if (m->vars[i].variability >= ST_V_DISCRETE && m->vars[i].binding) n++;
  return n;
}

void st_flat_print(const st_flat_model *m, FILE *out) {
  printer p = {m, NULL, out};
  for (int i = 0; i < m->nfunctions; i++) print_function(m, &m->functions[i], out);
  fprintf(out, "class %s\n", m->name ? m->name : "?");
  for (int i = 0; i < m->nvars; i++) print_variable(&p, &m->vars[i]);
  if (m->initial_equations.n) {
    fputs("initial equation\n", out);
    print_equations(&p, &m->initial_equations, 1);
  }
  for (int a = 0; a < m->ninitial_algorithms; a++) {
    fputs("initial algorithm\n", out);
    print_statements(&p, &m->initial_algorithms[a], 1);
  }
  if (m->equations.n) {
    fputs("equation\n", out);
    print_equations(&p, &m->equations, 1);
  }
  for (int a = 0; a < m->nalgorithms; a++) {
    fputs("algorithm\n", out);
    print_statements(&p, &m->algorithms[a], 1);
  }
  fprintf(out, "end %s;\n", m->name ? m->name : "?");
  fprintf(out, "%d unknowns, %d equations\n", st_flat_count_unknowns(m),
          st_flat_count_equations(m));
}
