/* The Modelica parser: grammar corpus (positive files parse and reprint stably, negative
 * files fail at the expected line:col), AST spot checks, robustness on broken input, and
 * the `stiction parse` command. */
#include <check.h>
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "front/ast.h"
#include "testutil.h"
#include "util/stack.h"

/* ------------------------------------------------------------------------- helpers */

/* One parse with its messages captured. */
typedef struct parsed {
  st_arena *arena;
  st_diag *diag;
  FILE *out;
  char *msgs;
  size_t len;
  st_ast_stored_def *sd;
} parsed;

static void parsed_open(parsed *p) {
  memset(p, 0, sizeof *p);
  p->arena = st_arena_new();
  p->out = open_memstream(&p->msgs, &p->len);
  p->diag = st_diag_new(p->out);
  ck_assert_ptr_nonnull(p->arena);
  ck_assert_ptr_nonnull(p->diag);
}

/* Flushes the captured messages so p->msgs can be read. */
static const char *parsed_msgs(parsed *p) {
  fflush(p->out);
  return p->msgs ? p->msgs : "";
}

static void parsed_close(parsed *p) {
  st_diag_free(p->diag);
  fclose(p->out);
  free(p->msgs);
  st_arena_free(p->arena);
}

static st_ast_stored_def *parse_text(parsed *p, const char *text) {
  parsed_open(p);
  p->sd = st_parse_string(p->arena, p->diag, "t.mo", text);
  return p->sd;
}

/* Parses text that must be valid and returns its only class. */
static st_ast_class *parse_class(parsed *p, const char *text) {
  st_ast_stored_def *sd = parse_text(p, text);
  ck_assert_msg(sd != NULL, "parse failed:\n%s", parsed_msgs(p));
  ck_assert_int_eq(sd->nclasses, 1);
  return sd->classes;
}

static char *dump_to_string(const st_ast_stored_def *sd) {
  char *buf = NULL;
  size_t len = 0;
  FILE *f = open_memstream(&buf, &len);
  st_ast_dump(f, sd);
  fclose(f);
  return buf;
}

static st_ast_element *element_named(st_ast_class *c, const char *name) {
  for (st_ast_element *e = c->elements; e; e = e->next) {
    if (e->kind == AEL_COMPONENT && !strcmp(e->u.comp.name, name)) return e;
    if (e->kind == AEL_CLASS && !strcmp(e->u.cls->name, name)) return e;
  }
  ck_abort_msg("no element %s", name);
  return NULL;
}

/* The binding expression of component `name`. */
static st_ast_expr *binding(st_ast_class *c, const char *name) {
  st_ast_element *e = element_named(c, name);
  ck_assert_ptr_nonnull(e->u.comp.mod);
  ck_assert_ptr_nonnull(e->u.comp.mod->value);
  return e->u.comp.mod->value;
}

static void assert_loc(st_loc loc, int line, int col) {
  ck_assert_msg(loc.line == line && loc.col == col, "location %d:%d, expected %d:%d", loc.line,
                loc.col, line, col);
}

static char *expr_text(parsed *p, const st_ast_expr *e) {
  return (char *)st_ast_expr_text(p->arena, e);
}

/* Every .mo file under dir (recursively), sorted by readdir order; calls fn on each path. */
static int for_each_mo(const char *dir, int (*fn)(const char *path, void *ctx), void *ctx) {
  DIR *d = opendir(dir);
  ck_assert_msg(d != NULL, "cannot open %s", dir);
  int count = 0;
  struct dirent *ent;
  while ((ent = readdir(d))) {
    if (ent->d_name[0] == '.') continue;
    char path[4096];
    snprintf(path, sizeof path, "%s/%s", dir, ent->d_name);
    struct stat st;
    if (stat(path, &st) != 0) continue;
    if (S_ISDIR(st.st_mode)) {
      count += for_each_mo(path, fn, ctx);
    } else {
      size_t n = strlen(ent->d_name);
      if (n > 3 && !strcmp(ent->d_name + n - 3, ".mo")) count += fn(path, ctx);
    }
  }
  closedir(d);
  return count;
}

/* --------------------------------------------------------------------------- corpus */

/* A positive file parses without messages, and its reprint parses to a tree that reprints
 * identically (the printer writes every construct of the tree). */
static int check_positive(const char *path, void *ctx) {
  (void)ctx;
  if (strstr(path, "/errors/")) return 0;
  parsed p;
  parsed_open(&p);
  st_ast_stored_def *sd = st_parse_file(p.arena, p.diag, path);
  ck_assert_msg(sd != NULL, "%s does not parse:\n%s", path, parsed_msgs(&p));
  ck_assert_msg(st_diag_errors(p.diag) == 0, "%s: %s", path, parsed_msgs(&p));
  ck_assert_msg(sd->nclasses >= 1, "%s has no class", path);
  char *first = dump_to_string(sd);
  parsed q;
  st_ast_stored_def *again = parse_text(&q, first);
  ck_assert_msg(again != NULL, "reprint of %s does not parse:\n%s\n%s", path, parsed_msgs(&q),
                first);
  char *second = dump_to_string(again);
  ck_assert_msg(!strcmp(first, second), "reprint of %s is not stable", path);
  free(first);
  free(second);
  parsed_close(&q);
  parsed_close(&p);
  return 1;
}

START_TEST(positive_corpus_parses_and_reprints) {
  int n = for_each_mo(st_test_src("tests/data/front/grammar"), check_positive, NULL);
  ck_assert_int_ge(n, 10);
}
END_TEST

/* A negative file starts with lines `// expect: LINE:COL: text`; the parse must fail with
 * exactly those errors, in that order. */
