/* The AST printer: Modelica text that parses back to the same tree (tests compare a tree
 * with its reprint's tree), and the short texts used in messages. */
#include <stdlib.h>
#include <string.h>

#include "front/ast.h"

static void dump_expr(FILE *out, const st_ast_expr *e);
static void dump_mod(FILE *out, const st_ast_mod *m);
static void dump_element(FILE *out, const st_ast_element *e, int indent);
static void dump_equations(FILE *out, const st_ast_equation *eq, int indent);
static void dump_stmts(FILE *out, const st_ast_stmt *s, int indent);

static void pad(FILE *out, int indent) { fprintf(out, "%*s", 2 * indent, ""); }

/* A string literal with the escapes the lexer decodes. */
static void dump_string(FILE *out, const char *s) {
  fputc('"', out);
  for (; *s; s++) {
    switch (*s) {
    case '"': fputs("\\\"", out); break;
    case '\\': fputs("\\\\", out); break;
    case '\n': fputs("\\n", out); break;
    case '\t': fputs("\\t", out); break;
    case '\r': fputs("\\r", out); break;
    case '\a': fputs("\\a", out); break;
    case '\b': fputs("\\b", out); break;
    case '\f': fputs("\\f", out); break;
    case '\v': fputs("\\v", out); break;
    default: fputc(*s, out);
    }
  }
  fputc('"', out);
}

static const char *op_text(st_ast_op op) {
  static const char *const text[] = {
      [AOP_ADD] = "+",   [AOP_SUB] = "-",    [AOP_MUL] = "*",    [AOP_DIV] = "/",
      [AOP_POW] = "^",   [AOP_EADD] = ".+",  [AOP_ESUB] = ".-",  [AOP_EMUL] = ".*",
      [AOP_EDIV] = "./", [AOP_EPOW] = ".^",  [AOP_LT] = "<",     [AOP_LE] = "<=",
      [AOP_GT] = ">",    [AOP_GE] = ">=",    [AOP_EQ] = "==",    [AOP_NE] = "<>",
      [AOP_AND] = "and", [AOP_OR] = "or",    [AOP_NEG] = "-",    [AOP_PLUS] = "+",
      [AOP_ENEG] = ".-", [AOP_EPLUS] = ".+", [AOP_NOT] = "not "};
  return text[op];
}

static void dump_list(FILE *out, const st_ast_expr *e, const char *sep) {
  for (; e; e = e->next) {
    dump_expr(out, e);
    if (e->next) fputs(sep, out);
  }
}

static void dump_cref(FILE *out, const st_ast_cref *c) {
  if (c->global) fputc('.', out);
  for (const st_ast_cref_part *p = c->parts; p; p = p->next) {
    fputs(p->name, out);
    if (p->subs) {
      fputc('[', out);
      dump_list(out, p->subs, ", ");
      fputc(']', out);
    }
    if (p->next) fputc('.', out);
  }
}

static void dump_iters(FILE *out, const st_ast_iter *it) {
  for (; it; it = it->next) {
    fputs(it->name, out);
    if (it->range) {
      fputs(" in ", out);
      dump_expr(out, it->range);
    }
    if (it->next) fputs(", ", out);
  }
}

static void dump_fnargs(FILE *out, const st_ast_fnarg *a) {
  for (; a; a = a->next) {
    if (a->name) fprintf(out, "%s = ", a->name);
    dump_expr(out, a->value);
    if (a->next) fputs(", ", out);
  }
}

/* Every compound operand is parenthesised, so the reprint keeps the tree's shape whatever
 * the precedence. */
static void dump_operand(FILE *out, const st_ast_expr *e) {
  bool paren = e->kind == AX_BINARY || e->kind == AX_UNARY || e->kind == AX_IF ||
               e->kind == AX_RANGE;
  if (paren) fputc('(', out);
  dump_expr(out, e);
  if (paren) fputc(')', out);
}

static void dump_call(FILE *out, const st_ast_expr *e) {
  dump_cref(out, e->u.call.fn);
  fputc('(', out);
  dump_fnargs(out, e->u.call.args);
  if (e->u.call.iters) {
    fputs(" for ", out);
    dump_iters(out, e->u.call.iters);
  }
  fputc(')', out);
}

static void dump_array(FILE *out, const st_ast_expr *e) {
  fputc('{', out);
  dump_list(out, e->u.array.elems, ", ");
  if (e->u.array.iters) {
    fputs(" for ", out);
    dump_iters(out, e->u.array.iters);
  }
  fputc('}', out);
}

