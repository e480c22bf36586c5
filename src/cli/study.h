/* The model behind `stiction study` (doc/study.md): a "study source" hands out a runnable
 * stiction_model for the exact (event-driven) friction element and for each regularized law
 * and width. Sources: the built-in demos (cmd_study.c) and a Modelica model whose friction
 * element is switched by modifiers (study_modelica.c). */
#ifndef ST_CLI_STUDY_H
#define ST_CLI_STUDY_H

#include <stddef.h>

#include <stiction/stiction.h>

/* The laws, in the order of Stiction.Types.FrictionLaw (0 = EventDriven, the exact element). */
typedef enum st_study_law { ST_LAW_EXACT = 0, ST_LAW_ARCTAN, ST_LAW_TANH, ST_LAW_KARNOPP,
                            ST_LAW_LUGRE } st_study_law;

/* One runnable configuration handed out by a source; `handle` is the source's own. */
typedef struct st_study_model {
  const stiction_model *model;
  void *user_data;
  stiction_options opt; /* the source's experiment (stop time, interval, tolerance) */
  void *handle;
} st_study_model;

typedef struct st_study_source {
  const char *name;   /* what the user typed */
  const char *signal; /* the recorded variable whose period and RMS are measured */
  /* law == ST_LAW_EXACT: the event-driven element. Returns 0, or -1 with a one-line message. */
  int (*open)(const struct st_study_source *src, int law, double width, st_study_model *out,
              char *msg, size_t size);
  void (*close)(st_study_model *m);
  const char *exact_demo, *smooth_demo; /* the demo source's data */
  void *ctx;                            /* the Modelica source's data */
} st_study_source;

/* The Modelica source: MODEL.mo (its default class, or `class_name`) with the component
 * `element`, a Stiction element with the parameters law/eps/sigma0/sigma1
 * (Stiction.Translational.Components.LeineFriction) or an MSL friction element that a
 * Stiction element replaces in the regularized runs (study_modelica.c). Checks the element and reads the
 * model's experiment into *exp_opt (fields it does not set keep their value). Returns 0, or
 * -1 after printing the errors to stderr. st_study_modelica_free() releases src->ctx. */
int st_study_modelica_init(st_study_source *src, const char *file, const char *class_name,
                           const char *element, const char *const *libs, int n_libs,
                           stiction_options *exp_opt);
/* Whether the Modelica source can run `law`: every law for a Stiction element with `law`,
 * for an MSL element those its Stiction replacement has (all of them today); *replacement is the Stiction class
 * that replaces an MSL element in the regularized runs (NULL for a Stiction element). */
int st_study_modelica_has_law(const st_study_source *src, int law, const char **replacement);
void st_study_modelica_free(st_study_source *src);

#endif
