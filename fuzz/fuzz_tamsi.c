/* libFuzzer harness: a TAMSI problem file (doc/tamsi.md) through st_tamsi_problem_parse,
 * given exactly the input's bytes (no terminating NUL, as the (text, len) API allows), then
 * the solve and the JSON of the solution, as `stiction tamsi` does. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <stiction/tamsi.h>

#include "tamsi/tamsi_json.h"

/* Iterations are bounded so that one input stays fast; the solver's own bound is tested. */
enum { MAX_ITERATIONS = 50 };

static void solve(st_tamsi_problem *p) {
  if (p->par.max_iterations > MAX_ITERATIONS) p->par.max_iterations = MAX_ITERATIONS;
  int result;
  char err[512];
  stiction_tamsi *s = st_tamsi_problem_solve(p, &result, err, sizeof err);
  if (!s) return;
  json_object *o = st_tamsi_solution_json(s, result);
  (void)json_object_to_json_string_ext(o, JSON_C_TO_STRING_PLAIN);
  json_object_put(o);
  stiction_tamsi_free(s);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  char *text = malloc(size ? size : 1); /* exactly size bytes: ASan sees any overread */
  if (!text) return 0;
  memcpy(text, data, size);
  st_tamsi_problem p;
  char err[512];
  if (st_tamsi_problem_parse(text, size, "fuzz.json", &p, err, sizeof err) == 0) {
    solve(&p);
    st_tamsi_problem_free(&p);
  }
  free(text);
  return 0;
}
