/* Building, caching and loading the C code of external functions (extlib.h). */
#include "compile/extlib.h"
#include "func/func_compile.h"

#include <dirent.h>
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <spawn.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "compile/extcall.h"
#include "func/external.h"
#include "util/diag.h"

extern char **environ;

#define PLATFORM "linux64"
#define MAX_PARTS 256 /* sources plus link arguments of one object */

/* The utilities every loaded object gets: each call forwards to the table stiction installs
 * right after dlopen (extcall.c), so the object needs no symbol from the process and two
 * objects never share state. Their order is that of st_extlib_callbacks. */
static const char shim_text[] =
    "#define _GNU_SOURCE\n#include <dlfcn.h>\n#include <langinfo.h>\n#include <locale.h>\n"
    "#include <stdarg.h>\n#include <stddef.h>\n"
    "struct st_mu {\n"
    "  void (*error)(const char *);\n  void (*verror)(const char *, va_list);\n"
    "  void (*message)(const char *);\n  void (*vmessage)(const char *, va_list);\n"
    "  void (*warning)(const char *);\n  void (*vwarning)(const char *, va_list);\n"
    "  char *(*allocate)(size_t);\n  char *(*allocate_or_null)(size_t);\n"
    "  char *(*duplicate)(const char *);\n  char *(*duplicate_or_null)(const char *);\n"
    "  int (*scan)(const char *, const char **, double *);\n};\n"
    "static const struct st_mu *mu;\n"
    "static double (*libc_strtod_l)(const char *, char **, locale_t);\n"
    "void stiction_ext_install(const struct st_mu *t) {\n"
    "  mu = t;\n"
    "  libc_strtod_l = (double (*)(const char *, char **, locale_t))dlsym(RTLD_NEXT, \"strtod_l\");\n"
    /* the C library this object loaded sets its thread's ctype tables only when its own
     * start-up runs: stiction is linked statically, so isspace() read a NULL table (a
     * crash in ModelicaStrings_skipWhiteSpace called while flattening) */
    "  void (*ctype_init)(void) = (void (*)(void))dlsym(RTLD_DEFAULT, \"__ctype_init\");\n"
    "  if (ctype_init) ctype_init();\n}\n"
    "void ModelicaError(const char *s) { mu->error(s); for (;;) ; }\n"
    "void ModelicaVFormatError(const char *f, va_list a) { mu->verror(f, a); for (;;) ; }\n"
    "void ModelicaFormatError(const char *f, ...) { va_list a; va_start(a, f);"
    " mu->verror(f, a); for (;;) ; }\n"
    "void ModelicaMessage(const char *s) { mu->message(s); }\n"
    "void ModelicaVFormatMessage(const char *f, va_list a) { mu->vmessage(f, a); }\n"
    "void ModelicaFormatMessage(const char *f, ...) { va_list a; va_start(a, f);"
    " mu->vmessage(f, a); va_end(a); }\n"
    "void ModelicaWarning(const char *s) { mu->warning(s); }\n"
    "void ModelicaVFormatWarning(const char *f, va_list a) { mu->vwarning(f, a); }\n"
    "void ModelicaFormatWarning(const char *f, ...) { va_list a; va_start(a, f);"
    " mu->vwarning(f, a); va_end(a); }\n"
    "char *ModelicaAllocateString(size_t n) { return mu->allocate(n); }\n"
    "char *ModelicaAllocateStringWithErrorReturn(size_t n) { return mu->allocate_or_null(n); }\n"
    "char *ModelicaDuplicateString(const char *s) { return mu->duplicate(s); }\n"
    "char *ModelicaDuplicateStringWithErrorReturn(const char *s)"
    " { return mu->duplicate_or_null(s); }\n"
    /* the MSL's text tables read every number with strtod_l in the "C" locale: the C
     * library's general routine was most of a cached run of a 10^5-row table; stiction's
     * fast path (io/scan.c) gives the same doubles and leaves the rest to the C library */
    "double strtod_l(const char *s, char **end, locale_t loc) {\n"
    "  const char *e, *radix = nl_langinfo_l(RADIXCHAR, loc);\n  double x;\n"
    "  if (mu && radix[0] == '.' && !radix[1] && mu->scan(s, &e, &x)) {\n"
    "    if (end) *end = (char *)e;\n    return x;\n  }\n"
    "  if (!libc_strtod_l)\n"
    "    libc_strtod_l = (double (*)(const char *, char **, locale_t))dlsym(RTLD_NEXT, \"strtod_l\");\n"
    "  return libc_strtod_l(s, end, loc);\n}\n";