static int check_negative(const char *path, void *ctx) {
  (void)ctx;
  parsed p;
  parsed_open(&p);
  st_ast_stored_def *sd = st_parse_file(p.arena, p.diag, path);
  const char *msgs = parsed_msgs(&p);
  ck_assert_msg(sd == NULL, "%s parsed although it has errors", path);
  FILE *f = fopen(path, "r");
  ck_assert_ptr_nonnull(f);
  char line[512];
  int expected = 0;
  const char *cursor = msgs;
  while (fgets(line, sizeof line, f) && !strncmp(line, "// expect: ", 11)) {
    int l, c, off = 0;
    ck_assert_int_eq(sscanf(line + 11, "%d:%d: %n", &l, &c, &off), 2);
    char *text = line + 11 + off;
    text[strcspn(text, "\n")] = 0;
    char want[600];
    snprintf(want, sizeof want, "%s:%d:%d: error: ", path, l, c);
    const char *at = strstr(cursor, want);
    ck_assert_msg(at != NULL, "%s: no error at %d:%d; got:\n%s", path, l, c, msgs);
    const char *eol = strchr(at, '\n');
    ck_assert_msg(strstr(at, text) && strstr(at, text) < eol, "%s:%d:%d: message lacks '%s':\n%s",
                  path, l, c, text, msgs);
    cursor = eol;
    expected++;
  }
  fclose(f);
  ck_assert_msg(expected > 0, "%s has no expect line", path);
  ck_assert_msg(st_diag_errors(p.diag) == expected, "%s: %d errors, expected %d:\n%s", path,
                st_diag_errors(p.diag), expected, msgs);
  parsed_close(&p);
  return 1;
}

START_TEST(negative_corpus_reports_expected_locations) {
  int n = for_each_mo(st_test_src("tests/data/front/grammar/errors"), check_negative, NULL);
  ck_assert_int_ge(n, 15);
}
END_TEST

START_TEST(error_message_quotes_line_with_caret) {
  parsed p;
  ck_assert_ptr_null(parse_text(&p, "model M\n  Real x = 1 +;\nend M;\n"));
  ck_assert_str_eq(parsed_msgs(&p),
                   "t.mo:2:15: error: syntax error: unexpected ';'\n"
                   "  Real x = 1 +;\n"
                   "              ^\n");
  parsed_close(&p);
}
END_TEST

/* ------------------------------------------------------------------- AST spot checks */

START_TEST(stored_definition_within_and_classes) {
  parsed p;
  st_ast_stored_def *sd = parse_text(&p, "within A.B;\nfinal model M end M;\npackage P end P;\n");
  ck_assert_ptr_nonnull(sd);
  ck_assert(sd->has_within);
  ck_assert_str_eq(sd->within->text, "A.B");
  ck_assert_int_eq(sd->within->nparts, 2);
  ck_assert_str_eq(sd->within->parts[1], "B");
  ck_assert_int_eq(sd->nclasses, 2);
  ck_assert(sd->classes->final);
  ck_assert_int_eq(sd->classes->kind, ACK_MODEL);
  assert_loc(sd->classes->loc, 2, 1);
  assert_loc(sd->classes->name_loc, 2, 13);
  ck_assert_str_eq(sd->classes->next->name, "P");
  ck_assert(!sd->classes->next->final);
  parsed_close(&p);

  sd = parse_text(&p, "within;\nmodel M end M;");
  ck_assert(sd->has_within);
  ck_assert_ptr_null(sd->within);
  parsed_close(&p);
  sd = parse_text(&p, "model M end M;");
  ck_assert(!sd->has_within);
  parsed_close(&p);
  sd = parse_text(&p, "");
  ck_assert_ptr_nonnull(sd);
  ck_assert_int_eq(sd->nclasses, 0);
  parsed_close(&p);
}
END_TEST

START_TEST(class_kinds_and_prefixes) {
  static const struct {
    const char *src;
    st_ast_class_kind kind;
    st_ast_purity purity;
  } cases[] = {
      {"class X end X;", ACK_CLASS, APURE_DEFAULT},
      {"model X end X;", ACK_MODEL, APURE_DEFAULT},
      {"record X end X;", ACK_RECORD, APURE_DEFAULT},
      {"operator record X end X;", ACK_OPERATOR_RECORD, APURE_DEFAULT},
      {"block X end X;", ACK_BLOCK, APURE_DEFAULT},
      {"connector X end X;", ACK_CONNECTOR, APURE_DEFAULT},
      {"expandable connector X end X;", ACK_EXPANDABLE_CONNECTOR, APURE_DEFAULT},
      {"type X = Real;", ACK_TYPE, APURE_DEFAULT},
      {"package X end X;", ACK_PACKAGE, APURE_DEFAULT},
      {"function X end X;", ACK_FUNCTION, APURE_DEFAULT},
      {"pure function X end X;", ACK_FUNCTION, APURE_PURE},
      {"impure function X end X;", ACK_FUNCTION, APURE_IMPURE},
      {"operator function X end X;", ACK_OPERATOR_FUNCTION, APURE_DEFAULT},
      {"impure operator function X end X;", ACK_OPERATOR_FUNCTION, APURE_IMPURE},
      {"operator X end X;", ACK_OPERATOR, APURE_DEFAULT},
  };
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
    parsed p;
    st_ast_class *c = parse_class(&p, cases[i].src);
    ck_assert_msg(c->kind == cases[i].kind, "%s", cases[i].src);
    ck_assert_msg(c->purity == cases[i].purity, "%s", cases[i].src);
    ck_assert_str_eq(c->name, "X");
    parsed_close(&p);
  }
  parsed p;
  st_ast_class *c = parse_class(&p, "encapsulated partial model M \"doc\" + \" more\" end M;");
  ck_assert(c->encapsulated && c->partial);
  ck_assert_int_eq(c->form, ACF_LONG);
  ck_assert_str_eq(c->description, "doc more");
  parsed_close(&p);
}
END_TEST

