/* Library path and directory packages (Modelica 3.5 chapter 13: mapping of packages to the
 * file system, MODELICAPATH). */
#include "front/libpath.h"

#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

void st_libpath_free(st_libpath *lp) {
  for (int i = 0; i < lp->n; i++) free(lp->dirs[i]);
  free(lp->dirs);
  lp->dirs = NULL;
  lp->n = lp->cap = 0;
}

int st_libpath_add(st_libpath *lp, const char *dir) {
  if (lp->n == lp->cap) {
    int cap = lp->cap ? 2 * lp->cap : 8;
    char **d = realloc(lp->dirs, (size_t)cap * sizeof *d);
    if (!d) return -1;
    lp->dirs = d;
    lp->cap = cap;
  }
  char *copy = strdup(dir);
  if (!copy) return -1;
  lp->dirs[lp->n++] = copy;
  return 0;
}

int st_libpath_add_list(st_libpath *lp, const char *list) {
  while (list && *list) {
    size_t len = strcspn(list, ":");
    if (len > 0) {
      char *dir = strndup(list, len);
      int rc = dir ? st_libpath_add(lp, dir) : -1;
      free(dir);
      if (rc) return rc;
    }
    list += len;
    if (*list == ':') list++;
  }
  return 0;
}

static int is_dir(const char *path) {
  struct stat st;
  return stat(path, &st) == 0 && S_ISDIR(st.st_mode);
}

static int is_file(const char *path) {
  struct stat st;
  return stat(path, &st) == 0 && S_ISREG(st.st_mode);
}

const char *st_libpath_models_dir(void) {
#ifdef STICTION_SOURCE_MODELS_DIR
  if (is_dir(STICTION_SOURCE_MODELS_DIR)) return STICTION_SOURCE_MODELS_DIR;
#endif
#ifdef STICTION_MODELS_DIR
  return STICTION_MODELS_DIR;
#else
  return "models";
#endif
}

static char *join(const char *dir, const char *name, const char *suffix) {
  size_t n = strlen(dir) + strlen(name) + strlen(suffix) + 2;
  char *p = malloc(n);
  if (p) snprintf(p, n, "%s/%s%s", dir, name, suffix);
  return p;
}

/* DIR/NAME/package.mo makes NAME a directory package. */
static int is_package_dir(const char *path) {
  char *pkg = join(path, "package", ".mo");
  int yes = pkg && is_file(pkg);
  free(pkg);
  return yes;
}

int st_pkg_entry_find(const char *dir, const char *name, char **out, int *sub) {
  if (!name[0] || name[0] == '.' || strchr(name, '/')) return -1;
  char *path = join(dir, name, "");
  if (path && is_package_dir(path)) {
    *sub = 1;
    *out = path;
    return 0;
  }
  free(path);
  path = join(dir, name, ".mo");
  if (path && is_file(path)) {
    *sub = 0;
    *out = path;
    return 0;
  }
  free(path);
  return -1;
}

char *st_libpath_find(const st_libpath *lp, const char *name, int *dir) {
  char *path;
  for (int i = 0; i < lp->n; i++)
    if (st_pkg_entry_find(lp->dirs[i], name, &path, dir) == 0) return path;
  return NULL;
}

char *st_read_file(const char *path, long *len) {
  FILE *f = fopen(path, "rb");
  if (!f) return NULL;
  char *buf = NULL;
  long n = -1;
  if (fseek(f, 0, SEEK_END) == 0 && (n = ftell(f)) >= 0 && fseek(f, 0, SEEK_SET) == 0)
    buf = malloc((size_t)n + 1);
  if (buf && fread(buf, 1, (size_t)n, f) != (size_t)n) {
    free(buf);
    buf = NULL;
  }
  fclose(f);
  if (buf) buf[n] = 0;
  if (len) *len = n;
  return buf;
}

typedef struct entry_list {
  st_pkg_entry *items;
  int n, cap;
} entry_list;

static int find_entry(const entry_list *l, const char *name) {
  for (int i = 0; i < l->n; i++)
    if (strcmp(l->items[i].name, name) == 0) return i;
  return -1;
}

