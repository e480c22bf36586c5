/* The C code of a model's external functions (Modelica 3.6 section 12.9): for every function
 * whose external clause names a C function that stiction does not provide itself
 * (external.h), the code that defines it is built and loaded once per program:
 *   - the Include annotation texts and the sources of the Library names that ship only as
 *     C sources (<library>/Resources/C-Sources: NAME.c, NAME/ *.c, and the MSL's groups) are
 *     compiled with the system C compiler ($CC, else cc) into one shared object per set of
 *     annotations, together with stiction's ModelicaUtilities shim (extcall.c);
 *   - Library archives or shared objects found in LibraryDirectory (first its
 *     <platform> subdirectory, e.g. linux64) are linked into it; other Library names are
 *     left to the linker (-lNAME: system libraries such as lapack);
 *   - the object is kept in a cache keyed by a hash of everything that went into it (compiler,
 *     flags, texts, file contents) under $XDG_CACHE_HOME/stiction (else ~/.cache/stiction), so
 *     a second translation only loads it; then it is dlopen'ed and the symbols looked up.
 * A function whose code cannot be built or found keeps the reason (the compiler's message,
 * the missing symbol); calls of it fail with that reason. The set is read only once built and
 * shared by every instance of the program (reference counted). */
#ifndef ST_COMPILE_EXTLIB_H
#define ST_COMPILE_EXTLIB_H

#include "front/flat.h"

typedef struct st_extlib st_extlib;

/* The modelica utilities a loaded object calls back (filled by extcall.c). */
typedef struct st_extlib_callbacks st_extlib_callbacks;

/* Whether function fn is one this module loads (an external "C" clause for a name that
 * stiction does not provide). */
int st_extlib_wants(const st_ffunction *fn);

/* Builds and loads the code of every such function of functions[0..n) (borrowed: they must
 * outlive the set); NULL only when out of memory. */
st_extlib *st_extlib_new(const st_ffunction *functions, int n, const st_extlib_callbacks *cb);
st_extlib *st_extlib_ref(st_extlib *lib); /* one more owner; returns lib */
void st_extlib_free(st_extlib *lib);      /* drops one owner; safe on NULL */

/* The address of function k's C function, NULL when it could not be loaded (then
 * st_extlib_error says why). */
void *st_extlib_symbol(const st_extlib *lib, int k);
/* Why function k cannot be called ("the C compiler failed on ...:\n<its output>"), NULL when
 * it can (or is not an external C function). */
const char *st_extlib_error(const st_extlib *lib, int k);

/* Looks up symbol name in function k's object (the destructor of an external object is found
 * beside its constructor). NULL when absent. */
void *st_extlib_lookup(const st_extlib *lib, int k, const char *name);

#endif