START_TEST(short_enumeration_der_and_extends_classes) {
  parsed p;
  st_ast_class *c = parse_class(&p, "package P\n"
                                    "  type T = input Real[2, 3](each unit = \"m\") \"pos\";\n"
                                    "  type E = enumeration(a \"first\", b, c annotation(x = 1));\n"
                                    "  type U = enumeration(:);\n"
                                    "  function df = der(f, x, y);\n"
                                    "  model extends Base(k = 2) \"ext\" Real z; end Base;\n"
                                    "end P;");
  st_ast_class *t = element_named(c, "T")->u.cls;
  ck_assert_int_eq(t->form, ACF_SHORT);
  ck_assert_int_eq(t->base_prefix.causality, AC_INPUT);
  ck_assert_str_eq(t->base->text, "Real");
  ck_assert_int_eq(t->nbase_subs, 2);
  ck_assert_ptr_nonnull(t->base_mod);
  ck_assert(t->base_mod->args->each);
  ck_assert_str_eq(t->description, "pos");
  st_ast_class *e = element_named(c, "E")->u.cls;
  ck_assert_int_eq(e->form, ACF_ENUMERATION);
  ck_assert_int_eq(e->nliterals, 3);
  ck_assert_str_eq(e->literals->description, "first");
  ck_assert_str_eq(e->literals->next->name, "b");
  ck_assert_ptr_nonnull(e->literals->next->next->annotation);
  ck_assert(element_named(c, "U")->u.cls->enum_unspecified);
  st_ast_class *d = element_named(c, "df")->u.cls;
  ck_assert_int_eq(d->form, ACF_DER);
  ck_assert_str_eq(d->der_fn->text, "f");
  ck_assert_str_eq(d->der_wrt->next->name, "y");
  st_ast_class *x = element_named(c, "Base")->u.cls;
  ck_assert_int_eq(x->form, ACF_EXTENDS);
  ck_assert_str_eq(x->extends_mod->args->name->text, "k");
  ck_assert_str_eq(x->description, "ext");
  ck_assert_str_eq(x->elements->u.comp.name, "z");
  parsed_close(&p);
}
END_TEST

START_TEST(components_share_type_and_keep_their_own_parts) {
  parsed p;
  st_ast_class *c = parse_class(
      &p, "model M\n"
          "  parameter input Real[3] a[2] = 1 \"da\", b(start = 2) if cond annotation(x = 1);\n"
          "  flow discrete output .P.T c;\n"
          "protected\n"
          "  stream constant Integer d;\n"
          "public\n"
          "  inner outer replaceable Real e constrainedby Real(min = 0) \"cc\";\n"
          "end M;");
  st_ast_element *a = element_named(c, "a"), *b = element_named(c, "b");
  ck_assert_ptr_eq(a->u.comp.type, b->u.comp.type);
  ck_assert_int_eq(a->u.comp.prefix.variability, AV_PARAMETER);
  ck_assert_int_eq(b->u.comp.prefix.causality, AC_INPUT);
  ck_assert_int_eq(a->u.comp.ntype_subs, 1);
  ck_assert_int_eq(a->u.comp.nsubs, 1);
  ck_assert_int_eq(b->u.comp.nsubs, 0);
  ck_assert_str_eq(a->description, "da");
  ck_assert_ptr_null(a->u.comp.condition);
  ck_assert_ptr_nonnull(b->u.comp.condition);
  ck_assert_ptr_nonnull(b->annotation);
  ck_assert_ptr_null(a->annotation);
  assert_loc(a->loc, 2, 3);
  assert_loc(b->u.comp.name_loc, 2, 42);
  st_ast_element *cc = element_named(c, "c");
  ck_assert_int_eq(cc->u.comp.prefix.flow, AF_FLOW);
  ck_assert_int_eq(cc->u.comp.prefix.variability, AV_DISCRETE);
  ck_assert(cc->u.comp.type->global);
  ck_assert_str_eq(cc->u.comp.type->text, ".P.T");
  st_ast_element *d = element_named(c, "d");
  ck_assert(d->is_protected && !cc->is_protected);
  ck_assert_int_eq(d->u.comp.prefix.flow, AF_STREAM);
  ck_assert_int_eq(d->u.comp.prefix.variability, AV_CONSTANT);
  st_ast_element *e = element_named(c, "e");
  ck_assert(!e->is_protected);
  ck_assert(e->inner && e->outer && e->replaceable && !e->final && !e->redeclare);
  ck_assert_ptr_nonnull(e->constraint);
  ck_assert_str_eq(e->constraint->name->text, "Real");
  ck_assert_str_eq(e->constraint->description, "cc");
  parsed_close(&p);
}
END_TEST