/* The header user code includes when its library ships none (the standard's declarations). */
static const char header_text[] =
    "#ifndef MODELICA_UTILITIES_H\n#define MODELICA_UTILITIES_H\n"
    "#include <stddef.h>\n#include <stdarg.h>\n"
    "_Noreturn void ModelicaError(const char *string);\n"
    "_Noreturn void ModelicaFormatError(const char *string, ...);\n"
    "_Noreturn void ModelicaVFormatError(const char *string, va_list args);\n"
    "void ModelicaMessage(const char *string);\n"
    "void ModelicaFormatMessage(const char *string, ...);\n"
    "void ModelicaVFormatMessage(const char *string, va_list args);\n"
    "void ModelicaWarning(const char *string);\n"
    "void ModelicaFormatWarning(const char *string, ...);\n"
    "void ModelicaVFormatWarning(const char *string, va_list args);\n"
    "char *ModelicaAllocateString(size_t len);\n"
    "char *ModelicaAllocateStringWithErrorReturn(size_t len);\n"
    "char *ModelicaDuplicateString(const char *str);\n"
    "char *ModelicaDuplicateStringWithErrorReturn(const char *str);\n"
    "#endif\n";

/* What the MSL's own build defines on Linux for its C sources (zlib inside MatIO, the dummy
 * usertab of the tables); harmless for other code. HASH_FUNCTION: ModelicaStrings_hashString
 * with uthash's own default (Jenkins) hash rather than ModelicaStrings.c's fallback (AP): the
 * reference results' noise blocks seed from it (MSL issue 3727: automatic local seeds). */
static const char *const source_defines[] = {
    "-DHAVE_ZLIB=1", "-DHAVE_INTTYPES_H=1",      "-DHAVE_STDINT_H=1",
    "-DHAVE_UNISTD_H=1", "-DSTDC99", "-DDUMMY_FUNCTION_USERTAB=1",
    "-DHASH_FUNCTION=HASH_JEN"};

/* The compiler's other options (the object is position independent, warnings are the
 * library's business). */
static const char *const cc_flags[] = {"-shared", "-fPIC", "-O1", "-w", "-Wl,--no-as-needed"};

/* Library names of the MSL that stand for several of its C-Sources files. */
static const struct {
  const char *name, *files[5];
} groups[] = {
    {"ModelicaExternalC",
     {"ModelicaFFT.c", "ModelicaInternal.c", "ModelicaRandom.c", "ModelicaStrings.c", NULL}},
    {"ModelicaStandardTables", {"ModelicaStandardTables.c", "ModelicaStandardTablesUsertab.c"}},
};

typedef struct unit {
  char *key;    /* the annotations that make the object (one object per distinct key) */
  void *handle; /* dlopen handle, NULL when it failed */
  char *error;  /* why there is no handle */
} unit;

typedef struct entry {
  int unit;    /* -1: not an external C function of this module */
  void *sym;
  char *error; /* malloc'd, or NULL */
} entry;

struct st_extlib {
  atomic_int refs;
  const st_ffunction *functions;
  entry *fn;
  int nfn;
  unit *units;
  int nunits;
};

/* ---- small strings ------------------------------------------------------------------------ */

typedef struct strlist {
  char *item[MAX_PARTS];
  int n;
} strlist;

