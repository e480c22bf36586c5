/* Modifiers: from the AST to merged trees (Modelica 3.5 section 7.2). An outer modifier
 * overrides an inner one element by element; a final element cannot be modified again; a
 * modifier of an array component without `each` gives each element its part of the value. */
#include "front/inst.h"

#include <string.h>

static st_mod *mod_new(st_fl *fl, const char *name, st_loc loc) {
  st_mod *m = st_arena_alloc(fl->tmp, sizeof *m);
  if (m) {
    m->name = name;
    m->loc = loc;
  }
  return m;
}

static st_mod *copy(st_fl *fl, const st_mod *m) {
  st_mod *c = st_arena_alloc(fl->tmp, sizeof *c);
  if (c) {
    *c = *m;
    c->next = NULL;
  }
  return c;
}

st_mod *st_mod_find(const st_mod *m, const char *name) {
  for (st_mod *s = m ? m->subs : NULL; s; s = s->next)
    if (strcmp(s->name, name) == 0) return s;
  return NULL;
}

/* Adds sub to m, merging with a sibling of the same name: `phi(start=0), phi(fixed=true)`
 * or `a.x = 1, a.y = 2`. The later argument counts as the outer one. */
static void add_sub(st_fl *fl, st_mod *m, st_mod *sub) {
  st_mod **p = &m->subs;
  for (; *p; p = &(*p)->next)
    if (strcmp((*p)->name, sub->name) == 0) {
      st_mod *merged = st_mod_merge(fl, sub, *p);
      if (!merged) return;
      merged->next = (*p)->next;
      *p = merged;
      return;
    }
  *p = sub;
}

/* One class-modification argument `each final a.b.c(args) = value`. */
static st_mod *from_arg(st_fl *fl, const st_ast_arg *arg, st_env env) {
  const st_ast_name *n = arg->name;
  st_mod *leaf = st_mod_from_ast(fl, arg->mod, env, arg->each, arg->final,
                                 n->parts[n->nparts - 1], arg->loc);
  if (leaf) leaf->description = arg->description;
  /* a.b.c = v is a(b(c = v)) */
  for (int i = n->nparts - 2; leaf && i >= 0; i--) {
    st_mod *outer = mod_new(fl, n->parts[i], arg->loc);
    if (outer) outer->subs = leaf;
    leaf = outer;
  }
  return leaf;
}

/* `redeclare T name(mod)` in a modification: the modifier of the new declaration, carrying
 * it. `redeclare package Medium = X`: the new class, defined where the modifier is written
 * (the instantiator specializes the modified class with it). */
static st_mod *redeclaration(st_fl *fl, const st_ast_arg *arg, st_env env) {
  const st_ast_element *el = arg->element;
  if (!el) return NULL;
  if (el->kind == AEL_CLASS && el->u.cls) {
    st_mod *m = mod_new(fl, el->u.cls->name, arg->loc);
    st_mod_redecl *rd = m ? st_arena_alloc(fl->tmp, sizeof *rd) : NULL;
    if (!rd) return NULL;
    m->final = arg->final || el->final;
    m->env = env;
    if (!(rd->cls = st_cls_redeclared(fl->fe, env.cls, el))) return NULL;
    m->redecl = rd;
    return m;
  }
  if (el->kind != AEL_COMPONENT) return NULL;
  st_mod *m = st_mod_from_ast(fl, el->u.comp.mod, env, arg->each, arg->final || el->final,
                              el->u.comp.name, el->u.comp.name_loc);
  st_mod_redecl *rd = m ? st_arena_alloc(fl->tmp, sizeof *rd) : NULL;
  if (!rd) return NULL;
  rd->element = el;
  rd->env = env;
  m->redecl = rd;
  m->description = el->description;
  return m;
}

st_mod *st_mod_from_ast(st_fl *fl, const st_ast_mod *am, st_env env, int each, int final,
                        const char *name, st_loc loc) {
  st_mod *m = mod_new(fl, name, loc);
  if (!m) return NULL;
  m->each = each;
  m->final = final;
  m->env = env;
  if (!am) return m;
  m->value = am->value;
  for (const st_ast_arg *a = am->args; a; a = a->next) {
    st_mod *sub = NULL;
    if (a->kind == AA_MODIFY && a->name) sub = from_arg(fl, a, env);
    else if (a->kind == AA_REDECLARE || a->kind == AA_REPLACEABLE) sub = redeclaration(fl, a, env);
    if (sub) add_sub(fl, m, sub);
  }
  return m;
}

/* Whether a and b modify an element of the same name. */
static int same_names(const st_mod *a, const st_mod *b) {
  for (const st_mod *s = a->subs; s; s = s->next)
    if (st_mod_find(b, s->name)) return 1;
  return 0;
}

static void take_value(st_mod *to, const st_mod *from) {
  to->value = from->value;
  to->env = from->env;
  to->nindex = from->nindex;
  to->index = from->index;
  to->field = from->field;
  to->field_nindex = from->field_nindex;
  to->each = from->each;
}

/* The outer redeclaration's declaration and class over the inner's: shared when only one
 * side has one; NULL also when out of memory. */
static const st_mod_redecl *merged_redecl(st_fl *fl, const st_mod_redecl *outer,
                                          const st_mod_redecl *inner) {
  if (!outer || !inner) return outer ? outer : inner;
  st_mod_redecl *r = st_arena_alloc(fl->tmp, sizeof *r);
  if (!r) return NULL;
  *r = *inner;
  if (outer->element) {
    r->element = outer->element;
    r->env = outer->env;
  }
  if (outer->cls) r->cls = outer->cls;
  return r;
}

/* The node of outer merged over inner into m (a copy of inner): value, redeclaration, final,
 * location, description; not the sub-modifiers. -1 when out of memory. */
