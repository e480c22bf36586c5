/* Library path of the front end: where top-level packages are found (MODELICAPATH, -L,
 * stiction's models/), and the ordered contents of a directory package (package.order). */
#ifndef ST_FRONT_LIBPATH_H
#define ST_FRONT_LIBPATH_H

typedef struct st_libpath {
  char **dirs; /* malloc'd copies, searched in order */
  int n, cap;
} st_libpath;

void st_libpath_free(st_libpath *lp);
/* Appends a directory (copied). 0 on success, -1 when out of memory. */
int st_libpath_add(st_libpath *lp, const char *dir);
/* Appends each non-empty entry of a ':'-separated list (MODELICAPATH). */
int st_libpath_add_list(st_libpath *lp, const char *list);

/* stiction's own models/ directory: the source tree's when it exists (running from the build
 * tree), else the installed one. Never NULL. */
const char *st_libpath_models_dir(void);

/* Finds a top-level class NAME on the path: DIR/NAME/package.mo (returns DIR/NAME, *is_dir
 * = 1) or DIR/NAME.mo (*is_dir = 0). malloc'd path, or NULL when not found. */
char *st_libpath_find(const st_libpath *lp, const char *name, int *is_dir);

/* One class stored inside a directory package. */
typedef struct st_pkg_entry {
  char *name;  /* class name (file name without .mo) */
  char *path;  /* DIR/name.mo, or DIR/name (a sub-package directory with package.mo) */
  int is_dir;
} st_pkg_entry;

/* The classes stored in directory package DIR (besides package.mo): first in the order of
 * package.order, then the rest alphabetically (Modelica 3.5 section 13.4.2). Returns the count
 * (>= 0) with *out malloc'd (free with st_pkg_entries_free), or -1 when DIR cannot be read. */
int st_pkg_entries(const char *dir, st_pkg_entry **out);
void st_pkg_entries_free(st_pkg_entry *entries, int n);

/* The class NAME stored in directory package DIR: DIR/NAME/package.mo (*path = DIR/NAME,
 * *is_dir = 1) or DIR/NAME.mo (*is_dir = 0). 0 with *path malloc'd, -1 if neither exists. */
int st_pkg_entry_find(const char *dir, const char *name, char **path, int *is_dir);

/* The entries of directories, each read once (opendir/readdir) the first time a class is
 * looked for in it: a lookup passes through every enclosing package and asked stat() for
 * DIR/NAME/package.mo and DIR/NAME.mo in each (CoupledClutches: 124 failed probes of 240).
 * A file created after its directory was read is not seen by this cache: it lives as long
 * as one st_front (one command). */
typedef struct st_dir_listing st_dir_listing;
typedef struct st_dircache {
  st_dir_listing *dirs;
  int n, cap;
} st_dircache;

void st_dircache_free(st_dircache *dc);
/* st_pkg_entry_find answered from the listing of DIR (stat() only for the entries found, and
 * for every name when DIR cannot be listed). */
int st_dircache_entry_find(st_dircache *dc, const char *dir, const char *name, char **path,
                           int *is_dir);
/* st_libpath_find through the cache. */
char *st_dircache_libpath_find(st_dircache *dc, const st_libpath *lp, const char *name,
                               int *is_dir);

/* Reads a whole file into a malloc'd, NUL-terminated buffer; NULL on failure. */
char *st_read_file(const char *path, long *len);

#endif