static int push_entry(entry_list *l, const char *dir, const char *name, int sub) {
  if (l->n == l->cap) {
    int cap = l->cap ? 2 * l->cap : 16;
    st_pkg_entry *e = realloc(l->items, (size_t)cap * sizeof *e);
    if (!e) return -1;
    l->items = e;
    l->cap = cap;
  }
  st_pkg_entry *e = &l->items[l->n];
  e->name = strdup(name);
  e->path = join(dir, name, sub ? "" : ".mo");
  e->is_dir = sub;
  if (!e->name || !e->path) {
    free(e->name);
    free(e->path);
    return -1;
  }
  l->n++;
  return 0;
}

/* A directory entry names a class when it is NAME.mo (not package.mo) or a NAME/ folder
 * that holds a package.mo. Returns 1 with the class name in name[], else 0. */
static int class_of_entry(const char *dir, const char *file, char *name, size_t cap, int *sub) {
  size_t len = strlen(file);
  if (file[0] == '.' || len >= cap) return 0;
  if (len > 3 && strcmp(file + len - 3, ".mo") == 0) {
    if (strcmp(file, "package.mo") == 0) return 0;
    memcpy(name, file, len - 3);
    name[len - 3] = 0;
    *sub = 0;
    return 1;
  }
  char *path = join(dir, file, "");
  int yes = path && is_dir(path) && is_package_dir(path);
  free(path);
  if (yes) {
    memcpy(name, file, len + 1);
    *sub = 1;
  }
  return yes;
}

static int cmp_entry(const void *a, const void *b) {
  return strcmp(((const st_pkg_entry *)a)->name, ((const st_pkg_entry *)b)->name);
}

/* Moves the entries named in package.order to the front, in that order. Names in
 * package.order that are classes of package.mo itself (no file) are skipped. */
static void apply_order(const char *dir, entry_list *l) {
  char *path = join(dir, "package", ".order");
  char *text = path ? st_read_file(path, NULL) : NULL;
  free(path);
  if (!text) return;
  int placed = 0;
  for (char *line = strtok(text, "\r\n"); line; line = strtok(NULL, "\r\n")) {
    line += strspn(line, " \t");
    line[strcspn(line, " \t")] = 0;
    int i = find_entry(l, line);
    if (i < placed) continue; /* absent, or named twice */
    st_pkg_entry e = l->items[i];
    memmove(&l->items[placed + 1], &l->items[placed], (size_t)(i - placed) * sizeof e);
    l->items[placed++] = e;
  }
  free(text);
}

int st_pkg_entries(const char *dir, st_pkg_entry **out) {
  DIR *d = opendir(dir);
  if (!d) return -1;
  entry_list l = {0};
  struct dirent *de;
  char name[1024];
  int sub, rc = 0;
  while (rc == 0 && (de = readdir(d)) != NULL)
    if (class_of_entry(dir, de->d_name, name, sizeof name, &sub) && find_entry(&l, name) < 0)
      rc = push_entry(&l, dir, name, sub);
  closedir(d);
  if (rc) {
    st_pkg_entries_free(l.items, l.n);
    return -1;
  }
  if (l.n > 1) qsort(l.items, (size_t)l.n, sizeof *l.items, cmp_entry);
  apply_order(dir, &l);
  *out = l.items;
  return l.n;
}

void st_pkg_entries_free(st_pkg_entry *entries, int n) {
  for (int i = 0; i < n; i++) {
    free(entries[i].name);
    free(entries[i].path);
  }
  free(entries);
}

/* ------------------------------------------------------------ directory listings */

typedef struct dir_entry {
  char *name;
  unsigned char kind; /* DT_DIR, DT_REG, or DT_UNKNOWN: ask stat() */
} dir_entry;

struct st_dir_listing {
  char *dir;
  dir_entry *entries; /* sorted by name */
  int n;
  int readable;       /* 0: the directory could not be listed; stat() answers */
};

static void listing_free(st_dir_listing *l) {
  for (int i = 0; i < l->n; i++) free(l->entries[i].name);
  free(l->entries);
  free(l->dir);
}

void st_dircache_free(st_dircache *dc) {
  for (int i = 0; i < dc->n; i++) listing_free(&dc->dirs[i]);
  free(dc->dirs);
  dc->dirs = NULL;
  dc->n = dc->cap = 0;
}

static int cmp_dir_entry(const void *a, const void *b) {
  return strcmp(((const dir_entry *)a)->name, ((const dir_entry *)b)->name);
}

static unsigned char kind_of(const struct dirent *de) {
  if (de->d_type == DT_DIR || de->d_type == DT_REG) return de->d_type;
  return DT_UNKNOWN; /* symbolic links, file systems without d_type */
}

