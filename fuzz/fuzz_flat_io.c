/* libFuzzer harness: a saved flat model (front/flat_io.h, what an FMU carries) loaded and,
 * when it loads, compiled as fmi2Instantiate does. The input's check sum and length are set
 * to match before loading, so that the fuzzer explores the loader's own checks (counts,
 * indices, kinds, arities, depth) and the compiler behind them rather than the sum. */
#include <stdlib.h>
#include <string.h>

#include "compile/compile.h"
#include "front/flat_io.h"
#include "util/hash.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  uint8_t *bytes = malloc(size ? size : 1);
  if (!bytes) return 0;
  memcpy(bytes, data, size);
  if (size >= 40) { /* header: length at 24, sum at 32 (flat_io.h) */
    uint64_t len = size - 40;
    st_hash h;
    st_hash_init(&h);
    st_hash_add(&h, bytes + 40, size - 40);
    memcpy(bytes + 24, &len, 8);
    memcpy(bytes + 32, &h.a, 8);
  }
  st_diag *diag = st_diag_new(NULL);
  st_flat_model *flat = diag ? st_flat_load(bytes, size, "fuzz.stflat", diag) : NULL;
  st_program *prog = flat ? st_compile_program(flat, diag) : NULL;
  st_program_free(prog);
  st_flat_free(flat);
  st_diag_free(diag);
  free(bytes);
  return 0;
}