static void dump_matrix(FILE *out, const st_ast_expr *e) {
  fputc('[', out);
  for (const st_ast_expr *row = e->u.matrix.rows; row; row = row->next) {
    dump_list(out, row->u.array.elems, ", ");
    if (row->next) fputs("; ", out);
  }
  fputc(']', out);
}

static void dump_if(FILE *out, const st_ast_expr *e) {
  fputs("if ", out);
  dump_expr(out, e->u.ifexp.cond);
  fputs(" then ", out);
  dump_expr(out, e->u.ifexp.then);
  fputs(" else ", out);
  dump_expr(out, e->u.ifexp.els);
}

static void dump_range(FILE *out, const st_ast_expr *e) {
  dump_operand(out, e->u.range.start);
  fputc(':', out);
  if (e->u.range.step) {
    dump_operand(out, e->u.range.step);
    fputc(':', out);
  }
  dump_operand(out, e->u.range.stop);
}

static void dump_expr(FILE *out, const st_ast_expr *e) {
  switch (e->kind) {
  case AX_INTEGER:
  case AX_REAL: fputs(e->u.num.text, out); break;
  case AX_STRING: dump_string(out, e->u.string); break;
  case AX_BOOL: fputs(e->u.boolean ? "true" : "false", out); break;
  case AX_CREF: dump_cref(out, e->u.cref); break;
  case AX_CALL: dump_call(out, e); break;
  case AX_PARTIAL:
    fprintf(out, "function %s(", e->u.partial.fn->text);
    dump_fnargs(out, e->u.partial.args);
    fputc(')', out);
    break;
  case AX_BINARY:
    dump_operand(out, e->u.binary.lhs);
    fprintf(out, " %s ", op_text(e->u.binary.op));
    dump_operand(out, e->u.binary.rhs);
    break;
  case AX_UNARY:
    fputs(op_text(e->u.unary.op), out);
    dump_operand(out, e->u.unary.arg);
    break;
  case AX_IF: dump_if(out, e); break;
  case AX_RANGE: dump_range(out, e); break;
  case AX_ARRAY: dump_array(out, e); break;
  case AX_MATRIX: dump_matrix(out, e); break;
  case AX_TUPLE:
    fputc('(', out);
    dump_list(out, e->u.tuple.elems, ", ");
    fputc(')', out);
    break;
  case AX_EMPTY: break;
  case AX_END: fputs("end", out); break;
  case AX_COLON: fputc(':', out); break;
  }
}

static void dump_subs(FILE *out, const st_ast_expr *subs) {
  if (!subs) return;
  fputc('[', out);
  dump_list(out, subs, ", ");
  fputc(']', out);
}

static void dump_comment(FILE *out, const char *desc, const st_ast_mod *ann) {
  if (desc) {
    fputc(' ', out);
    dump_string(out, desc);
  }
  if (ann) {
    fputs(" annotation", out);
    dump_mod(out, ann);
  }
}

static void dump_type_prefix(FILE *out, st_ast_type_prefix p) {
  static const char *const flow[] = {"", "flow ", "stream "};
  static const char *const var[] = {"", "discrete ", "parameter ", "constant "};
  static const char *const caus[] = {"", "input ", "output "};
  fprintf(out, "%s%s%s", flow[p.flow], var[p.variability], caus[p.causality]);
}

static void dump_arg(FILE *out, const st_ast_arg *a) {
  if (a->kind == AA_REDECLARE) fputs("redeclare ", out);
  if (a->each) fputs("each ", out);
  if (a->final) fputs("final ", out);
  switch (a->kind) {
  case AA_MODIFY:
    fputs(a->name->text, out);
    if (a->mod) dump_mod(out, a->mod);
    dump_comment(out, a->description, NULL);
    break;
  case AA_REDECLARE:
  case AA_REPLACEABLE: dump_element(out, a->element, -1); break;
  case AA_BREAK: fprintf(out, "break %s", a->name->text); break;
  case AA_BREAK_CONNECT:
    fputs("break connect(", out);
    dump_cref(out, a->connect_a);
    fputs(", ", out);
    dump_cref(out, a->connect_b);
    fputc(')', out);
    break;
  }
}

