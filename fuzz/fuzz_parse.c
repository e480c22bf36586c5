/* libFuzzer harness: the Modelica parser (lexer.l, parser.y) through st_parse_file, the path
 * `stiction parse` takes, then the printer (`parse --dump`) and a second parse of what it
 * printed: text that parsed once must print back as text that parses. */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "front/ast.h"
#include "fuzz/fuzz_util.h"
#include "util/arena.h"
#include "util/diag.h"

/* Parses the printed form of a tree; aborts (a finding) when it does not parse. */
static void reparse_dump(const st_ast_stored_def *sd) {
  char *text = NULL;
  size_t len = 0;
  FILE *out = open_memstream(&text, &len);
  if (!out) return;
  st_ast_dump(out, sd);
  if (fclose(out) != 0) {
    free(text);
    return;
  }
  st_arena *arena = st_arena_new();
  st_diag *diag = st_diag_new(NULL);
  if (arena && diag && !st_parse_string(arena, diag, "dump.mo", text)) {
    fprintf(stderr, "the printed tree does not parse: %s\n--- printed text ---\n%s\n",
            st_diag_first_error(diag), text);
    abort();
  }
  st_diag_free(diag);
  st_arena_free(arena);
  free(text);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  char path[64];
  int fd = st_fuzz_memfile(data, size, path, sizeof path);
  if (fd < 0) return 0;
  st_arena *arena = st_arena_new();
  st_diag *diag = st_diag_new(NULL);
  if (arena && diag) {
    st_ast_stored_def *sd = st_parse_file(arena, diag, path);
    if (sd) reparse_dump(sd);
  }
  st_diag_free(diag);
  st_arena_free(arena);
  close(fd);
  return 0;
}
