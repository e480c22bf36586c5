#include "util/arena.h"

#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define ARENA_BLOCK 65536
/* Every allocation is rounded to and aligned at 8 bytes: what pointers, doubles and
 * int64_t need (nothing here keeps a long double in an arena). At 16 the flat model's and
 * the compiler's most common nodes (st_fexpr: 56 bytes, st_feq: 104) each wasted 8, which
 * was 8 % of the translator's peak per component (doc/perf-log.md, issue 18). */
#define ARENA_ALIGN 8u

typedef struct block {
  struct block *next;
  size_t used, size;
  _Alignas(16) unsigned char data[];
} block;

struct st_arena {
  block *head;
  int failed; /* an allocation returned NULL */
};

st_arena *st_arena_new(void) { return calloc(1, sizeof(st_arena)); }

size_t st_arena_used(const st_arena *arena) {
  size_t used = 0;
  for (const block *b = arena ? arena->head : NULL; b; b = b->next) used += b->used;
  return used;
}

void st_arena_free(st_arena *arena) {
  if (!arena) return;
  for (block *b = arena->head, *next; b; b = next) {
    next = b->next;
    free(b);
  }
  free(arena);
}

static block *new_block(size_t at_least) {
  size_t size = at_least > ARENA_BLOCK ? at_least : ARENA_BLOCK;
  block *b = malloc(sizeof(block) + size);
  if (!b) return NULL;
  b->next = NULL;
  b->used = 0;
  b->size = size;
  return b;
}

void *st_arena_alloc(st_arena *arena, size_t size) {
  if (size > SIZE_MAX / 2) { /* a size computed with overflow; rounding up would wrap */
    arena->failed = 1;
    return NULL;
  }
  size = (size + ARENA_ALIGN - 1) & ~(size_t)(ARENA_ALIGN - 1);
  block *b = arena->head;
  if (!b || b->size - b->used < size) {
    /* A large request gets its own block behind the current one so the current block's
     * free space is not wasted. */
    block *nb = new_block(size);
    if (!nb) {
      arena->failed = 1;
      return NULL;
    }
    if (b && size > ARENA_BLOCK / 4) {
      nb->next = b->next;
      b->next = nb;
    } else {
      nb->next = b;
      arena->head = nb;
    }
    b = nb;
  }
  void *p = b->data + b->used;
  b->used += size;
  memset(p, 0, size);
  return p;
}

int st_arena_failed(const st_arena *arena) { return arena->failed; }

char *st_arena_strndup(st_arena *arena, const char *s, size_t n) {
  char *p = st_arena_alloc(arena, n + 1);
  if (p) memcpy(p, s, n);
  return p;
}

char *st_arena_strdup(st_arena *arena, const char *s) {
  return st_arena_strndup(arena, s, strlen(s));
}

char *st_arena_printf(st_arena *arena, const char *fmt, ...) {
  /* One formatting pass when the text fits a stack buffer (names and messages do), a
   * second one only for longer text: vsnprintf is the costly part. */
  char buf[256];
  va_list ap, aq;
  va_start(ap, fmt);
  va_copy(aq, ap);
  int n = vsnprintf(buf, sizeof buf, fmt, ap);
  va_end(ap);
  char *p = n < 0 ? NULL : st_arena_alloc(arena, (size_t)n + 1);
  if (p && (size_t)n < sizeof buf) memcpy(p, buf, (size_t)n + 1);
  else if (p) vsnprintf(p, (size_t)n + 1, fmt, aq);
  va_end(aq);
  return p;
}

int st_arena_grow(st_arena *arena, void **items, int *cap, int n, size_t size) {
  if (n < *cap) return 0;
  int c = *cap ? 2 * *cap : 16;
  void *p = st_arena_alloc(arena, size * (size_t)c);
  if (!p) return -1;
  if (n) memcpy(p, *items, size * (size_t)n);
  *items = p;
  *cap = c;
  return 0;
}

char *st_arena_concat(st_arena *arena, const char *a, const char *b, const char *c) {
  size_t na = strlen(a), nb = strlen(b), nc = strlen(c);
  char *p = st_arena_alloc(arena, na + nb + nc + 1);
  if (!p) return NULL;
  memcpy(p, a, na);
  memcpy(p + na, b, nb);
  memcpy(p + na + nb, c, nc + 1);
  return p;
}
