/* A hash index of the names of a growing array of named items (a class's nested classes,
 * an instance's components), kept beside the array once it holds more than a few items:
 * every name looked up passes through the enclosing packages and instances, and a linear
 * scan with strcmp was a third of the front end's lookup instructions. */
#ifndef ST_FRONT_NAMEINDEX_H
#define ST_FRONT_NAMEINDEX_H

#include "util/arena.h"

typedef struct st_name_index {
  int *slot; /* position + 1 of an item, 0 free; NULL while the array is short */
  int cap;   /* power of two, at least 4 x the items */
} st_name_index;

/* The name of item i of an array (the caller's element type). */
typedef const char *st_name_of(const void *items, int i);

/* The position of the first item named `name` among items[0 .. n), or -1. */
int st_name_index_find(const st_name_index *ix, const void *items, int n, st_name_of *name_of,
                       const char *name);
/* To be called after items[n - 1] was appended (cap_items: the array's capacity). The index
 * memory comes from arena; out of memory only leaves the array unindexed. */
void st_name_index_added(st_name_index *ix, st_arena *arena, const void *items, int n,
                         int cap_items, st_name_of *name_of);

#endif
