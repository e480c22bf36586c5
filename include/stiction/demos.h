/*
 * Built-in demo models: small hybrid models written in C against the public model interface
 * (stiction/model.h), each with named parameters and a default experiment. They are what
 * `stiction demo NAME` runs, and the examples to copy when embedding stiction.
 *
 *   stiction_demo *demo;
 *   if (stiction_demo_new(&demo, "friction-block")) ... unknown name ...
 *   stiction_demo_set(demo, "U", 2.0, NULL, 0);
 *   stiction_options opt;
 *   stiction_options_init(&opt);
 *   stiction_demo_options(demo, &opt);          // the demo's stop time and output interval
 *   stiction_sim *sim = stiction_sim_new(stiction_demo_model(demo), stiction_demo_data(demo), &opt);
 *   ... stiction_sim_run(sim) ...
 *   stiction_sim_free(sim);
 *   stiction_demo_free(demo);
 *
 * Demos: "friction-block" (the simple friction element of the MSL friction documentation),
 * "leine-belt" (Leine's block on a moving belt, set-valued stick), "bouncing-ball", and what
 * stiction_demo_name() lists besides. Equations, events and reference numbers: the comment at
 * the top of each src/demos/<name>.c and doc/benchmarks.md §1 and §7.
 */
#ifndef STICTION_DEMOS_H
#define STICTION_DEMOS_H

#include <stiction/simulate.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef struct stiction_demo stiction_demo;

/* The catalogue: names and one-line descriptions by index 0 .. count-1 (NULL out of range;
 * static strings). */
int stiction_demo_count(void);
const char *stiction_demo_name(int index);
const char *stiction_demo_description(int index);

/* Creates an instance of the demo `name` with its default parameters. Returns STICTION_OK,
 * STICTION_ERR_NOT_FOUND (unknown name), STICTION_ERR_ARG (NULL) or STICTION_ERR_NOMEM;
 * *out is NULL on failure. The caller owns *out and frees it with stiction_demo_free(). */
int stiction_demo_new(stiction_demo **out, const char *name);
void stiction_demo_free(stiction_demo *demo);

/* The model table and the user_data to pass with it to stiction_sim_new(). Both are owned
 * by the demo and live until stiction_demo_free(). One instance drives one simulation at a
 * time (user_data holds the discrete state); make two instances for two simulations. */
const stiction_model *stiction_demo_model(const stiction_demo *demo);
void *stiction_demo_data(stiction_demo *demo);

/* Parameters by name. set() returns STICTION_ERR_NOT_FOUND for an unknown name and
 * STICTION_ERR_ARG for a non-finite value or one outside the parameter's range; then, if
 * message is not NULL, it writes a one-line reason (at most size bytes). */
int stiction_demo_set(stiction_demo *demo, const char *name, double value, char *message,
                      size_t size);
int stiction_demo_get(const stiction_demo *demo, const char *name, double *value);
int stiction_demo_param_count(const stiction_demo *demo);
/* Name, description (with unit) and range of parameter `index` (NULL out of range). */
const char *stiction_demo_param_name(const stiction_demo *demo, int index);
const char *stiction_demo_param_description(const stiction_demo *demo, int index);

/* Sets the demo's experiment in opt: start and stop time, output interval, relative
 * tolerance. Other fields are left alone: call stiction_options_init() first. */
void stiction_demo_options(const stiction_demo *demo, stiction_options *opt);

#ifdef __cplusplus
}
#endif

#endif
