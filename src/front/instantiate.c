/* Phase 1 of flattening: the instance tree (Modelica 3.5 section 5.6). Classes are
 * instantiated element by element in source order with their merged modifiers; extends
 * clauses copy the base class's elements into the same instance; arrays of components are
 * expanded to elements J[1], J[2]; a conditional component whose condition is false is
 * kept as a disabled node (its connections are dropped); every scalar primitive component
 * becomes a flat variable. */
#include "front/inst.h"

#include <stdint.h>
#include <stdio.h>
#include <string.h>

static const char *inst_name_of(const void *kids, int i) {
  return ((st_inst *const *)kids)[i]->name;
}

/* The kid itself, an outer not replaced by its inner. */
static st_inst *kid_own(const st_inst *in, const char *name) {
  int i = in ? st_name_index_find(&in->index, in->kids, in->nkids, inst_name_of, name) : -1;
  return i < 0 ? NULL : in->kids[i];
}

st_inst *st_inst_kid(const st_inst *in, const char *name) {
  st_inst *k = kid_own(in, name);
  return k && k->alias ? k->alias : k;
}

static st_inst *inst_new(st_fl *fl, st_inst *parent, const char *name, st_loc loc) {
  st_inst *in = st_arena_alloc(fl->tmp, sizeof *in);
  if (!in) return NULL;
  in->name = name;
  in->path = !parent ? "" : parent->path[0] ? st_arena_concat(fl->tmp, parent->path, ".", name)
                                            : name;
  in->parent = parent;
  in->prim = -1;
  in->var = -1;
  in->loc = loc;
  if (parent) {
    in->prefix = parent->prefix;
    if (parent->nkids == parent->capkids) {
      int cap = parent->capkids ? 2 * parent->capkids : 8;
      st_inst **k = st_arena_alloc(fl->tmp, (size_t)cap * sizeof *k);
      if (!k) return NULL;
      if (parent->nkids) memcpy(k, parent->kids, (size_t)parent->nkids * sizeof *k);
      parent->kids = k;
      parent->capkids = cap;
    }
    parent->kids[parent->nkids++] = in;
    st_name_index_added(&parent->index, fl->tmp, parent->kids, parent->nkids, parent->capkids,
                        inst_name_of);
  }
  return in;
}

st_inst *st_inst_new_kid(st_fl *fl, st_inst *parent, const char *name, st_loc loc) {
  return inst_new(fl, parent, name, loc);
}

static int is_connector_class(const st_cls *c) {
  return st_cls_is(c, ACK_CONNECTOR) || st_cls_is(c, ACK_EXPANDABLE_CONNECTOR);
}

static st_variability variability_of(st_ast_variability v) {
  switch (v) {
  case AV_CONSTANT: return ST_V_CONSTANT;
  case AV_PARAMETER: return ST_V_PARAMETER;
  case AV_DISCRETE: return ST_V_DISCRETE;
  default: return ST_V_CONTINUOUS;
  }
}

/* A type prefix narrows the inherited one: the lowest variability wins; input/output and
 * flow given closer to the variable win. */
static void apply_type_prefix(st_prefix *p, const st_ast_type_prefix *t) {
  st_variability v = variability_of(t->variability);
  if ((int)v < p->variability) p->variability = (int)v;
  if (t->causality == AC_INPUT) p->causality = ST_C_INPUT;
  if (t->causality == AC_OUTPUT) p->causality = ST_C_OUTPUT;
  if (t->flow != AF_NONE) p->flow = (int)t->flow;
}

static void inst_class(st_fl *fl, st_inst *in, st_cls *cls, st_mod *mod);

/* Sub-modifiers must name elements of the class (or attributes of a primitive type). */
static void check_mod_names(st_fl *fl, const st_mod *mod, st_cls *cls, const st_inst *in) {
  static const char *const attrs[] = {"start", "fixed", "nominal", "min", "max", "stateSelect",
                                      "unit", "displayUnit", "quantity", NULL};
  for (const st_mod *s = mod ? mod->subs : NULL; s; s = s->next) {
    int ok = 0;
    if (cls->prim >= 0 || (cls->ast && cls->ast->form == ACF_ENUMERATION)) {
      for (int i = 0; attrs[i] && !ok; i++) ok = strcmp(attrs[i], s->name) == 0;
      if (ok && s->subs) {
        st_fl_error(fl, s->subs->loc, in, "attribute '%s' has no element '%s'", s->name,
                    s->subs->name);
        continue;
      }
    } else {
      st_elem e;
      ok = st_lookup_member(fl->fe, cls, s->name, &e) == 0 &&
           (s->redecl && s->redecl->cls ? e.cls != NULL : e.comp != NULL);
    }
    if (!ok)
      st_fl_error(fl, s->loc, in, "modifier '%s' does not match any element of %s '%s'",
                  s->name, cls->prim >= 0 ? "type" : "class", cls->full);
  }
}

/* The attributes of a primitive type by their index: LZ_START .. LZ_STATESELECT, then the
 * string ones; -1 for a name that is none. */
enum { ATTR_UNIT = LZ_COUNT, ATTR_DISPLAY_UNIT, ATTR_QUANTITY, ATTR_COUNT };

static const char *attr_name(int a) {
  static const char *const names[ATTR_COUNT] = {
      [LZ_START] = "start", [LZ_FIXED] = "fixed", [LZ_NOMINAL] = "nominal", [LZ_MIN] = "min",
      [LZ_MAX] = "max", [LZ_STATESELECT] = "stateSelect", [ATTR_UNIT] = "unit",
      [ATTR_DISPLAY_UNIT] = "displayUnit", [ATTR_QUANTITY] = "quantity"};
  return names[a];
}

