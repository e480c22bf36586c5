/* modelDescription.xml of a compiled program (FMI 2.0, Model Exchange and Co-Simulation in
 * one FMU). Every exported variable's value reference is its slot (fmu.h); the index of a
 * ScalarVariable is its position in the list, from 1. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <stiction/stiction.h>

#include "compile/model_impl.h"
#include "fmi/export.h"
#include "fmi/fmu.h"
#include "io/shortest.h"

/* What one slot is in the model description. */
typedef struct var_desc {
  int slot, type;           /* type: 'r', 'i', 'b' (fmu.h) */
  const char *causality, *variability, *initial; /* initial NULL: the default */
  int has_start;
  int derivative_of;        /* index (from 1) of the state this is der() of, or 0 */
} var_desc;

static void xml_text(FILE *out, const char *s) {
  for (; s && *s; s++) {
    unsigned char c = (unsigned char)*s;
    switch (c) {
    case '&': fputs("&amp;", out); break;
    case '<': fputs("&lt;", out); break;
    case '>': fputs("&gt;", out); break;
    case '"': fputs("&quot;", out); break;
    default:
      if (c < 0x20) fprintf(out, "&#x%x;", c == '\t' || c == '\n' || c == '\r' ? c : 0x20);
      else fputc(c, out);
    }
  }
}

static int is_top_output(const st_fvar *fv) {
  return fv && fv->causality == ST_C_OUTPUT && !strchr(fv->name, '.');
}

static int describe_slot(const st_instance *in, int slot, var_desc *d) {
  memset(d, 0, sizeof *d);
  d->slot = slot;
  d->type = st_fmu_slot_type(in, slot);
  if (!d->type) return 0;
  const st_flat_model *flat = st_instance_flat(in);
  const st_fvar *fv = slot < flat->nvars ? &flat->vars[slot] : NULL;
  int kind = st_instance_slot_kind(in, slot);
  int discrete = d->type != 'r' || (fv && fv->variability == ST_V_DISCRETE) || kind == 'z';
  const char *moving = discrete ? "discrete" : "continuous";
  d->causality = is_top_output(fv) ? "output" : "local";
  d->variability = moving;
  switch (kind) {
  case 'p':
    d->causality = "parameter", d->variability = "fixed", d->initial = "exact";
    d->has_start = 1;
    break;
  case 'c': /* a constant, or a parameter fixed at translation: its value is final */
    d->variability = "constant", d->initial = "exact", d->has_start = 1;
    break;
  case 'i': d->causality = "input", d->has_start = 1; break;
  case 's':
    d->initial = in->p.slots[slot].fixed ? "exact" : "approx";
    d->has_start = 1;
    break;
  case 'e': /* an alias or a value computed from parameters */
    if (fv && fv->variability <= ST_V_PARAMETER) {
      d->causality = "calculatedParameter", d->variability = "fixed";
      if (fv->variability == ST_V_CONSTANT)
        d->causality = "local", d->variability = "constant", d->initial = "exact", d->has_start = 1;
    }
    break;
  default: break; /* 'd', 'a', 'z': calculated */
  }
  return 1;
}

static void put_real(FILE *out, double v) {
  char buf[ST_SHORTEST_MAX];
  st_format_shortest(buf, v);
  fputs(buf, out);
}

static void put_start(FILE *out, const var_desc *d, double v) {
  fputs(" start=\"", out);
  if (d->type == 'b') fputs(v != 0 ? "true" : "false", out);
  else if (d->type == 'i') fprintf(out, "%ld", lround(v));
  else put_real(out, v);
  fputc('"', out);
}

static const char *unit_of(const st_instance *in, int slot) {
  const st_flat_model *flat = st_instance_flat(in);
  if (slot >= flat->nvars) { /* der(x): x's unit per second, when x has one */
    return NULL;
  }
  const char *u = flat->vars[slot].unit;
  return u && u[0] ? u : NULL;
}

/* The units of Real variables, each once, in order of appearance. */
static int collect_units(const st_instance *in, const var_desc *v, int n, const char ***out) {
  const char **units = malloc(sizeof *units * (size_t)(n + 1));
  int nu = 0;
  for (int i = 0; units && i < n; i++) {
    const char *u = v[i].type == 'r' ? unit_of(in, v[i].slot) : NULL;
    int seen = 0;
    for (int k = 0; u && k < nu && !seen; k++) seen = !strcmp(units[k], u);
    if (u && !seen) units[nu++] = u;
  }
  *out = units;
  return units ? nu : -1;
}

