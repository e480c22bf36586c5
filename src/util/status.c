/* Status phrases of the public API (include/stiction/stiction.h). */
#include <stiction/stiction.h>

#include "config.h"

const char *stiction_strerror(int status) {
  switch (status) {
  case STICTION_OK: return "success";
  case STICTION_ERR_NOMEM: return "out of memory";
  case STICTION_ERR_ARG: return "invalid argument";
  case STICTION_ERR_IO: return "input/output error";
  case STICTION_ERR_SYNTAX: return "syntax error";
  case STICTION_ERR_MODEL: return "invalid model";
  case STICTION_ERR_CALLBACK: return "model callback failed";
  case STICTION_ERR_NONFINITE: return "non-finite value from the model";
  case STICTION_ERR_SOLVER: return "integrator failure";
  case STICTION_ERR_EVENT_ITER: return "event iteration did not converge";
  case STICTION_ERR_CHATTER: return "chattering: too many events in a short time";
  case STICTION_ERR_INIT: return "initialization failed";
  case STICTION_ERR_ASSERT: return "model assertion failed";
  case STICTION_ERR_UNSUPPORTED: return "not supported";
  case STICTION_ERR_STATE: return "operation not allowed in this state";
  case STICTION_ERR_NOT_FOUND: return "not found";
  default: return "unknown status";
  }
}

const char *stiction_version(void) { return PACKAGE_VERSION; }
