/* Modelica 3.6 concrete syntax (specification appendix B.2) to the AST of ast.h.
 *
 * Pure and reentrant: the scanner and the st_pstate are parameters. Where the specification's
 * grammar is not LALR(1) the rules are widened and the difference checked in the action:
 *  - an equation is `simple-expression [= expression]`, and without `=` it must be a call;
 *    a statement is `simple-expression [:= expression]` (target a reference or a tuple);
 *  - element and type prefixes are accepted in any order;
 *  - `end` is a primary only inside brackets (the scanner tells it apart from `end X`), and
 *    `initial equation` / `initial algorithm` are single tokens.
 * As many tools do, an `annotation(...);` is also accepted between elements and equations of
 * a section; it is merged into the class annotation.
 * Error recovery: a syntax error skips to the next ';' of the enclosing element, equation or
 * statement list, so one file can report several errors. */
%define api.pure full
%define api.prefix {st_yy}
%define parse.error custom
%locations
%param {void *scanner}
%parse-param {st_pstate *ps}

%code requires {
#include "front/parse_impl.h"

/* A rule's location starts at its first NON-EMPTY part, so that an omitted prefix (an empty
 * rule, located at the end of the previous token) does not move it backwards. */
#define YYLLOC_DEFAULT(Cur, Rhs, N) st_yylloc_default(&(Cur), (Rhs), (N))
}

%union {
  const char *str;
  st_pnum num;
  st_plist list;
  int flags;
  st_ast_type_prefix tprefix;
  st_ast_expr *expr;
  st_ast_name *name;
  st_ast_cref *cref;
  st_ast_cref_part *cpart;
  st_ast_mod *mod;
  st_ast_arg *arg;
  st_ast_element *elem;
  st_ast_class *cls;
  st_ast_equation *eq;
  st_ast_stmt *stmt;
  st_ast_iter *iter;
  st_ast_fnarg *fnarg;
  st_ast_constraint *constraint;
  st_ast_external *ext;
  st_ast_enum_literal *lit;
  st_ast_branch *branch;
  st_pcomp *comp;
  struct { const char *description; st_ast_mod *annotation; } comment;
}

%code provides {
static inline bool st_yylloc_empty(const ST_YYLTYPE *l) {
  return l->first_line == l->last_line && l->first_column == l->last_column;
}
static inline void st_yylloc_default(ST_YYLTYPE *cur, const ST_YYLTYPE *rhs, int n) {
  if (n == 0) {
    cur->first_line = cur->last_line = rhs[0].last_line;
    cur->first_column = cur->last_column = rhs[0].last_column;
    return;
  }
  int k = 1;
  while (k < n && st_yylloc_empty(&rhs[k])) k++;
  cur->first_line = rhs[k].first_line;
  cur->first_column = rhs[k].first_column;
  cur->last_line = rhs[n].last_line;
  cur->last_column = rhs[n].last_column;
}
}

