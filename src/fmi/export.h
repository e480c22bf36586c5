/* Writing an FMU of a compiled class (`stiction fmu`, doc/fmi.md): modelDescription.xml from
 * the program, the FMU library (stiction_fmi2.so, built by make) under the model identifier,
 * and the flat model saved (front/flat_io.h), which the library compiles when an importer
 * instantiates the FMU -- or, for a model with external C code to build, the Modelica text
 * the front end read, which it translates again. */
#ifndef ST_FMI_EXPORT_H
#define ST_FMI_EXPORT_H

#include <stdio.h>

#include "compile/compile.h"
#include "util/diag.h"

typedef struct st_fmu_export {
  const char *class_name;         /* the full name compiled */
  const char *const *modifiers;   /* its modification, as given to the front end */
  int n_modifiers;
  const char *model_file;         /* the file or package directory loaded, or NULL */
  const char *const *library_dirs;/* the front end's library path, in order */
  int n_library_dirs;
  const char *binary;             /* the FMU library to put in binaries/linux64 */
  const char *model_identifier;   /* NULL: the last part of the class name */
  const st_flat_model *flat;      /* the flat model before translation (front/flat_io.h), or
                                     NULL: the FMU carries the Modelica text instead */
} st_fmu_export;

/* The directory of stiction_fmi2.so: $STICTION_FMI2_LIBRARY when set, else the build tree's
 * when it exists (running from the build tree), else the installed one. */
const char *st_fmu_default_binary(void);

/* Writes the FMU of prog (compiled from flat, whose sources diag registered) to path, replacing
 * it only when complete. 0, or -1 with a message in *err (malloc'd). */
int st_fmu_export_write(const st_fmu_export *ex, const st_diag *diag, const st_program *prog,
                        const char *path, char **err);

/* modelDescription.xml of prog alone, with the given GUID and model identifier (for tests):
 * 0, or -1 with *err. */
int st_fmu_describe(const st_program *prog, const char *guid, const char *model_identifier,
                    FILE *out, char **err);

#endif
