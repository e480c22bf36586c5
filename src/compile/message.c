/* Assert and terminate messages built from values (`"x = " + String(x)`): the parts of the
 * message, numbers compiled as programs and formatted when the assert fails (model_impl.h,
 * st_message). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "compile/model_impl.h"
#include "util/strfmt.h"

typedef struct part {
  const char *text;  /* a constant piece, or NULL: String() of args[0] */
  st_prog args[4];   /* the value, significantDigits, minimumLength, leftJustified */
  st_strfmt_kind kind;
  const char *format;
} part;

struct st_message {
  part *parts;
  int n, cap;
};

static part *new_part(st_compiled *cm, st_message *m) {
  if (m->n == m->cap) {
    int cap = m->cap ? 2 * m->cap : 8;
    part *p = st_arena_alloc(cm->p.arena, (size_t)cap * sizeof *p);
    if (!p) return NULL;
    if (m->n) memcpy(p, m->parts, (size_t)m->n * sizeof *p);
    m->parts = p;
    m->cap = cap;
  }
  part *p = &m->parts[m->n++];
  memset(p, 0, sizeof *p);
  return p;
}

/* The text of a String constant or parameter (strings have no slot: their bindings). */
static const char *string_const(const st_compiled *cm, const st_fexpr *e) {
  for (int hops = 0; e && hops < 64; hops++) {
    if (e->kind == FX_STRING) return e->str ? e->str : "";
    if (e->kind != FX_VAR || e->index < 0 || e->index >= cm->p.flat->nvars ||
        cm->p.flat->vars[e->index].type != ST_T_STRING)
      return NULL;
    const st_fvar *v = &cm->p.flat->vars[e->index];
    e = v->binding ? v->binding : v->start;
  }
  return NULL;
}

/* The parts of e in order; -1 for a piece that is not a constant, a concatenation or
 * String() (an if-expression of strings: the message keeps its text). */
static int parts_of(st_compiled *cm, st_message *m, const st_fexpr *e) {
  const char *s = string_const(cm, e);
  if (s) {
    part *p = new_part(cm, m);
    if (!p) return -1;
    p->text = s;
    return 0;
  }
  if (e->kind == FX_BINARY && e->op == FOP_ADD)
    return parts_of(cm, m, e->args[0]) || parts_of(cm, m, e->args[1]) ? -1 : 0;
  if (e->kind != FX_BUILTIN || e->op != FB_STRING || e->nargs != 5) return -1;
  const char *format = string_const(cm, e->args[4]);
  part *p = format ? new_part(cm, m) : NULL;
  if (!p) return -1;
  p->kind = (st_strfmt_kind)e->index;
  p->format = format;
  for (int i = 0; i < 4; i++)
    if (st_emit(cm, &p->args[i], e->args[i], 0)) return -1;
  return 0;
}

const char *st_message_compile(st_compiled *cm, const st_fexpr *m, st_message **built) {
  *built = NULL;
  if (!m) return "";
  const char *text = m->kind == FX_STRING && m->str ? m->str : "(message expression)";
  if (m->kind != FX_STRING || m->nargs != 1) return text;
  st_message *b = st_arena_alloc(cm->p.arena, sizeof *b);
  if (!b) return text;
  memset(b, 0, sizeof *b);
  /* a message that does not compile keeps its text, without an error */
  st_diag *diag = cm->diag, *quiet = st_diag_new(NULL);
  if (!quiet) return text;
  cm->diag = quiet;
  if (parts_of(cm, b, m->args[0]) == 0) *built = b;
  cm->diag = diag;
  st_diag_free(quiet);
  return text;
}

char *st_message_eval(st_compiled *cm, const st_message *m) {
  size_t len = 0, cap = 256;
  char *out = malloc(cap);
  for (int i = 0; out && i < m->n; i++) {
    const part *p = &m->parts[i];
    char buf[1100];
    const char *piece = p->text;
    if (!piece) {
      double v[4];
      for (int k = 0; k < 4; k++) v[k] = st_vm_eval(&cm->vm, &p->args[k]);
      st_strfmt spec = {p->kind, (int)v[1], (int)v[2], v[3] != 0, p->format};
      if (st_strfmt_write(buf, sizeof buf, v[0], &spec) < 0) snprintf(buf, sizeof buf, "?");
      piece = buf;
    }
    size_t n = strlen(piece);
    if (len + n + 1 > cap) {
      while (len + n + 1 > cap) cap *= 2;
      char *grown = realloc(out, cap);
      if (!grown) break;
      out = grown;
    }
    memcpy(out + len, piece, n);
    len += n;
  }
  if (out) out[len] = 0;
  return out;
}