%code {
#include <limits.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

int st_yylex(ST_YYSTYPE *lval, ST_YYLTYPE *lloc, void *scanner);
void st_yyerror(ST_YYLTYPE *l, void *scanner, st_pstate *ps, const char *msg);

#define LOC(l) ((st_loc){ps->file, (l).first_line, (l).first_column})
#define NEW(T) ((T *)st_palloc(ps, sizeof(T)))

/* Appends a node (or a chain of nodes) of type T to a list. */
#define APPEND(L, T, N)                                                                  \
  do {                                                                                   \
    T *n_ = (N);                                                                         \
    if (!n_) break;                                                                      \
    if ((L).tail) ((T *)(L).tail)->next = n_;                                            \
    else (L).head = n_;                                                                  \
    for ((L).n++; n_->next; n_ = n_->next) (L).n++;                                      \
    (L).tail = n_;                                                                       \
  } while (0)

static st_plist list_empty(void) { return (st_plist){NULL, NULL, 0, NULL}; }

/* Class kinds and purity travel through class-prefixes as one int. */
#define KIND(k, pure) ((int)(k) * 4 + (int)(pure))

/* Element prefixes as bits. */
enum { P_REDECLARE = 1, P_FINAL = 2, P_INNER = 4, P_OUTER = 8, P_REPLACEABLE = 16 };

static st_ast_expr *expr_new(st_pstate *ps, st_ast_expr_kind kind, ST_YYLTYPE l) {
  st_ast_expr *e = NEW(st_ast_expr);
  e->kind = kind;
  e->loc = LOC(l);
  e->height = 1;
  return e;
}

/* e is above child: its height grows. Every pass over expressions recurses once a level, so
 * a tree higher than the stack can walk is an error here (reported once a parse), not a
 * stack overflow later: `1 + 1 + ... + 1` is a tree as high as it has terms. */
static void grow(st_pstate *ps, st_ast_expr *e, const st_ast_expr *child) {
  if (!child || child->height < e->height) return;
  e->height = child->height + 1;
  if (e->height > ps->depth_limit && !ps->too_deep) {
    ps->too_deep = true;
    st_parse_report(ps, e->loc, "expression nested too deeply: more than %d levels (the "
                    "limit follows the size of the stack)", ps->depth_limit);
  }
}

static void grow_list(st_pstate *ps, st_ast_expr *e, const st_ast_expr *list) {
  for (; list; list = list->next) grow(ps, e, list);
}

static void grow_args(st_pstate *ps, st_ast_expr *e, const st_ast_fnarg *args,
                      const st_ast_iter *iters) {
  for (; args; args = args->next) grow(ps, e, args->value);
  for (; iters; iters = iters->next) grow(ps, e, iters->range);
}

static void grow_cref(st_pstate *ps, st_ast_expr *e, const st_ast_cref *c) {
  for (const st_ast_cref_part *p = c->parts; p; p = p->next) grow_list(ps, e, p->subs);
}

static st_ast_expr *number_new(st_pstate *ps, st_pnum num, ST_YYLTYPE l) {
  st_ast_expr *e = expr_new(ps, num.is_real ? AX_REAL : AX_INTEGER, l);
  e->u.num.text = num.text;
  e->u.num.real = strtod(num.text, NULL);
  if (!num.is_real) {
    unsigned long long v = strtoull(num.text, NULL, 10);
    e->u.num.integer = v > (unsigned long long)LLONG_MAX ? LLONG_MAX : (long long)v;
  }
  return e;
}

static st_ast_expr *binary_new(st_pstate *ps, st_ast_op op, st_ast_expr *a, st_ast_expr *b) {
  st_ast_expr *e = NEW(st_ast_expr);
  e->kind = AX_BINARY;
  e->loc = a->loc;
  e->u.binary.op = op;
  e->u.binary.lhs = a;
  e->u.binary.rhs = b;
  e->height = 1;
  grow(ps, e, a);
  grow(ps, e, b);
  return e;
}

static st_ast_expr *unary_new(st_pstate *ps, st_ast_op op, st_ast_expr *a, ST_YYLTYPE l) {
  st_ast_expr *e = expr_new(ps, AX_UNARY, l);
  e->u.unary.op = op;
  e->u.unary.arg = a;
  grow(ps, e, a);
  return e;
}

static st_ast_expr *call_new(st_pstate *ps, st_ast_cref *fn, st_ast_expr *args, ST_YYLTYPE l) {
  st_ast_expr *e = expr_new(ps, AX_CALL, l);
  e->u.call.fn = fn;
  e->u.call.args = args->u.call.args;
  e->u.call.iters = args->u.call.iters;
  grow_args(ps, e, e->u.call.args, e->u.call.iters);
  return e;
}

static st_ast_cref *keyword_cref(st_pstate *ps, const char *name, ST_YYLTYPE l) {
  st_ast_cref_part *p = NEW(st_ast_cref_part);
  p->loc = LOC(l);
  p->name = name;
  st_ast_cref *c = NEW(st_ast_cref);
  c->loc = p->loc;
  c->parts = p;
  c->nparts = 1;
  return c;
}

static st_ast_name *name_finish(st_pstate *ps, st_ast_name *n) {
  size_t len = n->global ? 1 : 0;
  for (int i = 0; i < n->nparts; i++) len += strlen(n->parts[i]) + 1;
  char *text = st_palloc(ps, len + 1), *p = text;
  if (n->global) *p++ = '.';
  for (int i = 0; i < n->nparts; i++) {
    size_t k = strlen(n->parts[i]);
    memcpy(p, n->parts[i], k);
    p += k;
    if (i + 1 < n->nparts) *p++ = '.';
  }
  *p = 0;
  n->text = text;
  return n;
}

/* Names grow one part at a time; the parts array is copied (names are short). */
static st_ast_name *name_push(st_pstate *ps, st_ast_name *n, const char *part, ST_YYLTYPE l,
                              bool global) {
  if (!n) {
    n = NEW(st_ast_name);
    n->loc = LOC(l);
    n->global = global;
  }
  const char **parts = st_palloc(ps, (size_t)(n->nparts + 1) * sizeof *parts);
  if (n->nparts) memcpy(parts, n->parts, (size_t)n->nparts * sizeof *parts);
  parts[n->nparts++] = part;
  n->parts = parts;
  return name_finish(ps, n);
}

static st_ast_cref_part *cref_part_new(st_pstate *ps, const char *name, st_plist subs, ST_YYLTYPE l) {
  st_ast_cref_part *p = NEW(st_ast_cref_part);
  p->loc = LOC(l);
  p->name = name;
  p->subs = subs.head;
  p->nsubs = subs.n;
  return p;
}

static st_ast_cref *cref_push(st_pstate *ps, st_ast_cref *c, st_ast_cref_part *p, bool global,
                              ST_YYLTYPE l) {
  if (!c) {
    c = NEW(st_ast_cref);
    c->loc = LOC(l);
    c->global = global;
    c->parts = p;
    c->nparts = 1;
    return c;
  }
  st_ast_cref_part *last = c->parts;
  while (last->next) last = last->next;
  last->next = p;
  c->nparts++;
  return c;
}

static const char *concat(st_pstate *ps, const char *a, const char *b) {
  const char *ab = st_arena_concat(ps->arena, a, b, "");
  if (!ab) st_parse_out_of_memory(ps);
  return ab;
}

/* Several annotation clauses of one class (or one list) become one argument list. */
static st_ast_mod *merge_annotation(st_pstate *ps, st_ast_mod *into, st_ast_mod *add) {
  if (!into) return add;
  if (!add) return into;
  st_ast_mod *m = NEW(st_ast_mod);
  *m = *into;
  m->has_args = true;
  st_plist l = list_empty();
  for (st_ast_arg *a = into->args; a; a = a->next) {
    st_ast_arg *c = NEW(st_ast_arg);
    *c = *a;
    c->next = NULL;
    APPEND(l, st_ast_arg, c);
  }
  APPEND(l, st_ast_arg, add->args);
  m->args = l.head;
  return m;
}

static st_ast_mod *mod_new(st_pstate *ps, st_ast_mod *cls_mod, st_ast_expr *value, ST_YYLTYPE l) {
  st_ast_mod *m = cls_mod ? cls_mod : NEW(st_ast_mod);
  if (!cls_mod) m->loc = LOC(l);
  m->value = value;
  m->is_break = value == NULL;
  return m;
}

static st_ast_element *element_new(st_pstate *ps, st_ast_element_kind kind, ST_YYLTYPE l) {
  st_ast_element *e = NEW(st_ast_element);
  e->kind = kind;
  e->loc = LOC(l);
  return e;
}

/* Applies element prefixes and the constraining clause to an element (or the chain of
 * elements of one component clause). */
static st_ast_element *element_prefix(st_pstate *ps, st_ast_element *e, int flags, ST_YYLTYPE l,
                                      bool has_prefix, st_ast_constraint *cc) {
  if (cc && !(flags & P_REPLACEABLE))
    st_parse_report(ps, cc->loc, "'constrainedby' is only allowed on a replaceable element");
  for (st_ast_element *x = e; x; x = x->next) {
    x->redeclare = flags & P_REDECLARE;
    x->final = flags & P_FINAL;
    x->inner = flags & P_INNER;
    x->outer = flags & P_OUTER;
    x->replaceable = flags & P_REPLACEABLE;
    x->constraint = cc;
    if (has_prefix) x->loc = LOC(l);
  }
  return e;
}

static st_ast_element *class_element(st_pstate *ps, st_ast_class *c) {
  st_ast_element *e = NEW(st_ast_element);
  e->kind = AEL_CLASS;
  e->loc = c->loc;
  e->u.cls = c;
  e->description = c->description;
  e->annotation = c->annotation;
  return e;
}

/* Gives each declaration of a component clause the shared type and prefixes. */
static st_ast_element *component_clause(st_pstate *ps, st_ast_type_prefix tp, bool has_tp,
                                        st_ast_name *type, st_plist tsubs, st_ast_element *decls,
                                        ST_YYLTYPE l) {
  for (st_ast_element *x = decls; x; x = x->next) {
    x->u.comp.prefix = tp;
    x->u.comp.type = type;
    x->u.comp.type_subs = tsubs.head;
    x->u.comp.ntype_subs = tsubs.n;
    x->loc = has_tp ? LOC(l) : type->loc;
  }
  return decls;
}

static st_ast_element *declaration(st_pstate *ps, const char *name, ST_YYLTYPE l, st_plist subs,
                                   st_ast_mod *mod) {
  st_ast_element *e = element_new(ps, AEL_COMPONENT, l);
  e->u.comp.name = name;
  e->u.comp.name_loc = LOC(l);
  e->u.comp.subs = subs.head;
  e->u.comp.nsubs = subs.n;
  e->u.comp.mod = mod;
  return e;
}

static st_ast_class *class_new(st_pstate *ps, const char *name, ST_YYLTYPE l, st_ast_class_form form) {
  st_ast_class *c = NEW(st_ast_class);
  c->name = name;
  c->name_loc = LOC(l);
  c->loc = c->name_loc;
  c->form = form;
  return c;
}

static st_ast_class *long_class(st_pstate *ps, st_ast_class *c, const char *desc, st_pcomp *comp,
                                const char *end_name, ST_YYLTYPE end_loc) {
  c->description = desc;
  c->elements = comp->elements.head;
  c->sections = comp->sections.head;
  c->external = comp->external;
  c->annotation = comp->annotation;
  if (strcmp(c->name, end_name) != 0)
    st_parse_report(ps, LOC(end_loc), "'end %s' does not match the class name '%s'", end_name,
                    c->name);
  return c;
}

static void set_protected(st_plist l, bool prot) {
  for (st_ast_element *e = l.head; e; e = e->next) e->is_protected = prot;
}

static st_pcomp *comp_add_elements(st_pstate *ps, st_pcomp *c, st_plist l, bool prot) {
  set_protected(l, prot);
  APPEND(c->elements, st_ast_element, (st_ast_element *)l.head);
  c->annotation = merge_annotation(ps, c->annotation, l.annotation);
  return c;
}

/* The elements before the first section keyword go first, with their annotations. */
static st_pcomp *comp_prepend(st_pstate *ps, st_pcomp *c, st_plist first) {
  st_plist later = c->elements;
  st_ast_mod *later_annotation = c->annotation;
  c->elements = list_empty();
  c->annotation = NULL;
  comp_add_elements(ps, c, first, false);
  APPEND(c->elements, st_ast_element, (st_ast_element *)later.head);
  c->annotation = merge_annotation(ps, c->annotation, later_annotation);
  return c;
}

static st_pcomp *comp_add_section(st_pstate *ps, st_pcomp *c, st_ast_section_kind kind,
                                  bool initial, st_plist l, ST_YYLTYPE loc) {
  st_ast_section *s = NEW(st_ast_section);
  s->kind = kind;
  s->initial = initial;
  s->loc = LOC(loc);
  if (kind == ASEC_EQUATION) s->eqs = l.head;
  else s->stmts = l.head;
  APPEND(c->sections, st_ast_section, s);
  c->annotation = merge_annotation(ps, c->annotation, l.annotation);
  return c;
}

static st_ast_equation *equation_new(st_pstate *ps, st_ast_equation_kind kind, ST_YYLTYPE l) {
  st_ast_equation *e = NEW(st_ast_equation);
  e->kind = kind;
  e->loc = LOC(l);
  return e;
}

static st_ast_stmt *stmt_new(st_pstate *ps, st_ast_stmt_kind kind, ST_YYLTYPE l) {
  st_ast_stmt *s = NEW(st_ast_stmt);
  s->kind = kind;
  s->loc = LOC(l);
  return s;
}

static st_ast_branch *branch_new(st_pstate *ps, st_ast_expr *cond, st_plist body, bool eqs,
                                 ST_YYLTYPE l) {
  st_ast_branch *b = NEW(st_ast_branch);
  b->loc = LOC(l);
  b->cond = cond;
  if (eqs) b->eqs = body.head;
  else b->stmts = body.head;
  return b;
}

/* `f(x);` as an equation or statement: anything else without '=' is an error. */
static st_ast_expr *require_call(st_pstate *ps, st_ast_expr *e, const char *what) {
  if (e->kind != AX_CALL)
    st_parse_report(ps, e->loc, "expected '%s' or a function call in this %s",
                    strcmp(what, "statement") ? "=" : ":=", what);
  return e;
}

static st_ast_expr *require_target(st_pstate *ps, st_ast_expr *e) {
  if (e->kind != AX_CREF && e->kind != AX_TUPLE)
    st_parse_report(ps, e->loc,
                    "the left-hand side of ':=' must be a component reference or a tuple");
  return e;
}

static st_ast_iter *iter_new(st_pstate *ps, const char *name, st_ast_expr *range, ST_YYLTYPE l) {
  st_ast_iter *it = NEW(st_ast_iter);
  it->loc = LOC(l);
  it->name = name;
  it->range = range;
  return it;
}

static st_ast_fnarg *fnarg_new(st_pstate *ps, const char *name, st_ast_expr *v, ST_YYLTYPE l) {
  st_ast_fnarg *a = NEW(st_ast_fnarg);
  a->loc = LOC(l);
  a->name = name;
  a->value = v;
  return a;
}

/* A function-call-args value travels as an AX_CALL without a name. */
static st_ast_expr *args_new(st_pstate *ps, st_plist args, st_ast_iter *iters, ST_YYLTYPE l) {
  st_ast_expr *e = expr_new(ps, AX_CALL, l);
  e->u.call.args = args.head;
  e->u.call.iters = iters;
  return e;
}

static st_ast_expr *paren_list(st_pstate *ps, st_plist l, ST_YYLTYPE loc) {
  st_ast_expr *first = l.head;
  if (l.n == 1 && first->kind != AX_EMPTY) return first;
  st_ast_expr *e = expr_new(ps, AX_TUPLE, loc);
  if (l.n == 1) return e; /* `()` */
  e->u.tuple.elems = l.head;
  e->u.tuple.nelems = l.n;
  grow_list(ps, e, l.head);
  return e;
}

static st_ast_arg *arg_new(st_pstate *ps, st_ast_arg_kind kind, int each_final, ST_YYLTYPE l) {
  st_ast_arg *a = NEW(st_ast_arg);
  a->kind = kind;
  a->loc = LOC(l);
  a->each = each_final & 1;
  a->final = each_final & 2;
  return a;
}

static st_ast_class *class_kind(st_ast_class *c, int kind, bool partial, bool encapsulated,
                                st_pstate *ps, ST_YYLTYPE l) {
  c->kind = (st_ast_class_kind)(kind / 4);
  c->purity = (st_ast_purity)(kind % 4);
  c->partial = partial;
  c->encapsulated = encapsulated;
  c->loc = LOC(l);
  if ((c->form == ACF_ENUMERATION) && c->kind != ACK_TYPE)
    st_parse_report(ps, c->name_loc, "an enumeration must be declared with 'type'");
  if (c->form == ACF_DER && c->kind != ACK_FUNCTION)
    st_parse_report(ps, c->name_loc, "a 'der' class must be a function");
  return c;
}

static void finish(st_pstate *ps, st_ast_stored_def *sd, st_plist classes) {
  sd->classes = classes.head;
  sd->nclasses = classes.n;
  sd->file = ps->file;
  sd->loc = (st_loc){ps->file, 1, 1};
  ps->result = sd;
}
}