static int push(strlist *l, char *s) {
  if (!s || l->n == MAX_PARTS) {
    free(s);
    return -1;
  }
  l->item[l->n++] = s;
  return 0;
}

static void strlist_free(strlist *l) {
  for (int i = 0; i < l->n; i++) free(l->item[i]);
  l->n = 0;
}

static int is_file(const char *path) {
  struct stat st;
  return stat(path, &st) == 0 && S_ISREG(st.st_mode);
}

static int is_dir(const char *path) {
  struct stat st;
  return stat(path, &st) == 0 && S_ISDIR(st.st_mode);
}

/* ---- content hash (FNV-1a, 64 bits) ------------------------------------------------------- */

static void hash_bytes(uint64_t *h, const void *p, size_t n) {
  const unsigned char *b = p;
  for (size_t i = 0; i < n; i++) *h = (*h ^ b[i]) * 1099511628211ull;
}

static void hash_str(uint64_t *h, const char *s) { hash_bytes(h, s, strlen(s) + 1); }

static int hash_file(uint64_t *h, const char *path) {
  FILE *f = fopen(path, "rb");
  if (!f) return -1;
  char buf[65536];
  size_t n;
  hash_str(h, path);
  while ((n = fread(buf, 1, sizeof buf, f)) > 0) hash_bytes(h, buf, n);
  fclose(f);
  return 0;
}

/* ---- what goes into one object --------------------------------------------------------------- */

static int cmp_str(const void *a, const void *b) {
  return strcmp(*(char *const *)a, *(char *const *)b);
}

/* Every *.c of dir, sorted (the hash must not depend on readdir's order). */
static int add_dir_sources(strlist *src, const char *dir) {
  DIR *d = opendir(dir);
  if (!d) return -1;
  int first = src->n, rc = 0;
  for (struct dirent *e; (e = readdir(d)) && !rc;) {
    size_t len = strlen(e->d_name);
    if (len > 2 && !strcmp(e->d_name + len - 2, ".c"))
      rc = push(src, st_format("%s/%s", dir, e->d_name));
  }
  closedir(d);
  qsort(src->item + first, (size_t)(src->n - first), sizeof *src->item, cmp_str);
  return rc;
}

/* An archive or shared object of library name in dir, or NULL. */
static char *find_binary(const char *dir, const char *name) {
  static const char *const forms[] = {"%s/" PLATFORM "/lib%s.a", "%s/" PLATFORM "/lib%s.so",
                                      "%s/lib%s.a", "%s/lib%s.so"};
  for (size_t i = 0; i < sizeof forms / sizeof *forms; i++) {
    char *p = st_format(forms[i], dir, name);
    if (p && is_file(p)) return p;
    free(p);
  }
  return NULL;
}

/* Sources of library name in dir (the C-Sources of its Modelica library): an MSL group,
 * NAME.c, or every file of NAME/. 1 when found, 0 when not, -1 out of memory. */
static int find_sources(strlist *src, strlist *inc, const char *dir, const char *name) {
  for (size_t g = 0; g < sizeof groups / sizeof *groups; g++) {
    if (strcmp(groups[g].name, name)) continue;
    for (int i = 0; i < 5 && groups[g].files[i]; i++) {
      char *p = st_format("%s/%s", dir, groups[g].files[i]);
      if (p && !is_file(p)) {
        free(p);
        return 0;
      }
      if (push(src, p)) return -1;
    }
    return 1;
  }
  char *p = st_format("%s/%s.c", dir, name);
  if (p && is_file(p)) return push(src, p) ? -1 : 1;
  free(p);
  char *sub = st_format("%s/%s", dir, name);
  if (!sub) return -1;
  if (!is_dir(sub)) {
    free(sub);
    return 0;
  }
  int rc = add_dir_sources(src, sub);
  return rc ? (free(sub), -1) : push(inc, st_format("-I%s", sub)) ? (free(sub), -1) : (free(sub), 1);
}