static void dump_mod(FILE *out, const st_ast_mod *m) {
  if (m->has_args) {
    fputc('(', out);
    for (const st_ast_arg *a = m->args; a; a = a->next) {
      dump_arg(out, a);
      if (a->next) fputs(", ", out);
    }
    fputc(')', out);
  }
  if (m->value || m->is_break) {
    fputs(m->assign ? " := " : " = ", out);
    if (m->is_break) fputs("break", out);
    else dump_expr(out, m->value);
  }
}

static void dump_import(FILE *out, const st_ast_element *e) {
  fputs("import ", out);
  switch (e->u.import.kind) {
  case AI_QUALIFIED: fputs(e->u.import.name->text, out); break;
  case AI_RENAMING: fprintf(out, "%s = %s", e->u.import.alias, e->u.import.name->text); break;
  case AI_WILDCARD: fprintf(out, "%s.*", e->u.import.name->text); break;
  case AI_MULTIPLE:
    fprintf(out, "%s.{", e->u.import.name->text);
    for (const st_ast_ident_list *i = e->u.import.idents; i; i = i->next)
      fprintf(out, "%s%s", i->name, i->next ? ", " : "");
    fputc('}', out);
    break;
  }
}

static void dump_component(FILE *out, const st_ast_element *e) {
  dump_type_prefix(out, e->u.comp.prefix);
  fputs(e->u.comp.type->text, out);
  dump_subs(out, e->u.comp.type_subs);
  fprintf(out, " %s", e->u.comp.name);
  dump_subs(out, e->u.comp.subs);
  if (e->u.comp.mod) dump_mod(out, e->u.comp.mod);
  if (e->u.comp.condition) {
    fputs(" if ", out);
    dump_expr(out, e->u.comp.condition);
  }
}

/* indent < 0: inline, inside a modification (no indentation, no ';'). */
static void dump_element(FILE *out, const st_ast_element *e, int indent) {
  if (indent >= 0) pad(out, indent);
  if (e->redeclare && indent >= 0) fputs("redeclare ", out);
  if (e->final && indent >= 0) fputs("final ", out);
  if (e->inner) fputs("inner ", out);
  if (e->outer) fputs("outer ", out);
  if (e->replaceable) fputs("replaceable ", out);
  switch (e->kind) {
  case AEL_IMPORT: dump_import(out, e); dump_comment(out, e->description, e->annotation); break;
  case AEL_EXTENDS:
    fprintf(out, "extends %s", e->u.extends.name->text);
    if (e->u.extends.mod) dump_mod(out, e->u.extends.mod);
    dump_comment(out, NULL, e->annotation);
    break;
  case AEL_COMPONENT: dump_component(out, e); dump_comment(out, e->description, e->annotation); break;
  case AEL_CLASS: st_ast_dump_class(out, e->u.cls, indent < 0 ? 0 : indent); break;
  }
  if (e->constraint) {
    fprintf(out, " constrainedby %s", e->constraint->name->text);
    if (e->constraint->mod) dump_mod(out, e->constraint->mod);
    dump_comment(out, e->constraint->description, e->constraint->annotation);
  }
  if (indent >= 0) fputs(";\n", out);
}

static void dump_branches_eq(FILE *out, const st_ast_branch *b, const char *first,
                             const char *other, int indent) {
  for (const st_ast_branch *x = b; x; x = x->next) {
    if (x != b) pad(out, indent);
    if (!x->cond) {
      fputs("else\n", out);
    } else {
      fprintf(out, "%s ", x == b ? first : other);
      dump_expr(out, x->cond);
      fputs(" then\n", out);
    }
    dump_equations(out, x->eqs, indent + 1);
  }
}

static void dump_equation(FILE *out, const st_ast_equation *q, int indent) {
  pad(out, indent);
  switch (q->kind) {
  case AE_EQUAL:
    dump_expr(out, q->lhs);
    fputs(" = ", out);
    dump_expr(out, q->rhs);
    break;
  case AE_CALL: dump_expr(out, q->call); break;
  case AE_CONNECT:
    fputs("connect(", out);
    dump_cref(out, q->connect_a);
    fputs(", ", out);
    dump_cref(out, q->connect_b);
    fputc(')', out);
    break;
  case AE_IF:
  case AE_WHEN: {
    bool is_if = q->kind == AE_IF;
    dump_branches_eq(out, q->branches, is_if ? "if" : "when", is_if ? "elseif" : "elsewhen",
                     indent);
    pad(out, indent);
    fputs(is_if ? "end if" : "end when", out);
    break;
  }
  case AE_FOR:
    fputs("for ", out);
    dump_iters(out, q->iters);
    fputs(" loop\n", out);
    dump_equations(out, q->body, indent + 1);
    pad(out, indent);
    fputs("end for", out);
    break;
  }
  dump_comment(out, q->description, q->annotation);
  fputs(";\n", out);
}

