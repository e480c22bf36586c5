/* `stiction fmu`'s archive (export.h): modelDescription.xml, the FMU library and the flat
 * model saved (or the Modelica text the front end read), with the manifest that says how to
 * build the program again (fmu.h). */
#include "fmi/export.h"

#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include <stiction/stiction.h>

#include "fmi/fmu.h"
#include "compile/extlib.h"
#include "fmi/zip.h"
#include "front/flat_io.h"
#include "front/libpath.h"
#include "util/outfile.h"

const char *st_fmu_default_binary(void) {
  const char *env = getenv("STICTION_FMI2_LIBRARY");
  if (env && env[0]) return env;
#ifdef STICTION_BUILD_FMI2_LIBRARY
  struct stat st;
  if (stat(STICTION_BUILD_FMI2_LIBRARY, &st) == 0) return STICTION_BUILD_FMI2_LIBRARY;
#endif
#ifdef STICTION_FMI2_LIBRARY
  return STICTION_FMI2_LIBRARY;
#else
  return "stiction_fmi2.so";
#endif
}

/* The archive being built, with the manifest and the hash of what it lists. */
typedef struct builder {
  st_zip *zip;
  char *manifest;
  size_t len, cap;
  struct stored {
    char *name;  /* under resources/stiction/ */
    char *text;
    long len;
  } *files;
  int nfiles, capfiles;
} builder;

static int append(builder *b, const char *key, const char *value) {
  size_t need = strlen(key) + strlen(value) + 3;
  if (b->len + need > b->cap) {
    size_t cap = b->cap ? 2 * b->cap : 4096;
    while (cap < b->len + need) cap *= 2;
    char *m = realloc(b->manifest, cap);
    if (!m) return -1;
    b->manifest = m;
    b->cap = cap;
  }
  b->len += (size_t)sprintf(b->manifest + b->len, "%s %s\n", key, value);
  return 0;
}

static int stored(const builder *b, const char *name) {
  for (int i = 0; i < b->nfiles; i++)
    if (!strcmp(b->files[i].name, name)) return 1;
  return 0;
}

/* Room for one more stored file: the next entry, or NULL when out of memory. */
static struct stored *next_stored(builder *b) {
  if (b->nfiles == b->capfiles) {
    int cap = b->capfiles ? 2 * b->capfiles : 64;
    struct stored *f = realloc(b->files, sizeof *f * (size_t)cap);
    if (!f) return NULL;
    b->files = f;
    b->capfiles = cap;
  }
  return &b->files[b->nfiles];
}

/* Stores the file at path as resources/stiction/NAME (once). */
static int store(builder *b, const char *path, const char *name, char **err) {
  if (stored(b, name)) return 0;
  struct stored *f = next_stored(b);
  if (!f) return -1;
  f->text = st_read_file(path, &f->len);
  f->name = strdup(name);
  if (!f->text || !f->name) {
    *err = st_format("cannot read %s", path);
    free(f->text);
    free(f->name);
    return -1;
  }
  b->nfiles++;
  return append(b, "file", name);
}

/* External C code is built from its sources at their place on this machine
 * (compile/extlib.c): such a model goes as text, translated where the FMU runs. */
static int needs_text(const st_flat_model *flat) {
  for (int i = 0; i < flat->nfunctions; i++)
    if (st_extlib_wants(&flat->functions[i])) return 1;
  return 0;
}

/* A file beside a stored package.mo that the loader reads too: package.order. */
static int store_order(builder *b, const char *path, const char *name, char **err) {
  size_t n = strlen(path), k = strlen(name);
  if (n < 11 || strcmp(path + n - 11, "/package.mo") || k < 10) return 0;
  char *p = st_format("%.*s/package.order", (int)(n - 11), path);
  char *q = st_format("%.*s/package.order", (int)(k - 11), name);
  struct stat st;
  int rc = p && q ? 0 : -1;
  if (!rc && stat(p, &st) == 0 && S_ISREG(st.st_mode)) rc = store(b, p, q, err);
  free(p);
  free(q);
  return rc;
}