typedef struct recipe {
  strlist src;  /* C files compiled besides the shim and the Include texts */
  strlist link; /* archives, shared objects, -l names */
  strlist inc;  /* -I options */
  char *unit;   /* the Include texts, one file */
} recipe;

static void recipe_free(recipe *r) {
  strlist_free(&r->src);
  strlist_free(&r->link);
  strlist_free(&r->inc);
  free(r->unit);
}

static int make_recipe(recipe *r, const st_fexternal *x) {
  memset(r, 0, sizeof *r);
  if (is_dir(x->include_dir) && push(&r->inc, st_format("-I%s", x->include_dir))) return -1;
  if (is_dir(x->sources_dir) && push(&r->inc, st_format("-I%s", x->sources_dir))) return -1;
  for (int i = 0; i < x->nlibraries; i++) {
    const char *name = x->libraries[i];
    char *bin = find_binary(x->library_dir, name);
    if (bin) {
      int archive = strlen(bin) > 2 && !strcmp(bin + strlen(bin) - 2, ".a");
      if (archive ? push(&r->link, st_format("-Wl,--whole-archive")) || push(&r->link, bin) ||
                        push(&r->link, st_format("-Wl,--no-whole-archive"))
                  : push(&r->link, bin))
        return -1;
      if (!archive) {
        char *slash = strrchr(r->link.item[r->link.n - 1], '/');
        if (push(&r->link, st_format("-Wl,-rpath,%.*s", (int)(slash - r->link.item[r->link.n - 1]),
                                   r->link.item[r->link.n - 1])))
          return -1;
      }
      continue;
    }
    int found = find_sources(&r->src, &r->inc, x->sources_dir, name);
    if (found < 0) return -1;
    if (!found && push(&r->link, st_format("-l%s", name))) return -1;
  }
  size_t len = 1;
  for (int i = 0; i < x->nincludes; i++) len += strlen(x->includes[i]) + 1;
  if (!(r->unit = malloc(len))) return -1;
  r->unit[0] = 0;
  for (int i = 0; i < x->nincludes; i++) {
    strcat(r->unit, x->includes[i]);
    strcat(r->unit, "\n");
  }
  return 0;
}

/* ---- compiling ------------------------------------------------------------------------------ */

static const char *compiler(void) {
  const char *cc = getenv("CC");
  return cc && *cc ? cc : "cc";
}

/* The content hash of file path, remembered in dir/sum-<hash of path> with the file's inode,
 * size, modification and change times: a cached translation reads the file again only when
 * one of them changed (hashing the MSL's table sources took 4 ms of a 60 ms run). 0, or -1
 * when the file cannot be read. */
static int file_sum(const char *dir, const char *path, uint64_t *sum) {
  struct stat st;
  if (stat(path, &st)) return -1;
  uint64_t key = 14695981039346656037ull;
  hash_str(&key, path);
  char *memo = st_format("%s/sum-%016llx", dir, (unsigned long long)key);
  char *line = st_format("%ju %jd %jd.%09ld %jd.%09ld %s", (uintmax_t)st.st_ino,
                         (intmax_t)st.st_size, (intmax_t)st.st_mtim.tv_sec, st.st_mtim.tv_nsec,
                         (intmax_t)st.st_ctim.tv_sec, st.st_ctim.tv_nsec, path);
  int rc = -1;
  if (!memo || !line) goto done;
  FILE *f = fopen(memo, "r");
  if (f) {
    char buf[4200];
    unsigned long long known;
    size_t n = strlen(line);
    int hit = fgets(buf, sizeof buf, f) && !strncmp(buf, line, n) && buf[n] == '\n' &&
              fscanf(f, "%llx", &known) == 1;
    fclose(f);
    if (hit) {
      *sum = known;
      rc = 0;
      goto done;
    }
  }
  *sum = 14695981039346656037ull;
  if ((rc = hash_file(sum, path))) goto done;
  char *tmp = st_format("%s.XXXXXX", memo);
  int fd = tmp ? mkstemp(tmp) : -1;
  if (fd >= 0 && !(f = fdopen(fd, "w"))) close(fd);
  if (fd >= 0 && f) { /* renamed into place: readers never see half a line */
    int bad = fprintf(f, "%s\n%016llx\n", line, (unsigned long long)*sum) < 0;
    if (fclose(f) || bad || rename(tmp, memo)) unlink(tmp);
  } else if (fd >= 0) {
    unlink(tmp);
  }
  free(tmp);
done:
  free(memo);
  free(line);
  return rc;
}

