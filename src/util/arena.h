/* Region allocator: many small allocations freed together (AST, flat model, compiled code).
 * Why: front end and compiler build large graphs of small nodes whose lifetimes end
 * together; one free per region avoids leaks on every error path. */
#ifndef ST_ARENA_H
#define ST_ARENA_H

#include <stddef.h>

typedef struct st_arena st_arena;

st_arena *st_arena_new(void);
void st_arena_free(st_arena *arena);                 /* safe on NULL */
/* Zeroed memory aligned at 8 bytes (pointers, doubles, int64_t; not long double), sizes
 * rounded up to 8: consecutive small allocations pack; NULL only when out of memory. */
void *st_arena_alloc(st_arena *arena, size_t size);
/* Whether an allocation from arena has failed: a stage that builds in an arena checks this
 * at its end, so that a NULL dropped on the way (a lost equation) cannot pass unnoticed. */
int st_arena_failed(const st_arena *arena);
/* The bytes handed out so far (a statistic: tests check that a stage's scratch grows
 * linearly with the model). */
size_t st_arena_used(const st_arena *arena);
char *st_arena_strdup(st_arena *arena, const char *s);
char *st_arena_strndup(st_arena *arena, const char *s, size_t n);
/* printf into the arena. */
char *st_arena_printf(st_arena *arena, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
/* a, b and c concatenated ("A.B" from "A", ".", "B"): the name joins of the front end and
 * the compiler, without printf's cost. */
char *st_arena_concat(st_arena *arena, const char *a, const char *b, const char *c);
/* Room for item n of an array of `size`-byte items in the arena (*cap doubles, the old block
 * is left to the arena): 0, or -1 when out of memory. */
int st_arena_grow(st_arena *arena, void **items, int *cap, int n, size_t size);

#endif