/* path under dir (both resolved): the rest after "dir/", else NULL. */
static const char *under(const char *path, const char *dir) {
  size_t n = strlen(dir);
  return !strncmp(path, dir, n) && path[n] == '/' ? path + n + 1 : NULL;
}

static char *resolved(const char *path) {
  char buf[PATH_MAX];
  return realpath(path, buf) ? strdup(buf) : NULL;
}

static const char *base_name(const char *path) {
  const char *s = strrchr(path, '/');
  return s && s[1] ? s + 1 : path;
}

/* Source file names as the FMU's flat model keeps them: relative to the library directory
 * (or the model's own file or directory) they came from, so that the FMU is the same
 * wherever it was exported and does not carry the exporting machine's paths. */
typedef struct file_names {
  char **dirs;       /* the library directories, resolved */
  int ndirs;
  const char *model; /* the model's file or directory, resolved, or NULL */
  struct file_name {
    const char *from;
    char *to;
  } *seen;
  int nseen;
} file_names;

static char *relative_name(const file_names *fn, const char *file) {
  char *src = resolved(file);
  if (!src && file[0] != '/') return strdup(file); /* <modifiers>, -p: not a file */
  if (!src) src = strdup(file); /* a directory that does not exist: its name as it is */
  if (!src) return NULL;
  const char *rel = NULL;
  char *to = NULL;
  if (fn->model && !strcmp(src, fn->model)) to = strdup(base_name(src));
  else if (fn->model && (rel = under(src, fn->model)))
    to = st_format("%s/%s", base_name(fn->model), rel);
  for (int k = 0; !to && k < fn->ndirs; k++)
    if (fn->dirs[k] && (rel = under(src, fn->dirs[k]))) to = strdup(rel);
  if (!to) to = strdup(base_name(src));
  free(src);
  return to;
}

static const char *map_file(void *ctx, const char *file) {
  file_names *fn = ctx;
  for (int i = 0; i < fn->nseen; i++) /* few files, the same pointer for each */
    if (fn->seen[i].from == file || !strcmp(fn->seen[i].from, file)) return fn->seen[i].to;
  struct file_name *seen = realloc(fn->seen, sizeof *seen * (size_t)(fn->nseen + 1));
  if (!seen) return NULL;
  fn->seen = seen;
  char *to = relative_name(fn, file);
  if (!to) return NULL;
  seen[fn->nseen++] = (struct file_name){file, to};
  return to;
}

/* The flat model saved as resources/stiction/model.stflat. */
static int store_flat(builder *b, const st_fmu_export *ex, const char *model) {
  struct stored *f = next_stored(b);
  file_names fn = {calloc((size_t)ex->n_library_dirs + 1, sizeof(char *)), ex->n_library_dirs,
                   model, NULL, 0};
  size_t n = 0;
  int rc = f && fn.dirs && (f->name = strdup(ST_FMU_FLAT_FILE)) ? 0 : -1;
  for (int i = 0; !rc && i < fn.ndirs; i++) fn.dirs[i] = resolved(ex->library_dirs[i]);
  if (!rc && st_flat_save_mapped(ex->flat, map_file, &fn, &f->text, &n)) {
    free(f->name);
    rc = -1;
  }
  for (int i = 0; fn.dirs && i < fn.ndirs; i++) free(fn.dirs[i]);
  free(fn.dirs);
  for (int i = 0; i < fn.nseen; i++) free(fn.seen[i].to);
  free(fn.seen);
  if (rc) return rc;
  f->len = (long)n;
  b->nfiles++;
  rc = append(b, "flat", ST_FMU_FLAT_FILE);
  return rc ? rc : append(b, "file", ST_FMU_FLAT_FILE);
}

