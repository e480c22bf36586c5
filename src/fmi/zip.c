/* Stored ZIP archives (zip.h), from the layout of PKWARE's APPNOTE: local headers with the
 * data, then the central directory and its end record; all fields little-endian. */
#include "fmi/zip.h"

#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "front/libpath.h"
#include "util/diag.h"

typedef struct zip_entry {
  char *name;
  uint32_t crc, size, offset;
} zip_entry;

struct st_zip {
  unsigned char *data; /* the local headers and contents, in order */
  size_t len, cap;
  zip_entry *entries;
  int n, cap_entries;
};

static uint32_t crc32_of(const unsigned char *p, size_t n) {
  uint32_t c = 0xffffffffu;
  for (size_t i = 0; i < n; i++) {
    c ^= p[i];
    for (int k = 0; k < 8; k++) c = c & 1 ? (c >> 1) ^ 0xedb88320u : c >> 1;
  }
  return ~c;
}

st_zip *st_zip_new(void) { return calloc(1, sizeof(st_zip)); }

void st_zip_free(st_zip *z) {
  if (!z) return;
  for (int i = 0; i < z->n; i++) free(z->entries[i].name);
  free(z->entries);
  free(z->data);
  free(z);
}

static int grow(st_zip *z, size_t more) {
  if (z->len + more <= z->cap) return 0;
  size_t cap = z->cap ? z->cap : 1 << 16;
  while (cap < z->len + more) cap *= 2;
  unsigned char *d = realloc(z->data, cap);
  if (!d) return -1;
  z->data = d;
  z->cap = cap;
  return 0;
}

static void put16(unsigned char *p, unsigned v) {
  p[0] = v & 0xff;
  p[1] = (v >> 8) & 0xff;
}

static void put32(unsigned char *p, uint32_t v) {
  put16(p, v & 0xffff);
  put16(p + 2, v >> 16);
}

/* The fields local and central headers share from "version needed" on: version, flags,
 * method 0 (stored), time and date (1980-01-01 00:00: reproducible archives), crc, sizes,
 * name length. */
static void common_fields(unsigned char *p, const zip_entry *e, size_t name_len) {
  put16(p, 10);
  put16(p + 2, 0);
  put16(p + 4, 0);
  put16(p + 6, 0);
  put16(p + 8, (0 << 9) | (1 << 5) | 1);
  put32(p + 10, e->crc);
  put32(p + 14, e->size);
  put32(p + 18, e->size);
  put16(p + 22, (unsigned)name_len);
  put16(p + 24, 0); /* extra field length */
}

int st_zip_add(st_zip *z, const char *name, const void *data, size_t n) {
  size_t name_len = strlen(name);
  if (name_len > 0xffff || n > 0xffffffffu || z->len + 30 + name_len + n > 0xffffffffu ||
      z->n >= 0xffff)
    return -1;
  if (z->n == z->cap_entries) {
    int cap = z->cap_entries ? 2 * z->cap_entries : 64;
    zip_entry *e = realloc(z->entries, (size_t)cap * sizeof *e);
    if (!e) return -1;
    z->entries = e;
    z->cap_entries = cap;
  }
  if (grow(z, 30 + name_len + n)) return -1;
  zip_entry *e = &z->entries[z->n];
  e->name = strdup(name);
  if (!e->name) return -1;
  e->crc = crc32_of(data, n);
  e->size = (uint32_t)n;
  e->offset = (uint32_t)z->len;
  unsigned char *p = z->data + z->len;
  put32(p, 0x04034b50);
  common_fields(p + 4, e, name_len);
  memcpy(p + 30, name, name_len);
  if (n) memcpy(p + 30 + name_len, data, n);
  z->len += 30 + name_len + n;
  z->n++;
  return 0;
}

