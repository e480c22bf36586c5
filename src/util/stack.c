#define _GNU_SOURCE /* pthread_getattr_np */
#include "util/stack.h"

#include <pthread.h>
#include <sys/resource.h>

size_t st_stack_size(void) {
  size_t size = 0;
  pthread_attr_t attr;
  if (pthread_getattr_np(pthread_self(), &attr) == 0) {
    if (pthread_attr_getstacksize(&attr, &size) != 0) size = 0;
    pthread_attr_destroy(&attr);
  }
  struct rlimit rl;
  if (!size && getrlimit(RLIMIT_STACK, &rl) == 0 && rl.rlim_cur != RLIM_INFINITY)
    size = (size_t)rl.rlim_cur;
  return size ? size : (size_t)8 << 20;
}

int st_expr_depth_limit(void) {
  size_t size = st_stack_size(), reserve = (size_t)1 << 20;
  size_t levels = size > 2 * reserve ? (size - reserve) / ST_STACK_PER_LEVEL : 1000;
  return levels > 1000000 ? 1000000 : (int)levels;
}
