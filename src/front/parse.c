/* The parser's driver: reads the text, runs the reentrant scanner and parser over it and
 * reports syntax errors to the caller's st_diag. */
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "front/parse_impl.h"
#include "util/stack.h"

/* From the generated scanner and parser (lexer.l, parser.y). */
typedef void *st_yyscan_t;
int st_yylex_init_extra(st_pstate *extra, st_yyscan_t *scanner);
struct yy_buffer_state *st_yy_scan_copy(const char *bytes, int len, st_yyscan_t scanner);
int st_yylex_destroy(st_yyscan_t scanner);
int st_yyparse(void *scanner, st_pstate *ps);

void st_parse_report(st_pstate *ps, st_loc loc, const char *fmt, ...) {
  char msg[1024];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(msg, sizeof msg, fmt, ap);
  va_end(ap);
  ps->errors++;
  st_error(ps->diag, loc, "%s", msg);
}

_Noreturn void st_parse_out_of_memory(st_pstate *ps) {
  st_parse_report(ps, (st_loc){ps->file, ps->line, ps->col}, "out of memory while parsing");
  longjmp(*ps->out_of_memory, 1);
}

void *st_palloc(st_pstate *ps, size_t size) {
  void *p = st_arena_alloc(ps->arena, size);
  if (!p) st_parse_out_of_memory(ps);
  return p;
}

char *st_pstrndup(st_pstate *ps, const char *s, size_t n) {
  char *p = st_palloc(ps, n + 1);
  memcpy(p, s, n);
  return p;
}

/* Parses text (already in the arena, registered with diag) named file. */
static st_ast_stored_def *parse_text(st_arena *arena, st_diag *diag, const char *file,
                                     const char *text, size_t len) {
  jmp_buf out_of_memory;
  st_pstate ps = {.arena = arena, .diag = diag, .file = file, .line = 1, .col = 1,
                  .out_of_memory = &out_of_memory, .depth_limit = st_expr_depth_limit()};
  if (len > (size_t)0x7fffffff) {
    st_error(diag, ((st_loc){file, 0, 0}), "file too large");
    return NULL;
  }
  st_yyscan_t scanner;
  if (st_yylex_init_extra(&ps, &scanner)) {
    st_error(diag, ((st_loc){file, 0, 0}), "out of memory while parsing");
    return NULL;
  }
  /* After the jump only the scanner is released: the AST is in the caller's arena, and
   * bison's stack (malloc'd only past its first 200 entries) is lost with it. */
  st_yyscan_t volatile held = scanner;
  if (setjmp(out_of_memory)) {
    st_yylex_destroy(held);
    return NULL;
  }
  int rc = st_yy_scan_copy(text, (int)len, scanner) ? st_yyparse(scanner, &ps) : 2;
  st_yylex_destroy(scanner);
  if (rc == 2 && ps.errors == 0)
    st_parse_report(&ps, (st_loc){file, 0, 0}, "out of memory while parsing");
  if (rc != 0 || ps.errors > 0) return NULL;
  return ps.result;
}

st_ast_stored_def *st_parse_string(st_arena *arena, st_diag *diag, const char *name,
                                   const char *text) {
  const char *file = st_arena_strdup(arena, name);
  size_t len = strlen(text);
  char *copy = st_arena_strndup(arena, text, len);
  if (!file || !copy) {
    st_error(diag, ((st_loc){name, 0, 0}), "out of memory");
    return NULL;
  }
  st_diag_add_source(diag, file, copy);
  return parse_text(arena, diag, file, copy, len);
}

/* The whole file into the arena, NUL-terminated; NULL with errno set on failure. open/read
 * rather than stdio: fread's buffer set-up asks fstat() a second time, and a system call
 * costs microseconds on the virtual machines we measure on (38 files for CoupledClutches). */
static char *read_file(st_arena *arena, const char *path, size_t *len) {
  int fd = open(path, O_RDONLY | O_CLOEXEC);
  if (fd < 0) return NULL;
  char *buf = NULL;
  struct stat st;
  if (fstat(fd, &st) != 0) {
    /* errno is set */
  } else if (!S_ISREG(st.st_mode)) {
    errno = S_ISDIR(st.st_mode) ? EISDIR : EINVAL;
  } else if ((buf = st_arena_alloc(arena, (size_t)st.st_size + 1)) != NULL) {
    size_t n = 0;
    ssize_t got = 1;
    while (n < (size_t)st.st_size && (got = read(fd, buf + n, (size_t)st.st_size - n)) > 0)
      n += (size_t)got;
    if (got < 0) buf = NULL; /* errno is set; a file that shrank is read as far as it goes */
    *len = n;
  }
  int err = errno;
  close(fd);
  errno = err;
  if (buf) buf[*len] = 0;
  return buf;
}

st_ast_stored_def *st_parse_file(st_arena *arena, st_diag *diag, const char *path) {
  const char *file = st_arena_strdup(arena, path);
  size_t len = 0;
  errno = 0;
  char *text = file ? read_file(arena, path, &len) : NULL;
  if (!text) {
    if (!errno || errno == ENOMEM) st_error(diag, ((st_loc){path, 0, 0}),
                                            "out of memory while reading the file");
    else st_error(diag, ((st_loc){path, 0, 0}), "cannot read: %s", strerror(errno));
    return NULL;
  }
  if (memchr(text, 0, len)) {
    st_error(diag, ((st_loc){file, 0, 0}), "not a text file (contains NUL bytes)");
    return NULL;
  }
  st_diag_add_source(diag, file, text);
  return parse_text(arena, diag, file, text, len);
}
