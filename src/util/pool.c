/* Worker pool of pool.h: one mutex, two condition variables, a batch counter. */
#include <pthread.h>
#include <stdlib.h>

#include "util/pool.h"

struct st_pool {
  pthread_t *workers;
  int nworkers;
  pthread_mutex_t mu;
  pthread_cond_t go, done;
  unsigned long batch;   /* incremented per st_pool_run: wakes the workers */
  size_t next, count, finished;
  st_pool_fn fn;
  void *ctx;
  int quit;
};

/* Takes items of the current batch until none is left (called with mu held; returns with
 * mu held). */
static void drain(st_pool *p) {
  while (p->next < p->count) {
    size_t i = p->next++;
    st_pool_fn fn = p->fn;
    void *ctx = p->ctx;
    pthread_mutex_unlock(&p->mu);
    fn(ctx, i);
    pthread_mutex_lock(&p->mu);
    if (++p->finished == p->count) pthread_cond_broadcast(&p->done);
  }
}

static void *worker(void *arg) {
  st_pool *p = arg;
  unsigned long seen = 0;
  pthread_mutex_lock(&p->mu);
  for (;;) {
    while (!p->quit && p->batch == seen) pthread_cond_wait(&p->go, &p->mu);
    if (p->quit) break;
    seen = p->batch;
    drain(p);
  }
  pthread_mutex_unlock(&p->mu);
  return NULL;
}

st_pool *st_pool_new(int threads) {
  st_pool *p = calloc(1, sizeof *p);
  if (!p) return NULL;
  int n = threads > 1 ? threads - 1 : 0;
  p->workers = n ? calloc((size_t)n, sizeof *p->workers) : NULL;
  if ((n && !p->workers) || pthread_mutex_init(&p->mu, NULL)) {
    free(p->workers);
    free(p);
    return NULL;
  }
  pthread_cond_init(&p->go, NULL);
  pthread_cond_init(&p->done, NULL);
  for (int i = 0; i < n; i++) {
    if (pthread_create(&p->workers[i], NULL, worker, p)) break;
    p->nworkers++;
  }
  if (p->nworkers < n) {
    st_pool_free(p);
    return NULL;
  }
  return p;
}

void st_pool_free(st_pool *p) {
  if (!p) return;
  pthread_mutex_lock(&p->mu);
  p->quit = 1;
  pthread_cond_broadcast(&p->go);
  pthread_mutex_unlock(&p->mu);
  for (int i = 0; i < p->nworkers; i++) pthread_join(p->workers[i], NULL);
  pthread_cond_destroy(&p->go);
  pthread_cond_destroy(&p->done);
  pthread_mutex_destroy(&p->mu);
  free(p->workers);
  free(p);
}

int st_pool_threads(const st_pool *p) { return p->nworkers + 1; }

void st_pool_run(st_pool *p, size_t count, st_pool_fn fn, void *ctx) {
  if (count == 0) return;
  pthread_mutex_lock(&p->mu);
  p->fn = fn;
  p->ctx = ctx;
  p->next = p->finished = 0;
  p->count = count;
  p->batch++;
  pthread_cond_broadcast(&p->go);
  drain(p);
  while (p->finished < p->count) pthread_cond_wait(&p->done, &p->mu);
  pthread_mutex_unlock(&p->mu);
}