static void dump_equations(FILE *out, const st_ast_equation *eq, int indent) {
  for (; eq; eq = eq->next) dump_equation(out, eq, indent);
}

static void dump_branches_stmt(FILE *out, const st_ast_branch *b, const char *first,
                               const char *other, int indent) {
  for (const st_ast_branch *x = b; x; x = x->next) {
    if (x != b) pad(out, indent);
    if (!x->cond) {
      fputs("else\n", out);
    } else {
      fprintf(out, "%s ", x == b ? first : other);
      dump_expr(out, x->cond);
      fputs(" then\n", out);
    }
    dump_stmts(out, x->stmts, indent + 1);
  }
}

static void dump_loop(FILE *out, const st_ast_stmt *s, int indent) {
  if (s->kind == AS_FOR) {
    fputs("for ", out);
    dump_iters(out, s->iters);
  } else {
    fputs("while ", out);
    dump_expr(out, s->cond);
  }
  fputs(" loop\n", out);
  dump_stmts(out, s->body, indent + 1);
  pad(out, indent);
  fputs(s->kind == AS_FOR ? "end for" : "end while", out);
}

static void dump_stmt(FILE *out, const st_ast_stmt *s, int indent) {
  pad(out, indent);
  switch (s->kind) {
  case AS_ASSIGN:
    dump_expr(out, s->lhs);
    fputs(" := ", out);
    dump_expr(out, s->rhs);
    break;
  case AS_CALL: dump_expr(out, s->call); break;
  case AS_BREAK: fputs("break", out); break;
  case AS_RETURN: fputs("return", out); break;
  case AS_IF:
  case AS_WHEN: {
    bool is_if = s->kind == AS_IF;
    dump_branches_stmt(out, s->branches, is_if ? "if" : "when", is_if ? "elseif" : "elsewhen",
                       indent);
    pad(out, indent);
    fputs(is_if ? "end if" : "end when", out);
    break;
  }
  case AS_FOR:
  case AS_WHILE: dump_loop(out, s, indent); break;
  }
  dump_comment(out, s->description, s->annotation);
  fputs(";\n", out);
}

static void dump_stmts(FILE *out, const st_ast_stmt *s, int indent) {
  for (; s; s = s->next) dump_stmt(out, s, indent);
}

static void dump_external(FILE *out, const st_ast_external *x, int indent) {
  pad(out, indent);
  fputs("external", out);
  if (x->language) {
    fputc(' ', out);
    dump_string(out, x->language);
  }
  if (x->fn) {
    fputc(' ', out);
    if (x->output) {
      dump_cref(out, x->output);
      fputs(" = ", out);
    }
    fprintf(out, "%s(", x->fn);
    dump_list(out, x->args, ", ");
    fputc(')', out);
  }
  dump_comment(out, NULL, x->annotation);
  fputs(";\n", out);
}

static void dump_body(FILE *out, const st_ast_class *c, int indent) {
  bool prot = false;
  for (const st_ast_element *e = c->elements; e; e = e->next) {
    if (e->is_protected != prot) {
      pad(out, indent);
      fputs(e->is_protected ? "protected\n" : "public\n", out);
      prot = e->is_protected;
    }
    dump_element(out, e, indent + 1);
  }
  for (const st_ast_section *s = c->sections; s; s = s->next) {
    pad(out, indent);
    fprintf(out, "%s%s\n", s->initial ? "initial " : "",
            s->kind == ASEC_EQUATION ? "equation" : "algorithm");
    if (s->kind == ASEC_EQUATION) dump_equations(out, s->eqs, indent + 1);
    else dump_stmts(out, s->stmts, indent + 1);
  }
  if (c->external) dump_external(out, c->external, indent + 1);
  if (c->annotation) {
    pad(out, indent + 1);
    fputs("annotation", out);
    dump_mod(out, c->annotation);
    fputs(";\n", out);
  }
}