static int attr_index(const char *name) {
  for (int a = 1; a < ATTR_COUNT; a++)
    if (attr_name(a)[0] == name[0] && strcmp(attr_name(a), name) == 0) return a;
  return -1;
}

static void set_lazy(st_fl *fl, int var, int attr, const st_mod *m) {
  if (!m || !m->value) return;
  st_lazy *lz = st_fl_var_lazy(fl, var, attr);
  if (!lz) return;
  lz->expr = m->value;
  lz->env = m->env;
  lz->nindex = m->nindex;
  lz->index = m->index;
  lz->field = m->field;
  lz->field_nindex = m->field_nindex;
}

/* unit = "N.m": a string literal (Modelica requires a literal here in practice). */
static const char *string_attr(st_fl *fl, const st_mod *m, const st_inst *in) {
  if (!m || !m->value) return NULL;
  if (m->value->kind == AX_STRING) return st_arena_strdup(fl->arena, m->value->u.string);
  st_fl_error(fl, m->value->loc, in, "attribute '%s' must be a string literal", m->name);
  return NULL;
}

/* The lazy attributes and the units of variable k from its attributes' modifiers. */
static void take_attributes(st_fl *fl, int k, const st_mod *const *found, const st_inst *in) {
  for (int a = 1; a < LZ_COUNT; a++) set_lazy(fl, k, a, found[a]);
  const char *unit = string_attr(fl, found[ATTR_UNIT], in);
  const char *display = string_attr(fl, found[ATTR_DISPLAY_UNIT], in);
  fl->vars[k].unit = unit;
  fl->vars[k].display_unit = display;
}

static int has_evaluate(const st_ast_element *decl) {
  const st_ast_mod *a = decl ? decl->annotation : NULL;
  for (const st_ast_arg *g = a ? a->args : NULL; g; g = g->next)
    if (g->kind == AA_MODIFY && g->name && strcmp(g->name->text, "Evaluate") == 0 && g->mod &&
        g->mod->value && g->mod->value->kind == AX_BOOL)
      return g->mod->value->u.boolean;
  return 0;
}

static void enum_literals(st_fl *fl, st_fvar *v, const st_cls *cls) {
  v->enum_type = st_arena_strdup(fl->arena, cls->full);
  v->n_enum_literals = cls->ast->nliterals;
  v->enum_literals = st_arena_alloc(fl->arena, (size_t)(cls->ast->nliterals + 1) * sizeof(char *));
  int i = 0;
  for (const st_ast_enum_literal *l = cls->ast->literals; l && v->enum_literals; l = l->next)
    v->enum_literals[i++] = st_arena_strdup(fl->arena, l->name);
}

/* A primitive's sub-modifiers from its modifier layers, in order, with their attributes. */
typedef struct attr_mod {
  st_mod *mod;
  signed char attr, layer;
} attr_mod;

enum { MAX_ATTR_MODS = 32 };

/* The sub-modifiers of layers[0..n) into out; -1 when one names no attribute of a primitive,
 * has elements itself, or there are too many (then the layers are merged as a tree). */
static int attr_mods(st_mod *const *layers, int n, attr_mod *out) {
  int k = 0;
  for (int i = 0; i < n; i++)
    for (st_mod *s = layers[i] ? layers[i]->subs : NULL; s; s = s->next) {
      int a = attr_index(s->name);
      if (a < 0 || s->subs || k == MAX_ATTR_MODS) return -1;
      out[k++] = (attr_mod){s, (signed char)a, (signed char)i};
    }
  return k;
}

/* layers[0] merged over layers[1] over ... (NULL skipped), as one tree. */
static st_mod *merge_layers(st_fl *fl, st_mod *const *layers, int n) {
  st_mod *mod = NULL;
  for (int i = 0; i < n; i++) {
    st_mod *merged = st_mod_merge(fl, mod, layers[i]);
    if (merged && mod && merged != mod) merged->name = mod->name; /* the element's name */
    mod = merged;
  }
  return mod;
}

/* The variable of a scalar primitive, enumeration or external object whose modifier is
 * layers[0] over layers[1] over ... (outermost first): a primitive's are read layer by layer
 * (st_mod_merge_top), the others' and any naming something else than an attribute merged
 * first (check_mod_names then reports it). */
