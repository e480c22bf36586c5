/* ZIP archives of stored (uncompressed) entries: what an FMU is. The writer builds the
 * archive in memory; the reader extracts stored entries (for the tests' importer). */
#ifndef ST_FMI_ZIP_H
#define ST_FMI_ZIP_H

#include <stddef.h>
#include <stdio.h>

typedef struct st_zip st_zip;

st_zip *st_zip_new(void);
void st_zip_free(st_zip *z);
/* Adds an entry (name with '/' separators; a trailing '/' makes a directory entry). 0, or
 * -1 when out of memory or the archive would pass the 4 GiB of ZIP without ZIP64. */
int st_zip_add(st_zip *z, const char *name, const void *data, size_t n);
/* Writes the archive (entries, central directory, end record) to f: 0, or -1. */
int st_zip_write(const st_zip *z, FILE *f);

/* Extracts every entry of the archive at path under dir (created entries' directories
 * included): 0, or -1 with a message in *err (malloc'd). Compressed entries, names with
 * "..", absolute names are refused. */
int st_zip_extract(const char *path, const char *dir, char **err);

#endif