/* The model's own file or directory: files/1/NAME, loaded first. */
static int store_model(builder *b, const st_fmu_export *ex, const char *real, const st_diag *diag,
                       char **err) {
  struct stat st;
  if (stat(real, &st) != 0) return -1;
  char *name = st_format("files/1/%s", base_name(real));
  int rc = name ? append(b, "load", name) : -1;
  if (!rc && !S_ISDIR(st.st_mode)) rc = store(b, real, name, err);
  for (int i = 0; !rc && S_ISDIR(st.st_mode) && i < st_diag_source_count(diag); i++) {
    char *src = resolved(st_diag_source_file(diag, i));
    const char *rel = src ? under(src, real) : NULL;
    char *to = rel ? st_format("%s/%s", name, rel) : NULL;
    if (to) rc = store(b, src, to, err);
    if (to && !rc) rc = store_order(b, src, to, err);
    free(to);
    free(src);
  }
  free(name);
  (void)ex;
  return rc;
}

/* Every library file the front end read, under library/ at its place in its library. */
static int store_library(builder *b, const st_fmu_export *ex, const char *model,
                         const st_diag *diag, char **err) {
  char **dirs = calloc((size_t)ex->n_library_dirs + 1, sizeof *dirs);
  if (!dirs) return -1;
  for (int i = 0; i < ex->n_library_dirs; i++) dirs[i] = resolved(ex->library_dirs[i]);
  int rc = 0;
  for (int i = 0; !rc && i < st_diag_source_count(diag); i++) {
    struct stat st;
    const char *file = st_diag_source_file(diag, i);
    if (stat(file, &st) != 0 || !S_ISREG(st.st_mode)) continue; /* <modifiers>, ... */
    char *src = resolved(file);
    if (!src) continue;
    const char *rel = NULL;
    if (!(model && (!strcmp(src, model) || under(src, model))))
      for (int k = 0; !rel && k < ex->n_library_dirs; k++) rel = dirs[k] ? under(src, dirs[k]) : NULL;
    if (rel) {
      char *to = st_format("library/%s", rel);
      rc = to ? store(b, src, to, err) : -1;
      if (!rc) rc = store_order(b, src, to, err);
      free(to);
    } else if (!(model && (!strcmp(src, model) || under(src, model)))) {
      *err = st_format("%s was read but is in no library directory: it cannot go into the FMU",
                       file);
      rc = -1;
    }
    free(src);
  }
  for (int i = 0; i < ex->n_library_dirs; i++) free(dirs[i]);
  free(dirs);
  return rc;
}

static char *identifier(const st_fmu_export *ex) {
  const char *id = ex->model_identifier;
  if (!id) {
    id = strrchr(ex->class_name, '.');
    id = id ? id + 1 : ex->class_name;
  }
  char *s = strdup(id);
  for (char *p = s; p && *p; p++)
    if (!isalnum((unsigned char)*p) && *p != '_') *p = '_';
  if (s && (!s[0] || isdigit((unsigned char)s[0]))) {
    char *t = st_format("_%s", s);
    free(s);
    s = t;
  }
  return s;
}

static char *describe_to_string(const st_program *prog, const char *guid, const char *id,
                                size_t *len, char **err) {
  char *xml = NULL;
  FILE *f = open_memstream(&xml, len);
  if (!f) return NULL;
  int rc = st_fmu_describe(prog, guid, id, f, err);
  if (fclose(f) || rc) {
    free(xml);
    return NULL;
  }
  return xml;
}

static int add_resources(builder *b, char **err) {
  int rc = st_zip_add(b->zip, "resources/stiction/manifest.txt", b->manifest, b->len);
  for (int i = 0; !rc && i < b->nfiles; i++) {
    char *name = st_format("resources/stiction/%s", b->files[i].name);
    rc = name ? st_zip_add(b->zip, name, b->files[i].text, (size_t)b->files[i].len) : -1;
    free(name);
  }
  if (rc && !*err) *err = st_format("out of memory for the archive");
  return rc;
}