static void make_var(st_fl *fl, st_inst *in, st_cls *cls, st_mod *const *layers, int nlayers,
                     const st_ast_element *decl) {
  st_mod *mod, top;
  attr_mod subs[MAX_ATTR_MODS];
  int nsubs = cls->prim >= 0 ? attr_mods(layers, nlayers, subs) : -1;
  if (nsubs >= 0) {
    mod = st_mod_merge_top(fl, layers, nlayers, &top);
    if (mod == &top && !top.name) return; /* out of memory */
  } else {
    mod = merge_layers(fl, layers, nlayers);
  }
  int object = st_cls_is_external_object(cls);
  int is_enum = cls->prim < 0 && !object;
  st_ftype type = object ? ST_T_INTEGER : is_enum ? ST_T_ENUM : (st_ftype)cls->prim;
  int k = st_fl_add_var(fl, in, type);
  if (k < 0) return;
  in->prim = (int)type;
  in->var = k;
  st_fvar *v = &fl->vars[k];
  int var = in->prefix.variability;
  if (var == ST_V_CONTINUOUS && type != ST_T_REAL) var = ST_V_DISCRETE;
  v->variability = (st_variability)var;
  v->causality = (st_causality)in->prefix.causality;
  v->is_flow = in->prefix.flow == AF_FLOW;
  v->is_stream = in->prefix.flow == AF_STREAM;
  v->is_protected = in->prefix.is_protected != 0;
  v->is_final = in->prefix.is_final || (mod && mod->final && mod->value);
  v->evaluate = has_evaluate(decl);
  v->loc = in->loc;
  if (decl && decl->description) v->description = st_arena_strdup(fl->arena, decl->description);
  if (is_enum) enum_literals(fl, v, cls);
  if (object && !(mod && mod->value))
    st_fl_error(fl, in->loc, in, "the external object '%s' needs a binding: a call of %s(...), "
                "its constructor (Modelica 3.6 section 12.9.7)", v->name, cls->full);
  set_lazy(fl, k, LZ_BINDING, mod);
  const st_mod *found[ATTR_COUNT] = {NULL};
  if (!(cls->prim >= 0 || (cls->ast && cls->ast->form == ACF_ENUMERATION))) {
    for (int a = 1; a < ATTR_COUNT; a++) found[a] = st_mod_find(mod, attr_name(a));
    take_attributes(fl, k, found, in);
    check_mod_names(fl, mod, cls, in);
    return;
  }
  if (nsubs >= 0) {
    /* the first of a name in each layer, merged only where two layers give it */
    signed char layer[ATTR_COUNT] = {0};
    for (int j = 0; j < nsubs; j++) {
      int a = subs[j].attr;
      if (!found[a]) found[a] = subs[j].mod;
      else if (layer[a] < subs[j].layer)
        found[a] = st_mod_merge(fl, (st_mod *)found[a], subs[j].mod);
      else
        continue;
      layer[a] = subs[j].layer;
    }
    take_attributes(fl, k, found, in);
    return;
  }
  /* one pass over the sub-modifiers (a component chain makes ~30 scalars per component, and
   * a search per attribute plus a check per sub-modifier was a tenth of its flattening) */
  int unknown = 0;
  for (const st_mod *s = mod ? mod->subs : NULL; s; s = s->next) {
    int a = attr_index(s->name);
    if (a < 0 || s->subs) unknown = 1; /* reported by check_mod_names */
    if (a >= 0 && !found[a]) found[a] = s; /* the first of a name, as st_mod_find */
  }
  take_attributes(fl, k, found, in);
  if (unknown) check_mod_names(fl, mod, cls, in);
}

/* Follows short class definitions (`connector RealInput = input Real`, `type Torque =
 * Real(unit = "N.m")`), collecting their modifiers (inner to ours) and prefixes. */
/* The extends clause of a type that is only that (besides nested classes such as
 * equalityConstraint), `type TypeReal extends Real; end TypeReal;`: like a short class
 * definition. NULL for other classes. */
const st_ast_element *st_cls_type_extends(const st_cls *cls) {
  const st_ast_class *a = cls->ast;
  if (!a || a->form != ACF_LONG || a->kind != ACK_TYPE || a->sections) return NULL;
  const st_ast_element *ext = NULL;
  for (const st_ast_element *e = a->elements; e; e = e->next) {
    if (e->kind == AEL_IMPORT || e->kind == AEL_CLASS) continue; /* equalityConstraint */
    if (e->kind != AEL_EXTENDS || ext) return NULL;
    ext = e;
  }
  return ext;
}

/* The type modifiers remembered per class: an open-addressed table in fl->tmp. A class's
 * modifier does not depend on the instance (its names resolve in the class), and building it
 * for every Real of a library type was most of the scratch memory of a component chain. */
typedef struct st_type_mod {
  const st_cls *cls;
  st_mod *mod;
} st_type_mod;

static size_t type_mod_start(const st_fl *fl, const st_cls *cls) {
  size_t h = (size_t)(uintptr_t)cls * 0x9E3779B97F4A7C15u;
  return (h ^ (h >> 29)) & (size_t)(fl->captype_mods - 1);
}

static st_type_mod *type_mod_find(const st_fl *fl, const st_cls *cls) {
  if (!fl->ntype_mods) return NULL;
  for (size_t i = type_mod_start(fl, cls);; i = (i + 1) & (size_t)(fl->captype_mods - 1)) {
    st_type_mod *t = &fl->type_mods[i];
    if (!t->cls || t->cls == cls) return t->cls ? t : NULL;
  }
}

/* Out of memory only means the modifier is built again next time. */
static void type_mod_put(st_fl *fl, const st_cls *cls, st_mod *mod) {
  if (2 * (fl->ntype_mods + 1) > fl->captype_mods) {
    int cap = fl->captype_mods ? 2 * fl->captype_mods : 64, oldcap = fl->captype_mods;
    st_type_mod *old = fl->type_mods, *t = st_arena_alloc(fl->tmp, (size_t)cap * sizeof *t);
    if (!t) return;
    fl->type_mods = t;
    fl->captype_mods = cap;
    fl->ntype_mods = 0;
    for (int i = 0; i < oldcap; i++)
      if (old[i].cls) type_mod_put(fl, old[i].cls, old[i].mod);
  }
  size_t i = type_mod_start(fl, cls);
  while (fl->type_mods[i].cls) i = (i + 1) & (size_t)(fl->captype_mods - 1);
  fl->type_mods[i] = (st_type_mod){cls, mod};
  fl->ntype_mods++;
}

/* A type of a package seen through an extends clause that modifies it
 * (`extends PartialMedium(SpecificEnthalpy(start = h_default))`: R134a's enthalpies start
 * at 420 kJ/kg): those modifiers, outermost first, outside the type's own. */