static void hash_sum(uint64_t *h, const char *dir, const char *path, int name_if_unreadable) {
  uint64_t sum;
  hash_str(h, path);
  if (!file_sum(dir, path, &sum)) hash_bytes(h, &sum, sizeof sum);
  else if (!name_if_unreadable) hash_str(h, "(unreadable)");
}

/* The C sources and headers directly in directory inc (an -I option): what an Include text's
 * `#include "x.c"` reads, hashed so that an edit of it makes a new object. */
static void hash_include_dir(uint64_t *h, const char *dir, const char *inc) {
  strlist files = {0};
  DIR *d = opendir(inc);
  for (struct dirent *e; d && (e = readdir(d));) {
    size_t len = strlen(e->d_name);
    if (len > 2 && e->d_name[len - 2] == '.' && strchr("ch", e->d_name[len - 1]))
      push(&files, st_format("%s/%s", inc, e->d_name));
  }
  if (d) closedir(d);
  qsort(files.item, (size_t)files.n, sizeof *files.item, cmp_str);
  for (int i = 0; i < files.n; i++)
    if (is_file(files.item[i])) hash_sum(h, dir, files.item[i], 0);
  strlist_free(&files);
}

static uint64_t recipe_hash(const recipe *r, const char *dir) {
  uint64_t h = 14695981039346656037ull;
  hash_str(&h, "stiction external code 1");
  hash_str(&h, compiler());
  for (size_t i = 0; i < sizeof cc_flags / sizeof *cc_flags; i++) hash_str(&h, cc_flags[i]);
  for (size_t i = 0; i < sizeof source_defines / sizeof *source_defines; i++)
    hash_str(&h, source_defines[i]);
  hash_bytes(&h, shim_text, sizeof shim_text);
  hash_bytes(&h, header_text, sizeof header_text);
  hash_str(&h, r->unit);
  for (int i = 0; i < r->inc.n; i++) {
    hash_str(&h, r->inc.item[i]);
    hash_include_dir(&h, dir, r->inc.item[i] + 2); /* past "-I" */
  }
  for (int i = 0; i < r->src.n; i++) hash_sum(&h, dir, r->src.item[i], 0);
  for (int i = 0; i < r->link.n; i++)
    hash_sum(&h, dir, r->link.item[i], 1);
  return h;
}

/* $XDG_CACHE_HOME/stiction, else $HOME/.cache/stiction, created when missing. */
static char *cache_dir(void) {
  const char *xdg = getenv("XDG_CACHE_HOME"), *home = getenv("HOME");
  char *base = xdg && *xdg ? st_format("%s", xdg) : home ? st_format("%s/.cache", home) : NULL;
  if (!base) return NULL;
  mkdir(base, 0700);
  char *dir = st_format("%s/stiction", base);
  free(base);
  if (dir && mkdir(dir, 0700) && errno != EEXIST) {
    free(dir);
    return NULL;
  }
  return dir;
}

static int write_file(const char *path, const char *text) {
  FILE *f = fopen(path, "w");
  if (!f) return -1;
  int bad = fputs(text, f) == EOF;
  return fclose(f) || bad ? -1 : 0;
}

