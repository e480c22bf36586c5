/* libFuzzer harness: a model file through the front end and the compiler, as `stiction
 * simulate` does before it simulates: load (with the library in models/ on the path),
 * flatten the default class, compile the flat model. Nothing is simulated (a model may
 * legitimately run forever). */
#define _GNU_SOURCE
#include <stdio.h>

#include "compile/compile.h"
#include "front/front.h"
#include "fuzz/fuzz_util.h"
#include "util/diag.h"

static void flatten_and_compile(st_front *fe, st_diag *diag, const char *path) {
  st_front_add_default_paths(fe);
  if (st_front_load_file(fe, path)) return;
  const char *name = st_front_default_class(fe);
  if (!name) return;
  st_flat_model *flat = st_front_flatten(fe, name);
  if (!flat) return;
  st_compiled *cm = st_compile(flat, diag);
  if (cm) (void)st_compiled_model(cm);
  st_compiled_free(cm);
  st_flat_free(flat);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  char path[64];
  int fd = st_fuzz_memfile(data, size, path, sizeof path);
  if (fd < 0) return 0;
  st_diag *diag = st_diag_new(NULL);
  st_front *fe = diag ? st_front_new(diag) : NULL;
  if (fe) flatten_and_compile(fe, diag, path);
  st_front_free(fe);
  st_diag_free(diag);
  close(fd);
  return 0;
}