static void dump_enumeration(FILE *out, const st_ast_class *c) {
  fputs("enumeration(", out);
  if (c->enum_unspecified) fputc(':', out);
  for (const st_ast_enum_literal *l = c->literals; l; l = l->next) {
    fputs(l->name, out);
    dump_comment(out, l->description, l->annotation);
    if (l->next) fputs(", ", out);
  }
  fputc(')', out);
}

static void dump_short(FILE *out, const st_ast_class *c) {
  fprintf(out, "%s = ", c->name);
  if (c->form == ACF_ENUMERATION) {
    dump_enumeration(out, c);
  } else if (c->form == ACF_DER) {
    fprintf(out, "der(%s", c->der_fn->text);
    for (const st_ast_ident_list *i = c->der_wrt; i; i = i->next) fprintf(out, ", %s", i->name);
    fputc(')', out);
  } else {
    dump_type_prefix(out, c->base_prefix);
    fputs(c->base->text, out);
    dump_subs(out, c->base_subs);
    if (c->base_mod) dump_mod(out, c->base_mod);
  }
  dump_comment(out, c->description, c->annotation);
}

const char *st_ast_class_kind_name(st_ast_class_kind kind) {
  static const char *const names[] = {
      [ACK_CLASS] = "class",       [ACK_MODEL] = "model",
      [ACK_RECORD] = "record",     [ACK_OPERATOR_RECORD] = "operator record",
      [ACK_BLOCK] = "block",       [ACK_CONNECTOR] = "connector",
      [ACK_EXPANDABLE_CONNECTOR] = "expandable connector",
      [ACK_TYPE] = "type",         [ACK_PACKAGE] = "package",
      [ACK_FUNCTION] = "function", [ACK_OPERATOR_FUNCTION] = "operator function",
      [ACK_OPERATOR] = "operator"};
  return names[kind];
}

/* The class header up to and including its name (without the element prefixes, which
 * belong to st_ast_element). */
static void dump_class_head(FILE *out, const st_ast_class *c) {
  if (c->final) fputs("final ", out);
  if (c->encapsulated) fputs("encapsulated ", out);
  if (c->partial) fputs("partial ", out);
  if (c->purity == APURE_PURE) fputs("pure ", out);
  if (c->purity == APURE_IMPURE) fputs("impure ", out);
  fprintf(out, "%s ", st_ast_class_kind_name(c->kind));
}

void st_ast_dump_class(FILE *out, const st_ast_class *c, int indent) {
  dump_class_head(out, c);
  if (c->form != ACF_LONG && c->form != ACF_EXTENDS) {
    dump_short(out, c);
    return;
  }
  if (c->form == ACF_EXTENDS) fprintf(out, "extends %s", c->name);
  else fputs(c->name, out);
  if (c->extends_mod) dump_mod(out, c->extends_mod);
  if (c->description) dump_comment(out, c->description, NULL);
  fputc('\n', out);
  dump_body(out, c, indent);
  pad(out, indent);
  fprintf(out, "end %s", c->name);
}

void st_ast_dump(FILE *out, const st_ast_stored_def *sd) {
  if (sd->has_within) fprintf(out, "within%s%s;\n", sd->within ? " " : "",
                              sd->within ? sd->within->text : "");
  for (const st_ast_class *c = sd->classes; c; c = c->next) {
    st_ast_dump_class(out, c, 0);
    fputs(";\n", out);
  }
}

void st_ast_dump_expr(FILE *out, const st_ast_expr *e) { dump_expr(out, e); }
void st_ast_dump_mod(FILE *out, const st_ast_mod *m) { dump_mod(out, m); }

/* Prints into a memory stream and copies the text into the arena. */
static const char *to_text(st_arena *arena, const void *node,
                           void (*print)(FILE *, const void *)) {
  char *buf = NULL;
  size_t len = 0;
  FILE *f = open_memstream(&buf, &len);
  if (!f) return NULL;
  print(f, node);
  fclose(f);
  const char *text = buf ? st_arena_strndup(arena, buf, len) : NULL;
  free(buf);
  return text;
}

static void print_expr(FILE *out, const void *e) { dump_expr(out, e); }
static void print_cref(FILE *out, const void *c) { dump_cref(out, c); }

const char *st_ast_expr_text(st_arena *arena, const st_ast_expr *e) {
  return to_text(arena, e, print_expr);
}

const char *st_ast_cref_text(st_arena *arena, const st_ast_cref *cr) {
  return to_text(arena, cr, print_cref);
}