/* The first lines of the compiler's output, for the message. */
static char *read_log(const char *path) {
  FILE *f = fopen(path, "r");
  if (!f) return st_format("%s", "");
  char buf[4000];
  size_t n = fread(buf, 1, sizeof buf - 1, f);
  fclose(f);
  buf[n] = 0;
  while (n && (buf[n - 1] == '\n' || buf[n - 1] == ' ')) buf[--n] = 0;
  return st_format("%s%s", buf, n == sizeof buf - 1 ? "\n..." : "");
}

/* Runs argv with stdout and stderr to log; the exit status, or -1 when it did not start. */
static int run(char *const *argv, const char *log) {
  posix_spawn_file_actions_t fa;
  if (posix_spawn_file_actions_init(&fa)) return -1;
  posix_spawn_file_actions_addopen(&fa, 1, log, O_WRONLY | O_CREAT | O_TRUNC, 0600);
  posix_spawn_file_actions_adddup2(&fa, 1, 2);
  pid_t pid;
  int rc = posix_spawnp(&pid, argv[0], &fa, NULL, argv, environ);
  posix_spawn_file_actions_destroy(&fa);
  if (rc) return -1;
  int status;
  while (waitpid(pid, &status, 0) < 0)
    if (errno != EINTR) return -1;
  return WIFEXITED(status) ? WEXITSTATUS(status) : 128;
}

static void remove_tree(const char *tmp) {
  static const char *const files[] = {"shim.c", "include_annotation.c", "cc.log", "out.so",
                                      "include/ModelicaUtilities.h"};
  for (size_t i = 0; i < sizeof files / sizeof *files; i++) {
    char *p = st_format("%s/%s", tmp, files[i]);
    if (p) unlink(p);
    free(p);
  }
  char *inc = st_format("%s/include", tmp);
  if (inc) rmdir(inc);
  free(inc);
  rmdir(tmp);
}

/* Compiles the recipe into target (renamed into place when complete, so a concurrent or
 * interrupted build never leaves half an object). NULL, or the reason (malloc'd). */
static char *build(const recipe *r, const char *dir, const char *target) {
  char *tmp = st_format("%s/build-XXXXXX", dir);
  if (!tmp || !mkdtemp(tmp)) {
    free(tmp);
    return st_format("cannot create a build directory in %s: %s", dir, strerror(errno));
  }
  char *shim = st_format("%s/shim.c", tmp), *unitc = st_format("%s/include_annotation.c", tmp);
  char *incdir = st_format("%s/include", tmp), *hdr = st_format("%s/include/ModelicaUtilities.h", tmp);
  char *log = st_format("%s/cc.log", tmp), *out = st_format("%s/out.so", tmp);
  char *inc_opt = st_format("-I%s", incdir ? incdir : "");
  char *why = NULL;
  if (!shim || !unitc || !incdir || !hdr || !log || !out || !inc_opt || mkdir(incdir, 0700) ||
      write_file(shim, shim_text) || write_file(hdr, header_text) || write_file(unitc, r->unit)) {
    why = st_format("cannot write the sources to %s", tmp);
    goto done;
  }
  char *argv[3 * MAX_PARTS + 48];
  int n = 0;
  /* CC may carry words of its own ("ccache gcc", "gcc -g"): split at blanks */
  char *cc = st_format("%s", compiler());
  for (char *save = NULL, *w = cc ? strtok_r(cc, " \t", &save) : NULL; w && n < 16;
       w = strtok_r(NULL, " \t", &save))
    argv[n++] = w;
  if (!n) {
    free(cc);
    why = st_format("out of memory");
    goto done;
  }
  for (size_t i = 0; i < sizeof cc_flags / sizeof *cc_flags; i++) argv[n++] = (char *)cc_flags[i];
  for (size_t i = 0; i < sizeof source_defines / sizeof *source_defines; i++)
    argv[n++] = (char *)source_defines[i];
  for (int i = 0; i < r->inc.n; i++) argv[n++] = r->inc.item[i];
  argv[n++] = inc_opt; /* last: a library's own ModelicaUtilities.h wins */
  argv[n++] = "-o";
  argv[n++] = out;
  argv[n++] = shim;
  argv[n++] = unitc;
  for (int i = 0; i < r->src.n; i++) argv[n++] = r->src.item[i];
  for (int i = 0; i < r->link.n; i++) argv[n++] = r->link.item[i];
  /* the C library and libm stay dependencies, so a clause naming sin() or strlen() finds
   * them through the object's handle */
  argv[n++] = "-lm";
  argv[n] = NULL;
  int rc = run(argv, log);
  free(cc);
  if (rc == -1 || rc == 127) {
    why = st_format("the C compiler '%s' could not be run (install one, or set CC)", compiler());
  } else if (rc) {
    char *text = read_log(log);
    why = st_format("the C compiler '%s' failed (exit %d):\n%s", compiler(), rc, text ? text : "");
    free(text);
  } else if (rename(out, target)) {
    why = st_format("cannot store the compiled code as %s: %s", target, strerror(errno));
  }
done:
  remove_tree(tmp);
  free(shim), free(unitc), free(incdir), free(hdr), free(log), free(out), free(inc_opt), free(tmp);
  return why;
}