%token <str> T_IDENT "identifier" T_STRING "string"
%token <num> T_NUMBER "number"
%token T_ALGORITHM "'algorithm'" T_AND "'and'" T_ANNOTATION "'annotation'" T_BLOCK "'block'"
%token T_BREAK "'break'" T_CLASS "'class'" T_CONNECT "'connect'" T_CONNECTOR "'connector'"
%token T_CONSTANT "'constant'" T_CONSTRAINEDBY "'constrainedby'" T_DER "'der'"
%token T_DISCRETE "'discrete'" T_EACH "'each'" T_ELSE "'else'" T_ELSEIF "'elseif'"
%token T_ELSEWHEN "'elsewhen'" T_ENCAPSULATED "'encapsulated'" T_END "'end'"
%token T_END_EXPR "'end' (subscript)"
%token T_ENUMERATION "'enumeration'" T_EQUATION "'equation'" T_EXPANDABLE "'expandable'"
%token T_EXTENDS "'extends'" T_EXTERNAL "'external'" T_FALSE "'false'" T_FINAL "'final'"
%token T_FLOW "'flow'" T_FOR "'for'" T_FUNCTION "'function'" T_IF "'if'" T_IMPORT "'import'"
%token T_IMPURE "'impure'" T_IN "'in'" T_INITIAL "'initial'" T_INNER "'inner'"
%token T_INPUT "'input'" T_LOOP "'loop'" T_MODEL "'model'" T_NOT "'not'"
%token T_OPERATOR "'operator'" T_OR "'or'" T_OUTER "'outer'" T_OUTPUT "'output'"
%token T_PACKAGE "'package'" T_PARAMETER "'parameter'" T_PARTIAL "'partial'"
%token T_PROTECTED "'protected'" T_PUBLIC "'public'" T_PURE "'pure'" T_RECORD "'record'"
%token T_REDECLARE "'redeclare'" T_REPLACEABLE "'replaceable'" T_RETURN "'return'"
%token T_STREAM "'stream'" T_THEN "'then'" T_TRUE "'true'" T_TYPE "'type'" T_WHEN "'when'"
%token T_WHILE "'while'" T_WITHIN "'within'"
%token T_INITIAL_EQUATION "'initial equation'" T_INITIAL_ALGORITHM "'initial algorithm'"
%token T_EADD "'.+'" T_ESUB "'.-'" T_EMUL "'.*'" T_EDIV "'./'" T_EPOW "'.^'"
%token T_ASSIGN "':='" T_EQ "'=='" T_NE "'<>'" T_LE "'<='" T_GE "'>='"