static int add_binary(builder *b, const char *binary, const char *id, char **err) {
  long len = 0;
  char *so = st_read_file(binary, &len);
  if (!so) {
    *err = st_format("cannot read the FMU library %s (build it with make, or set "
                     "STICTION_FMI2_LIBRARY)", binary);
    return -1;
  }
  char *name = st_format("binaries/linux64/%s.so", id);
  int rc = name ? st_zip_add(b->zip, name, so, (size_t)len) : -1;
  free(name);
  free(so);
  if (rc) *err = st_format("out of memory for the archive");
  return rc;
}

static int write_archive(const builder *b, const char *path, char **err) {
  st_outfile o;
  if (st_outfile_open(&o, path, "wb")) {
    *err = st_format("%s: %s", path, strerror(errno));
    return -1;
  }
  if (st_zip_write(b->zip, o.file)) {
    int e = errno;
    st_outfile_abort(&o);
    *err = st_format("%s: %s", path, strerror(e ? e : EIO));
    return -1;
  }
  if (st_outfile_commit(&o)) {
    *err = st_format("%s: %s", path, strerror(errno));
    return -1;
  }
  return 0;
}

static void builder_free(builder *b) {
  for (int i = 0; i < b->nfiles; i++) {
    free(b->files[i].name);
    free(b->files[i].text);
  }
  free(b->files);
  free(b->manifest);
  st_zip_free(b->zip);
}

static int manifest(builder *b, const st_fmu_export *ex) {
  char head[64];
  snprintf(head, sizeof head, "%d %s", ST_FMU_FORMAT, stiction_version());
  int rc = append(b, "stiction-fmu", head);
  if (!rc) rc = append(b, "class", ex->class_name);
  for (int i = 0; !rc && i < ex->n_modifiers; i++) {
    if (strchr(ex->modifiers[i], '\n')) return -1;
    rc = append(b, "modifier", ex->modifiers[i]);
  }
  return rc;
}

int st_fmu_export_write(const st_fmu_export *ex, const st_diag *diag, const st_program *prog,
                        const char *path, char **err) {
  *err = NULL;
  builder b = {0};
  char *id = identifier(ex), *model = ex->model_file ? resolved(ex->model_file) : NULL;
  b.zip = st_zip_new();
  int rc = !id || !b.zip || (ex->model_file && !model) ? -1 : manifest(&b, ex);
  if (!rc && ex->flat && !needs_text(ex->flat)) {
    rc = store_flat(&b, ex, model);
  } else {
    if (!rc && model) rc = store_model(&b, ex, model, diag, err);
    if (!rc) rc = store_library(&b, ex, model, diag, err);
  }
  /* the GUID: the manifest, then every stored file in its order */
  st_hash h;
  st_hash_init(&h);
  st_hash_add(&h, b.manifest, b.len);
  for (int i = 0; !rc && i < b.nfiles; i++)
    st_hash_add(&h, b.files[i].text, (size_t)b.files[i].len);
  char guid[ST_FMU_GUID_LEN + 1];
  st_fmu_hash_guid(&h, guid);
  size_t xml_len = 0;
  char *xml = rc ? NULL : describe_to_string(prog, guid, id, &xml_len, err);
  if (!rc && !xml) rc = -1;
  if (!rc) rc = st_zip_add(b.zip, "modelDescription.xml", xml, xml_len);
  if (!rc) rc = add_binary(&b, ex->binary ? ex->binary : st_fmu_default_binary(), id, err);
  if (!rc) rc = add_resources(&b, err);
  if (!rc) rc = write_archive(&b, path, err);
  if (rc && !*err) *err = st_format("out of memory");
  free(xml);
  free(id);
  free(model);
  builder_free(&b);
  return rc;
}