/* ---- units ------------------------------------------------------------------------------------ */

/* The key of the annotations that make an object: equal keys share one. */
static char *unit_key(const st_fexternal *x) {
  size_t len = strlen(x->include_dir) + strlen(x->library_dir) + strlen(x->sources_dir) + 8;
  for (int i = 0; i < x->nincludes; i++) len += strlen(x->includes[i]) + 1;
  for (int i = 0; i < x->nlibraries; i++) len += strlen(x->libraries[i]) + 1;
  char *k = malloc(len);
  if (!k) return NULL;
  strcpy(k, x->include_dir);
  strcat(k, "\1");
  strcat(k, x->library_dir);
  strcat(k, "\1");
  strcat(k, x->sources_dir);
  for (int i = 0; i < x->nincludes; i++) strcat(strcat(k, "\2"), x->includes[i]);
  for (int i = 0; i < x->nlibraries; i++) strcat(strcat(k, "\3"), x->libraries[i]);
  return k;
}

static void load_unit(unit *u, const st_fexternal *x, const st_extlib_callbacks *cb) {
  recipe r;
  char *dir = NULL, *path = NULL;
  if (make_recipe(&r, x)) {
    u->error = st_format("out of memory");
    goto done;
  }
  if (!(dir = cache_dir())) {
    u->error = st_format("no cache directory for compiled C code (set XDG_CACHE_HOME or HOME)");
    goto done;
  }
  path = st_format("%s/ext-%016llx.so", dir, (unsigned long long)recipe_hash(&r, dir));
  if (!path) goto done;
  if (!is_file(path) && (u->error = build(&r, dir, path))) goto done;
  if (!(u->handle = dlopen(path, RTLD_NOW | RTLD_LOCAL))) {
    const char *e = dlerror();
    u->error = st_format("cannot load the compiled C code %s: %s", path, e ? e : "?");
    goto done;
  }
  void (*install)(const st_extlib_callbacks *) =
      (void (*)(const st_extlib_callbacks *))dlsym(u->handle, "stiction_ext_install");
  if (install) install(cb);
done:
  recipe_free(&r);
  free(dir);
  free(path);
}

static int is_fortran(const st_ffunction *fn) { return !strcmp(fn->ext->language, "FORTRAN 77"); }

int st_extlib_wants(const st_ffunction *fn) { return st_fvm_is_c_code(fn); }

/* The address of fn's routine in handle: a FORTRAN 77 routine under the name compilers give it
 * (gfortran, f2c: lower case with a trailing underscore), else as written; a C function as
 * written. */