%type <list> top_classes element_list section_eqs eq_list section_stmts stmt_list
%type <list> array_subs array_subs_opt subscripts arg_list arg_list_opt fn_arg_list
%type <list> expr_list expr_list_opt matrix_rows out_list component_list enum_list
%type <list> enum_list_opt ident_list
%type <flags> elem_prefixes class_prefixes class_kind each_final encapsulated_opt partial_opt
%type <flags> top_final
%type <tprefix> type_prefix
%type <str> string_comment strcat lang_opt
%type <comment> comment
%type <mod> annotation annotation_opt class_mod class_mod_opt modification modification_opt
%type <expr> expression simple_expression logical_expression logical_term logical_factor
%type <expr> relation arithmetic term factor primary fn_args subscript opt_expr
%type <expr> mod_expr partial_app condition_opt if_rest
%type <mod> annotation_semi_opt
%type <name> name type_specifier
%type <cref> cref
%type <cpart> cref_part
%type <arg> argument
%type <elem> element import_clause extends_clause component_clause component_decl
%type <elem> component_clause1 replaceable_body short_or_comp1
%type <cls> class_definition class_specifier short_class_definition short_class_specifier
%type <eq> equation equation_body
%type <stmt> statement statement_body
%type <iter> for_indices for_index
%type <fnarg> fn_arg
%type <constraint> constraint_opt
%type <ext> external_clause ext_call_opt
%type <lit> enum_literal
%type <branch> eq_elseifs eq_elsewhens stmt_elseifs stmt_elsewhens
%type <comp> composition sections
%type <flags> relop addop mulop

%start stored_definition

%%

stored_definition:
    within_opt top_classes { finish(ps, ps->result, $2); }
  ;

within_opt:
    %empty { ps->result = NEW(st_ast_stored_def); }
  | T_WITHIN ';' {
      ps->result = NEW(st_ast_stored_def);
      ps->result->has_within = true;
    }
  | T_WITHIN name ';' {
      ps->result = NEW(st_ast_stored_def);
      ps->result->has_within = true;
      ps->result->within = $2;
    }
  ;

top_classes:
    %empty { $$ = list_empty(); }
  | top_classes top_final class_definition ';' {
      $$ = $1;
      $3->final = $2;
      if ($2) $3->loc = LOC(@2);
      APPEND($$, st_ast_class, $3);
    }
  | top_classes error ';' { $$ = $1; ps->bracket_depth = 0; }
  ;

top_final:
    %empty { $$ = 0; }
  | T_FINAL { $$ = 1; }
  ;

/* ---------------------------------------------------------------- class definitions */

class_definition:
    encapsulated_opt partial_opt class_kind class_specifier {
      $$ = class_kind($4, $3, $2, $1, ps, @$);
    }
  ;

encapsulated_opt:
    %empty { $$ = 0; }
  | T_ENCAPSULATED { $$ = 1; }
  ;

partial_opt:
    %empty { $$ = 0; }
  | T_PARTIAL { $$ = 1; }
  ;

class_prefixes:
    partial_opt class_kind { $$ = $2 | ($1 << 8); }
  ;

class_kind:
    T_CLASS { $$ = KIND(ACK_CLASS, APURE_DEFAULT); }
  | T_MODEL { $$ = KIND(ACK_MODEL, APURE_DEFAULT); }
  | T_RECORD { $$ = KIND(ACK_RECORD, APURE_DEFAULT); }
  | T_OPERATOR T_RECORD { $$ = KIND(ACK_OPERATOR_RECORD, APURE_DEFAULT); }
  | T_BLOCK { $$ = KIND(ACK_BLOCK, APURE_DEFAULT); }
  | T_CONNECTOR { $$ = KIND(ACK_CONNECTOR, APURE_DEFAULT); }
  | T_EXPANDABLE T_CONNECTOR { $$ = KIND(ACK_EXPANDABLE_CONNECTOR, APURE_DEFAULT); }
  | T_TYPE { $$ = KIND(ACK_TYPE, APURE_DEFAULT); }
  | T_PACKAGE { $$ = KIND(ACK_PACKAGE, APURE_DEFAULT); }
  | T_FUNCTION { $$ = KIND(ACK_FUNCTION, APURE_DEFAULT); }
  | T_PURE T_FUNCTION { $$ = KIND(ACK_FUNCTION, APURE_PURE); }
  | T_IMPURE T_FUNCTION { $$ = KIND(ACK_FUNCTION, APURE_IMPURE); }
  | T_OPERATOR T_FUNCTION { $$ = KIND(ACK_OPERATOR_FUNCTION, APURE_DEFAULT); }
  | T_PURE T_OPERATOR T_FUNCTION { $$ = KIND(ACK_OPERATOR_FUNCTION, APURE_PURE); }
  | T_IMPURE T_OPERATOR T_FUNCTION { $$ = KIND(ACK_OPERATOR_FUNCTION, APURE_IMPURE); }
  | T_OPERATOR { $$ = KIND(ACK_OPERATOR, APURE_DEFAULT); }
  ;

class_specifier:
    T_IDENT string_comment composition T_END T_IDENT {
      $$ = long_class(ps, class_new(ps, $1, @1, ACF_LONG), $2, $3, $5, @5);
    }
  | T_EXTENDS T_IDENT class_mod_opt string_comment composition T_END T_IDENT {
      $$ = long_class(ps, class_new(ps, $2, @2, ACF_EXTENDS), $4, $5, $7, @7);
      $$->extends_mod = $3;
    }
  | short_class_specifier { $$ = $1; }
  | T_IDENT '=' T_DER '(' type_specifier ',' ident_list ')' comment {
      $$ = class_new(ps, $1, @1, ACF_DER);
      $$->der_fn = $5;
      $$->der_wrt = $7.head;
      $$->description = $9.description;
      $$->annotation = $9.annotation;
    }
  ;

short_class_specifier:
    T_IDENT '=' type_prefix type_specifier array_subs_opt class_mod_opt comment {
      $$ = class_new(ps, $1, @1, ACF_SHORT);
      $$->base_prefix = $3;
      $$->base = $4;
      $$->base_subs = $5.head;
      $$->nbase_subs = $5.n;
      $$->base_mod = $6;
      $$->description = $7.description;
      $$->annotation = $7.annotation;
    }
  | T_IDENT '=' T_ENUMERATION '(' enum_list_opt ')' comment {
      $$ = class_new(ps, $1, @1, ACF_ENUMERATION);
      $$->literals = $5.head;
      $$->nliterals = $5.n;
      $$->description = $7.description;
      $$->annotation = $7.annotation;
    }
  | T_IDENT '=' T_ENUMERATION '(' ':' ')' comment {
      $$ = class_new(ps, $1, @1, ACF_ENUMERATION);
      $$->enum_unspecified = true;
      $$->description = $7.description;
      $$->annotation = $7.annotation;
    }
  ;

short_class_definition:
    class_prefixes short_class_specifier {
      $$ = class_kind($2, $1 & 0xff, $1 >> 8, false, ps, @1);
    }
  ;

enum_list_opt:
    %empty { $$ = list_empty(); }
  | enum_list { $$ = $1; }
  ;

enum_list:
    enum_literal { $$ = list_empty(); APPEND($$, st_ast_enum_literal, $1); }
  | enum_list ',' enum_literal { $$ = $1; APPEND($$, st_ast_enum_literal, $3); }
  ;

enum_literal:
    T_IDENT comment {
      $$ = NEW(st_ast_enum_literal);
      $$->loc = LOC(@1);
      $$->name = $1;
      $$->description = $2.description;
      $$->annotation = $2.annotation;
    }
  ;

ident_list:
    T_IDENT {
      $$ = list_empty();
      st_ast_ident_list *i = NEW(st_ast_ident_list);
      i->loc = LOC(@1);
      i->name = $1;
      APPEND($$, st_ast_ident_list, i);
    }
  | ident_list ',' T_IDENT {
      $$ = $1;
      st_ast_ident_list *i = NEW(st_ast_ident_list);
      i->loc = LOC(@3);
      i->name = $3;
      APPEND($$, st_ast_ident_list, i);
    }
  ;

