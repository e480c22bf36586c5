/* libFuzzer harness: the result readers (CSV and MAT v4) on the input's bytes as
 * stiction_table_read() hands them over (a copy of exactly len bytes, NUL-terminated for the
 * CSV reader), then every accessor of the table that was read. FUZZ_MAT selects the MAT
 * reader at compile time (fuzz_mat). */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <stiction/results.h>

#include "io/table_impl.h"

static void touch(const stiction_table *t) {
  int rows = stiction_table_rows(t), cols = stiction_table_columns(t);
  const double *d = stiction_table_data(t);
  double sum = 0;
  for (long i = 0; i < (long)rows * cols; i++) sum += d[i];
  for (int c = 0; c < cols; c++) {
    const char *name = stiction_table_name(t, c);
    if (stiction_table_find(t, name) < 0) abort(); /* a column's own name must be found */
  }
  (void)sum;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  unsigned char *bytes = malloc(size + 1);
  if (!bytes) return 0;
  memcpy(bytes, data, size);
  bytes[size] = 0;
  stiction_table *t = NULL;
  char msg[512];
#ifdef FUZZ_MAT
  int rc = st_table_read_mat(&t, "fuzz.mat", bytes, size, msg, sizeof msg);
#else
  int rc = st_table_read_csv(&t, "fuzz.csv", (const char *)bytes, size, msg, sizeof msg);
#endif
  if (rc == 0) touch(t);
  stiction_table_free(t);
  free(bytes);
  return 0;
}
