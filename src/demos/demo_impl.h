/* How a built-in demo describes itself to the catalogue (src/demos/registry.c): its model
 * table, the size of its user_data, a parameter table and its default experiment.
 * Parameters are doubles at fixed offsets inside the demo's user_data struct, so one generic
 * set/get by name serves every demo. */
#ifndef ST_DEMOS_DEMO_IMPL_H
#define ST_DEMOS_DEMO_IMPL_H

#include <stddef.h>

#include <stiction/model.h>

/* A value is valid when min <= value <= max, and value != min if min_open is set
 * (for strictly positive masses and widths). */
typedef struct st_demo_param {
  const char *name;
  const char *description;
  double value;             /* default */
  double min, max;
  int min_open;
  size_t offset;            /* of the double inside user_data */
} st_demo_param;

typedef struct st_demo_def {
  const char *name;
  const char *description;
  const stiction_model *model;
  size_t data_size;         /* bytes of user_data, zero-filled before the defaults are set */
  const st_demo_param *params;
  int n_params;
  double start_time, stop_time, interval, rtol;
} st_demo_def;

/* Hysteresis of the event indicators that start at zero when integration restarts (see
 * stiction/model.h "Indicators and hysteresis" and doc/events.md): the value Dymola uses. */
#define ST_DEMO_HYSTERESIS 1e-10

extern const st_demo_def st_demo_friction_block;
extern const st_demo_def st_demo_leine_belt;
extern const st_demo_def st_demo_bouncing_ball;

#endif
