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
/* A large model's arenas grow by blocks of a quarter of what they hold (up to ARENA_MAX):
 * fewer, larger blocks for the flattener's and compiler's arenas, whose sizes are not
 * known in advance. The blocks come from malloc like any other memory (no mapping or page
 * advice here: what the C library does with large blocks is its business). */
#define ARENA_MAX ((size_t)8 << 20)

typedef struct block {
  struct block *next;
  size_t used, size;
  _Alignas(16) unsigned char data[];
} block;

struct st_arena {
  block *head;
  int failed; /* an allocation returned NULL */
  size_t total; /* bytes of its blocks */
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

/* A block for at least at_least bytes; exactly that many when exact (a large request). */
static block *new_block(st_arena *arena, size_t at_least, int exact) {
  size_t size = arena->total / 4;
  if (size < ARENA_BLOCK) size = ARENA_BLOCK;
  if (size > ARENA_MAX) size = ARENA_MAX;
  if (at_least > size || exact) size = at_least;
  block *b = malloc(sizeof(block) + size);
  if (!b) return NULL;
  b->size = size;
  b->next = NULL;
  b->used = 0;
  arena->total += b->size;
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
    int large = b && size > ARENA_BLOCK / 4;
    block *nb = new_block(arena, size, large);
    if (!nb) {
      arena->failed = 1;
      return NULL;
    }
    if (large) {
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