static st_mod *package_type_mod(st_fl *fl, const st_cls *cls, st_mod *type_mod) {
  const st_cls *pkg = cls->parent;
  for (int i = 0; pkg && i < pkg->nmods; i++)
    for (const st_ast_arg *a = pkg->mods[i].mod->args; a; a = a->next)
      if (a->kind == AA_MODIFY && a->name && a->name->nparts == 1 && a->mod && a->mod->args &&
          !a->mod->value && strcmp(a->name->parts[0], cls->name) == 0)
        type_mod = st_mod_merge(fl, type_mod, st_mod_from_ast(fl, a->mod,
                                                              (st_env){NULL, pkg->mods[i].scope},
                                                              0, 0, "", a->loc));
  return type_mod;
}

/* Follows cls through short class definitions and type extends to the class instantiated,
 * applying their prefixes to in; their modifiers merged into *type_mod_out: the nearer
 * definition's modifier is the outer one, so merging them first (once per class) gives the
 * same tree as merging them one by one under the component's. */
static st_cls *follow_type(st_fl *fl, st_inst *in, st_cls *cls, st_mod **type_mod_out) {
  const st_cls *first = cls;
  const st_type_mod *known = type_mod_find(fl, cls);
  st_mod *type_mod = known ? known->mod : NULL;
  for (int hops = 0; cls && cls->ast && (cls->ast->form == ACF_SHORT || st_cls_type_extends(cls));
       hops++) {
    const st_ast_class *a = cls->ast;
    if (hops > 64) {
      st_fl_error(fl, a->loc, in, "cyclic short class definition '%s'", cls->full);
      return NULL;
    }
    const st_ast_element *ext = st_cls_type_extends(cls);
    if (ext) {
      if (!known)
        type_mod = st_mod_merge(fl, type_mod, st_mod_from_ast(fl, ext->u.extends.mod,
                                                              (st_env){NULL, cls}, 0, 0, "",
                                                              ext->loc));
      st_cls *base = st_lookup_extends(fl->fe, cls, ext);
      if (!base)
        st_fl_error(fl, ext->u.extends.name->loc, in, "undefined base class '%s'",
                    ext->u.extends.name->text);
      cls = base;
      continue;
    }
    if (is_connector_class(cls)) in->is_connector = 1;
    apply_type_prefix(&in->prefix, &a->base_prefix);
    if (!known) type_mod = package_type_mod(fl, cls, type_mod);
    if (!known)
      type_mod = st_mod_merge(fl, type_mod, st_mod_from_ast(fl, a->base_mod,
                                                            (st_env){NULL, cls->parent}, 0, 0,
                                                            "", a->loc));
    st_cls *base = st_lookup_class(fl->fe, cls->parent, a->base);
    if (!base)
      st_fl_error(fl, a->base->loc, in, "undefined class '%s'", a->base->text);
    cls = base;
  }
  if (!known && type_mod) type_mod_put(fl, first, type_mod);
  *type_mod_out = type_mod;
  if (cls && is_connector_class(cls)) in->is_connector = 1;
  return cls;
}

/* follow_type with the type's modifier merged under *mod. */
static st_cls *resolve_type(st_fl *fl, st_inst *in, st_cls *cls, st_mod **mod) {
  st_mod *type_mod = NULL;
  cls = follow_type(fl, in, cls, &type_mod);
  if (type_mod) {
    st_mod *merged = st_mod_merge(fl, *mod, type_mod);
    if (merged && *mod) merged->name = (*mod)->name; /* a new node: the element's name */
    *mod = merged;
  }
  return cls;
}

/* A scalar component (or an array's element) whose modifier is outer over own (either may
 * be NULL), merged only where the component is structured: a scalar primitive reads them
 * as they are (make_var). */
static void inst_element(st_fl *fl, st_inst *in, st_cls *cls, st_mod *outer, st_mod *own,
                         const st_ast_element *decl) {
  st_mod *type_mod = NULL;
  cls = follow_type(fl, in, cls, &type_mod);
  if (!cls) return;
  in->cls = cls;
  if (cls->prim >= 0 || (cls->ast && cls->ast->form == ACF_ENUMERATION) ||
      st_cls_is_external_object(cls)) {
    st_mod *layers[3] = {outer, own, type_mod};
    make_var(fl, in, cls, layers, 3, decl);
    return;
  }
  st_mod *layers[3] = {outer, own, type_mod}, *mod = merge_layers(fl, layers, 3);
  if (st_cls_is(cls, ACK_FUNCTION) || st_cls_is(cls, ACK_PACKAGE)) {
    st_fl_error(fl, in->loc, in, "'%s' is a %s and cannot be a component's type", cls->full,
                st_ast_class_kind_name(cls->ast->kind));
    return;
  }
  if (mod && mod->value && st_cls_is_record(cls)) mod = st_mod_record_binding(fl, mod, cls);
  inst_class(fl, in, cls, mod);
  check_mod_names(fl, mod, cls, in);
  if (mod && mod->value && st_cls_is_record(cls)) {
    if (fl->nrecord_bound == fl->caprecord_bound) {
      int cap = fl->caprecord_bound ? 2 * fl->caprecord_bound : 16;
      st_inst **b = st_arena_alloc(fl->tmp, (size_t)cap * sizeof *b);
      if (!b) return;
      if (fl->nrecord_bound) memcpy(b, fl->record_bound, (size_t)fl->nrecord_bound * sizeof *b);
      fl->record_bound = b;
      fl->caprecord_bound = cap;
    }
    in->binding = mod;
    fl->record_bound[fl->nrecord_bound++] = in;
  }
}

/* ------------------------------------------------------------------- array sizes */

