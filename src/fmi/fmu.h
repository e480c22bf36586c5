/* What stiction's FMUs are made of (doc/fmi.md): the export (`stiction fmu`), the FMU's own
 * shared library (fmi2.c) and the tests share these.
 *
 * An FMU carries, under resources/stiction/, the flat model of its class saved as
 * model.stflat (front/flat_io.h): the library compiles it in fmi2Instantiate without the
 * parser or the flattener. A model with external C code to build carries instead the
 * Modelica text it was translated from -- every file the front end read, the library files
 * under library/ (their paths relative to the library directory they came from), the
 * model's own file under files/ -- which the library translates again. manifest.txt, one
 * item a line:
 *
 *   stiction-fmu 2 VERSION       format and the stiction version that wrote it
 *   class NAME                   the class
 *   modifier TEXT                a modification of it (repeatable, in order)
 *   flat PATH                    the saved flat model (then no load lines)
 *   load PATH                    a file or package directory to load, in order
 *   file PATH                    every stored file (hashed for the GUID)
 *
 * Same flat model or text, same compiler: the program the export built. The library refuses
 * to run when the GUID of what is stored differs from the FMU's. */
#ifndef ST_FMI_FMU_H
#define ST_FMI_FMU_H

#include <stddef.h>
#include <stdint.h>

#include "compile/compile.h"
#include "util/hash.h"

#define ST_FMU_FORMAT 2     /* 2: the flat model saved; 1 (text only) is still read */
#define ST_FMU_FLAT_FILE "model.stflat"
#define ST_FMU_GUID_LEN 38 /* "{8-4-4-4-12}" */

/* "{xxxxxxxx-xxxx-xxxx-xxxx-xxxxxxxxxxxx}" into out (ST_FMU_GUID_LEN + 1 bytes). */
/* The GUID of a hash (util/hash.h) of the manifest and each stored file. */
void st_fmu_hash_guid(const st_hash *h, char *out);

/* The manifest read back. */
typedef struct st_fmu_manifest {
  char *text;           /* the file, its lines cut in place */
  const char *class_name;
  const char *flat;     /* the saved flat model (under DIR), or NULL: translate the text */
  const char **modifiers, **loads, **files;
  int n_modifiers, n_loads, n_files;
} st_fmu_manifest;
/* Reads DIR/manifest.txt (DIR is resources/stiction): 0, or -1 with a message in *err
 * (malloc'd). */
int st_fmu_manifest_read(st_fmu_manifest *m, const char *dir, char **err);
void st_fmu_manifest_free(st_fmu_manifest *m);
/* The GUID of the text under DIR as the manifest lists it: 0, or -1 with *err. */
int st_fmu_guid_of(const st_fmu_manifest *m, const char *dir, char *guid, char **err);

/* How a slot appears in modelDescription.xml (and to fmi2Get/Set*): its FMI type ('r' Real,
 * 'i' Integer, 'b' Boolean, 0 not exported). The value reference of a slot is its index. */
int st_fmu_slot_type(const st_instance *in, int slot);

#endif