static void header(FILE *out, const st_instance *in, const char *guid, const char *id, int nind) {
  const st_flat_model *flat = st_instance_flat(in);
  fputs("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<fmiModelDescription fmiVersion=\"2.0\" "
        "modelName=\"", out);
  xml_text(out, flat->name);
  fprintf(out, "\" guid=\"%s\" generationTool=\"stiction %s\" variableNamingConvention="
               "\"structured\" numberOfEventIndicators=\"%d\">\n", guid, stiction_version(), nind);
  fprintf(out, "  <ModelExchange modelIdentifier=\"%s\" canNotUseMemoryManagementFunctions="
               "\"true\"/>\n", id);
  fprintf(out, "  <CoSimulation modelIdentifier=\"%s\" canHandleVariableCommunicationStepSize="
               "\"true\" canNotUseMemoryManagementFunctions=\"true\"/>\n", id);
}

static void units_and_types(FILE *out, const char **units, int nu) {
  if (nu == 0) return;
  fputs("  <UnitDefinitions>\n", out);
  for (int k = 0; k < nu; k++) {
    fputs("    <Unit name=\"", out);
    xml_text(out, units[k]);
    fputs("\"/>\n", out);
  }
  fputs("  </UnitDefinitions>\n  <TypeDefinitions>\n", out);
  for (int k = 0; k < nu; k++) { /* one declared type per unit: Real in that unit */
    fputs("    <SimpleType name=\"Real[", out);
    xml_text(out, units[k]);
    fputs("]\">\n      <Real unit=\"", out);
    xml_text(out, units[k]);
    fputs("\"/>\n    </SimpleType>\n", out);
  }
  fputs("  </TypeDefinitions>\n", out);
}

static void experiment(FILE *out, const st_experiment *ex) {
  fputs("  <DefaultExperiment", out);
  if (ex->has_start) fputs(" startTime=\"", out), put_real(out, ex->start_time), fputc('"', out);
  if (ex->has_stop) fputs(" stopTime=\"", out), put_real(out, ex->stop_time), fputc('"', out);
  if (ex->has_tolerance)
    fputs(" tolerance=\"", out), put_real(out, ex->tolerance), fputc('"', out);
  if (ex->has_interval) fputs(" stepSize=\"", out), put_real(out, ex->interval), fputc('"', out);
  fputs("/>\n", out);
}

/* The name in FMI's structured convention: der(der(x)) of index reduction is der(x,2). */
static void put_name(FILE *out, const char *name) {
  int k = 0;
  while (!strncmp(name + 4 * k, "der(", 4)) k++;
  size_t n = strlen(name);
  if (k < 2 || n < (size_t)(5 * k) || strspn(name + n - k, ")") != (size_t)k) {
    xml_text(out, name);
    return;
  }
  char *inner = st_format("%.*s", (int)(n - 5 * (size_t)k), name + 4 * k);
  fputs("der(", out);
  xml_text(out, inner ? inner : "");
  fprintf(out, ",%d)", k);
  free(inner);
}

static void variable(FILE *out, const st_instance *in, const var_desc *d, const double *start) {
  const st_flat_model *flat = st_instance_flat(in);
  const st_fvar *fv = d->slot < flat->nvars ? &flat->vars[d->slot] : NULL;
  fputs("    <ScalarVariable name=\"", out);
  put_name(out, st_instance_slot_name(in, d->slot));
  fprintf(out, "\" valueReference=\"%d\"", d->slot);
  if (fv && fv->description && fv->description[0]) {
    fputs(" description=\"", out);
    xml_text(out, fv->description);
    fputc('"', out);
  }
  fprintf(out, " causality=\"%s\" variability=\"%s\"", d->causality, d->variability);
  if (d->initial) fprintf(out, " initial=\"%s\"", d->initial);
  fprintf(out, ">\n      <%s", d->type == 'r' ? "Real" : d->type == 'i' ? "Integer" : "Boolean");
  const char *u = d->type == 'r' ? unit_of(in, d->slot) : NULL;
  if (u) {
    fputs(" declaredType=\"Real[", out);
    xml_text(out, u);
    fputs("]\" unit=\"", out);
    xml_text(out, u);
    fputc('"', out);
  }
  if (d->has_start) put_start(out, d, start[d->slot]);
  if (d->derivative_of) fprintf(out, " derivative=\"%d\"", d->derivative_of);
  fputs("/>\n    </ScalarVariable>\n", out);
}

static void unknowns(FILE *out, const char *tag, const int *index, int n) {
  if (n == 0) return;
  fprintf(out, "    <%s>\n", tag);
  for (int i = 0; i < n; i++) fprintf(out, "      <Unknown index=\"%d\"/>\n", index[i]);
  fprintf(out, "    </%s>\n", tag);
}

