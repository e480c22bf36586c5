/* The flat model as bytes: what an FMU carries instead of the Modelica text (doc/fmi.md), so
 * that loading it needs neither the parser nor the flattener, only the equation compiler.
 *
 *   char *bytes; size_t n;
 *   st_flat_save(flat, &bytes, &n);                        // 0, or -1 when out of memory
 *   st_flat_model *again = st_flat_load(bytes, n, "model.stflat", diag);
 *
 * Layout (format ST_FLAT_FORMAT): a 40-byte header -- magic "STFLAT\r\n", format, an
 * endianness mark 0x01020304 and sizeof(int), sizeof(double) as written, the payload length
 * and its FNV-1a sum -- then the payload: the strings once each (length and bytes), then the
 * model with strings as indices into them. Numbers are the writer's native ints and doubles:
 * a file from a machine with another byte order or sizes is refused, as is one of another
 * format, a truncated or altered one (the sum), and one whose indices do not fit the model
 * (variables, functions, locals, operators, arities). A refusal is an error in diag located
 * at NAME and the byte offset; the loader never reads outside the bytes it was given. */
#ifndef ST_FRONT_FLAT_IO_H
#define ST_FRONT_FLAT_IO_H

#include <stddef.h>

#include "front/flat.h"
#include "util/diag.h"

#define ST_FLAT_FORMAT 1

int st_flat_save(const st_flat_model *flat, char **bytes, size_t *n);
/* The same with the file name of every source location and the directories of external
 * clauses replaced by map(ctx, file) (a string
 * that lives until the call returns; NULL: out of memory, the save fails): an FMU names its
 * files relative to their library, not by where they were on the exporting machine. */
typedef const char *(*st_flat_file_map)(void *ctx, const char *file);
int st_flat_save_mapped(const st_flat_model *flat, st_flat_file_map map, void *ctx, char **bytes,
                        size_t *n);
/* A new flat model (st_flat_free), or NULL with the error in diag. name: for the messages. */
st_flat_model *st_flat_load(const void *bytes, size_t n, const char *name, st_diag *diag);

#endif