START_TEST(imports_and_extends) {
  parsed p;
  st_ast_class *c = parse_class(&p, "model M\n"
                                    "  import A.B.C;\n"
                                    "  import D = A.B;\n"
                                    "  import A.B.*;\n"
                                    "  import A.B.{x, y};\n"
                                    "  extends Base(k = 1) annotation(IconMap);\n"
                                    "end M;");
  st_ast_element *e = c->elements;
  ck_assert_int_eq(e->kind, AEL_IMPORT);
  ck_assert_int_eq(e->u.import.kind, AI_QUALIFIED);
  ck_assert_str_eq(e->u.import.name->text, "A.B.C");
  e = e->next;
  ck_assert_int_eq(e->u.import.kind, AI_RENAMING);
  ck_assert_str_eq(e->u.import.alias, "D");
  ck_assert_str_eq(e->u.import.name->text, "A.B");
  e = e->next;
  ck_assert_int_eq(e->u.import.kind, AI_WILDCARD);
  ck_assert_str_eq(e->u.import.name->text, "A.B");
  e = e->next;
  ck_assert_int_eq(e->u.import.kind, AI_MULTIPLE);
  ck_assert_str_eq(e->u.import.idents->name, "x");
  ck_assert_str_eq(e->u.import.idents->next->name, "y");
  e = e->next;
  ck_assert_int_eq(e->kind, AEL_EXTENDS);
  ck_assert_str_eq(e->u.extends.name->text, "Base");
  ck_assert_str_eq(e->u.extends.mod->args->name->text, "k");
  ck_assert_ptr_nonnull(e->annotation);
  assert_loc(e->loc, 6, 3);
  parsed_close(&p);
}
END_TEST

START_TEST(modifications) {
  parsed p;
  st_ast_class *c = parse_class(
      &p, "model M\n"
          "  G g(each final k(start = 1) = 2 \"d\", a.b = 3, redeclare each Real u = 1,\n"
          "      redeclare replaceable model X = Y constrainedby Z, final replaceable type T = R,\n"
          "      break q, break connect(a.p, b.n), w = break);\n"
          "  Real v := 4;\n"
          "  Real e();\n"
          "end M;");
  st_ast_mod *m = element_named(c, "g")->u.comp.mod;
  ck_assert(m->has_args);
  ck_assert_ptr_null(m->value);
  st_ast_arg *a = m->args;
  ck_assert_int_eq(a->kind, AA_MODIFY);
  ck_assert(a->each && a->final);
  ck_assert_str_eq(a->name->text, "k");
  ck_assert_str_eq(a->mod->args->name->text, "start");
  ck_assert_int_eq(a->mod->value->u.num.integer, 2);
  ck_assert_str_eq(a->description, "d");
  assert_loc(a->loc, 2, 7);
  a = a->next;
  ck_assert_int_eq(a->name->nparts, 2);
  ck_assert(!a->each && !a->final);
  a = a->next;
  ck_assert_int_eq(a->kind, AA_REDECLARE);
  ck_assert(a->each);
  ck_assert_int_eq(a->element->kind, AEL_COMPONENT);
  ck_assert(a->element->redeclare);
  ck_assert_str_eq(a->element->u.comp.name, "u");
  a = a->next;
  ck_assert_int_eq(a->kind, AA_REDECLARE);
  ck_assert(a->element->replaceable);
  ck_assert_int_eq(a->element->kind, AEL_CLASS);
  ck_assert_int_eq(a->element->u.cls->kind, ACK_MODEL);
  ck_assert_str_eq(a->element->constraint->name->text, "Z");
  a = a->next;
  ck_assert_int_eq(a->kind, AA_REPLACEABLE);
  ck_assert(a->final);
  ck_assert_int_eq(a->element->u.cls->kind, ACK_TYPE);
  a = a->next;
  ck_assert_int_eq(a->kind, AA_BREAK);
  ck_assert_str_eq(a->name->text, "q");
  a = a->next;
  ck_assert_int_eq(a->kind, AA_BREAK_CONNECT);
  ck_assert_str_eq(st_ast_cref_text(p.arena, a->connect_b), "b.n");
  a = a->next;
  ck_assert(a->mod->is_break);
  ck_assert_ptr_null(a->mod->value);
  ck_assert_ptr_null(a->next);
  st_ast_mod *v = element_named(c, "v")->u.comp.mod;
  ck_assert(v->assign && !v->has_args);
  st_ast_mod *e = element_named(c, "e")->u.comp.mod;
  ck_assert(e->has_args);
  ck_assert_ptr_null(e->args);
  parsed_close(&p);
}
END_TEST

START_TEST(expression_precedence_and_shapes) {
  parsed p;
  st_ast_class *c = parse_class(&p, "model M\n"
                                    "  Real a = 1 + 2 * 3 ^ 4 - 5;\n"
                                    "  Real b = -x ^ 2 * y;\n"
                                    "  Boolean c = not p and q or r < s;\n"
                                    "  Real d = if p then 1 elseif q then 2 else 3;\n"
                                    "  Real e[:] = 1:2:n + 1;\n"
                                    "  Real f = x .* y ./ z .^ 2 .+ w;\n"
                                    "end M;");
  ck_assert_str_eq(expr_text(&p, binding(c, "a")), "(1 + (2 * (3 ^ 4))) - 5");
  ck_assert_str_eq(expr_text(&p, binding(c, "b")), "-((x ^ 2) * y)");
  ck_assert_str_eq(expr_text(&p, binding(c, "c")), "((not p) and q) or (r < s)");
  st_ast_expr *cc = binding(c, "c");
  ck_assert_int_eq(cc->kind, AX_BINARY);
  ck_assert_int_eq(cc->u.binary.op, AOP_OR);
  ck_assert_int_eq(cc->u.binary.lhs->u.binary.op, AOP_AND);
  ck_assert_int_eq(cc->u.binary.lhs->u.binary.lhs->kind, AX_UNARY);
  ck_assert_int_eq(cc->u.binary.lhs->u.binary.lhs->u.unary.op, AOP_NOT);
  ck_assert_int_eq(cc->u.binary.rhs->u.binary.op, AOP_LT);
  st_ast_expr *d = binding(c, "d");
  ck_assert_int_eq(d->kind, AX_IF);
  ck_assert_int_eq(d->u.ifexp.els->kind, AX_IF);
  ck_assert_int_eq(d->u.ifexp.els->u.ifexp.els->u.num.integer, 3);
  st_ast_expr *e = binding(c, "e");
  ck_assert_int_eq(e->kind, AX_RANGE);
  ck_assert_int_eq(e->u.range.step->u.num.integer, 2);
  ck_assert_int_eq(e->u.range.stop->kind, AX_BINARY);
  ck_assert_str_eq(expr_text(&p, binding(c, "f")), "((x .* y) ./ (z .^ 2)) .+ w");
  parsed_close(&p);
}
END_TEST

