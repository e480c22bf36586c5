/* Names of BAM models and actuator keys (doc/bam.md §2, §3). */
#include <string.h>

#include <stiction/bam.h>

static const char *const model_names[] = {NULL, "m1", "m2", "m3", "m4", "m5", "m6"};
static const char *const actuator_names[] = {NULL, "mx64", "mx106", "xl320", "xl330",
                                             "erob80_50", "erob80_100", "sts3215"};
#define NMODELS (sizeof model_names / sizeof model_names[0])
#define NACTUATORS (sizeof actuator_names / sizeof actuator_names[0])

const char *stiction_bam_model_name(stiction_bam_model m) {
  return (m > 0 && (size_t)m < NMODELS) ? model_names[m] : NULL;
}

const char *stiction_bam_actuator_name(stiction_bam_actuator a) {
  return (a > 0 && (size_t)a < NACTUATORS) ? actuator_names[a] : NULL;
}

stiction_bam_model stiction_bam_model_from_name(const char *name) {
  for (size_t i = 1; name && i < NMODELS; i++)
    if (!strcmp(name, model_names[i])) return (stiction_bam_model)i;
  return 0;
}

stiction_bam_actuator stiction_bam_actuator_from_name(const char *name) {
  for (size_t i = 1; name && i < NACTUATORS; i++)
    if (!strcmp(name, actuator_names[i])) return (stiction_bam_actuator)i;
  return 0;
}