static int eval_int(st_fl *fl, const st_ast_expr *e, st_env env, const st_inst *in, int *out) {
  double v;
  if (st_fl_eval_ast(fl, e, env, &v)) {
    st_fl_error(fl, e->loc, in, "array size must be a constant or parameter expression");
    return -1;
  }
  if (v < 0 || v > 1e6 || v != (int)v) {
    st_fl_error(fl, e->loc, in, "invalid array size %g", v);
    return -1;
  }
  *out = (int)v;
  return 0;
}

/* Sizes given as ':' come from the binding, e.g. table[:, 2] = [0, 1; 1, 2]. */
/* fill(x, n1, n2, ...): dimension dim is n(dim + 1), also when it is 0 (the MSL's empty
 * `table = fill(0.0, 0, 2)`, whose elements say nothing about its sizes); -1 otherwise. */
static int size_from_fill(st_fl *fl, const st_mod *mod, int dim) {
  const st_ast_expr *e = mod && mod->value ? mod->value : NULL;
  if (!e || e->kind != AX_CALL || e->u.call.fn->nparts != 1 || e->u.call.iters ||
      strcmp(e->u.call.fn->parts->name, "fill"))
    return -1;
  const st_ast_fnarg *a = e->u.call.args;
  for (int k = 0; a && k <= dim; k++) a = a->next;
  double v;
  if (!a || a->name || st_fl_eval_ast(fl, a->value, mod->env, &v) || v < 0 || v > 1e6 ||
      v != (int)v)
    return -1;
  return (int)v;
}

static int size_from_binding(st_fl *fl, const st_mod *mod, int dim, const st_inst *in,
                             st_loc loc) {
  int filled = size_from_fill(fl, mod, dim);
  if (filled >= 0) return filled;
  fl->sizing++;
  st_fexpr *v = mod && mod->value ? st_translate(fl, mod->value, mod->env) : NULL;
  st_fexpr *folded;
  if (v && v->kind == FX_CALL && st_fl_call(fl, v, &folded) == 0) v = folded;
  fl->sizing--;
  if (v) v = st_fx_part_value(fl, v, mod->index, mod->nindex, mod->field, mod->field_nindex, loc);
  for (int d = 0; v && d < dim; d++) v = v->kind == FX_ARRAY && v->nargs ? v->args[0] : NULL;
  if (v && v->kind == FX_ARRAY) return v->nargs;
  st_fl_error(fl, loc, in, "cannot determine the size of dimension %d from the binding", dim + 1);
  return -1;
}

/* A dimension given by an enumeration type or Boolean, `Integer table[Logic, Logic]`
 * (Modelica 3.5 section 10.1): its number of values; -1 when s names no such type. */
static int type_dim_size(st_fl *fl, const st_ast_expr *s, st_env env) {
  if (s->kind != AX_CREF || s->u.cref->nparts > 16) return -1;
  const char *parts[16];
  int n = 0;
  for (const st_ast_cref_part *p = s->u.cref->parts; p; p = p->next) {
    if (p->nsubs) return -1;
    parts[n++] = p->name;
  }
  if (n == 1 && st_inst_member(fl, env.inst, parts[0])) return -1; /* a component */
  st_cls *c = st_lookup_class_path(fl->fe, env.cls, parts, n, s->u.cref->global ? 1 : 0);
  c = c ? st_cls_resolve_short(fl->fe, c) : NULL;
  if (c && c->prim == ST_T_BOOLEAN) return 2;
  return c && c->ast && c->ast->form == ACF_ENUMERATION ? c->ast->nliterals : -1;
}

static int collect_dims(st_fl *fl, const st_ast_element *e, st_env env, const st_mod *mod,
                        st_inst *in, int *dims) {
  const st_ast_expr *lists[2] = {e->u.comp.subs, e->u.comp.type_subs};
  int n = 0;
  for (int l = 0; l < 2; l++)
    for (const st_ast_expr *s = lists[l]; s; s = s->next) {
      if (n == 4) {
        st_fl_error(fl, s->loc, in, "more than 4 array dimensions are not supported");
        return -1;
      }
      if (s->kind == AX_COLON) dims[n] = size_from_binding(fl, mod, n, in, s->loc);
      else if ((dims[n] = type_dim_size(fl, s, env)) < 0 && eval_int(fl, s, env, in, &dims[n]))
        return -1;
      if (dims[n] < 0) return -1;
      n++;
    }
  return n;
}

/* The dimensions of a short class definition follow those of the declaration: `type Axis
 * = Real[3]; Axis n[2];` is a 2x3 array. */
static int type_dims(st_fl *fl, st_cls *cls, st_inst *in, int n) {
  for (int hops = 0; cls && cls->ast && hops < 64; hops++) {
    const st_ast_element *ext = st_cls_type_extends(cls);
    if (ext) {
      cls = st_lookup_extends(fl->fe, cls, ext);
      continue;
    }
    if (cls->ast->form != ACF_SHORT) break;
    st_env env = {NULL, cls->parent};
    for (const st_ast_expr *s = cls->ast->base_subs; s; s = s->next) {
      if (n == 4) {
        st_fl_error(fl, s->loc, in, "more than 4 array dimensions are not supported");
        return -1;
      }
      if ((in->dims[n] = type_dim_size(fl, s, env)) < 0 && eval_int(fl, s, env, in, &in->dims[n]))
        return -1;
      n++;
    }
    cls = st_lookup_class(fl->fe, cls->parent, cls->ast->base);
  }
  return n;
}

/* base[i,j,...] for the 1-based indices ix (written by hand: snprintf was 4 % of translating
 * an array chain of 10^4 masses, one call per element and dimension). */
