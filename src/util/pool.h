/* A fixed set of worker threads that run "for i in 0..count-1: fn(ctx, i)" with the calling
 * thread joining in. Items are handed out one at a time, so which thread runs an item varies;
 * callers that want results independent of the thread count write item i's result to slot i
 * and combine the slots afterwards in index order. Created once, reused for every batch (no
 * allocation per batch). */
#ifndef ST_UTIL_POOL_H
#define ST_UTIL_POOL_H

#include <stddef.h>

typedef struct st_pool st_pool;
typedef void (*st_pool_fn)(void *ctx, size_t item);

/* threads = total threads including the caller (1 = no workers). NULL if out of memory or
 * threads cannot be started. */
st_pool *st_pool_new(int threads);
void st_pool_free(st_pool *p);
int st_pool_threads(const st_pool *p);

/* Runs fn(ctx, i) for every i < count and returns when all have finished. */
void st_pool_run(st_pool *p, size_t count, st_pool_fn fn, void *ctx);

#endif