static int listing_push(st_dir_listing *l, int *cap, const struct dirent *de) {
  if (l->n == *cap) {
    int c = *cap ? 2 * *cap : 32;
    dir_entry *e = realloc(l->entries, (size_t)c * sizeof *e);
    if (!e) return -1;
    l->entries = e;
    *cap = c;
  }
  char *name = strdup(de->d_name);
  if (!name) return -1;
  l->entries[l->n++] = (dir_entry){name, kind_of(de)};
  return 0;
}

/* Reads DIR's entries, sorted by name. -1 when it cannot be read. */
static int listing_read(st_dir_listing *l) {
  DIR *d = opendir(l->dir);
  if (!d) return -1;
  int cap = 0, rc = 0;
  struct dirent *de;
  while (rc == 0 && (de = readdir(d)) != NULL)
    if (de->d_name[0] != '.') rc = listing_push(l, &cap, de);
  closedir(d);
  if (rc) return -1;
  if (l->n > 1) qsort(l->entries, (size_t)l->n, sizeof *l->entries, cmp_dir_entry);
  return 0;
}

/* The listing of DIR, read on first use; NULL when out of memory. */
static st_dir_listing *listing_of(st_dircache *dc, const char *dir) {
  for (int i = 0; i < dc->n; i++)
    if (strcmp(dc->dirs[i].dir, dir) == 0) return &dc->dirs[i];
  if (dc->n == dc->cap) {
    int cap = dc->cap ? 2 * dc->cap : 16;
    st_dir_listing *d = realloc(dc->dirs, (size_t)cap * sizeof *d);
    if (!d) return NULL;
    dc->dirs = d;
    dc->cap = cap;
  }
  st_dir_listing *l = &dc->dirs[dc->n];
  *l = (st_dir_listing){strdup(dir), NULL, 0, 0};
  if (!l->dir) return NULL;
  l->readable = listing_read(l) == 0;
  if (!l->readable) { /* keep nothing half-read */
    for (int i = 0; i < l->n; i++) free(l->entries[i].name);
    free(l->entries);
    l->entries = NULL;
    l->n = 0;
  }
  dc->n++;
  return l;
}

/* The kind of entry NAME of a listing, or -1 when there is none. */
static int listed(const st_dir_listing *l, const char *name) {
  dir_entry key = {(char *)name, 0};
  const dir_entry *e = l->n ? bsearch(&key, l->entries, (size_t)l->n, sizeof key, cmp_dir_entry)
                            : NULL;
  return e ? e->kind : -1;
}

/* DIR/package.mo exists: from DIR's own listing, which the lookups of the package's classes
 * read next anyway. */
static int listed_package(st_dircache *dc, const char *dir) {
  st_dir_listing *l = listing_of(dc, dir);
  if (!l || !l->readable) return is_package_dir(dir);
  int kind = listed(l, "package.mo");
  if (kind == DT_UNKNOWN) return is_package_dir(dir);
  return kind == DT_REG;
}

int st_dircache_entry_find(st_dircache *dc, const char *dir, const char *name, char **out,
                           int *sub) {
  st_dir_listing *l = listing_of(dc, dir);
  if (!l || !l->readable) return st_pkg_entry_find(dir, name, out, sub);
  if (!name[0] || name[0] == '.' || strchr(name, '/')) return -1;
  /* the same two candidates and order as st_pkg_entry_find; stat() confirms a listed one */
  int kind = listed(l, name);
  if (kind == DT_DIR || kind == DT_UNKNOWN) {
    char *path = join(dir, name, "");
    if (path && listed_package(dc, path)) {
      *sub = 1;
      *out = path;
      return 0;
    }
    free(path);
  }
  char file[1024];
  if (strlen(name) + 4 > sizeof file) return st_pkg_entry_find(dir, name, out, sub);
  snprintf(file, sizeof file, "%s.mo", name);
  kind = listed(l, file);
  if (kind < 0 || kind == DT_DIR) return -1;
  char *path = join(dir, name, ".mo");
  if (path && (kind == DT_REG || is_file(path))) {
    *sub = 0;
    *out = path;
    return 0;
  }
  free(path);
  return -1;
}

char *st_dircache_libpath_find(st_dircache *dc, const st_libpath *lp, const char *name,
                               int *dir) {
  char *path;
  for (int i = 0; i < lp->n; i++)
    if (st_dircache_entry_find(dc, lp->dirs[i], name, &path, dir) == 0) return path;
  return NULL;
}