static const char *element_name(st_fl *fl, const char *base, const int *ix, int n) {
  size_t blen = strlen(base);
  char *out = st_arena_alloc(fl->tmp, blen + (size_t)n * 12 + 2), *p = out;
  if (!out) return NULL;
  memcpy(p, base, blen);
  p += blen;
  *p++ = '[';
  for (int d = 0; d < n; d++) {
    char digits[12];
    int k = 0;
    unsigned v = ix[d] > 0 ? (unsigned)ix[d] : 0;
    do digits[k++] = (char)('0' + v % 10); while ((v /= 10) > 0);
    if (d) *p++ = ',';
    while (k) *p++ = digits[--k];
  }
  *p++ = ']';
  *p = 0;
  return out;
}

/* Advances a 1-based row-major multi-index; 0 when done. */
static int next_index(int *ix, const int *dims, int n) {
  for (int d = n - 1; d >= 0; d--) {
    if (++ix[d] <= dims[d]) return 1;
    ix[d] = 1;
  }
  return 0;
}

static void inst_array(st_fl *fl, st_inst *arr, st_cls *cls, st_mod *mod,
                       const st_ast_element *decl) {
  int total = 1;
  for (int d = 0; d < arr->ndims; d++) total *= arr->dims[d];
  if (total == 0) return;
  int ix[4] = {1, 1, 1, 1};
  do {
    int *copy = st_arena_alloc(fl->tmp, sizeof ix);
    if (!copy) return;
    memcpy(copy, ix, sizeof ix);
    const char *name = element_name(fl, arr->name, ix, arr->ndims);
    st_inst *el = name ? inst_new(fl, arr, name, arr->loc) : NULL;
    if (!el) return;
    /* an element is named after the array, not inside it: J[2].phi, not J.J[2].phi */
    el->path = arr->parent && arr->parent->path[0]
                   ? st_arena_concat(fl->tmp, arr->parent->path, ".", el->name)
                   : el->name;
    inst_element(fl, el, cls, st_mod_element(fl, mod, copy, arr->ndims), NULL, decl);
    if (el->is_connector) arr->is_connector = 1;
  } while (next_index(ix, arr->dims, arr->ndims));
}

/* ------------------------------------------------------------------- components */

static int condition_holds(st_fl *fl, const st_ast_expr *cond, st_env env, const st_inst *in) {
  double v;
  if (st_fl_eval_ast(fl, cond, env, &v) == 0) return v != 0;
  st_fl_error(fl, cond->loc, in, "the condition of a conditional component must be a "
              "parameter expression");
  return 0;
}

/* The declared type of e, or the class a substitution gives the declaration at in->path
 * (st_front_flatten_substituted, front.h). NULL after an error. */
static st_cls *component_class(st_fl *fl, st_inst *in, const st_ast_element *e, st_cls *owner) {
  for (int i = 0; i < fl->nsubst; i++) {
    if (strcmp(fl->subst[i].component, in->path) != 0) continue;
    fl->subst_used[i] = 1;
    st_cls *c = st_front_class_by_name(fl->fe, fl->subst[i].class_name);
    if (!c)
      st_fl_error(fl, e->u.comp.type->loc, in->parent, "class '%s' substituted for component "
                  "'%s' not found", fl->subst[i].class_name, e->u.comp.name);
    return c;
  }
  st_cls *cls = st_lookup_class(fl->fe, owner, e->u.comp.type);
  if (!cls)
    st_fl_error(fl, e->u.comp.type->loc, in->parent, "undefined type '%s' of component '%s'",
                e->u.comp.type->text, e->u.comp.name);
  return cls;
}

/* The modifier a redeclaration keeps from the replaced declaration (Modelica 3.5 section
 * 7.3.2): that of its constraining clause, or without one, the declaration's own. */
static st_mod *constraining_mod(st_fl *fl, const st_ast_element *orig, st_env env) {
  const st_ast_mod *m = orig->constraint ? orig->constraint->mod : orig->u.comp.mod;
  return st_mod_from_ast(fl, m, env, 0, orig->final, orig->u.comp.name, orig->u.comp.name_loc);
}

static void inst_declared(st_fl *fl, st_inst *in);

/* The inner element for outer component `in` (Modelica 3.5 section 5.4): the element of the
 * same name declared `inner` in the nearest enclosing instance. Without one, a default inner
 * is added at the top level (once, with a warning, as tools do). NULL when `in` is to be
 * instantiated itself: an outer of the top-level model, or an `inner outer` element with no
 * inner above it. */
/* The inner part of `inner outer` element `in` (inst.h): declared under a name no reference
 * can spell, with in's path, instantiated with the parent's other kids. */
static void add_inner_part(st_fl *fl, st_inst *in) {
  st_inst *part = inst_new(fl, in->parent, st_arena_concat(fl->tmp, in->name, " ", "inner"),
                           in->loc);
  if (!part) return;
  part->path = in->path;
  part->decl = in->decl;
  part->owner = in->owner;
  part->mod = in->mod;
  part->redecl = in->redecl;
  part->redecl_owner = in->redecl_owner;
  part->pending = 1;
  part->default_inner = 1; /* instantiated itself, not looked up as an outer */
  in->inner_part = part;
}

