/*
 * The front end as one object: load Modelica libraries and files, then flatten a class.
 *
 *   st_diag *diag = st_diag_new(stderr);
 *   st_front *fe = st_front_new(diag);
 *   st_front_add_default_paths(fe);            // models/ (installed or source), MODELICAPATH
 *   st_front_add_library_path(fe, "mylibs");   // -L DIR
 *   if (st_front_load_file(fe, "Model.mo")) ... // errors are in diag
 *   st_flat_model *flat = st_front_flatten(fe, st_front_default_class(fe));
 *   ...
 *   st_flat_free(flat);
 *   st_front_free(fe);
 *
 * Libraries on the path are loaded lazily, when a name's first part is looked up and not
 * found among the loaded classes (so `Modelica` is read only by models that use it). A file
 * starting with `within A.B;` places its classes inside package A.B, and a class given this
 * way replaces a library class of the same full name.
 *
 * Errors go to the st_diag given to st_front_new() as "file:line:col: error: ..." with the
 * instance path; the functions return non-zero / NULL then. No global state.
 */
#ifndef ST_FRONT_FRONT_H
#define ST_FRONT_FRONT_H

#include "front/flat.h"
#include "func/func_compile.h"
#include "util/diag.h"

typedef struct st_front st_front;

/* diag is borrowed and must outlive the front end. NULL only when out of memory. */
st_front *st_front_new(st_diag *diag);
void st_front_free(st_front *fe);

/* External C functions called while flattening, when a value the translation needs (an
 * array size: readMatrixSize(file, name)) comes from one: the compiler provides them
 * (compile/extcall.h, st_extcall_front_externals), the front end being the lower layer.
 * attach builds what calls the C code of functions[0..n) and gives the function machine's hook
 * (func_compile.h: st_fvm_external) with its context; detach releases the handle it returned
 * (NULL: none could be made). Without them such calls are not evaluated while flattening. */
typedef struct st_front_externals {
  void *(*attach)(const st_ffunction *functions, int n, st_fvm_external *hook, void **ctx);
  void (*detach)(void *handle);
} st_front_externals;
void st_front_set_externals(st_front *fe, const st_front_externals *externals);

/* Adds a directory that holds top-level packages (each a `Name/package.mo` tree or a
 * `Name.mo` file). Searched in the order added. */
int st_front_add_library_path(st_front *fe, const char *dir);
/* Adds the directories of the MODELICAPATH environment variable (':'-separated), then
 * stiction's own models/ directory: the source tree's when it exists, else the installed one. */
int st_front_add_default_paths(st_front *fe);

/* Parses a .mo file (or a package directory) and adds its classes. 0 on success. */
int st_front_load_file(st_front *fe, const char *path);

/* The full name of the class to simulate when the user names none: the only, else the last,
 * top-level non-package class of the last file loaded (inside its `within` package). NULL if
 * there is none. Owned by fe. */
const char *st_front_default_class(const st_front *fe);

/* Instantiates and flattens a class given by its full name ("Modelica.Mechanics.
 * Rotational.Examples.CoupledClutches" or a name from a loaded file). Returns a flat model
 * owned by the caller (st_flat_free), or NULL with the errors in diag. */
st_flat_model *st_front_flatten(st_front *fe, const char *class_name);

/* The same with a modification of the top-level class, as if it were declared
 * `model M = class_name(mods[0], mods[1], ...)`: each mods[i] is the text of one argument
 * ("N = 100", "J1.J = 2", "useSupport = true"). Parameters take their values before the
 * structure is built, so a parameter that sizes arrays or selects if-equations works too.
 * Errors in mods[i] are reported at "source:LINE:COL" with LINE = i + 2. */
st_flat_model *st_front_flatten_modified(st_front *fe, const char *class_name,
                                         const char *const *mods, int nmods,
                                         const char *source);

/* A class substitution: the component declared at the instance path `component` ("bearing",
 * "drive.clutch"; a whole declaration, no subscripts) is instantiated as the class
 * `class_name` (a full name) instead of its declared type. The modifiers of its declaration
 * and of the enclosing levels stay and must name elements of the new class. This is not
 * Modelica's `redeclare` (which drops the declaration's modifiers and needs `replaceable`):
 * it is a tool's swap of one element for a compatible one, used by `stiction study` to
 * replace an MSL friction element by the Stiction element of the same kind (doc/study.md). */
typedef struct st_front_subst {
  const char *component;
  const char *class_name;
} st_front_subst;

/* st_front_flatten_modified() with substitutions; a substitution whose component is not
 * declared is an error ("no component ... to substitute"). */
st_flat_model *st_front_flatten_substituted(st_front *fe, const char *class_name,
                                            const char *const *mods, int nmods,
                                            const char *source, const st_front_subst *subst,
                                            int nsubst);

/* The full name of the declared class of `component` (a dotted path without subscripts) in
 * class `class_name`, following declarations (inherited ones too) and short class
 * definitions. NULL when a part does not name a component. Owned by fe. */
const char *st_front_component_class(st_front *fe, const char *class_name,
                                     const char *component);

/* The bytes of scratch memory the last flattening took (a statistic: tests check that it
 * grows linearly with the model). */
size_t st_front_scratch_used(const st_front *fe);

#endif
