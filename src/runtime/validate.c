/* stiction_model_validate: sizes, required callbacks and names (include/stiction/model.h). */
#include <stddef.h>
#include <stdio.h>

#include "runtime/runtime.h"

static int fail(char *msg, unsigned long size, const char *name, const char *what) {
  if (msg && size) snprintf(msg, size, "model %s: %s", name ? name : "(unnamed)", what);
  return STICTION_ERR_ARG;
}

static const char *check_sizes(const stiction_model *m) {
  if (m->n_states < 0 || m->n_algebraic < 0 || m->n_indicators < 0 || m->n_discrete < 0 ||
      m->n_outputs < 0)
    return "negative size";
  if (m->n_states + m->n_algebraic == 0) return "no continuous unknowns (n_states + n_algebraic is 0)";
  return NULL;
}

static const char *check_callbacks(const stiction_model *m) {
  if (!m->start_values) return "start_values() is required";
  if (!m->derivatives && !m->residual) return "needs derivatives() or residual()";
  if (m->n_algebraic > 0 && !m->residual) return "algebraic variables need residual()";
  if (m->n_indicators > 0 && !m->indicators) return "indicators need indicators()";
  if ((m->n_indicators > 0 || m->n_discrete > 0) && !m->event_update)
    return "indicators or discrete variables need event_update()";
  if (m->n_outputs > 0 && !m->outputs) return "recorded variables need outputs()";
  return NULL;
}

static const char *check_names(const stiction_model *m) {
  if (m->n_outputs > 0 && !m->output_names) return "output_names is required";
  for (int i = 0; i < m->n_outputs; i++)
    if (!m->output_names[i] || !m->output_names[i][0]) return "an output name is NULL or empty";
  if (m->nominal)
    for (int i = 0; i < m->n_states + m->n_algebraic; i++)
      if (!(m->nominal[i] > 0)) return "nominal values must be > 0";
  return NULL;
}

int stiction_model_validate(const stiction_model *model, char *message, unsigned long size) {
  if (message && size) message[0] = 0;
  if (!model) return fail(message, size, NULL, "model is NULL");
  /* this layout, or the one before dae_jac_cols/dae_jac_rows (jacfd.c reads them by size) */
  if (model->size != sizeof(stiction_model) &&
      model->size != offsetof(stiction_model, dae_jac_cols))
    return fail(message, size, model->name,
                model->size ? "size is not sizeof(stiction_model) of this library (built "
                              "against another version of stiction/model.h?)"
                            : "size is not set (.size = sizeof(stiction_model))");
  const char *why = check_sizes(model);
  if (!why) why = check_callbacks(model);
  if (!why) why = check_names(model);
  return why ? fail(message, size, model->name, why) : STICTION_OK;
}