composition:
    element_list sections {
      $$ = comp_prepend(ps, $2, $1);
    }
  | element_list sections external_clause annotation_semi_opt {
      $$ = comp_prepend(ps, $2, $1);
      $$->external = $3;
      $$->annotation = merge_annotation(ps, $$->annotation, $4);
    }
  ;

annotation_semi_opt:
    %empty { $$ = NULL; }
  | annotation ';' { $$ = $1; }
  ;

sections:
    %empty { $$ = NEW(st_pcomp); }
  | sections T_PUBLIC element_list { $$ = comp_add_elements(ps, $1, $3, false); }
  | sections T_PROTECTED element_list { $$ = comp_add_elements(ps, $1, $3, true); }
  | sections T_EQUATION section_eqs { $$ = comp_add_section(ps, $1, ASEC_EQUATION, false, $3, @2); }
  | sections T_INITIAL_EQUATION section_eqs {
      $$ = comp_add_section(ps, $1, ASEC_EQUATION, true, $3, @2);
    }
  | sections T_ALGORITHM section_stmts {
      $$ = comp_add_section(ps, $1, ASEC_ALGORITHM, false, $3, @2);
    }
  | sections T_INITIAL_ALGORITHM section_stmts {
      $$ = comp_add_section(ps, $1, ASEC_ALGORITHM, true, $3, @2);
    }
  ;

external_clause:
    T_EXTERNAL lang_opt ext_call_opt annotation_opt ';' {
      $$ = $3 ? $3 : NEW(st_ast_external);
      $$->loc = LOC(@1);
      $$->language = $2;
      $$->annotation = $4;
    }
  ;

lang_opt:
    %empty { $$ = NULL; }
  | T_STRING { $$ = $1; }
  ;

ext_call_opt:
    %empty { $$ = NULL; }
  | T_IDENT '(' expr_list_opt ')' {
      $$ = NEW(st_ast_external);
      $$->fn = $1;
      $$->args = $3.head;
    }
  | cref '=' T_IDENT '(' expr_list_opt ')' {
      $$ = NEW(st_ast_external);
      $$->output = $1;
      $$->fn = $3;
      $$->args = $5.head;
    }
  ;

/* ------------------------------------------------------------------------- elements */

element_list:
    %empty { $$ = list_empty(); }
  | element_list element ';' { $$ = $1; APPEND($$, st_ast_element, $2); }
  | element_list annotation ';' {
      $$ = $1;
      $$.annotation = merge_annotation(ps, $$.annotation, $2);
    }
  | element_list error ';' { $$ = $1; ps->bracket_depth = 0; }
  ;

element:
    import_clause { $$ = $1; }
  | extends_clause { $$ = $1; }
  | elem_prefixes class_definition constraint_opt {
      $$ = element_prefix(ps, class_element(ps, $2), $1, @1, $1 != 0, $3);
    }
  | elem_prefixes component_clause constraint_opt {
      $$ = element_prefix(ps, $2, $1, @1, $1 != 0, $3);
    }
  ;

elem_prefixes:
    %empty { $$ = 0; }
  | elem_prefixes T_REDECLARE { $$ = $1 | P_REDECLARE; }
  | elem_prefixes T_FINAL { $$ = $1 | P_FINAL; }
  | elem_prefixes T_INNER { $$ = $1 | P_INNER; }
  | elem_prefixes T_OUTER { $$ = $1 | P_OUTER; }
  | elem_prefixes T_REPLACEABLE { $$ = $1 | P_REPLACEABLE; }
  ;

import_clause:
    T_IMPORT T_IDENT '=' name comment {
      $$ = element_new(ps, AEL_IMPORT, @1);
      $$->u.import.kind = AI_RENAMING;
      $$->u.import.alias = $2;
      $$->u.import.name = $4;
      $$->description = $5.description;
      $$->annotation = $5.annotation;
    }
  | T_IMPORT name comment {
      $$ = element_new(ps, AEL_IMPORT, @1);
      $$->u.import.kind = AI_QUALIFIED;
      $$->u.import.name = $2;
      $$->description = $3.description;
      $$->annotation = $3.annotation;
    }
  | T_IMPORT name T_EMUL comment {
      $$ = element_new(ps, AEL_IMPORT, @1);
      $$->u.import.kind = AI_WILDCARD;
      $$->u.import.name = $2;
      $$->description = $4.description;
      $$->annotation = $4.annotation;
    }
  | T_IMPORT name '.' '*' comment {
      $$ = element_new(ps, AEL_IMPORT, @1);
      $$->u.import.kind = AI_WILDCARD;
      $$->u.import.name = $2;
      $$->description = $5.description;
      $$->annotation = $5.annotation;
    }
  | T_IMPORT name '.' '{' ident_list '}' comment {
      $$ = element_new(ps, AEL_IMPORT, @1);
      $$->u.import.kind = AI_MULTIPLE;
      $$->u.import.name = $2;
      $$->u.import.idents = $5.head;
      $$->description = $7.description;
      $$->annotation = $7.annotation;
    }
  ;

extends_clause:
    T_EXTENDS type_specifier class_mod_opt annotation_opt {
      $$ = element_new(ps, AEL_EXTENDS, @1);
      $$->u.extends.name = $2;
      $$->u.extends.mod = $3;
      $$->annotation = $4;
    }
  ;

constraint_opt:
    %empty { $$ = NULL; }
  | T_CONSTRAINEDBY type_specifier class_mod_opt comment {
      $$ = NEW(st_ast_constraint);
      $$->loc = LOC(@1);
      $$->name = $2;
      $$->mod = $3;
      $$->description = $4.description;
      $$->annotation = $4.annotation;
    }
  ;

component_clause:
    type_prefix type_specifier array_subs_opt component_list {
      bool has_tp = $1.flow || $1.variability || $1.causality;
      $$ = component_clause(ps, $1, has_tp, $2, $3, $4.head, @1);
    }
  ;

type_prefix:
    %empty { $$ = (st_ast_type_prefix){AF_NONE, AV_CONTINUOUS, AC_NONE}; }
  | type_prefix T_FLOW { $$ = $1; $$.flow = AF_FLOW; }
  | type_prefix T_STREAM { $$ = $1; $$.flow = AF_STREAM; }
  | type_prefix T_DISCRETE { $$ = $1; $$.variability = AV_DISCRETE; }
  | type_prefix T_PARAMETER { $$ = $1; $$.variability = AV_PARAMETER; }
  | type_prefix T_CONSTANT { $$ = $1; $$.variability = AV_CONSTANT; }
  | type_prefix T_INPUT { $$ = $1; $$.causality = AC_INPUT; }
  | type_prefix T_OUTPUT { $$ = $1; $$.causality = AC_OUTPUT; }
  ;

component_list:
    component_decl { $$ = list_empty(); APPEND($$, st_ast_element, $1); }
  | component_list ',' component_decl { $$ = $1; APPEND($$, st_ast_element, $3); }
  ;

component_decl:
    T_IDENT array_subs_opt modification_opt condition_opt comment {
      $$ = declaration(ps, $1, @1, $2, $3);
      $$->u.comp.condition = $4;
      $$->description = $5.description;
      $$->annotation = $5.annotation;
    }
  ;

condition_opt:
    %empty { $$ = NULL; }
  | T_IF expression { $$ = $2; }
  ;

