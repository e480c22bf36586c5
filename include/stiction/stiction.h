/*
 * stiction: a hybrid, event-driven simulation engine (Modelica-style) on SUNDIALS.
 *
 * Umbrella header of the public C API. Conventions, everywhere in this API:
 *  - every public symbol starts with `stiction_` (types `stiction_*`, macros `STICTION_*`);
 *  - functions that can fail return an int status: STICTION_OK (0) or a negative
 *    `stiction_status`; stiction_strerror() turns it into a fixed English phrase, and
 *    objects that can fail keep a longer message (e.g. stiction_sim_error());
 *  - callbacks take a `void *user_data` as their first argument;
 *  - handles are opaque; whoever calls a _new or _create function owns the result and frees it with the
 *    matching *_free. Arrays passed in are borrowed for the duration of the call unless a
 *    header says otherwise;
 *  - there is no global mutable state: independent handles may be used from different
 *    threads at the same time.
 */
#ifndef STICTION_STICTION_H
#define STICTION_STICTION_H

#ifdef __cplusplus
extern "C" {
#endif

#define STICTION_VERSION_MAJOR 0
#define STICTION_VERSION_MINOR 1
#define STICTION_VERSION_PATCH 0

/* Status codes. Zero is success; errors are negative so that positive values stay free
 * for counts returned by some functions. Keep stiction_strerror() in sync. */
typedef enum stiction_status {
  STICTION_OK = 0,
  STICTION_ERR_NOMEM = -1,        /* out of memory */
  STICTION_ERR_ARG = -2,          /* invalid argument (NULL, size, range) */
  STICTION_ERR_IO = -3,           /* file could not be read or written */
  STICTION_ERR_SYNTAX = -4,       /* input text is not well formed */
  STICTION_ERR_MODEL = -5,        /* the model is inconsistent (names, types, structure) */
  STICTION_ERR_CALLBACK = -6,     /* a model callback reported failure */
  STICTION_ERR_NONFINITE = -7,    /* a callback produced NaN or Inf */
  STICTION_ERR_SOLVER = -8,       /* the integrator failed (step size, convergence) */
  STICTION_ERR_EVENT_ITER = -9,   /* event iteration did not reach a fixed point */
  STICTION_ERR_CHATTER = -10,     /* too many events in too short a time (Zeno) */
  STICTION_ERR_INIT = -11,        /* no consistent initial values */
  STICTION_ERR_ASSERT = -12,      /* a model assertion failed */
  STICTION_ERR_UNSUPPORTED = -13, /* a valid construct that this version cannot handle */
  STICTION_ERR_STATE = -14,       /* call out of order (e.g. switching a solver's mode) */
  STICTION_ERR_NOT_FOUND = -15    /* a named thing (class, variable, demo) does not exist */
} stiction_status;

/* A fixed phrase for a status code ("unknown status" for anything else). Never NULL;
 * the string is static and must not be freed. */
const char *stiction_strerror(int status);

/* The library version as "MAJOR.MINOR.PATCH" (static string). */
const char *stiction_version(void);

#ifdef __cplusplus
}
#endif

#include <stiction/model.h>
#include <stiction/simulate.h>
#include <stiction/modelica.h>
#include <stiction/results.h>
#include <stiction/tamsi.h>

#endif
