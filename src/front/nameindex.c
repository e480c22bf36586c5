/* Open addressing with linear probing over FNV-1a hashes, at most a quarter full. */
#include "front/nameindex.h"

#include <string.h>

enum { INDEX_FROM = 8 }; /* shorter arrays are scanned */

static unsigned name_hash(const char *s) {
  unsigned h = 2166136261u;
  for (; *s; s++) h = (h ^ (unsigned char)*s) * 16777619u;
  return h;
}

/* The entry holding `name`, or the free entry where it would go. */
static int *probe(const st_name_index *ix, const void *items, st_name_of *name_of,
                  const char *name) {
  unsigned mask = (unsigned)ix->cap - 1;
  for (unsigned i = name_hash(name) & mask;; i = (i + 1) & mask)
    if (!ix->slot[i] || strcmp(name_of(items, ix->slot[i] - 1), name) == 0) return &ix->slot[i];
}

int st_name_index_find(const st_name_index *ix, const void *items, int n, st_name_of *name_of,
                       const char *name) {
  if (ix->slot) return *probe(ix, items, name_of, name) - 1;
  for (int i = 0; i < n; i++)
    if (strcmp(name_of(items, i), name) == 0) return i;
  return -1;
}

/* Keeps the first of equal names, as the scan does. */
static void insert(st_name_index *ix, const void *items, int i, st_name_of *name_of) {
  int *at = probe(ix, items, name_of, name_of(items, i));
  if (!*at) *at = i + 1;
}

void st_name_index_added(st_name_index *ix, st_arena *arena, const void *items, int n,
                         int cap_items, st_name_of *name_of) {
  if (ix->slot && 4 * n <= ix->cap) {
    insert(ix, items, n - 1, name_of);
    return;
  }
  if (n <= INDEX_FROM) return;
  int cap = 4 * INDEX_FROM;
  while (cap < 4 * cap_items) cap *= 2;
  int *slot = st_arena_alloc(arena, (size_t)cap * sizeof *slot);
  if (!slot) { /* an old index would miss the new item: scan from now on */
    ix->slot = NULL;
    ix->cap = 0;
    return;
  }
  ix->slot = slot;
  ix->cap = cap;
  for (int i = 0; i < n; i++) insert(ix, items, i, name_of);
}
