/* How deep a recursion the calling thread's stack holds. The front end and the compiler walk
 * expression trees recursively (one frame per level), so the parser refuses trees higher
 * than st_expr_depth_limit() with a located error rather than overflow the stack later. */
#ifndef ST_STACK_H
#define ST_STACK_H

#include <stddef.h>

/* The size of the calling thread's stack in bytes (its rlimit for the main thread). */
size_t st_stack_size(void);

/* The most levels an expression tree may have in this thread: the stack less 1 MiB, at
 * ST_STACK_PER_LEVEL bytes a level (the deepest pass, measured, takes under 320). */
int st_expr_depth_limit(void);

#if defined(__SANITIZE_ADDRESS__)
#define ST_STACK_PER_LEVEL 4096 /* sanitizer frames are several times larger */
#else
#define ST_STACK_PER_LEVEL 512
#endif

#endif