/* Outputs, Derivatives (in the order of the state vector) and InitialUnknowns. */
static int structure(FILE *out, const st_instance *in, const var_desc *v, int n,
                     const int *index_of) {
  int *list = malloc(sizeof *list * (size_t)(n + 1)), k = 0;
  if (!list) return -1;
  fputs("  <ModelStructure>\n", out);
  for (int i = 0; i < n; i++)
    if (!strcmp(v[i].causality, "output")) list[k++] = i + 1;
  unknowns(out, "Outputs", list, k);
  k = 0;
  for (int s = 0; s < in->p.nstates; s++)
    list[k++] = index_of[in->p.slots[in->p.state_slot[s]].der];
  unknowns(out, "Derivatives", list, k);
  k = 0;
  for (int i = 0; i < n; i++) {
    int calc = !v[i].initial || !strcmp(v[i].initial, "approx") ||
               !strcmp(v[i].initial, "calculated");
    if (!strcmp(v[i].variability, "constant") || !strcmp(v[i].causality, "parameter") ||
        !strcmp(v[i].causality, "input"))
      continue;
    int state = st_instance_slot_kind(in, v[i].slot) == 's';
    if ((!strcmp(v[i].causality, "output") && calc) ||
        !strcmp(v[i].causality, "calculatedParameter") || (state && calc) || v[i].derivative_of)
      list[k++] = i + 1;
  }
  unknowns(out, "InitialUnknowns", list, k);
  fputs("  </ModelStructure>\n", out);
  free(list);
  return 0;
}

/* The values after initialization at the experiment's start: the start attributes of
 * parameters, fixed states and inputs, and the guesses of the other states. */
static double *start_values(const st_program *prog, st_instance *in, char **err) {
  const stiction_model *m = st_compiled_model(in);
  int n = m->n_states;
  double *y = calloc((size_t)(2 * n), sizeof *y);
  double *start = malloc(sizeof *start * (size_t)st_instance_nslots(in));
  const st_experiment *ex = &st_instance_flat(in)->experiment;
  if (!y || !start || m->start_values(st_compiled_data(in), ex->has_start ? ex->start_time : 0,
                                      y, y + n)) {
    *err = st_format("the model does not initialize: %s",
                     in->error ? in->error : "out of memory");
    free(y);
    free(start);
    return NULL;
  }
  for (int s = 0; s < st_instance_nslots(in); s++) start[s] = st_instance_value(in, s);
  free(y);
  (void)prog;
  return start;
}

int st_fmu_describe(const st_program *prog, const char *guid, const char *id, FILE *out,
                    char **err) {
  st_diag *diag = st_diag_new(NULL);
  st_instance *in = diag ? st_instance_new(prog, diag) : NULL;
  int ns = in ? st_instance_nslots(in) : 0, n = 0, rc = -1;
  var_desc *v = in ? malloc(sizeof *v * (size_t)(ns + 1)) : NULL;
  int *index_of = in ? calloc((size_t)(ns + 1), sizeof *index_of) : NULL;
  const char **units = NULL;
  double *start = v && index_of ? start_values(prog, in, err) : NULL;
  if (!start) {
    if (!*err) *err = st_format("out of memory");
    goto done;
  }
  for (int s = 0; s < ns; s++)
    if (describe_slot(in, s, &v[n])) index_of[s] = ++n;
  for (int i = 0; i < n; i++)
    if (st_instance_slot_kind(in, v[i].slot) == 'd')
      for (int k = 0; k < in->p.nstates; k++)
        if (in->p.slots[in->p.state_slot[k]].der == v[i].slot)
          v[i].derivative_of = index_of[in->p.state_slot[k]];
  int nu = collect_units(in, v, n, &units);
  if (nu < 0) {
    *err = st_format("out of memory");
    goto done;
  }
  header(out, in, guid, id, in->p.nind);
  units_and_types(out, units, nu);
  experiment(out, &st_instance_flat(in)->experiment);
  fputs("  <ModelVariables>\n", out);
  for (int i = 0; i < n; i++) variable(out, in, &v[i], start);
  fputs("  </ModelVariables>\n", out);
  rc = structure(out, in, v, n, index_of);
  fputs("</fmiModelDescription>\n", out);
  if (rc) *err = st_format("out of memory");
done:
  free(units);
  free(start);
  free(index_of);
  free(v);
  st_instance_free(in);
  st_diag_free(diag);
  return rc;
}
