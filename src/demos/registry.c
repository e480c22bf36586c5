/* The catalogue of built-in demos behind stiction/demos.h: lookup by name, instances with
 * their own user_data, and parameters set by name with range checks. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <stiction/demos.h>
#include <stiction/stiction.h>

#include "demos/demo_impl.h"

extern const st_demo_def st_demo_leine_belt_smooth; /* src/demos/leine_belt_smooth.c */

static const st_demo_def *const catalogue[] = {
    &st_demo_friction_block,
    &st_demo_leine_belt,
    &st_demo_bouncing_ball,
    &st_demo_leine_belt_smooth,
};
enum { N_DEMOS = (int)(sizeof catalogue / sizeof catalogue[0]) };

struct stiction_demo {
  const st_demo_def *def;
  void *data; /* the model's user_data, data_size bytes */
};

int stiction_demo_count(void) { return N_DEMOS; }

const char *stiction_demo_name(int index) {
  return index >= 0 && index < N_DEMOS ? catalogue[index]->name : NULL;
}

const char *stiction_demo_description(int index) {
  return index >= 0 && index < N_DEMOS ? catalogue[index]->description : NULL;
}

static double *param_slot(void *data, const st_demo_param *p) {
  return (double *)((char *)data + p->offset);
}

int stiction_demo_new(stiction_demo **out, const char *name) {
  if (!out) return STICTION_ERR_ARG;
  *out = NULL;
  if (!name) return STICTION_ERR_ARG;
  const st_demo_def *def = NULL;
  for (int i = 0; i < N_DEMOS && !def; i++)
    if (!strcmp(catalogue[i]->name, name)) def = catalogue[i];
  if (!def) return STICTION_ERR_NOT_FOUND;
  stiction_demo *demo = malloc(sizeof *demo);
  void *data = calloc(1, def->data_size);
  if (!demo || !data) {
    free(demo);
    free(data);
    return STICTION_ERR_NOMEM;
  }
  for (int i = 0; i < def->n_params; i++) *param_slot(data, &def->params[i]) = def->params[i].value;
  demo->def = def;
  demo->data = data;
  *out = demo;
  return STICTION_OK;
}

void stiction_demo_free(stiction_demo *demo) {
  if (!demo) return;
  free(demo->data);
  free(demo);
}

const stiction_model *stiction_demo_model(const stiction_demo *demo) {
  return demo ? demo->def->model : NULL;
}

void *stiction_demo_data(stiction_demo *demo) { return demo ? demo->data : NULL; }

static const st_demo_param *find_param(const stiction_demo *demo, const char *name) {
  if (!demo || !name) return NULL;
  for (int i = 0; i < demo->def->n_params; i++)
    if (!strcmp(demo->def->params[i].name, name)) return &demo->def->params[i];
  return NULL;
}

/* "[lo, hi]" style text of a parameter's range for messages. */
static void describe_range(const st_demo_param *p, char *buf, size_t size) {
  if (isinf(p->min) && isinf(p->max)) snprintf(buf, size, "any finite number");
  else if (isinf(p->max)) snprintf(buf, size, "%s %g", p->min_open ? ">" : ">=", p->min);
  else snprintf(buf, size, "in %c%g, %g]", p->min_open ? '(' : '[', p->min, p->max);
}

int stiction_demo_set(stiction_demo *demo, const char *name, double value, char *message,
                      size_t size) {
  const st_demo_param *p = find_param(demo, name);
  char range[64];
  if (!p) {
    if (message && size)
      snprintf(message, size, "%s has no parameter '%s'", demo ? demo->def->name : "(null)",
               name ? name : "(null)");
    return STICTION_ERR_NOT_FOUND;
  }
  int ok = isfinite(value) && value >= p->min && value <= p->max && !(p->min_open && value == p->min);
  if (!ok) {
    describe_range(p, range, sizeof range);
    if (message && size)
      snprintf(message, size, "%s: parameter %s = %g is out of range (must be %s)",
               demo->def->name, p->name, value, range);
    return STICTION_ERR_ARG;
  }
  *param_slot(demo->data, p) = value;
  return STICTION_OK;
}

int stiction_demo_get(const stiction_demo *demo, const char *name, double *value) {
  const st_demo_param *p = find_param(demo, name);
  if (!p) return STICTION_ERR_NOT_FOUND;
  if (!value) return STICTION_ERR_ARG;
  *value = *param_slot(demo->data, p);
  return STICTION_OK;
}

int stiction_demo_param_count(const stiction_demo *demo) {
  return demo ? demo->def->n_params : 0;
}

const char *stiction_demo_param_name(const stiction_demo *demo, int index) {
  return demo && index >= 0 && index < demo->def->n_params ? demo->def->params[index].name : NULL;
}

const char *stiction_demo_param_description(const stiction_demo *demo, int index) {
  return demo && index >= 0 && index < demo->def->n_params ? demo->def->params[index].description
                                                           : NULL;
}

void stiction_demo_options(const stiction_demo *demo, stiction_options *opt) {
  if (!demo || !opt) return;
  opt->start_time = demo->def->start_time;
  opt->stop_time = demo->def->stop_time;
  opt->interval = demo->def->interval;
  opt->rtol = demo->def->rtol;
}
