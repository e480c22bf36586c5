/* Two 64-bit FNV-1a sums with different bases over a sequence of byte strings (each one's
 * length included): the FMU's GUID (fmi/fmu.h) and the check sum of a saved flat model
 * (front/flat_io.h). Not cryptographic: it detects accidents, not forgeries. */
#ifndef ST_UTIL_HASH_H
#define ST_UTIL_HASH_H

#include <stddef.h>
#include <stdint.h>

typedef struct st_hash {
  uint64_t a, b;
} st_hash;
void st_hash_init(st_hash *h);
void st_hash_add(st_hash *h, const void *data, size_t n);

#endif
