/* The one place that bridges SUNDIALS 6.x (Debian 12 ships 6.4) and 7.x.
 *
 * Differences handled here:
 *  - SUNContext_Create takes an MPI communicator first: NULL in 6.x, SUN_COMM_NULL in 7.x;
 *  - 7.x removed CVodeSetErrHandlerFn/IDASetErrHandlerFn in favour of per-context error
 *    handlers (SUNContext_PushErrHandler);
 *  - the real type is sunrealtype in both (6.0 introduced it, `realtype` is gone in 7.x).
 * Everything else in src/runtime uses only calls common to both. */
#ifndef ST_RUNTIME_SUNDIALS_COMPAT_H
#define ST_RUNTIME_SUNDIALS_COMPAT_H

#include <sundials/sundials_config.h>
#include <sundials/sundials_context.h>
#include <sundials/sundials_types.h>

#if SUNDIALS_VERSION_MAJOR >= 7
#define ST_SUN_COMM_NULL SUN_COMM_NULL
#else
#define ST_SUN_COMM_NULL NULL
#endif

#if SUNDIALS_VERSION_MAJOR < 6
#error "stiction needs SUNDIALS 6.0 or newer (sunrealtype, SUNContext)"
#endif

/* Creates a context; returns 0 on success. */
static inline int st_sun_context_create(SUNContext *ctx) {
  return SUNContext_Create(ST_SUN_COMM_NULL, ctx) != 0;
}

#endif