component_clause1:
    type_prefix type_specifier T_IDENT array_subs_opt modification_opt comment {
      st_ast_element *d = declaration(ps, $3, @3, $4, $5);
      d->description = $6.description;
      d->annotation = $6.annotation;
      bool has_tp = $1.flow || $1.variability || $1.causality;
      $$ = component_clause(ps, $1, has_tp, $2, list_empty(), d, @1);
    }
  | type_prefix type_specifier array_subs T_IDENT array_subs_opt modification_opt comment {
      st_ast_element *d = declaration(ps, $4, @4, $5, $6);
      d->description = $7.description;
      d->annotation = $7.annotation;
      bool has_tp = $1.flow || $1.variability || $1.causality;
      $$ = component_clause(ps, $1, has_tp, $2, $3, d, @1);
    }
  ;

/* -------------------------------------------------------------------- modifications */

modification_opt:
    %empty { $$ = NULL; }
  | modification { $$ = $1; }
  ;

modification:
    class_mod { $$ = $1; }
  | class_mod '=' mod_expr { $$ = mod_new(ps, $1, $3, @1); }
  | '=' mod_expr { $$ = mod_new(ps, NULL, $2, @1); }
  | T_ASSIGN mod_expr { $$ = mod_new(ps, NULL, $2, @1); $$->assign = true; }
  ;

mod_expr:
    expression { $$ = $1; }
  | T_BREAK { $$ = NULL; }
  ;

class_mod_opt:
    %empty { $$ = NULL; }
  | class_mod { $$ = $1; }
  ;

class_mod:
    '(' arg_list_opt ')' {
      $$ = NEW(st_ast_mod);
      $$->loc = LOC(@1);
      $$->has_args = true;
      $$->args = $2.head;
    }
  ;

arg_list_opt:
    %empty { $$ = list_empty(); }
  | arg_list { $$ = $1; }
  ;

arg_list:
    argument { $$ = list_empty(); APPEND($$, st_ast_arg, $1); }
  | arg_list ',' argument { $$ = $1; APPEND($$, st_ast_arg, $3); }
  ;

argument:
    each_final name modification_opt string_comment {
      $$ = arg_new(ps, AA_MODIFY, $1, $1 ? @1 : @2);
      $$->name = $2;
      $$->mod = $3;
      $$->description = $4;
    }
  | each_final T_REPLACEABLE replaceable_body {
      $$ = arg_new(ps, AA_REPLACEABLE, $1, $1 ? @1 : @2);
      $$->element = $3;
      $3->replaceable = true;
    }
  | T_REDECLARE each_final short_or_comp1 {
      $$ = arg_new(ps, AA_REDECLARE, $2, @1);
      $$->element = $3;
      $3->redeclare = true;
    }
  | T_REDECLARE each_final T_REPLACEABLE replaceable_body {
      $$ = arg_new(ps, AA_REDECLARE, $2, @1);
      $$->element = $4;
      $4->redeclare = true;
      $4->replaceable = true;
    }
  | T_BREAK T_IDENT {
      $$ = arg_new(ps, AA_BREAK, 0, @1);
      $$->name = name_push(ps, NULL, $2, @2, false);
    }
  | T_BREAK T_CONNECT '(' cref ',' cref ')' {
      $$ = arg_new(ps, AA_BREAK_CONNECT, 0, @1);
      $$->connect_a = $4;
      $$->connect_b = $6;
    }
  ;

each_final:
    %empty { $$ = 0; }
  | T_EACH { $$ = 1; }
  | T_FINAL { $$ = 2; }
  | T_EACH T_FINAL { $$ = 3; }
  ;

replaceable_body:
    short_or_comp1 constraint_opt { $$ = $1; $$->constraint = $2; }
  ;

short_or_comp1:
    short_class_definition { $$ = class_element(ps, $1); }
  | component_clause1 { $$ = $1; }
  ;

annotation:
    T_ANNOTATION class_mod { $$ = $2; $$->loc = LOC(@1); }
  ;

annotation_opt:
    %empty { $$ = NULL; }
  | annotation { $$ = $1; }
  ;

comment:
    string_comment annotation_opt { $$.description = $1; $$.annotation = $2; }
  ;

string_comment:
    %empty { $$ = NULL; }
  | strcat { $$ = $1; }
  ;

strcat:
    T_STRING { $$ = $1; }
  | strcat '+' T_STRING { $$ = concat(ps, $1, $3); }
  ;

/* ------------------------------------------------------------------------ equations */

section_eqs:
    %empty { $$ = list_empty(); }
  | section_eqs equation ';' { $$ = $1; APPEND($$, st_ast_equation, $2); }
  | section_eqs annotation ';' {
      $$ = $1;
      $$.annotation = merge_annotation(ps, $$.annotation, $2);
    }
  | section_eqs error ';' { $$ = $1; ps->bracket_depth = 0; }
  ;

eq_list:
    %empty { $$ = list_empty(); }
  | eq_list equation ';' { $$ = $1; APPEND($$, st_ast_equation, $2); }
  | eq_list error ';' { $$ = $1; ps->bracket_depth = 0; }
  ;

equation:
    equation_body comment {
      $$ = $1;
      $$->description = $2.description;
      $$->annotation = $2.annotation;
    }
  ;

equation_body:
    simple_expression '=' expression {
      $$ = equation_new(ps, AE_EQUAL, @1);
      $$->lhs = $1;
      $$->rhs = $3;
    }
  | simple_expression {
      $$ = equation_new(ps, AE_CALL, @1);
      $$->call = require_call(ps, $1, "equation");
    }
  | T_IF expression T_THEN eq_list eq_elseifs T_END T_IF {
      $$ = equation_new(ps, AE_IF, @1);
      $$->branches = branch_new(ps, $2, $4, true, @1);
      $$->branches->next = $5;
    }
  | T_FOR for_indices T_LOOP eq_list T_END T_FOR {
      $$ = equation_new(ps, AE_FOR, @1);
      $$->iters = $2;
      $$->body = $4.head;
    }
  | T_CONNECT '(' cref ',' cref ')' {
      $$ = equation_new(ps, AE_CONNECT, @1);
      $$->connect_a = $3;
      $$->connect_b = $5;
    }
  | T_WHEN expression T_THEN eq_list eq_elsewhens T_END T_WHEN {
      $$ = equation_new(ps, AE_WHEN, @1);
      $$->branches = branch_new(ps, $2, $4, true, @1);
      $$->branches->next = $5;
    }
  ;

/* elseif/else branches, built from the right so the list is in source order */
eq_elseifs:
    %empty { $$ = NULL; }
  | T_ELSE eq_list { $$ = branch_new(ps, NULL, $2, true, @1); }
  | T_ELSEIF expression T_THEN eq_list eq_elseifs {
      $$ = branch_new(ps, $2, $4, true, @1);
      $$->next = $5;
    }
  ;

eq_elsewhens:
    %empty { $$ = NULL; }
  | T_ELSEWHEN expression T_THEN eq_list eq_elsewhens {
      $$ = branch_new(ps, $2, $4, true, @1);
      $$->next = $5;
    }
  ;

/* ----------------------------------------------------------------------- statements */

section_stmts:
    %empty { $$ = list_empty(); }
  | section_stmts statement ';' { $$ = $1; APPEND($$, st_ast_stmt, $2); }
  | section_stmts annotation ';' {
      $$ = $1;
      $$.annotation = merge_annotation(ps, $$.annotation, $2);
    }
  | section_stmts error ';' { $$ = $1; ps->bracket_depth = 0; }
  ;

stmt_list:
    %empty { $$ = list_empty(); }
  | stmt_list statement ';' { $$ = $1; APPEND($$, st_ast_stmt, $2); }
  | stmt_list error ';' { $$ = $1; ps->bracket_depth = 0; }
  ;

statement:
    statement_body comment {
      $$ = $1;
      $$->description = $2.description;
      $$->annotation = $2.annotation;
    }
  ;