static int merge_node(st_fl *fl, st_mod *m, const st_mod *outer, const st_mod *inner) {
  m->subs = NULL;
  if (outer->value) {
    /* a record binding also binds the record's final fields (to equal values) */
    if (inner->final && inner->value && !outer->field)
      st_fl_error(fl, outer->loc, NULL, "'%s' is final and cannot be modified", outer->name);
    else
      take_value(m, outer);
  }
  if (!(m->redecl = merged_redecl(fl, outer->redecl, inner->redecl))) {
    if (outer->redecl || inner->redecl) return -1;
  }
  m->final = outer->final || inner->final;
  m->loc = outer->value ? outer->loc : inner->loc;
  if (outer->description) m->description = outer->description;
  return 0;
}

st_mod *st_mod_merge_top(st_fl *fl, st_mod *const *layers, int n, st_mod *buf) {
  st_mod *top = NULL;
  for (int i = 0; i < n; i++) {
    if (!layers[i]) continue;
    if (!top) {
      top = layers[i];
      continue;
    }
    st_mod m = *layers[i];
    if (merge_node(fl, &m, top, layers[i])) {
      buf->name = NULL;
      return buf;
    }
    m.name = top->name; /* as resolve_type names its merged node */
    m.next = NULL;
    *buf = m;
    top = buf;
  }
  return top;
}

st_mod *st_mod_merge(st_fl *fl, st_mod *outer, st_mod *inner) {
  if (!outer) return inner;
  if (!inner) return outer;
  st_mod *m = copy(fl, inner);
  if (!m || merge_node(fl, m, outer, inner)) return NULL;
  if (!outer->subs || !inner->subs) {
    /* nothing to merge below: share the one list (modifiers are immutable once built) */
    m->subs = outer->subs ? outer->subs : inner->subs;
    return m;
  }
  if (!same_names(outer, inner)) {
    /* s(start = 0) over a type's (unit, min, ..): outer's elements linked in front of the
     * inner list, shared */
    st_mod **tail = &m->subs;
    for (const st_mod *s = outer->subs; s; s = s->next) {
      if (!(*tail = copy(fl, s))) return NULL;
      tail = &(*tail)->next;
    }
    *tail = inner->subs;
    return m;
  }
  for (st_mod *s = inner->subs; s; s = s->next) {
    st_mod *o = st_mod_find(outer, s->name);
    st_mod *merged = o ? st_mod_merge(fl, o, s) : copy(fl, s);
    if (merged) add_sub(fl, m, merged);
  }
  for (st_mod *s = outer->subs; s; s = s->next)
    if (!st_mod_find(inner, s->name)) {
      st_mod *c = copy(fl, s);
      if (c) add_sub(fl, m, c);
    }
  return m;
}

st_mod *st_mod_element(st_fl *fl, st_mod *m, const int *index, int ndims) {
  if (!m) return NULL;
  st_mod *c = copy(fl, m);
  if (!c) return NULL;
  if (m->each) {
    /* `each` gives every element the whole value once: an array dimension of the element
     * itself (tf[2](each b = {1, 2}) with b[2]) splits it again */
    c->each = 0;
    c->subs = m->subs;
    return c;
  }
  if (c->value) {
    int *ix = st_arena_alloc(fl->tmp, (size_t)(m->nindex + ndims) * sizeof *ix);
    if (!ix) return NULL;
    if (m->nindex) memcpy(ix, m->index, (size_t)m->nindex * sizeof *ix);
    memcpy(ix + m->nindex, index, (size_t)ndims * sizeof *ix);
    c->index = ix;
    c->nindex = m->nindex + ndims;
  }
  c->subs = NULL;
  st_mod **tail = &c->subs;
  for (st_mod *s = m->subs; s; s = s->next) {
    st_mod *e = st_mod_element(fl, s, index, ndims);
    if (e == s) e = copy(fl, s);
    if (!e) return NULL;
    e->next = NULL;
    *tail = e;
    tail = &e->next;
  }
  return c;
}

/* A record binding `r = x` (with no binding of its own for a field) binds each field f of r
 * to x.f: sub-modifiers that take the field of the value, under the explicit ones. */
st_mod *st_mod_record_binding(st_fl *fl, st_mod *m, st_cls *rec) {
  if (!m || !m->value) return m;
  st_rec_leaf *lv;
  int n = st_rec_leaves(fl, rec, NULL, &lv);
  if (n < 0) return m;
  st_mod *c = copy(fl, m);
  if (!c) return m;
  c->value = NULL;
  /* own copy of the list: a field's modifier without a value is replaced below */
  c->subs = NULL;
  for (st_mod **tail = &c->subs, *s = m->subs; s; s = s->next, tail = &(*tail)->next)
    if (!(*tail = copy(fl, s))) return m;
  for (int i = 0; i < n; i++) {
    if (i > 0 && lv[i].top == lv[i - 1].top) continue;
    const char *dot = strchr(lv[i].name, '.');
    const char *name = dot ? st_arena_strndup(fl->tmp, lv[i].name, (size_t)(dot - lv[i].name))
                           : lv[i].name;
    st_mod *own = st_mod_find(c, name);
    if (own && own->value) continue;
    st_mod *f = mod_new(fl, name, m->loc);
    if (!f) return m;
    take_value(f, m);
    f->final = m->final;
    f->field = m->field ? st_arena_concat(fl->tmp, m->field, ".", name) : name;
    f->field_nindex = m->field ? m->field_nindex : m->nindex;
    /* a field modified without a value (a short class's `redeclare Real re(unit = ..)`,
     * an attribute) still takes the field of the binding, under its own modifiers */
    if (own) add_sub(fl, c, f);
    else {
      f->next = c->subs;
      c->subs = f;
    }
  }
  return c;
}
