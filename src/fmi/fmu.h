/* What stiction's FMUs are made of (doc/fmi.md): the export (`stiction fmu`), the FMU's own
 * shared library (fmi2.c) and the tests share these.
 *
 * An FMU carries, under resources/stiction/, the Modelica text its class was translated
 * from -- every file the front end read, the library files under library/ (their paths
 * relative to the library directory they came from), the model's own file under files/ --
 * and manifest.txt, one item a line:
 *
 *   stiction-fmu 1 VERSION       format and the stiction version that wrote it
 *   class NAME                   the class to compile
 *   modifier TEXT                a modification of it (repeatable, in order)
 *   load PATH                    a file or package directory to load, in order
 *   file PATH                    every stored file (hashed for the GUID)
 *
 * The library translates it again in fmi2Instantiate (same text, same translator: the same
 * program) and refuses to run when the GUID of the text differs from the FMU's. */
#ifndef ST_FMI_FMU_H
#define ST_FMI_FMU_H

#include <stddef.h>
#include <stdint.h>

#include "compile/compile.h"

#define ST_FMU_FORMAT 1
#define ST_FMU_GUID_LEN 38 /* "{8-4-4-4-12}" */

/* Two 64-bit FNV-1a sums with different bases, over the manifest and each stored file. */
typedef struct st_fmu_hash {
  uint64_t a, b;
} st_fmu_hash;
void st_fmu_hash_init(st_fmu_hash *h);
void st_fmu_hash_add(st_fmu_hash *h, const void *data, size_t n);
/* "{xxxxxxxx-xxxx-xxxx-xxxx-xxxxxxxxxxxx}" into out (ST_FMU_GUID_LEN + 1 bytes). */
void st_fmu_hash_guid(const st_fmu_hash *h, char *out);

/* The manifest read back. */
typedef struct st_fmu_manifest {
  char *text;           /* the file, its lines cut in place */
  const char *class_name;
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