START_TEST(literals_numbers_strings_and_quoted_names) {
  parsed p;
  st_ast_class *c = parse_class(&p, "model M\n"
                                    "  Integer i = 0042;\n"
                                    "  Real r = 2.5e-3;\n"
                                    "  Real t = 7.;\n"
                                    "  Integer big = 99999999999999999999;\n"
                                    "  String s = \"a\\\"b\\\\c\\n\\t\\'\\?ü\";\n"
                                    "  String m = \"two\nlines\";\n"
                                    "  Real 'q name' = 'other.q';\n"
                                    "  Boolean y = true, n = false;\n"
                                    "end M;");
  st_ast_expr *i = binding(c, "i");
  ck_assert_int_eq(i->kind, AX_INTEGER);
  ck_assert_int_eq(i->u.num.integer, 42);
  ck_assert_str_eq(i->u.num.text, "0042");
  st_ast_expr *r = binding(c, "r");
  ck_assert_int_eq(r->kind, AX_REAL);
  ck_assert_double_eq(r->u.num.real, 2.5e-3);
  ck_assert_int_eq(binding(c, "t")->kind, AX_REAL);
  ck_assert_double_eq(binding(c, "t")->u.num.real, 7.0);
  ck_assert_int_eq(binding(c, "big")->kind, AX_INTEGER);
  ck_assert_double_eq_tol(binding(c, "big")->u.num.real, 1e20, 1e6);
  ck_assert_str_eq(binding(c, "s")->u.string, "a\"b\\c\n\t'?\xc3\xbc");
  ck_assert_str_eq(binding(c, "m")->u.string, "two\nlines");
  st_ast_element *q = element_named(c, "'q name'");
  ck_assert_str_eq(q->u.comp.mod->value->u.cref->parts->name, "'other.q'");
  ck_assert(binding(c, "y")->u.boolean);
  ck_assert(!binding(c, "n")->u.boolean);
  parsed_close(&p);
}
END_TEST

START_TEST(arrays_calls_and_subscripts) {
  parsed p;
  st_ast_class *c = parse_class(&p, "model M\n"
                                    "  Real a = x[end, end - 1, :].y[1];\n"
                                    "  Real b = [1, 2; 3, 4];\n"
                                    "  Real c = {i for i in 1:3, j};\n"
                                    "  Real d = f(1, k = 2, g = function h(z = 3));\n"
                                    "  Real e = sum(v[i] for i in 1:n);\n"
                                    "  Real g = .P.f() + der(x) + initial() + {};\n"
                                    "  Real h = (1, , x);\n"
                                    "  Real k = ();\n"
                                    "end M;");
  st_ast_expr *a = binding(c, "a");
  ck_assert_int_eq(a->kind, AX_CREF);
  ck_assert_int_eq(a->u.cref->nparts, 2);
  st_ast_cref_part *x = a->u.cref->parts;
  ck_assert_int_eq(x->nsubs, 3);
  ck_assert_int_eq(x->subs->kind, AX_END);
  ck_assert_int_eq(x->subs->next->u.binary.lhs->kind, AX_END);
  ck_assert_int_eq(x->subs->next->next->kind, AX_COLON);
  ck_assert_str_eq(st_ast_cref_text(p.arena, a->u.cref), "x[end, end - 1, :].y[1]");
  st_ast_expr *b = binding(c, "b");
  ck_assert_int_eq(b->kind, AX_MATRIX);
  ck_assert_int_eq(b->u.matrix.nrows, 2);
  ck_assert_int_eq(b->u.matrix.rows->next->u.array.nelems, 2);
  st_ast_expr *cc = binding(c, "c");
  ck_assert_int_eq(cc->kind, AX_ARRAY);
  ck_assert_ptr_nonnull(cc->u.array.iters);
  ck_assert_ptr_null(cc->u.array.iters->next->range);
  st_ast_expr *d = binding(c, "d");
  ck_assert_int_eq(d->kind, AX_CALL);
  ck_assert_ptr_null(d->u.call.args->name);
  ck_assert_str_eq(d->u.call.args->next->name, "k");
  st_ast_expr *g = d->u.call.args->next->next->value;
  ck_assert_int_eq(g->kind, AX_PARTIAL);
  ck_assert_str_eq(g->u.partial.fn->text, "h");
  ck_assert_str_eq(g->u.partial.args->name, "z");
  st_ast_expr *e = binding(c, "e");
  ck_assert_ptr_nonnull(e->u.call.iters);
  ck_assert_str_eq(e->u.call.iters->name, "i");
  ck_assert_str_eq(expr_text(&p, binding(c, "g")), "((.P.f() + der(x)) + initial()) + {}");
  st_ast_expr *h = binding(c, "h");
  ck_assert_int_eq(h->kind, AX_TUPLE);
  ck_assert_int_eq(h->u.tuple.nelems, 3);
  ck_assert_int_eq(h->u.tuple.elems->next->kind, AX_EMPTY);
  ck_assert_int_eq(binding(c, "k")->kind, AX_TUPLE);
  ck_assert_int_eq(binding(c, "k")->u.tuple.nelems, 0);
  parsed_close(&p);
}
END_TEST

