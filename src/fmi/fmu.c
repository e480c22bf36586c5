/* The parts of stiction's FMUs that the export and the FMU's library share (fmu.h). */
#include "fmi/fmu.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "compile/model_impl.h"
#include "front/libpath.h"
#include "util/diag.h"

void st_fmu_hash_guid(const st_hash *h, char *out) {
  snprintf(out, ST_FMU_GUID_LEN + 1, "{%08x-%04x-%04x-%04x-%04x%08x}", (unsigned)(h->a >> 32),
           (unsigned)(h->a >> 16) & 0xffff, (unsigned)h->a & 0xffff,
           (unsigned)(h->b >> 48) & 0xffff, (unsigned)(h->b >> 32) & 0xffff, (unsigned)h->b);
}

static int push(const char ***list, int *n, const char *item) {
  const char **l = realloc(*list, (size_t)(*n + 1) * sizeof *l);
  if (!l) return -1;
  l[(*n)++] = item;
  *list = l;
  return 0;
}

static int manifest_line(st_fmu_manifest *m, char *line, int first, char **err) {
  char *arg = strchr(line, ' ');
  if (arg) *arg++ = 0;
  if (first) {
    if (strcmp(line, "stiction-fmu") != 0 || !arg || atoi(arg) < 1 || atoi(arg) > ST_FMU_FORMAT) {
      *err = st_format("not a stiction FMU manifest of format 1 to %d", ST_FMU_FORMAT);
      return -1;
    }
    return 0;
  }
  if (!arg) arg = line + strlen(line); /* an empty argument */
  int rc = 0;
  if (!strcmp(line, "class")) m->class_name = arg;
  else if (!strcmp(line, "flat")) m->flat = arg;
  else if (!strcmp(line, "modifier")) rc = push(&m->modifiers, &m->n_modifiers, arg);
  else if (!strcmp(line, "load")) rc = push(&m->loads, &m->n_loads, arg);
  else if (!strcmp(line, "file")) rc = push(&m->files, &m->n_files, arg);
  if (rc) *err = st_format("out of memory");
  return rc;
}

int st_fmu_manifest_read(st_fmu_manifest *m, const char *dir, char **err) {
  memset(m, 0, sizeof *m);
  char *path = st_format("%s/manifest.txt", dir);
  long len = 0;
  m->text = path ? st_read_file(path, &len) : NULL;
  if (!m->text) {
    *err = st_format("cannot read %s", path ? path : "the manifest");
    free(path);
    return -1;
  }
  free(path);
  int first = 1;
  for (char *line = m->text, *next; line && *line; line = next, first = 0) {
    next = strchr(line, '\n');
    if (next) *next++ = 0;
    if (manifest_line(m, line, first, err)) {
      st_fmu_manifest_free(m);
      return -1;
    }
  }
  if (!m->class_name) {
    *err = st_format("%s/manifest.txt names no class", dir);
    st_fmu_manifest_free(m);
    return -1;
  }
  return 0;
}

void st_fmu_manifest_free(st_fmu_manifest *m) {
  free(m->text);
  free(m->modifiers);
  free(m->loads);
  free(m->files);
  memset(m, 0, sizeof *m);
}

int st_fmu_guid_of(const st_fmu_manifest *m, const char *dir, char *guid, char **err) {
  st_hash h;
  st_hash_init(&h);
  char *path = st_format("%s/manifest.txt", dir);
  long len = 0;
  char *text = path ? st_read_file(path, &len) : NULL;
  free(path);
  if (!text) {
    *err = st_format("cannot read %s/manifest.txt", dir);
    return -1;
  }
  st_hash_add(&h, text, (size_t)len);
  free(text);
  for (int i = 0; i < m->n_files; i++) {
    path = st_format("%s/%s", dir, m->files[i]);
    text = path ? st_read_file(path, &len) : NULL;
    if (!text) {
      *err = st_format("cannot read %s", path ? path : m->files[i]);
      free(path);
      return -1;
    }
    free(path);
    st_hash_add(&h, text, (size_t)len);
    free(text);
  }
  st_fmu_hash_guid(&h, guid);
  return 0;
}

int st_fmu_slot_type(const st_instance *in, int slot) {
  int kind = st_instance_slot_kind(in, slot);
  if (kind == 'n') return 0;
  const st_flat_model *flat = st_instance_flat(in);
  if (slot >= flat->nvars) return 'r'; /* derivatives */
  switch (flat->vars[slot].type) {
  case ST_T_BOOLEAN: return 'b';
  case ST_T_INTEGER: case ST_T_ENUM: return 'i';
  case ST_T_REAL: return 'r';
  default: return 0;
  }
}