static st_inst *find_inner(st_fl *fl, st_inst *in) {
  const char *name = in->decl->u.comp.name;
  for (st_inst *p = in->parent ? in->parent->parent : NULL; p; p = p->parent) {
    st_inst *own = kid_own(p, name);
    if (own && own->pending == 1) inst_declared(fl, own);
    if (own && own->inner_part) return own->inner_part;
    st_inst *k = st_inst_member(fl, p, name);
    if (k && ((k->decl && k->decl->inner) || k->default_inner)) return k;
  }
  if (in->decl->inner || in->parent == fl->top) {
    if (!in->decl->inner)
      st_warning(fl->diag, in->loc, "no inner declaration for outer '%s': '%s' is used as the "
                 "inner one", name, in->path);
    return NULL;
  }
  st_inst *top = st_inst_kid(fl->top, name);
  if (top && top->default_inner) return top;
  if (top) {
    st_fl_error(fl, in->loc, in->parent, "no inner declaration for outer '%s', and the "
                "top-level '%s' is not one", name, name);
    return NULL;
  }
  st_warning(fl->diag, in->loc, "no inner declaration for outer '%s' (in '%s'): a default "
             "inner '%s' of its type is added at the top level", name, in->parent->path, name);
  top = inst_new(fl, fl->top, name, in->loc);
  if (!top) return NULL;
  top->decl = in->decl;
  top->owner = in->owner;
  top->pending = 1;
  top->default_inner = 1;
  inst_declared(fl, top);
  return top;
}

/* Instantiates a declared component (Modelica 3.5 section 5.6.2): its own modifier under
 * the one from outside, its prefixes, condition, class and array sizes. A redeclaration,
 * in a modifier from outside or among the elements of a derived class, gives the type,
 * the modifier and the array sizes. */
static void inst_declared(st_fl *fl, st_inst *in) {
  const st_ast_element *orig = in->decl, *e = orig;
  st_inst *parent = in->parent;
  st_env env = {parent, in->owner};
  st_cls *scope = in->owner;
  in->pending = 2;
  if (orig->outer && !in->default_inner && (in->alias = find_inner(fl, in))) {
    in->pending = 0;
    if (orig->inner) add_inner_part(fl, in);
    return;
  }
  st_mod *own;
  if (in->mod && in->mod->redecl && in->mod->redecl->element) {
    e = in->mod->redecl->element;
    scope = in->mod->redecl->env.cls;
    own = constraining_mod(fl, orig, env);
  } else if (in->redecl) {
    e = in->redecl;
    scope = in->redecl_owner;
    own = st_mod_merge(fl, st_mod_from_ast(fl, e->u.comp.mod, (st_env){parent, scope}, 0,
                                           e->final, e->u.comp.name, e->u.comp.name_loc),
                       constraining_mod(fl, orig, env));
  } else if (e->u.comp.mod || e->final) {
    own = st_mod_from_ast(fl, e->u.comp.mod, env, 0, e->final, e->u.comp.name,
                          e->u.comp.name_loc);
  } else {
    own = NULL; /* nothing of its own: the modifier from outside as it is */
  }
  if (e != orig && !orig->replaceable)
    st_fl_error(fl, e->u.comp.name_loc, parent, "'%s' is not replaceable and cannot be "
                "redeclared", orig->u.comp.name);
  /* merged here when a conditional component's modifier is to be checked even if the
   * condition is false, or when a dimension comes from the binding; else only for arrays
   * (a scalar merges under its type's modifier: inst_element) */
  int colon = 0;
  for (const st_ast_expr *x = e->u.comp.subs; x; x = x->next) colon |= x->kind == AX_COLON;
  for (const st_ast_expr *x = orig->u.comp.subs; x; x = x->next) colon |= x->kind == AX_COLON;
  for (const st_ast_expr *x = e->u.comp.type_subs; x; x = x->next) colon |= x->kind == AX_COLON;
  for (const st_ast_expr *x = orig->u.comp.type_subs; x; x = x->next)
    colon |= x->kind == AX_COLON;
  int merged = colon || orig->u.comp.condition;
  st_mod *mod = merged ? st_mod_merge(fl, in->mod, own) : NULL;
  in->prefix.is_protected |= orig->is_protected;
  in->prefix.is_final |= orig->final || e->final;
  apply_type_prefix(&in->prefix, &orig->u.comp.prefix);
  if (e != orig) apply_type_prefix(&in->prefix, &e->u.comp.prefix);
  if (orig->u.comp.condition && !condition_holds(fl, orig->u.comp.condition, env, in)) {
    in->disabled = 1;
    in->pending = 0;
    return;
  }
  st_cls *cls = component_class(fl, in, e, scope);
  const st_ast_element *sized = e->u.comp.subs || e->u.comp.type_subs ? e : orig;
  int n = cls ? collect_dims(fl, sized, sized == e ? (st_env){parent, scope} : env, mod, in,
                             in->dims)
              : -1;
  if (n >= 0) n = type_dims(fl, cls, in, n);
  if (n >= 0) {
    in->ndims = n;
    if (n == 0) inst_element(fl, in, cls, merged ? mod : in->mod, merged ? NULL : own, e);
    else inst_array(fl, in, cls, merged ? mod : st_mod_merge(fl, in->mod, own), e);
  }
  in->pending = 0;
}

st_inst *st_inst_member(st_fl *fl, st_inst *in, const char *name) {
  st_inst *kid = st_inst_kid(in, name);
  if (kid && kid->pending == 1) inst_declared(fl, kid);
  return kid && kid->alias ? kid->alias : kid; /* an outer found its inner just now */
}

/* Names a component of parent, to be instantiated later; an inherited element of the same
 * name stays (Modelica 3.5 section 7.1.3: the two must be identical). */
static void declare_component(st_fl *fl, st_inst *parent, const st_ast_element *e,
                              st_cls *owner, st_mod *outer) {
  st_inst *old = st_inst_kid(parent, e->u.comp.name);
  if (old && e->redeclare && old->pending == 1) {
    old->redecl = e;
    old->redecl_owner = owner;
    old->mod = st_mod_merge(fl, outer, old->mod);
  }
  if (old) return;
  st_inst *in = inst_new(fl, parent, e->u.comp.name, e->u.comp.name_loc);
  if (!in) return;
  in->decl = e;
  in->owner = owner;
  in->mod = outer;
  in->pending = 1;
}