START_TEST(equations_and_sections) {
  parsed p;
  st_ast_class *c = parse_class(&p, "model M\n"
                                    "initial equation\n"
                                    "  x = 0;\n"
                                    "equation\n"
                                    "  der(x) = -x \"decay\";\n"
                                    "  if a then y = 1; elseif b then y = 2; else y = 3; end if;\n"
                                    "  for i in 1:3, j loop z[i] = 0; end for;\n"
                                    "  connect(p.a, q[2].b);\n"
                                    "  when s then reinit(x, 1); elsewhen t then end when;\n"
                                    "  assert(x > 0, \"msg\");\n"
                                    "  (u, v) = f(x);\n"
                                    "algorithm\n"
                                    "  y := 1;\n"
                                    "end M;");
  st_ast_section *s = c->sections;
  ck_assert(s->initial);
  ck_assert_int_eq(s->kind, ASEC_EQUATION);
  assert_loc(s->loc, 2, 1);
  s = s->next;
  ck_assert(!s->initial);
  st_ast_equation *q = s->eqs;
  ck_assert_int_eq(q->kind, AE_EQUAL);
  ck_assert_str_eq(q->description, "decay");
  assert_loc(q->loc, 5, 3);
  q = q->next;
  ck_assert_int_eq(q->kind, AE_IF);
  ck_assert_ptr_nonnull(q->branches->next->cond);
  ck_assert_ptr_null(q->branches->next->next->cond);
  ck_assert_int_eq(q->branches->next->next->eqs->rhs->u.num.integer, 3);
  q = q->next;
  ck_assert_int_eq(q->kind, AE_FOR);
  ck_assert_str_eq(q->iters->next->name, "j");
  ck_assert_ptr_nonnull(q->body);
  q = q->next;
  ck_assert_int_eq(q->kind, AE_CONNECT);
  ck_assert_str_eq(st_ast_cref_text(p.arena, q->connect_b), "q[2].b");
  q = q->next;
  ck_assert_int_eq(q->kind, AE_WHEN);
  ck_assert_int_eq(q->branches->eqs->kind, AE_CALL);
  ck_assert_str_eq(q->branches->eqs->call->u.call.fn->parts->name, "reinit");
  ck_assert_ptr_null(q->branches->next->eqs);
  q = q->next;
  ck_assert_int_eq(q->kind, AE_CALL);
  q = q->next;
  ck_assert_int_eq(q->lhs->kind, AX_TUPLE);
  s = s->next;
  ck_assert_int_eq(s->kind, ASEC_ALGORITHM);
  ck_assert_int_eq(s->stmts->kind, AS_ASSIGN);
  ck_assert_ptr_null(s->next);
  parsed_close(&p);
}
END_TEST

START_TEST(statements_and_external) {
  parsed p;
  st_ast_class *c = parse_class(&p, "function F\n"
                                    "  input Real u;\n"
                                    "  output Real y;\n"
                                    "algorithm\n"
                                    "  (y, ) := g(u);\n"
                                    "  h(u);\n"
                                    "  while u > 0 loop break; end while;\n"
                                    "  for i in 1:2 loop return; end for;\n"
                                    "  if u > 1 then y := 1; else y := 2; end if;\n"
                                    "  when u > 2 then y := 3; end when;\n"
                                    "  external \"C\" y = cfun(u, 2) annotation(Library = \"m\");\n"
                                    "  annotation(Inline = true);\n"
                                    "end F;");
  st_ast_stmt *s = c->sections->stmts;
  ck_assert_int_eq(s->kind, AS_ASSIGN);
  ck_assert_int_eq(s->lhs->kind, AX_TUPLE);
  ck_assert_int_eq(s->lhs->u.tuple.elems->next->kind, AX_EMPTY);
  s = s->next;
  ck_assert_int_eq(s->kind, AS_CALL);
  s = s->next;
  ck_assert_int_eq(s->kind, AS_WHILE);
  ck_assert_int_eq(s->body->kind, AS_BREAK);
  s = s->next;
  ck_assert_int_eq(s->kind, AS_FOR);
  ck_assert_int_eq(s->body->kind, AS_RETURN);
  s = s->next;
  ck_assert_int_eq(s->kind, AS_IF);
  ck_assert_int_eq(s->branches->next->stmts->kind, AS_ASSIGN);
  s = s->next;
  ck_assert_int_eq(s->kind, AS_WHEN);
  st_ast_external *x = c->external;
  ck_assert_ptr_nonnull(x);
  ck_assert_str_eq(x->language, "C");
  ck_assert_str_eq(x->fn, "cfun");
  ck_assert_str_eq(x->output->parts->name, "y");
  ck_assert_int_eq(x->args->next->u.num.integer, 2);
  ck_assert_str_eq(x->annotation->args->name->text, "Library");
  ck_assert_str_eq(c->annotation->args->name->text, "Inline");
  parsed_close(&p);

  c = parse_class(&p, "function G external; end G;");
  ck_assert_ptr_nonnull(c->external);
  ck_assert_ptr_null(c->external->language);
  ck_assert_ptr_null(c->external->fn);
  parsed_close(&p);
}
END_TEST

START_TEST(annotations_merge_into_the_class) {
  parsed p;
  st_ast_class *c = parse_class(&p, "model M\n"
                                    "  Real x;\n"
                                    "  annotation(A = 1);\n"
                                    "equation\n"
                                    "  x = 1;\n"
                                    "  annotation(B(c = {1, 2}), D);\n"
                                    "end M;");
  st_ast_arg *a = c->annotation->args;
  ck_assert_str_eq(a->name->text, "A");
  ck_assert_str_eq(a->next->name->text, "B");
  ck_assert_str_eq(a->next->next->name->text, "D");
  ck_assert_ptr_null(a->next->next->next);
  ck_assert_int_eq(c->sections->eqs->kind, AE_EQUAL);
  ck_assert_ptr_null(c->sections->eqs->next);
  parsed_close(&p);
}
END_TEST