static void *lookup_function(void *handle, const st_ffunction *fn) {
  dlerror();
  if (is_fortran(fn)) {
    char *sym = st_format("%s_", fn->external_name);
    for (char *p = sym; p && *p; p++)
      if (*p >= 'A' && *p <= 'Z') *p = (char)(*p - 'A' + 'a');
    void *addr = sym ? dlsym(handle, sym) : NULL;
    free(sym);
    if (addr) return addr;
  }
  return dlsym(handle, fn->external_name);
}

static int find_unit(st_extlib *lib, const st_fexternal *x, const st_extlib_callbacks *cb) {
  char *key = unit_key(x);
  if (!key) return -1;
  for (int i = 0; i < lib->nunits; i++)
    if (!strcmp(lib->units[i].key, key)) {
      free(key);
      return i;
    }
  unit *u = realloc(lib->units, (size_t)(lib->nunits + 1) * sizeof *u);
  if (!u) {
    free(key);
    return -1;
  }
  lib->units = u;
  u = &lib->units[lib->nunits];
  memset(u, 0, sizeof *u);
  u->key = key;
  load_unit(u, x, cb);
  return lib->nunits++;
}

st_extlib *st_extlib_new(const st_ffunction *functions, int n, const st_extlib_callbacks *cb) {
  st_extlib *lib = calloc(1, sizeof *lib);
  if (!lib || !(lib->fn = calloc((size_t)(n ? n : 1), sizeof *lib->fn))) {
    free(lib);
    return NULL;
  }
  atomic_init(&lib->refs, 1);
  lib->functions = functions;
  lib->nfn = n;
  for (int k = 0; k < n; k++) {
    entry *e = &lib->fn[k];
    const st_ffunction *fn = &functions[k];
    e->unit = -1;
    if (!st_extlib_wants(fn)) continue;
    if (fn->ext->nargs < -1) {
      e->error = st_format("the arguments of its external call are not supported (plain names, "
                         "size(name, k) and literals are)");
      continue;
    }
    if ((e->unit = find_unit(lib, fn->ext, cb)) < 0) {
      e->error = st_format("out of memory");
      continue;
    }
    const unit *u = &lib->units[e->unit];
    if (!u->handle) {
      e->error = st_format("%s", u->error ? u->error : "out of memory");
      continue;
    }
    e->sym = lookup_function(u->handle, fn);
    if (!e->sym && is_fortran(fn))
      e->error = st_format("the FORTRAN 77 routine '%s' (symbol '%s_' or '%s') is defined "
                           "neither by its Include annotation nor by its libraries",
                           fn->external_name, fn->external_name, fn->external_name);
    else if (!e->sym)
      e->error = st_format("the C function '%s' is defined neither by its Include annotation nor "
                         "by its libraries", fn->external_name);
  }
  return lib;
}

st_extlib *st_extlib_ref(st_extlib *lib) {
  if (lib) atomic_fetch_add(&lib->refs, 1);
  return lib;
}

void st_extlib_free(st_extlib *lib) {
  if (!lib || atomic_fetch_sub(&lib->refs, 1) != 1) return;
  for (int k = 0; k < lib->nfn; k++) free(lib->fn[k].error);
  for (int i = 0; i < lib->nunits; i++) {
    if (lib->units[i].handle) dlclose(lib->units[i].handle);
    free(lib->units[i].key);
    free(lib->units[i].error);
  }
  free(lib->units);
  free(lib->fn);
  free(lib);
}

void *st_extlib_symbol(const st_extlib *lib, int k) {
  return lib && k >= 0 && k < lib->nfn ? lib->fn[k].sym : NULL;
}

const char *st_extlib_error(const st_extlib *lib, int k) {
  return lib && k >= 0 && k < lib->nfn ? lib->fn[k].error : NULL;
}

void *st_extlib_lookup(const st_extlib *lib, int k, const char *name) {
  if (!lib || k < 0 || k >= lib->nfn || lib->fn[k].unit < 0) return NULL;
  void *h = lib->units[lib->fn[k].unit].handle;
  return h ? dlsym(h, name) : NULL;
}
