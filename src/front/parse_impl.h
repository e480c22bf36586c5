/* Internal to the parser: the state shared by the flex scanner (lexer.l), the bison parser
 * (parser.y) and the driver (parse.c). One st_pstate per parse; no global state. */
#ifndef ST_FRONT_PARSE_IMPL_H
#define ST_FRONT_PARSE_IMPL_H

#include <setjmp.h>

#include "front/ast.h"

typedef struct st_pstate {
  st_arena *arena;
  st_diag *diag;
  const char *file;          /* arena copy, shared by every st_loc of this parse */
  int line, col;             /* position of the next character to scan */
  st_loc comment_start;      /* of the open slash-star comment */
  int bracket_depth;         /* inside [...]: `end` is an expression there */
  int errors;                /* syntax errors reported by this parse */
  const char *tok_text;      /* text of the last token (for "unexpected 'x'") */
  int tok_len;
  st_ast_stored_def *result;
  jmp_buf *out_of_memory;    /* st_palloc jumps here when the arena cannot grow */
  int depth_limit;           /* st_expr_depth_limit() of the parsing thread */
  bool too_deep;             /* "nested too deeply" was reported */
} st_pstate;

/* A list under construction: head and tail of a chain linked through `next`. */
typedef struct st_plist {
  void *head, *tail;
  int n;
  st_ast_mod *annotation;    /* annotation clauses met inside an element/equation list */
} st_plist;

/* A class body under construction (composition). */
typedef struct st_pcomp {
  st_plist elements, sections;
  st_ast_mod *annotation;
  st_ast_external *external;
} st_pcomp;

/* Semantic value of a number token. */
typedef struct st_pnum {
  const char *text;
  bool is_real;
} st_pnum;

void st_parse_report(st_pstate *ps, st_loc loc, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

/* Arena memory for the scanner and the parser's actions: never NULL. Out of memory, the
 * parse ends at once (a jump to ps->out_of_memory; the arena is freed by its owner). */
void *st_palloc(st_pstate *ps, size_t size);
char *st_pstrndup(st_pstate *ps, const char *s, size_t n);
/* The same end for a failure of flex's or bison's own allocation. */
_Noreturn void st_parse_out_of_memory(st_pstate *ps);

#endif