int st_zip_write(const st_zip *z, FILE *f) {
  if (z->len && fwrite(z->data, 1, z->len, f) != z->len) return -1;
  uint32_t dir_size = 0;
  for (int i = 0; i < z->n; i++) {
    const zip_entry *e = &z->entries[i];
    size_t name_len = strlen(e->name);
    unsigned char h[46];
    put32(h, 0x02014b50);
    put16(h + 4, (3 << 8) | 20); /* made by: Unix, 2.0 */
    common_fields(h + 6, e, name_len);
    put16(h + 32, 0); /* comment length */
    put16(h + 34, 0); /* disk */
    put16(h + 36, 0); /* internal attributes */
    int is_dir = name_len && e->name[name_len - 1] == '/';
    put32(h + 38, (uint32_t)(is_dir ? 040755 : 0100644) << 16);
    put32(h + 42, e->offset);
    if (fwrite(h, 1, sizeof h, f) != sizeof h || fwrite(e->name, 1, name_len, f) != name_len)
      return -1;
    dir_size += (uint32_t)(sizeof h + name_len);
  }
  unsigned char end[22];
  put32(end, 0x06054b50);
  put16(end + 4, 0);
  put16(end + 6, 0);
  put16(end + 8, (unsigned)z->n);
  put16(end + 10, (unsigned)z->n);
  put32(end + 12, dir_size);
  put32(end + 16, (uint32_t)z->len);
  put16(end + 20, 0);
  return fwrite(end, 1, sizeof end, f) == sizeof end ? 0 : -1;
}

/* ------------------------------------------------------------------ reading */

static unsigned get16(const unsigned char *p) { return p[0] | (unsigned)p[1] << 8; }
static uint32_t get32(const unsigned char *p) { return get16(p) | (uint32_t)get16(p + 2) << 16; }

static int make_dirs(char *path) { /* every directory of path's prefix */
  for (char *s = strchr(path + 1, '/'); s; s = strchr(s + 1, '/')) {
    *s = 0;
    int rc = mkdir(path, 0755);
    *s = '/';
    if (rc && errno != EEXIST) return -1;
  }
  return 0;
}

static int bad_name(const char *name, size_t n) {
  if (n == 0 || name[0] == '/' || memchr(name, 0, n) || memchr(name, '\\', n)) return 1;
  for (size_t i = 0; i + 1 < n; i++)
    if (name[i] == '.' && name[i + 1] == '.' && (i == 0 || name[i - 1] == '/') &&
        (i + 2 == n || name[i + 2] == '/'))
      return 1;
  return 0;
}

static int extract_entry(const unsigned char *z, long len, const unsigned char *c,
                         const char *dir, char **err) {
  unsigned method = get16(c + 10), name_len = get16(c + 28);
  uint32_t size = get32(c + 20), off = get32(c + 42);
  const char *name = (const char *)c + 46;
  if (bad_name(name, name_len)) {
    *err = st_format("entry name '%.*s' is not a relative path", (int)name_len, name);
    return -1;
  }
  if (method != 0) {
    *err = st_format("entry '%.*s' is compressed (only stored entries are read)",
                     (int)name_len, name);
    return -1;
  }
  if ((long)off + 30 > len) goto corrupt;
  unsigned lname = get16(z + off + 26), lextra = get16(z + off + 28);
  long data = (long)off + 30 + lname + lextra;
  if (data + (long)size > len) goto corrupt;
  char *path = st_format("%s/%.*s", dir, (int)name_len, name);
  if (!path || make_dirs(path)) {
    *err = st_format("cannot create the directories of %s", path ? path : name);
    free(path);
    return -1;
  }
  int rc = 0;
  if (name[name_len - 1] != '/') {
    FILE *f = fopen(path, "wb");
    rc = !f || fwrite(z + data, 1, size, f) != size;
    if (f && fclose(f)) rc = 1;
    if (rc) *err = st_format("cannot write %s: %s", path, strerror(errno));
  }
  free(path);
  return rc ? -1 : 0;
corrupt:
  *err = st_format("entry '%.*s' lies outside the archive", (int)name_len, name);
  return -1;
}

int st_zip_extract(const char *path, const char *dir, char **err) {
  long len = 0;
  unsigned char *z = (unsigned char *)st_read_file(path, &len);
  if (!z) {
    *err = st_format("cannot read %s", path);
    return -1;
  }
  long end = len - 22;
  while (end >= 0 && get32(z + end) != 0x06054b50) end--;
  int rc = -1;
  if (end < 0) {
    *err = st_format("%s: not a ZIP archive (no end record)", path);
  } else {
    unsigned n = get16(z + end + 10);
    long c = get32(z + end + 16);
    rc = 0;
    for (unsigned i = 0; i < n && !rc; i++) {
      if (c + 46 > len || get32(z + c) != 0x02014b50 ||
          c + 46 + get16(z + c + 28) + get16(z + c + 30) + get16(z + c + 32) > len) {
        *err = st_format("%s: central directory entry %u is damaged", path, i);
        rc = -1;
        break;
      }
      rc = extract_entry(z, len, z + c, dir, err);
      c += 46 + get16(z + c + 28) + get16(z + c + 30) + get16(z + c + 32);
    }
  }
  free(z);
  return rc;
}