statement_body:
    simple_expression T_ASSIGN expression {
      $$ = stmt_new(ps, AS_ASSIGN, @1);
      $$->lhs = require_target(ps, $1);
      $$->rhs = $3;
    }
  | simple_expression {
      $$ = stmt_new(ps, AS_CALL, @1);
      $$->call = require_call(ps, $1, "statement");
    }
  | T_BREAK { $$ = stmt_new(ps, AS_BREAK, @1); }
  | T_RETURN { $$ = stmt_new(ps, AS_RETURN, @1); }
  | T_IF expression T_THEN stmt_list stmt_elseifs T_END T_IF {
      $$ = stmt_new(ps, AS_IF, @1);
      $$->branches = branch_new(ps, $2, $4, false, @1);
      $$->branches->next = $5;
    }
  | T_FOR for_indices T_LOOP stmt_list T_END T_FOR {
      $$ = stmt_new(ps, AS_FOR, @1);
      $$->iters = $2;
      $$->body = $4.head;
    }
  | T_WHILE expression T_LOOP stmt_list T_END T_WHILE {
      $$ = stmt_new(ps, AS_WHILE, @1);
      $$->cond = $2;
      $$->body = $4.head;
    }
  | T_WHEN expression T_THEN stmt_list stmt_elsewhens T_END T_WHEN {
      $$ = stmt_new(ps, AS_WHEN, @1);
      $$->branches = branch_new(ps, $2, $4, false, @1);
      $$->branches->next = $5;
    }
  ;

stmt_elseifs:
    %empty { $$ = NULL; }
  | T_ELSE stmt_list { $$ = branch_new(ps, NULL, $2, false, @1); }
  | T_ELSEIF expression T_THEN stmt_list stmt_elseifs {
      $$ = branch_new(ps, $2, $4, false, @1);
      $$->next = $5;
    }
  ;

stmt_elsewhens:
    %empty { $$ = NULL; }
  | T_ELSEWHEN expression T_THEN stmt_list stmt_elsewhens {
      $$ = branch_new(ps, $2, $4, false, @1);
      $$->next = $5;
    }
  ;

for_indices:
    for_index { $$ = $1; }
  | for_indices ',' for_index {
      $$ = $1;
      st_ast_iter *t = $1;
      while (t->next) t = t->next;
      t->next = $3;
    }
  ;

for_index:
    T_IDENT { $$ = iter_new(ps, $1, NULL, @1); }
  | T_IDENT T_IN expression { $$ = iter_new(ps, $1, $3, @1); }
  ;

/* ---------------------------------------------------------------------- expressions */

expression:
    simple_expression { $$ = $1; }
  | T_IF expression T_THEN expression if_rest {
      $$ = expr_new(ps, AX_IF, @1);
      $$->u.ifexp.cond = $2;
      $$->u.ifexp.then = $4;
      $$->u.ifexp.els = $5;
      grow(ps, $$, $2);
      grow(ps, $$, $4);
      grow(ps, $$, $5);
    }
  ;

if_rest:
    T_ELSE expression { $$ = $2; }
  | T_ELSEIF expression T_THEN expression if_rest {
      $$ = expr_new(ps, AX_IF, @1);
      $$->u.ifexp.cond = $2;
      $$->u.ifexp.then = $4;
      $$->u.ifexp.els = $5;
      grow(ps, $$, $2);
      grow(ps, $$, $4);
      grow(ps, $$, $5);
    }
  ;

simple_expression:
    logical_expression { $$ = $1; }
  | logical_expression ':' logical_expression {
      $$ = expr_new(ps, AX_RANGE, @1);
      $$->loc = $1->loc;
      $$->u.range.start = $1;
      $$->u.range.stop = $3;
      grow(ps, $$, $1);
      grow(ps, $$, $3);
    }
  | logical_expression ':' logical_expression ':' logical_expression {
      $$ = expr_new(ps, AX_RANGE, @1);
      $$->loc = $1->loc;
      $$->u.range.start = $1;
      $$->u.range.step = $3;
      $$->u.range.stop = $5;
      grow(ps, $$, $1);
      grow(ps, $$, $3);
      grow(ps, $$, $5);
    }
  ;

logical_expression:
    logical_term { $$ = $1; }
  | logical_expression T_OR logical_term { $$ = binary_new(ps, AOP_OR, $1, $3); }
  ;

logical_term:
    logical_factor { $$ = $1; }
  | logical_term T_AND logical_factor { $$ = binary_new(ps, AOP_AND, $1, $3); }
  ;

logical_factor:
    relation { $$ = $1; }
  | T_NOT relation { $$ = unary_new(ps, AOP_NOT, $2, @1); }
  ;

relation:
    arithmetic { $$ = $1; }
  | arithmetic relop arithmetic { $$ = binary_new(ps, (st_ast_op)$2, $1, $3); }
  ;

relop:
    '<' { $$ = AOP_LT; }
  | T_LE { $$ = AOP_LE; }
  | '>' { $$ = AOP_GT; }
  | T_GE { $$ = AOP_GE; }
  | T_EQ { $$ = AOP_EQ; }
  | T_NE { $$ = AOP_NE; }
  ;

arithmetic:
    term { $$ = $1; }
  | addop term {
      static const st_ast_op unary[] = {[AOP_ADD] = AOP_PLUS, [AOP_SUB] = AOP_NEG,
                                        [AOP_EADD] = AOP_EPLUS, [AOP_ESUB] = AOP_ENEG};
      $$ = unary_new(ps, unary[$1], $2, @1);
    }
  | arithmetic addop term { $$ = binary_new(ps, (st_ast_op)$2, $1, $3); }
  ;

addop:
    '+' { $$ = AOP_ADD; }
  | '-' { $$ = AOP_SUB; }
  | T_EADD { $$ = AOP_EADD; }
  | T_ESUB { $$ = AOP_ESUB; }
  ;

term:
    factor { $$ = $1; }
  | term mulop factor { $$ = binary_new(ps, (st_ast_op)$2, $1, $3); }
  ;

mulop:
    '*' { $$ = AOP_MUL; }
  | '/' { $$ = AOP_DIV; }
  | T_EMUL { $$ = AOP_EMUL; }
  | T_EDIV { $$ = AOP_EDIV; }
  ;

factor:
    primary { $$ = $1; }
  | primary '^' primary { $$ = binary_new(ps, AOP_POW, $1, $3); }
  | primary T_EPOW primary { $$ = binary_new(ps, AOP_EPOW, $1, $3); }
  ;

primary:
    T_NUMBER { $$ = number_new(ps, $1, @1); }
  | T_STRING { $$ = expr_new(ps, AX_STRING, @1); $$->u.string = $1; }
  | T_FALSE { $$ = expr_new(ps, AX_BOOL, @1); $$->u.boolean = false; }
  | T_TRUE { $$ = expr_new(ps, AX_BOOL, @1); $$->u.boolean = true; }
  | cref { $$ = expr_new(ps, AX_CREF, @1); $$->u.cref = $1; grow_cref(ps, $$, $1); }
  | cref fn_args { $$ = call_new(ps, $1, $2, @1); }
  | T_DER fn_args { $$ = call_new(ps, keyword_cref(ps, "der", @1), $2, @1); }
  | T_INITIAL fn_args { $$ = call_new(ps, keyword_cref(ps, "initial", @1), $2, @1); }
  | T_PURE fn_args { $$ = call_new(ps, keyword_cref(ps, "pure", @1), $2, @1); }
  | '(' out_list ')' { $$ = paren_list(ps, $2, @1); }
  | '[' matrix_rows ']' {
      $$ = expr_new(ps, AX_MATRIX, @1);
      $$->u.matrix.rows = $2.head;
      $$->u.matrix.nrows = $2.n;
      grow_list(ps, $$, $2.head);
    }
  | '{' '}' { $$ = expr_new(ps, AX_ARRAY, @1); }
  | '{' expr_list '}' {
      $$ = expr_new(ps, AX_ARRAY, @1);
      $$->u.array.elems = $2.head;
      $$->u.array.nelems = $2.n;
      grow_list(ps, $$, $2.head);
    }
  | '{' expression T_FOR for_indices '}' {
      $$ = expr_new(ps, AX_ARRAY, @1);
      $$->u.array.elems = $2;
      $$->u.array.nelems = 1;
      $$->u.array.iters = $4;
      grow(ps, $$, $2);
      grow_args(ps, $$, NULL, $4);
    }
  | T_END_EXPR { $$ = expr_new(ps, AX_END, @1); }
  ;