START_TEST(initial_as_call_and_section) {
  parsed p;
  st_ast_class *c = parse_class(&p, "model M\n"
                                    "equation\n"
                                    "  when initial() then x = 1; end when;\n"
                                    "initial   equation\n"
                                    "  x = 2;\n"
                                    "initial\n"
                                    "algorithm\n"
                                    "  x := 3;\n"
                                    "end M;");
  ck_assert(c->sections->next->initial);
  ck_assert_int_eq(c->sections->next->next->kind, ASEC_ALGORITHM);
  ck_assert(c->sections->next->next->initial);
  assert_loc(c->sections->next->next->loc, 6, 1);
  parsed_close(&p);
}
END_TEST

START_TEST(lexical_details) {
  parsed p;
  /* a byte order mark, comments between tokens, CRLF line ends, tabs */
  st_ast_class *c = parse_class(&p, "\xEF\xBB\xBFmodel /* c */ M // x\r\n"
                                    "\tReal/**/x = 1;\r\n"
                                    "end M;");
  st_ast_element *x = element_named(c, "x");
  assert_loc(x->loc, 2, 2);
  assert_loc(x->u.comp.name_loc, 2, 10);
  parsed_close(&p);
  /* keywords are not identifiers; a keyword prefix is */
  c = parse_class(&p, "model M Real endX, modelY, initialEquation; end M;");
  ck_assert_ptr_nonnull(element_named(c, "initialEquation"));
  parsed_close(&p);
  ck_assert_ptr_null(parse_text(&p, "model M Real end; end M;"));
  parsed_close(&p);
}
END_TEST

/* --------------------------------------------------------------------- robustness */

static char *slurp(const char *path, size_t *len) {
  FILE *f = fopen(path, "rb");
  ck_assert_ptr_nonnull(f);
  fseek(f, 0, SEEK_END);
  long n = ftell(f);
  fseek(f, 0, SEEK_SET);
  char *buf = malloc((size_t)n + 1);
  ck_assert_uint_eq(fread(buf, 1, (size_t)n, f), (size_t)n);
  buf[n] = 0;
  fclose(f);
  *len = (size_t)n;
  return buf;
}

/* Every prefix of a valid file (cut at each line) either parses or reports an error; no
 * crash, no leak (ASan), and a failed parse always comes with a message. */
START_TEST(truncated_files_fail_cleanly) {
  size_t len;
  char *text = slurp(st_test_src("tests/data/front/grammar/equations.mo"), &len);
  int failures = 0;
  for (size_t cut = 0; cut < len; cut += 7) {
    char saved = text[cut];
    text[cut] = 0;
    parsed p;
    st_ast_stored_def *sd = parse_text(&p, text);
    if (!sd) {
      failures++;
      ck_assert_int_gt(st_diag_errors(p.diag), 0);
      ck_assert_ptr_nonnull(strstr(parsed_msgs(&p), "t.mo:"));
    }
    parsed_close(&p);
    text[cut] = saved;
  }
  ck_assert_int_gt(failures, 0);
  free(text);
}
END_TEST

/* Random byte edits of a valid file: the parser survives each one. */
START_TEST(mutated_files_fail_cleanly) {
  size_t len;
  char *orig = slurp(st_test_src("tests/data/front/grammar/elements.mo"), &len);
  char *text = malloc(len + 1);
  static const char alphabet[] = ";=()[]{},.:\"'/*+-^ \nend if x 1 \\ \x80\xff";
  unsigned seed = 12345;
  for (int round = 0; round < 400; round++) {
    memcpy(text, orig, len + 1);
    for (int k = 0; k < 3; k++) {
      seed = seed * 1103515245u + 12345u;
      size_t pos = (seed >> 8) % len;
      seed = seed * 1103515245u + 12345u;
      text[pos] = alphabet[(seed >> 8) % (sizeof alphabet - 1)];
    }
    parsed p;
    st_ast_stored_def *sd = parse_text(&p, text);
    if (!sd) ck_assert_int_gt(st_diag_errors(p.diag), 0);
    parsed_close(&p);
  }
  free(text);
  free(orig);
}
END_TEST

START_TEST(deep_nesting_does_not_crash) {
  enum { DEPTH = 20000 };
  char *text = malloc(2 * DEPTH + 64);
  strcpy(text, "model M Real x = ");
  size_t n = strlen(text);
  for (int i = 0; i < DEPTH; i++) text[n++] = '(';
  text[n++] = '1';
  for (int i = 0; i < DEPTH; i++) text[n++] = ')';
  strcpy(text + n, "; end M;");
  parsed p;
  ck_assert_ptr_null(parse_text(&p, text));
  /* located at the parenthesis that overflows the parser's stack, the line cut around it */
  const char *msgs = parsed_msgs(&p);
  ck_assert_msg(strstr(msgs, "t.mo:1:") && strstr(msgs, ": error: nesting too deep: "
                "parentheses, brackets, calls or blocks fill the parser's stack"), "%s", msgs);
  ck_assert_msg(strlen(msgs) < 1000, "the 40 KB line is quoted whole:\n%.2000s", msgs);
  parsed_close(&p);
  free(text);
}
END_TEST

/* A left-deep sum is as high as it has terms, and every pass over it recurses once a level:
 * higher than the thread's stack can walk, it is refused where it starts. */
