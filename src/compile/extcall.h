/* Calling the C functions of extlib.h with the argument mapping of Modelica 3.6 section
 * 12.9.1 (through libffi), and the ModelicaUtilities functions their code calls back.
 *
 * Mapping: Real -> double, Integer/Boolean/enumeration -> int, String -> const char *;
 * arrays -> a pointer to their elements in row-major order (Real: the function machine's
 * frame; Integer/Boolean: a converted int copy); an output (or protected variable) named
 * as an argument -> a pointer the C function writes through. The explicit form
 * `external "C" y = f(u, size(u, 1))` passes exactly its arguments (size() and integral
 * literals as int); the default form passes every input, then every output, each array
 * followed by its dimensions as size_t, and returns the only output when it is a scalar.
 *
 * An error reported by the C code (ModelicaError, ModelicaFormatError, ...) unwinds to the
 * call through a per-thread jump target and fails the call with the message; strings that
 * the C code allocates live until the next top-level call (st_extrun_release). */
#ifndef ST_COMPILE_EXTCALL_H
#define ST_COMPILE_EXTCALL_H

#include <stdarg.h>
#include <stddef.h>

#include "compile/extlib.h"
#include "front/front.h"
#include "func/func_compile.h"

/* The table installed into every loaded object (the order of extlib.c's shim). */
struct st_extlib_callbacks {
  void (*error)(const char *);
  void (*verror)(const char *, va_list);
  void (*message)(const char *);
  void (*vmessage)(const char *, va_list);
  void (*warning)(const char *);
  void (*vwarning)(const char *, va_list);
  char *(*allocate)(size_t);
  char *(*allocate_or_null)(size_t);
  char *(*duplicate)(const char *);
  char *(*duplicate_or_null)(const char *);
  int (*scan_decimal)(const char *, const char **, double *); /* the shim's strtod_l */
};

const st_extlib_callbacks *st_extcall_callbacks(void);

/* What one instance needs to call: the loaded set (shared), the strings the C code allocated,
 * the last failure. */
typedef struct st_extrun st_extrun;

st_extrun *st_extrun_new(const st_extlib *lib, const st_ffunction *functions);
void st_extrun_free(st_extrun *r); /* safe on NULL */

/* The function machine's hook (func_compile.h, st_fvm_external): ctx is an st_extrun. */
int st_extrun_call(void *ctx, int k, st_fval *locals, const st_fval *args, int nargs);

/* Frees what the C code allocated during the previous top-level call. */
void st_extrun_release(st_extrun *r);

/* The first failure since st_extrun_clear_failure() ("function 'f' (file:line:col): the C
 * function 'g' reported an error: ..."), "" when none. */
const char *st_extrun_failure(const st_extrun *r);
void st_extrun_clear_failure(st_extrun *r);

/* What lets the front end call external C functions while flattening (front.h): one
 * library and run per evaluation, built on its first external call. */
const st_front_externals *st_extcall_front_externals(void);

#endif