out_list:
    opt_expr { $$ = list_empty(); APPEND($$, st_ast_expr, $1); }
  | out_list ',' opt_expr { $$ = $1; APPEND($$, st_ast_expr, $3); }
  ;

opt_expr:
    %empty { $$ = expr_new(ps, AX_EMPTY, @$); }
  | expression { $$ = $1; }
  ;

matrix_rows:
    expr_list {
      st_ast_expr *row = expr_new(ps, AX_ARRAY, @1);
      row->u.array.elems = $1.head;
      row->u.array.nelems = $1.n;
      grow_list(ps, row, $1.head);
      $$ = list_empty();
      APPEND($$, st_ast_expr, row);
    }
  | matrix_rows ';' expr_list {
      st_ast_expr *row = expr_new(ps, AX_ARRAY, @3);
      row->u.array.elems = $3.head;
      row->u.array.nelems = $3.n;
      grow_list(ps, row, $3.head);
      $$ = $1;
      APPEND($$, st_ast_expr, row);
    }
  ;

expr_list_opt:
    %empty { $$ = list_empty(); }
  | expr_list { $$ = $1; }
  ;

expr_list:
    expression { $$ = list_empty(); APPEND($$, st_ast_expr, $1); }
  | expr_list ',' expression { $$ = $1; APPEND($$, st_ast_expr, $3); }
  ;

fn_args:
    '(' ')' { $$ = args_new(ps, list_empty(), NULL, @1); }
  | '(' fn_arg_list ')' { $$ = args_new(ps, $2, NULL, @1); }
  | '(' expression T_FOR for_indices ')' {
      st_plist l = list_empty();
      APPEND(l, st_ast_fnarg, fnarg_new(ps, NULL, $2, @2));
      $$ = args_new(ps, l, $4, @1);
    }
  ;

fn_arg_list:
    fn_arg { $$ = list_empty(); APPEND($$, st_ast_fnarg, $1); }
  | fn_arg_list ',' fn_arg {
      $$ = $1;
      if (!$3->name && ((st_ast_fnarg *)$1.tail)->name)
        st_parse_report(ps, $3->loc, "positional argument after named arguments");
      APPEND($$, st_ast_fnarg, $3);
    }
  ;

fn_arg:
    expression { $$ = fnarg_new(ps, NULL, $1, @1); }
  | partial_app { $$ = fnarg_new(ps, NULL, $1, @1); }
  | T_IDENT '=' expression { $$ = fnarg_new(ps, $1, $3, @1); }
  | T_IDENT '=' partial_app { $$ = fnarg_new(ps, $1, $3, @1); }
  ;

partial_app:
    T_FUNCTION type_specifier '(' ')' {
      $$ = expr_new(ps, AX_PARTIAL, @1);
      $$->u.partial.fn = $2;
    }
  | T_FUNCTION type_specifier '(' fn_arg_list ')' {
      $$ = expr_new(ps, AX_PARTIAL, @1);
      $$->u.partial.fn = $2;
      $$->u.partial.args = $4.head;
      grow_args(ps, $$, $4.head, NULL);
      for (st_ast_fnarg *a = $4.head; a; a = a->next)
        if (!a->name)
          st_parse_report(ps, a->loc, "a function partial application takes named arguments only");
    }
  ;

cref:
    cref_part { $$ = cref_push(ps, NULL, $1, false, @1); }
  | '.' cref_part { $$ = cref_push(ps, NULL, $2, true, @1); }
  | cref '.' cref_part { $$ = cref_push(ps, $1, $3, false, @1); }
  ;

cref_part:
    T_IDENT array_subs_opt { $$ = cref_part_new(ps, $1, $2, @1); }
  ;

array_subs_opt:
    %empty { $$ = list_empty(); }
  | array_subs { $$ = $1; }
  ;

array_subs:
    '[' subscripts ']' { $$ = $2; }
  ;

subscripts:
    subscript { $$ = list_empty(); APPEND($$, st_ast_expr, $1); }
  | subscripts ',' subscript { $$ = $1; APPEND($$, st_ast_expr, $3); }
  ;

subscript:
    ':' { $$ = expr_new(ps, AX_COLON, @1); }
  | expression { $$ = $1; }
  ;

name:
    T_IDENT { $$ = name_push(ps, NULL, $1, @1, false); }
  | '.' T_IDENT { $$ = name_push(ps, NULL, $2, @1, true); }
  | name '.' T_IDENT { $$ = name_push(ps, $1, $3, @1, false); }
  ;

type_specifier:
    name { $$ = $1; }
  ;

%%

/* "syntax error: unexpected 'x', expecting ';'": the offending token as written when it is
 * short, the token kind otherwise, and up to four expected tokens. */
static int yyreport_syntax_error(const yypcontext_t *ctx, void *scanner, st_pstate *ps) {
  (void)scanner;
  enum { NEXP = 5 };
  yysymbol_kind_t expected[NEXP];
  int n = yypcontext_expected_tokens(ctx, expected, NEXP);
  yysymbol_kind_t tok = yypcontext_token(ctx);
  const ST_YYLTYPE *l = yypcontext_location(ctx);
  char msg[512];
  int len;
  /* After an error, recovery at ';' may have swallowed a class's `end X;`, so an end of
   * file that follows is a consequence, not news. */
  if (tok == YYSYMBOL_YYEOF && ps->errors > 0) return 0;
  if (tok == YYSYMBOL_YYEOF)
    len = snprintf(msg, sizeof msg, "syntax error: unexpected end of file");
  else if (ps->tok_text && ps->tok_len > 0 && ps->tok_len <= 40 &&
           !memchr(ps->tok_text, '\n', (size_t)ps->tok_len))
    len = snprintf(msg, sizeof msg, "syntax error: unexpected '%.*s'", ps->tok_len, ps->tok_text);
  else
    len = snprintf(msg, sizeof msg, "syntax error: unexpected %s", yysymbol_name(tok));
  if (n > 0 && n < NEXP) {
    for (int i = 0; i < n && len > 0 && (size_t)len < sizeof msg; i++)
      len += snprintf(msg + len, sizeof msg - (size_t)len, "%s%s", i ? " or " : ", expecting ",
                      yysymbol_name(expected[i]));
  }
  st_parse_report(ps, (st_loc){ps->file, l->first_line, l->first_column}, "%s", msg);
  return 0;
}

void st_yyerror(ST_YYLTYPE *l, void *scanner, st_pstate *ps, const char *msg) {
  (void)scanner;
  st_loc at = {ps->file, l->first_line, l->first_column};
  /* bison's only other message: its stack is full (YYMAXDEPTH), or could not grow */
  if (!strcmp(msg, "memory exhausted"))
    st_parse_report(ps, at, "nesting too deep: parentheses, brackets, calls or blocks fill "
                    "the parser's stack of %d entries", YYMAXDEPTH);
  else
    st_parse_report(ps, at, "%s", msg);
}