START_TEST(expression_deeper_than_the_stack_is_an_error) {
  int terms = st_expr_depth_limit() + 10;
  char *text = malloc(2 * (size_t)terms + 64);
  strcpy(text, "model M Real x = 1");
  size_t n = strlen(text);
  for (int i = 1; i < terms; i++) n += (size_t)sprintf(text + n, "+1");
  strcpy(text + n, "; end M;");
  parsed p;
  ck_assert_ptr_null(parse_text(&p, text));
  const char *msgs = parsed_msgs(&p);
  ck_assert_msg(strstr(msgs, "t.mo:1:18: error: expression nested too deeply: more than "),
                "%.1000s", msgs);
  parsed_close(&p);
  /* the same as deep as allowed parses */
  text[18 + 2 * (st_expr_depth_limit() - 2)] = 0;
  strcat(text, "; end M;");
  ck_assert_ptr_nonnull(parse_text(&p, text));
  parsed_close(&p);
  free(text);
}
END_TEST

START_TEST(unreadable_file_is_an_error) {
  parsed p;
  parsed_open(&p);
  ck_assert_ptr_null(st_parse_file(p.arena, p.diag, "/nonexistent/x.mo"));
  ck_assert_ptr_nonnull(strstr(parsed_msgs(&p), "/nonexistent/x.mo: error: cannot read"));
  parsed_close(&p);
  parsed_open(&p);
  ck_assert_ptr_null(st_parse_file(p.arena, p.diag, st_test_src("tests/data/front/grammar")));
  ck_assert_int_eq(st_diag_errors(p.diag), 1);
  parsed_close(&p);
}
END_TEST

/* ---------------------------------------------------------------------------- CLI */

/* st_test_src() returns a static buffer: copy before the next call. */
static void src_path(char *out, size_t size, const char *rel) {
  const char *p = st_test_src(rel);
  size_t n = strlen(p);
  ck_assert_uint_lt(n, size);
  memcpy(out, p, n + 1);
}

START_TEST(cli_parse_is_silent_on_success) {
  char *out = NULL;
  char args[4096], a[2000], b[2000];
  src_path(a, sizeof a, "tests/data/front/grammar/classes.mo");
  src_path(b, sizeof b, "tests/data/front/grammar/Lib/package.mo");
  snprintf(args, sizeof args, "parse '%s' '%s'", a, b);
  ck_assert_int_eq(st_test_run(&out, args), 0);
  ck_assert_str_eq(out, "");
  free(out);
}
END_TEST

START_TEST(cli_parse_reports_errors_with_caret) {
  char *out = NULL;
  char args[4096], badcopy[2000], good[2000];
  src_path(badcopy, sizeof badcopy, "tests/data/front/grammar/errors/several_errors.mo");
  src_path(good, sizeof good, "tests/data/front/grammar/classes.mo");
  snprintf(args, sizeof args, "parse '%s' '%s'", badcopy, good);
  ck_assert_int_eq(st_test_run(&out, args), 1);
  char want[2200];
  snprintf(want, sizeof want, "%s:5:12: error: syntax error: unexpected ';'\n  Real a = ;\n"
                              "           ^\n", badcopy);
  ck_assert_msg(strstr(out, want) != NULL, "got:\n%s", out);
  snprintf(want, sizeof want, "%s:11:10: error:", badcopy);
  ck_assert_ptr_nonnull(strstr(out, want));
  free(out);
}
END_TEST

START_TEST(cli_parse_usage) {
  st_test_expect(0, "parse --help", "Usage: stiction parse");
  st_test_expect(2, "parse", "Try 'stiction parse --help'");
  st_test_expect(2, "parse --bogus x.mo");
  st_test_expect(1, "parse /nonexistent/file.mo", "/nonexistent/file.mo: error: cannot read");
}
END_TEST

START_TEST(cli_parse_dump_reprints) {
  char *out = NULL;
  char args[4096], path[2000];
  src_path(path, sizeof path, "tests/data/front/grammar/Lib/Other.mo");
  snprintf(args, sizeof args, "parse --dump '%s'", path);
  ck_assert_int_eq(st_test_run(&out, args), 0);
  ck_assert_str_eq(out, "within Lib;\n"
                        "model Other \"a model in its own file\"\n"
                        "  import Lib.Sub.*;\n"
                        "  parameter Real p = Lib.k;\n"
                        "end Other;\n");
  free(out);
}
END_TEST

static Suite *parse_suite(void) {
  Suite *s = suite_create("parse");
  st_test_case(s, "corpus", 0, ST_TESTS(positive_corpus_parses_and_reprints,
               negative_corpus_reports_expected_locations, error_message_quotes_line_with_caret));
  st_test_case(s, "ast", 0, ST_TESTS(stored_definition_within_and_classes, class_kinds_and_prefixes,
               short_enumeration_der_and_extends_classes,
               components_share_type_and_keep_their_own_parts, imports_and_extends, modifications,
               expression_precedence_and_shapes, literals_numbers_strings_and_quoted_names,
               arrays_calls_and_subscripts, equations_and_sections, statements_and_external,
               annotations_merge_into_the_class, initial_as_call_and_section, lexical_details));
  st_test_case(s, "robustness", 0, ST_TESTS(truncated_files_fail_cleanly,
               mutated_files_fail_cleanly, deep_nesting_does_not_crash,
               expression_deeper_than_the_stack_is_an_error,
               unreadable_file_is_an_error));
  st_test_case(s, "cli", 0, ST_TESTS(cli_parse_is_silent_on_success,
               cli_parse_reports_errors_with_caret, cli_parse_usage, cli_parse_dump_reprints));
  return s;
}

int main(void) {
  return st_test_main(parse_suite());
}