/* ------------------------------------------------------------------- classes */

static void add_sections(st_fl *fl, st_inst *in, st_cls *cls) {
  for (const st_ast_section *s = cls->ast->sections; s; s = s->next) {
    st_section_ref *r = st_arena_alloc(fl->tmp, sizeof *r);
    if (!r) return;
    r->sec = s;
    r->env = (st_env){in, cls};
    if (in->last_section) in->last_section->next = r;
    else in->sections = r;
    in->last_section = r;
  }
}

static void declare_class(st_fl *fl, st_inst *in, st_cls *cls, st_mod *mod);

/* cls seen with the classes that the modifier redeclares (`Pipe pipe(redeclare package
 * Medium = Water)`): its elements are then looked up in that specialization. */
static st_cls *with_redeclared_classes(st_fl *fl, st_inst *in, st_cls *cls, const st_mod *mod) {
  st_cls_redecl r[64];
  int n = 0;
  for (const st_mod *s = mod ? mod->subs : NULL; s; s = s->next) {
    if (!s->redecl || !s->redecl->cls) continue;
    if (n == 64) {
      st_fl_error(fl, s->loc, in, "more than 64 classes redeclared in one modifier");
      break;
    }
    r[n++] = (st_cls_redecl){s->name, s->redecl->cls};
  }
  return st_cls_specialize(fl->fe, cls, r, n);
}

static void declare_extends(st_fl *fl, st_inst *in, st_cls *cls, const st_ast_element *e,
                            st_mod *mod) {
  st_cls *base = st_lookup_extends(fl->fe, cls, e);
  if (!base && strcmp(e->u.extends.name->text, "ExternalObject") == 0) {
    st_fl_error(fl, e->u.extends.name->loc, in, "external objects (classes extending "
                "ExternalObject, Modelica 3.5 section 12.9.7) are not supported");
    return;
  }
  if (!base) {
    st_fl_error(fl, e->u.extends.name->loc, in, "undefined base class '%s'",
                e->u.extends.name->text);
    return;
  }
  st_env env = {in, cls};
  st_mod *own = e->u.extends.mod ? st_mod_from_ast(fl, e->u.extends.mod, env, 0, 0, "", e->loc)
                                 : NULL;
  check_mod_names(fl, own, st_cls_resolve_short(fl->fe, base) ? st_cls_resolve_short(fl->fe, base)
                                                              : base, in);
  declare_class(fl, in, base, st_mod_merge(fl, mod, own));
}

/* Declares the components of cls and its base classes in `in`, and adds their sections. */
static void declare_class(st_fl *fl, st_inst *in, st_cls *cls, st_mod *mod) {
  if (cls->busy || fl->depth > 200) {
    st_fl_error(fl, cls->ast ? cls->ast->name_loc : in->loc, in,
                "class '%s' extends or contains itself", cls->full);
    return;
  }
  if (cls->ast && cls->ast->form == ACF_SHORT) {
    st_cls *base = resolve_type(fl, in, cls, &mod);
    if (base) declare_class(fl, in, base, mod);
    return;
  }
  if (!cls->ast || cls->ast->form == ACF_ENUMERATION || cls->ast->form == ACF_DER) {
    st_fl_error(fl, in->loc, in, "'%s' cannot be instantiated as a structured component",
                cls->full);
    return;
  }
  if (is_connector_class(cls)) in->is_connector = 1;
  st_cls *declared = cls;
  cls = with_redeclared_classes(fl, in, cls, mod);
  if (in->cls == declared) in->cls = cls; /* functions of the component are looked up there */
  cls->busy = 1;
  /* Base classes, constants and parameters first, then the other components: the order
   * of instantiation, and so of the flat variables, when nothing is needed earlier. */
  for (int pass = 0; pass < 2; pass++)
    for (const st_ast_element *e = cls->ast->elements; e; e = e->next) {
      int early = e->kind == AEL_EXTENDS ||
                  (e->kind == AEL_COMPONENT && e->u.comp.prefix.variability >= AV_PARAMETER);
      if (early != (pass == 0)) continue;
      if (e->kind == AEL_EXTENDS) declare_extends(fl, in, cls, e, mod);
      else if (e->kind == AEL_COMPONENT)
        declare_component(fl, in, e, cls, st_mod_find(mod, e->u.comp.name));
    }
  add_sections(fl, in, cls);
  cls->busy = 0;
}

/* A class instantiated inside an instance of itself would never end. */
static int contains_itself(const st_inst *in, const st_cls *cls) {
  for (const st_inst *p = in->parent; p; p = p->parent)
    if (p->cls == cls) return 1;
  return 0;
}

static void inst_class(st_fl *fl, st_inst *in, st_cls *cls, st_mod *mod) {
  if (contains_itself(in, cls) || fl->depth > 200) {
    st_fl_error(fl, cls->ast ? cls->ast->name_loc : in->loc, in,
                "class '%s' extends or contains itself", cls->full);
    return;
  }
  fl->depth++;
  declare_class(fl, in, cls, mod);
  for (int i = 0; i < in->nkids; i++)
    if (in->kids[i]->pending == 1) inst_declared(fl, in->kids[i]);
  fl->depth--;
}

st_inst *st_instantiate(st_fl *fl, st_cls *cls, st_mod *mod) {
  st_inst *top = inst_new(fl, NULL, "", cls->ast ? cls->ast->name_loc : (st_loc){0});
  if (!top) return NULL;
  top->prefix.variability = ST_V_CONTINUOUS;
  fl->top = top;
  top->cls = cls;
  inst_class(fl, top, cls, mod);
  return top;
}
